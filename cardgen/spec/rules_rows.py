"""Rules data's rows of piles: one ordered pile under each card of a deck laid out in a row, a move that picks
the pile a card goes into, a setup loop, and a zone shuffled back into another.

A zone with ``under: DECK`` (:class:`cardgen.spec.rules_data.Zone`) is a row of piles: the cards of that deck are
laid out in a row in the order the spec lists them (leftmost first) and each holds its own ordered pile. The
piles are read in expressions through ``piles(ROW, CONDITION)`` and a move's :class:`PileChoice`, where ``pile``
names the pile in question (``pile.FIELD``: the field of the card the pile lies under; ``count(ROW)``: the cards of
that pile). Kept apart from :mod:`cardgen.spec.rules_data` so the construct's models live together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from cardgen.limits import MAX_RULES_COUNT
from cardgen.spec.rules_base import RulesIdentifier, RulesModel

if TYPE_CHECKING:  # the effects a loop repeats are the rules data's own (resolved by model_rebuild there)
    from cardgen.spec.rules_data import Effect  # noqa: F401


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


class RepeatStep(RulesModel):
    """Setup effects done again and again until a condition holds (deal cards one by one until one finds no room)."""

    repeat: "RepeatSpec" = Field(description="The effects repeated and the condition that stops them.")


class RepeatSpec(RulesModel):
    """What is repeated, and until when."""

    until: str = Field(description="An expression over the table, read before every round: the loop stops as soon as it holds.")
    do: list["Effect"] = Field(min_length=1, description="The effects of one round, in order (moves, counters, variables).")
    limit: int = Field(
        default=MAX_RULES_COUNT,
        ge=1,
        le=MAX_RULES_COUNT,
        description="The most rounds played; the loop also stops after a round that changed nothing (it would go on for ever).",
    )


class ShuffleBackStep(RulesModel):
    """Put every card of one zone into another and shuffle that one (cards set aside shuffled back into the deck)."""

    shuffle_back: "ShuffleBackSpec" = Field(description="The zone emptied and the zone shuffled.")


class ShuffleBackSpec(RulesModel):
    """From which zone into which."""

    from_: RulesIdentifier = Field(alias="from", description="The shared zone whose cards go (in their order, beneath the others).")
    to: RulesIdentifier = Field(description="The shared ordered zone they join, then shuffled.")


ROW_EFFECT_KINDS = ("move", "add", "set")
"""The effects a setup loop may repeat: the ones that need no decision and no chance."""
