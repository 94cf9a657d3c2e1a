"""Rules data's rows of piles: one ordered pile under each card of a deck laid out in a row, a move that picks
the pile a card goes into, and a zone shuffled back into another (the setup loop, which repeats the rules data's
effects, is :class:`cardgen.spec.rules_data.RepeatStep`).

A zone with ``under: DECK`` (:class:`cardgen.spec.rules_data.Zone`) is a row of piles: the cards of that deck are
laid out in a row in the order the spec lists them (leftmost first) and each holds its own ordered pile. The
piles are read in expressions through ``piles(ROW, CONDITION)`` and a move's :class:`PileChoice`, where ``pile``
names the pile in question (``pile.FIELD``: the field of the card the pile lies under; ``count(ROW)``: the cards of
that pile). Kept apart from :mod:`cardgen.spec.rules_data` so the construct's models live together.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from cardgen.spec.rules_base import RulesIdentifier, RulesModel


class PileChoice(RulesModel):
    """Which pile of a row of piles each moved card goes into."""

    where: str | None = Field(
        default=None,
        description="An expression over `card` (the card being placed) and `pile` (a pile that may take it: `pile.FIELD` is the field of the "
        "card it lies under, `count(ROW)` its cards), e.g. `pile.level == card.level`; none: any pile.",
    )
    pick: Literal["fewest", "first"] = Field(
        default="fewest",
        description="Among the piles satisfying `where`: the one holding the fewest cards, the leftmost on a tie (fewest), or the leftmost (first). "
        "When no pile satisfies it, the card stays and the move stops.",
    )


class PileAim(RulesModel):
    """An option that chooses one pile of a row: one choice per pile satisfying ``where``; the id of the card the chosen pile
    lies under goes into a variable, which the option's effects (and the steps after it) read (`pile.id == site`)."""

    row: RulesIdentifier = Field(description="The row of piles (a zone with `under`) a pile is chosen from.")
    where: str | None = Field(
        default=None, description="An expression over `pile` (a pile that may be chosen) and the game's names, e.g. `count(stacks) > 1`; none: any pile."
    )
    var: RulesIdentifier = Field(description="The variable set to the id of the card the chosen pile lies under (declared without `values`).")


class ShuffleBackStep(RulesModel):
    """Put every card of one zone into another and shuffle that one (cards set aside shuffled back into the deck)."""

    shuffle_back: "ShuffleBackSpec" = Field(description="The zone emptied and the zone shuffled.")


class ShuffleBackSpec(RulesModel):
    """From which zone into which."""

    from_: RulesIdentifier = Field(alias="from", description="The shared zone whose cards go (in their order, beneath the others).")
    to: RulesIdentifier = Field(description="The shared ordered zone they join, then shuffled.")


ROW_EFFECT_KINDS = ("move", "add", "set")
"""The effects a setup loop may repeat: the ones that need no decision and no chance."""
