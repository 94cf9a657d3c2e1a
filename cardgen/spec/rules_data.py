"""Rules as data: a game's play described in its spec, for the generic interpreter to play.

A spec's ``rules`` key either names a registered rules module (Python, for named
mechanics) or holds a :class:`RulesData` mapping: the zones cards lie in, the
counters players keep, the setup steps, the steps of a turn with the options a
player chooses between, what each card's effect does, how the game ends and how
it is scored. :mod:`cardgen.engine.interpreter` plays it on the same Game/State
API as the hand-written engines, so ``cardgen check`` needs no Python.

Conditions and amounts are small expressions (``card.rank == top(discard).rank or
card.rank == 8``), checked when the spec is validated: every name in them is a
zone, counter, variable, card field, number or setup entry of the spec, so a typo
is a finding with its file and line, never an error in a playout. The expression
language is described in :mod:`cardgen.engine.interpreter.expressions` and in
docs/rules-data.md.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from cardgen.limits import MAX_RULES_COUNT
from cardgen.spec.local_text import GENDER_DESCRIPTION, Gender, LocalText
from cardgen.spec.rules_base import RulesIdentifier, RulesModel
from cardgen.spec.rules_mechanics import MechanicAction, MechanicCondition, MechanicEffect, MechanicScore, MechanicStep
from cardgen.spec.rules_rows import PileAim, PileChoice, ShuffleBackStep

Expr = Annotated[
    Union[int, str],
    Field(description="A whole number, or an expression over the game's names (see docs/rules-data.md), e.g. `numbers.hand_size` or `count(hand) == 0`."),
]


class Zone(RulesModel):
    """A place cards lie: a pile, a hand, a row, a seat's area."""

    per_seat: bool = Field(default=False, description="Whether every seat has its own (a hand, a pile of won cards) or the table has one.")
    visibility: Literal["public", "owner", "hidden", "top"] = Field(
        default="public",
        description="Who sees the cards: public (everyone), owner (the seat it belongs to), hidden (nobody), top (only the top card, as a discard pile).",
    )
    ordered: bool = Field(default=True, description="Whether order matters (a pile has a top; a hand or an area does not).")
    name: LocalText | None = Field(default=None, description="The zone's name in every locale, for the generated rulebook text (defaults to the id).")
    gender: dict[str, Gender] = Field(default_factory=dict, description=GENDER_DESCRIPTION)
    under: str | None = Field(
        default=None,
        description="A deck id: the zone is a row of piles, one ordered pile under each card of that deck, the cards laid out in a row in "
        "the order the spec lists them (leftmost first). Read with `piles(ZONE, CONDITION)` and filled by a move with a `pile`.",
    )


class Counter(RulesModel):
    """A whole number the game keeps: chips in front of each seat, a pot in the middle, a per-turn tally."""

    per_seat: bool = Field(default=True, description="Whether every seat has its own.")
    per_pile: RulesIdentifier | None = Field(
        default=None,
        description="A row of piles (a zone with `under`): the counter is kept once for each of its piles (a marker on a site), read as the pile in "
        "question's inside a pile condition; set `per_seat: false`.",
    )
    start: Expr = Field(default=0, description="The value at setup.")
    reset: Literal["never", "turn"] = Field(default="never", description="`turn`: back to `start` at the start of every turn (a count of draws this turn).")
    min: int = Field(
        default=0, ge=-MAX_RULES_COUNT, le=MAX_RULES_COUNT, description="The smallest value the counter may hold; an effect taking it lower is not allowed."
    )
    max: int = Field(default=1000, ge=-MAX_RULES_COUNT, le=MAX_RULES_COUNT, description="The largest value the counter may hold (bounds the scores).")
    name: LocalText | None = Field(
        default=None, description="What the counter counts, as a plural noun in every locale ('draws', 'chips'), for the generated rulebook text (defaults to the id)."
    )
    gender: dict[str, Gender] = Field(default_factory=dict, description=GENDER_DESCRIPTION)


class Variable(RulesModel):
    """A shared value of the game that effects set and conditions read (the suit called by an eight)."""

    values: str | None = Field(
        default=None,
        description="A card field whose values the variable takes (e.g. `suit`); none for a number a `roll` or `set` gives it (a dice total). A `choose` needs it.",
    )
    name: LocalText | None = Field(
        default=None, description="The variable's name in every locale ('suit to follow'), for the generated rulebook text (defaults to the id)."
    )
    gender: dict[str, Gender] = Field(default_factory=dict, description=GENDER_DESCRIPTION)
    flag: "FlagPhrases | None" = Field(
        default=None,
        description="For a variable that only ever holds 1 or 0 (a roll's `doubles`, a signal a setup loop stops on): what each "
        "value means, as a clause in every locale. The generated rulebook says these clauses where it would say 'is 1' or 'is 0' "
        "(`full == 1` reads 'the setup is over'), and the validator refuses any value but 1 and 0 for it (CG175).",
    )


class FlagPhrases(RulesModel):
    """What a yes-or-no variable's two values mean, each as a clause that reads as a whole sentence."""

    raised: LocalText = Field(description="The clause true when the variable is 1 ('the roll is a double').")
    lowered: LocalText = Field(description="The clause true when it is 0 ('the roll is not a double').")


# --- effects ----------------------------------------------------------------------------------------

Who = Literal["me", "next", "previous", "each", "others", "target", "active"]
OneSeat = Literal["me", "next", "previous", "target", "active"]
"""One seat, named as for :data:`Who` (a seat cards go to, or whose zone a swap exchanges with)."""
"""Whose per-seat zones or counters: ``me`` is the seat deciding, ``target`` the seat an option of this turn chose
(see :class:`TargetChoice`), ``active`` the seat whose turn it is (another seat than ``me`` only in a reaction, see
:class:`Step`)."""


class MoveEffect(RulesModel):
    """Move cards from the top of one zone to another."""

    move: "MoveSpec" = Field(description="from, to, count and whose zones.")


class MoveSpec(RulesModel):
    """The cards a move takes."""

    from_: RulesIdentifier = Field(alias="from", description="The zone the cards leave (its top, for an ordered zone).")
    to: RulesIdentifier = Field(description="The zone they go to (on top).")
    count: Expr | Literal["all"] = Field(default=1, description="How many cards; `all` moves the whole zone. Fewer move when fewer are there.")
    who: Who = Field(
        default="me",
        description="Whose per-seat zones: me (the seat deciding), next, previous, each, others, target (the seat an option of this turn chose), active (the seat whose turn it is).",
    )
    to_who: OneSeat | None = Field(
        default=None,
        description="Whose per-seat `to` zone, when the cards go to another seat than the one they leave (give: `who: me, to_who: target`; "
        "every other player passes you their top card: `who: others, to_who: me`; `next`/`previous` after `who: each` or `others`: the seat "
        "after/before each giving seat, so `who: each, to_who: next` passes every player's cards on, all at once; after one seat: the seat "
        "after/before the one deciding); none: the same seat's.",
    )
    where: str | None = Field(
        default=None,
        description="Only cards satisfying this expression over `card` (the card that may move) move: the first `count` of them from the top down; "
        "the others stay where they are (take the first two pottery cards of the deck, passing the others).",
    )
    pile: PileChoice | None = Field(
        default=None,
        description="For a move into a row of piles (a zone with `under`): which pile each card goes into, chosen card by card.",
    )
    place: Literal["top", "bottom"] = Field(default="top", description="Where the cards go in an ordered `to` zone: on top, or beneath its cards (bottom).")


class AddEffect(RulesModel):
    """Change a counter."""

    add: "AddSpec" = Field(description="The counter, the amount and whose.")


class AddSpec(RulesModel):
    """Which counter and by how much."""

    counter: RulesIdentifier
    amount: Expr = Field(description="The change (negative to take away).")
    who: Who = Field(default="me", description="Whose counter, for a per-seat counter.")
    pile: PileChoice | None = Field(
        default=None,
        description="For a counter kept per pile (`per_pile`): the pile whose counter changes (the `pick` among those satisfying `where`); none: every pile's.",
    )


class TransferEffect(RulesModel):
    """Move a whole counter's value into another (a pot to the taker's chips) and set the source to zero."""

    transfer: "TransferSpec" = Field(description="The counter emptied and the counter that receives it.")


class TransferSpec(RulesModel):
    """From which counter to which."""

    from_: RulesIdentifier = Field(alias="from")
    to: RulesIdentifier
    who: Who = Field(default="me", description="Whose counters, for per-seat counters.")


class SetEffect(RulesModel):
    """Set a variable to a value."""

    set: "SetSpec" = Field(description="The variable and its new value.")


class SetSpec(RulesModel):
    """Which variable and its new value."""

    var: RulesIdentifier
    value: Expr = Field(description="An expression giving one of the variable's values, e.g. `card.suit`.")


class ChooseEffect(RulesModel):
    """The seat to move chooses a value of a variable (an eight's suit): a decision of its own."""

    choose: RulesIdentifier = Field(description="The variable the seat sets.")


class SkipEffect(RulesModel):
    """The next seat(s) in turn order miss their turn."""

    skip: int = Field(ge=1, le=8, description="How many seats are skipped.")


class RollEffect(RulesModel):
    """Roll dice of the spec: a chance step whose outcomes are the totals, each with its exact probability; the total is stored in a variable."""

    roll: "RollSpec" = Field(description="The dice rolled and the variable the total goes into.")


class RollSpec(RulesModel):
    """Which dice and where the total goes."""

    dice: str = Field(description="The id of an entry of the spec's `dice` list (its count of dice with its sides, rolled together).")
    var: RulesIdentifier = Field(description="The variable (declared without `values`) set to the total rolled; later conditions read it.")
    doubles: RulesIdentifier | None = Field(
        default=None,
        description="A variable (declared without `values`) set to 1 when every die shows the same face (doubles), else 0; "
        "the outcomes are then each total with and without doubles, each with its exact probability.",
    )


class StealEffect(RulesModel):
    """Take a card at random from a seat's zone: a chance step over the cards there (each design weighted by its copies)."""

    steal: "StealSpec" = Field(description="The zone taken from, whose it is, and the zone of the seat to move the card goes to.")


class StealSpec(RulesModel):
    """From whose zone a random card goes to which zone of the seat to move."""

    from_: RulesIdentifier = Field(alias="from", description="The per-seat zone the card is taken from (the `who` seat's).")
    to: RulesIdentifier = Field(description="The zone the card goes to: the seat to move's own, for a per-seat zone.")
    who: Literal["target", "next", "previous", "active"] = Field(
        default="target",
        description="Whose zone the card comes from: the seat an option of this turn chose (target), next, previous, or the seat whose turn it is (active, in a reaction). Nothing happens when it is empty.",
    )


class ArrangeEffect(RulesModel):
    """The seat deciding puts the top cards of an ordered zone back in any order it likes, choosing card by card from the top
    down which comes next (each order is one series of choices; a choice offers each kind of card left once)."""

    arrange: "ArrangeSpec" = Field(description="The zone and how many of its top cards are arranged.")


class ArrangeSpec(RulesModel):
    """Which cards are arranged."""

    zone: RulesIdentifier = Field(description="An ordered zone (the seat deciding's own, for a per-seat zone).")
    count: Expr | Literal["all"] = Field(default="all", description="How many of its top cards are arranged (`all`: the whole zone); fewer when fewer are there.")
    pile: PileChoice | None = Field(default=None, description="For a row of piles: the pile arranged (the `pick` among those satisfying `where`, e.g. `pile.id == site`).")


class SwapEffect(RulesModel):
    """The whole contents of the seat deciding's zone and another seat's zone change places (swap hands)."""

    swap: "SwapSpec" = Field(description="The zone, the seat exchanged with and its zone.")


class SwapSpec(RulesModel):
    """Which zones a swap exchanges."""

    zone: RulesIdentifier = Field(description="The seat deciding's own per-seat zone.")
    with_: Literal["next", "previous", "target", "active"] = Field(alias="with", description="The other seat.")
    other: RulesIdentifier | None = Field(default=None, description="The other seat's per-seat zone (none: the same zone).")


SimpleEffect = Literal["reverse", "extra_turn"]
"""Effects with no parameters: ``reverse`` (the turn order changes direction), ``extra_turn`` (the seat to move plays again)."""

Effect = Union[SimpleEffect, MoveEffect, AddEffect, TransferEffect, SetEffect, ChooseEffect, SkipEffect, RollEffect, StealEffect, ArrangeEffect, SwapEffect, MechanicEffect]

# --- turn -------------------------------------------------------------------------------------------


class CardChoice(RulesModel):
    """An option that picks one card: play it from a hand, take it from a row."""

    from_: RulesIdentifier = Field(alias="from", description="The zone the card is chosen from (the seat's own, for a per-seat zone).")
    to: RulesIdentifier = Field(description="Where the card goes (the seat's own, for a per-seat zone).")
    where: str | None = Field(default=None, description="An expression every card that may be chosen satisfies, over `card` and the game's names.")
    effects: bool = Field(default=True, description="Whether the card's own effect (under `effects`) happens when it is chosen.")
    whose: Literal["me", "target"] = Field(
        default="me",
        description="Whose per-seat `from` zone the card is chosen from: the seat deciding's (me), or the seat the option aims at "
        "(target: the option needs a `target`; take a card of your choice from another player).",
    )
    to_whose: Literal["me", "target"] = Field(
        default="me",
        description="Whose per-seat `to` zone the card goes to: the seat deciding's (me), or the seat the option aims at "
        "(target: give a card of your choice to another player).",
    )


class TargetChoice(RulesModel):
    """An option aimed at another seat: one choice per seat that satisfies ``where``."""

    where: str = Field(
        description="An expression over `target` (the seat that may be chosen) and the game's names, e.g. `target != seat and count(hand, target) > 0`."
    )


class Option(RulesModel):
    """One thing the seat to move may do at a step."""

    id: RulesIdentifier
    name: LocalText | None = Field(default=None, description="The option's name in every locale, for the generated turn summary.")
    card: CardChoice | None = Field(default=None, description="When set, the option is one choice per card that may be chosen.")
    target: TargetChoice | None = Field(
        default=None,
        description="When set, the option is one choice per seat satisfying its `where` (times the card choice, if any); its effects may say `who: target` and read `target`.",
    )
    mechanic: MechanicAction | None = Field(
        default=None,
        description="When set, the option is one choice per action the named mechanic offers in the position (see docs/rules-data.md, Named mechanics).",
    )
    pile: PileAim | None = Field(
        default=None,
        description="When set, the option is one choice per pile of a row satisfying its `where`; the id of the card the chosen pile lies under goes into its `var`.",
    )
    when: str | None = Field(default=None, description="An expression that must hold for the option to be offered.")
    otherwise: bool = Field(default=False, description="Offered only when none of the step's other options is (a pass when stuck).")
    do: list[Effect] = Field(default_factory=list, description="What happens, in order, after the card (if any) is moved.")
    then: str = Field(
        default="end",
        description="`end` ends the turn, `again` repeats this step, `next` hands a `by: others` step to the following seat, or the id of the step that comes next.",
    )
    passes: bool | str = Field(
        default=False,
        description=(
            "Whether taking this option counts as passing (for `end.all_pass`): true; false (it breaks a run of passes); "
            "an expression read when it is taken (`count(pile) == 0`: a pass counts only once the pile is empty); or `keep`: "
            "it neither passes nor breaks the run (a discard down to a hand limit after passing)."
        ),
    )


class Step(RulesModel):
    """A decision in a turn: the seat deciding picks one of the options offered.

    Most steps are decided by the seat whose turn it is. A reaction is a step decided by another seat: the seat
    an option of this turn aimed at (``by: target``: answer an attack), or each other seat in turn order
    (``by: others``: a window in which anyone holding the right card may act).
    """

    id: RulesIdentifier
    name: LocalText | None = Field(default=None, description="The step's name in every locale, for the generated turn summary (defaults to its number).")
    options: list[Option] = Field(min_length=1, description="What the seat may do here, in the order the rulebook lists them.")
    when: str | None = Field(
        default=None,
        description="An expression that must hold for the step to be taken; when it does not, the turn goes on to the next step in the list (the turn ends after the last), with no decision (a hand limit: `count(hand) > numbers.hand_limit`).",
    )
    by: Literal["turn", "target", "others"] = Field(
        default="turn",
        description=(
            "Who decides: `turn` (the seat whose turn it is), `target` (the seat an option of this turn aimed at), or `others` "
            "(each other seat in turn order from the next, one at a time, skipping a seat offered nothing; an option with "
            "`then: next` hands the step on, and after the last seat the turn goes to `after`). In a reaction, `seat` and the "
            "seat's own zones and counters are the deciding seat's; `active` is the seat whose turn it is."
        ),
    )
    after: str | None = Field(default=None, description="For `by: others`: where the turn goes when no seat is left to decide (a step id or `end`).")
    auto: bool = Field(
        default=False,
        description="When the step offers exactly one action, it is carried out at once, with no decision (a forced resolution).",
    )


# --- end and scoring --------------------------------------------------------------------------------


class End(RulesModel):
    """When the game ends: it ends as soon as any of these holds."""

    any_seat: str | None = Field(default=None, description="An expression checked for every seat after each action (e.g. `count(hand) == 0`).")
    table: str | None = Field(default=None, description="An expression over the table checked after each action (e.g. `count(offer) == 0`).")
    all_pass: bool = Field(default=False, description="Whether the game ends when every seat in turn has passed.")
    all_seats: str | None = Field(default=None, description="An expression that ends the game when it holds for every seat (e.g. `count(hand) == 0 and count(pile) == 0`).")
    turn_limit: Expr | None = Field(default=None, description="The game ends after this many turns (a designer's cap; every playout reaching it is reported).")
    stuck: bool = Field(
        default=False,
        description="Whether the game ends, as a normal end, when the seat to decide has nothing it may do (a blocking game); "
        "without it such a position is a dead end, which `cardgen check` reports (CG503).",
    )
    mechanic: MechanicCondition | None = Field(
        default=None, description="A named mechanic's condition, checked after each action: the game ends when it holds (see docs/rules-data.md, Named mechanics)."
    )
    at: Literal["action", "turn"] = Field(
        default="action",
        description="When the end is looked at: after every action (action), or only as a turn ends, once its last step is done (turn).",
    )
    final: "FinalRound | None" = Field(
        default=None,
        description="A final round: when its condition holds at the end of a turn, every seat still plays its final turns, then the game ends.",
    )


class FinalRound(RulesModel):
    """The end of the game announced by a condition at the end of a turn (the deck has run out) and played out in turn order."""

    when: str = Field(description="An expression over the table checked at the end of every turn, e.g. `count(deck) == 0`.")
    turns: Expr = Field(
        default=1,
        description="Turns every seat still plays once it holds, the seat that ended the turn included, in turn order from the next "
        "(worked out before play; 0: the game ends at once).",
    )


class SumScore(RulesModel):
    """Points from the cards in a zone: the sum of a field over them."""

    sum: "SumSpec" = Field(description="The zone and the field summed.")


class SumSpec(RulesModel):
    """Which zone and field."""

    zone: RulesIdentifier
    field: str = Field(description="The int card field summed.")
    sign: Literal[1, -1] = Field(default=1, description="-1 for penalties.")
    runs: Literal["all", "lowest"] = Field(default="all", description="`lowest`: in a run of consecutive values only the lowest counts.")


class CounterScore(RulesModel):
    """Points from a counter (chips kept)."""

    counter: RulesIdentifier
    sign: Literal[1, -1] = Field(default=1, description="-1 for a counter that costs points.")


class AllOrNothingScore(RulesModel):
    """Points from the cards in a zone, as ``sum``, except when one seat took them all: then that seat scores
    nothing and every other seat scores that seat's total instead (a clean sweep turned against the others)."""

    all_or_nothing: SumSpec = Field(description="The zone and the field summed, as in `sum`.")


class SetsScore(RulesModel):
    """Points from sets collected in a seat's zone: the cards are grouped by a field naming their set; a set
    holding as many cards as its size scores its points once, an incomplete one a point for every ``per``
    cards. Wild cards (in another zone) may complete started sets, each placed where it scores the most."""

    sets: "SetsSpec" = Field(description="The zone, the fields naming each card's set, its size and its points, and the wild cards.")


class SetsSpec(RulesModel):
    """How sets are counted in a seat's zone."""

    zone: RulesIdentifier = Field(description="The per-seat zone the sets are counted in (a collection).")
    set: str = Field(description="The card field naming the set a card belongs to; cards without it are not counted.")
    size: str = Field(description="The whole-number card field giving how many cards complete the set.")
    points: str = Field(description="The whole-number card field giving what a complete set scores, once for the whole set.")
    per: Expr | None = Field(
        default=None,
        description="An incomplete set scores one point for every this many cards (rounded down), worked out before play; none: an incomplete set scores nothing.",
    )
    wild: "WildCards | None" = Field(default=None, description="Cards that complete sets a seat has started, placed at scoring where they score the most.")
    ties: list["SetsTie"] = Field(
        default_factory=list,
        description="Tiebreakers after the score, in order: `cards` (cards in complete sets), `sets` (complete sets), or `{by: FIELD}` "
        "(complete sets counted for each value of a whole-number field, highest value first).",
    )


class WildCards(RulesModel):
    """Cards in a seat's zone that each complete a set it has started (at least one card of it)."""

    zone: RulesIdentifier = Field(description="The per-seat zone the wild cards are in (a hand).")
    where: str = Field(description="An expression over `card` that the wild cards of that zone satisfy, e.g. `card.effect == 'complete'`.")
    fills: Expr = Field(
        default="set",
        description="How many missing cards one wild card stands for: `set` (every card a started set lacks), `piece` (one), a whole "
        "number, or an expression worked out before play giving one of those (`options.NAME`, a rule option whose choices are `set` and `piece`).",
    )


class TieByField(RulesModel):
    """A tiebreaker: complete sets counted for each value of a card field, the highest value compared first."""

    by: str = Field(description="The whole-number card field (of the sets' cards) whose values are compared, highest first.")


SetsTie = Union[Literal["cards", "sets"], TieByField]


class OneOfEachScore(RulesModel):
    """Points for complete sets: one card of every design whose field has a value (one of each construction)
    makes a set, so a seat's sets are the copies of its scarcest such design in the zone."""

    one_of_each: "OneOfEachSpec" = Field(description="The zone, which designs make a set, and what a set is worth.")


class OneOfEachSpec(RulesModel):
    """Which designs make a complete set and what sets score."""

    zone: RulesIdentifier = Field(description="The zone the sets are counted in (the seat's own, for a per-seat zone).")
    field: str = Field(description="The card field (or `type`, `effect`) that picks the designs of a set.")
    value: str = Field(description="The field's value those designs have: one card of each of them is a set.")
    points: Expr = Field(description="Points for each complete set.")
    bonus: Expr = Field(default=0, description="Points added once when the seat has at least `bonus_at` sets.")
    bonus_at: Expr = Field(default=2, description="Complete sets needed for the bonus.")
    multiplied: Expr = Field(
        default=0,
        description="How many of the seat's sets score `times` their points (an expression over the seat: a counter of sets doubled). It may exceed the sets standing: a set multiplied and broken later keeps its points.",
    )
    times: Expr = Field(default=1, description="What a multiplied set's points are multiplied by.")


class MajorityScore(RulesModel):
    """Points for having the most: the seats are ranked by the cards in their own zone (or by a field summed over
    them), once, or once for every value of a card field (the most cards of each colour), and the best places
    score. A seat with none never places."""

    majority: "MajoritySpec" = Field(description="The zone compared, what is counted, the contests and the points of each place.")


class MajoritySpec(RulesModel):
    """What a majority compares and what its places score."""

    zone: RulesIdentifier = Field(description="The per-seat zone compared (each seat's own).")
    by: str | None = Field(
        default=None,
        description="A card field (or `type`, `effect`): one contest for every value of it among the cards in play, counting only the cards "
        "with that value (the most cards of each colour); none: one contest over the whole zone.",
    )
    count: str | None = Field(
        default=None, description="A whole-number card field summed over the cards compared (the most points of gold); none: the cards are counted."
    )
    points: list[Expr] = Field(
        min_length=1,
        max_length=8,
        description="What the first place scores, then the second, and so on (each worked out before play; a place past the list scores nothing).",
    )
    ties: Literal["share", "full", "none"] = Field(
        default="share",
        description="Seats tied for a place: `share` the points of the places they fill, rounded down; `full`: each scores the best of "
        "them, and the places they fill are used up; `none`: none of them scores, and the places they fill are lost.",
    )


Scoring = Union[SumScore, CounterScore, AllOrNothingScore, SetsScore, OneOfEachScore, MajorityScore, MechanicScore]


class RuleOption(RulesModel):
    """A rule option of a data game: a reading of the source or a variant, chosen in the spec's `options`."""

    choices: list[RulesIdentifier] = Field(min_length=2, max_length=16, description="The choices, each a name (at least two).")
    default: RulesIdentifier = Field(description="The choice taken when the spec's `options` leaves the option out.")
    name: LocalText | None = Field(default=None, description="The option's name in every locale, for the generated rulebook text.")
    meaning: LocalText | None = Field(default=None, description="What the option decides, in every locale.")


class Rounds(RulesModel):
    """Play in rounds: each round every seat takes one turn, in turn order from the round's first player."""

    first: Literal["next", "same"] = Field(
        default="next",
        description="Who begins the next round: `next`, the seat after this round's first player (the first player moves on one "
        "seat each round); `same`, this round's first player again (then rounds are only a count).",
    )


class RulesData(RulesModel):
    """A game's play as data, for the generic interpreter."""

    mechanics: list[RulesIdentifier] = Field(
        default_factory=list,
        max_length=8,
        description="The named mechanics (Python registered by a game package) the rules use where the vocabulary has no word; see docs/rules-data.md.",
    )
    options: dict[RulesIdentifier, RuleOption] = Field(
        default_factory=dict,
        description="Rule options, by name: the spec's top-level `options` picks a choice of each; expressions read it as `options.NAME` (a text).",
    )
    zones: dict[RulesIdentifier, Zone] = Field(min_length=1, description="The places cards lie, by name.")
    counters: dict[RulesIdentifier, Counter] = Field(default_factory=dict, description="Whole numbers the game keeps, by name.")
    variables: dict[RulesIdentifier, Variable] = Field(default_factory=dict, description="Shared values effects set and conditions read.")
    setup: list["SetupStep"] = Field(min_length=1, description="What is done before the first turn, in order.")
    first_player: Literal["first", "random"] | "FirstSeatWhere" = Field(
        default="first",
        description="Who takes the first turn: the first seat, a seat drawn at random, or `{where: EXPRESSION}`: the first seat in seat order for which it holds.",
    )
    rounds: "Rounds | None" = Field(
        default=None,
        description="Play in rounds: every seat takes one turn a round, in turn order from the round's first player; expressions read `round` and `round_turn`.",
    )
    turn: list[Step] = Field(min_length=1, description="The decisions of a turn; a turn starts at the first.")
    effects: dict[RulesIdentifier, list[Effect]] = Field(default_factory=dict, description="What each card effect id does when its card is chosen.")
    end: End = Field(description="When the game ends.")
    scoring: list[Scoring] = Field(
        min_length=1,
        description="How the scores are counted; the highest total wins (a game won by the fewest points scores them with `sign: -1`).",
    )
    tiebreaks: list[Expr] = Field(
        default_factory=list,
        description="Between seats with equal scores, in order: expressions over the seat (`sets(area, type, 'construction')`), the higher value placing first; seats equal on all of them share their place.",
    )
    tricks: "Tricks | None" = Field(
        default=None,
        description="Trick taking: a card choice whose `to` is the trick zone plays to a trick, which the highest card wins (see docs/rules-data-tricks.md).",
    )


class ShuffleStep(RulesModel):
    """Put every card of a deck (copies counted) into a zone and shuffle it."""

    shuffle: "ShuffleSpec" = Field(description="The deck and the zone it is shuffled into.")


class ShuffleSpec(RulesModel):
    """Which deck into which zone."""

    deck: str = Field(description="The deck id.")
    to: RulesIdentifier


class DealStep(RulesModel):
    """Deal cards from a zone to every seat's zone."""

    deal: "DealSpec" = Field(description="From where, to where, how many each.")


class DealSpec(RulesModel):
    """From where, to where, how many each."""

    from_: RulesIdentifier = Field(alias="from")
    to: RulesIdentifier
    count: Expr = Field(description="Cards each seat gets, e.g. `setup.deal.cards` (the setup table's deal for the player count).")


class MoveStep(RulesModel):
    """Move cards from the top of one zone to another at setup (turn up a starting card, set cards aside)."""

    move: MoveSpec = Field(description="from, to and how many.")


class SetStep(RulesModel):
    """Set a variable at setup."""

    set: SetSpec = Field(description="The variable and its value.")


class SetAsideStep(RulesModel):
    """Move every card of a zone that satisfies an expression to another zone at setup (cards left out at some player counts)."""

    set_aside: "SetAsideSpec" = Field(description="From where, to where, and which cards.")


class SetAsideSpec(RulesModel):
    """Which cards are set aside."""

    from_: RulesIdentifier = Field(alias="from", description="The zone the cards leave (a shared zone).")
    to: RulesIdentifier = Field(description="The zone they go to (a shared zone).")
    where: str = Field(description="An expression over `card` and the game's names (`players` included) that every card set aside satisfies.")


class FirstSeatWhere(RulesModel):
    """The first player chosen by an expression: the first seat, in seat order, for which it holds."""

    where: str = Field(description="An expression over the seat in question after setup, e.g. `holds(hand, '2-clubs')`; the first seat when no seat satisfies it.")


class Tricks(RulesModel):
    """Trick taking: every seat in turn plays one card to a trick; the highest card of the suit led, or the highest trump, wins it.

    A card choice whose ``to`` is :attr:`zone` is a play to the trick. Its cards are offered as the rules
    of following say: a seat holding a card of the suit led must play one; the seat leading plays a card
    satisfying ``lead`` when it holds one; a seat that cannot follow plays a card satisfying ``discard``
    when it holds one. When every seat has played, the winner takes the trick into its ``won`` zone, the
    ``after`` effects happen for the winner, and the winner leads the next trick.
    """

    zone: RulesIdentifier = Field(description="The shared zone the trick is laid in; only trick play moves cards into or out of it.")
    won: RulesIdentifier = Field(description="The per-seat zone a trick's winner puts the trick in (its pile of cards taken).")
    follow: str = Field(description="The card field that must be followed (the suit): a seat holding a card with the led card's value must play one.")
    rank: str = Field(description="The whole-number card field compared: the highest card of the suit led wins (the first played, among equals).")
    trump: Expr | None = Field(
        default=None,
        description="An expression giving a value of `follow` that beats every other (e.g. `'spades'`, or a variable set at setup); none: no trump.",
    )
    lead: str | None = Field(
        default=None,
        description="An expression over `card`: the seat leading a trick plays a card satisfying it when it holds one (e.g. a suit not led until it is broken).",
    )
    discard: str | None = Field(
        default=None,
        description="An expression over `card`: a seat that cannot follow plays a card satisfying it when it holds one (e.g. no penalty card on the first trick).",
    )
    after: list[Effect] = Field(default_factory=list, description="What happens after every trick, for its winner (the seat in question), in order.")


class RepeatStep(RulesModel):
    """Setup effects done again and again until a condition holds (deal cards one by one until one finds no room)."""

    repeat: "RepeatSpec" = Field(description="The effects repeated and the condition that stops them.")


class RepeatSpec(RulesModel):
    """What is repeated, and until when."""

    until: str = Field(description="An expression over the table, read before every round: the loop stops as soon as it holds.")
    do: list[Effect] = Field(min_length=1, description="The effects of one round, in order (moves, counters, variables).")
    limit: int = Field(
        default=MAX_RULES_COUNT,
        ge=1,
        le=MAX_RULES_COUNT,
        description="The most rounds played; the loop also stops after a round that changed nothing (it would go on for ever).",
    )



SetupStep = Union[ShuffleStep, DealStep, MoveStep, SetStep, SetAsideStep, RepeatStep, ShuffleBackStep, MechanicStep]

for _model in (End, ArrangeEffect, SwapEffect, RollEffect, StealEffect, MoveEffect, AddEffect, TransferEffect, SetEffect, SumScore, SetsScore, SetsSpec, OneOfEachScore, MajorityScore, RulesData, ShuffleStep, DealStep, SetAsideStep):
    _model.model_rebuild()
RepeatStep.model_rebuild()
