"""Ceratopsians' named mechanic ``ceratopsians``: the boneyard's slide and flip, and the display geometry.

What the rules-data vocabulary cannot say, and so is Python (see docs/decisions.md,
"Named mechanics"): the boneyard is a column of three *positions* between the two
players (slot 0 nearest the first seat, slot 2 nearest the second), with holes once
the deck runs out, and cards keep a *side*: zones hold cards, not positions or
sides. After a draft the two cards left slide towards the drafter's rival (the one
further from the drafter into the slot furthest from them, the other into the middle),
and a card that stays in its slot is flipped (clarification 3); the deck's top card
then refills the slot nearest the drafter. A player's score is the best arrangement
of their collection into displays (:mod:`.assembly`), a geometry no scoring item
says either.

The rest is rules data in the spec: the deck and collection zones, the shuffle, the
turn (one option, this mechanic's ``draft``, then its ``slide`` and ``refill``), the
end after ``numbers.drafts_per_player`` drafts each.

The slice of the position this mechanic keeps: ``[sides, bone, drafted]``, the side each
card shows (by card, 0 or 1, fixed once drafted), the boneyard's three slots (a card or
:data:`EMPTY`) and the slot of the last draft (which the slide starts from).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from cardgen.engine.mechanics import ActFunction, ActionsFunction, EffectFunction, Mechanic, ScoreFunction, SetupFunction
from cardgen.games.ceratopsians.faces import DECK_ID, Skulls
from cardgen.games.ceratopsians.phrases import PHRASES
from cardgen.spec.contract import DeckRule, NumberRule, RulesContract, SetupRule
from cardgen.spec.models import Spec
from cardgen.spec.mechanic_declaration import MechanicDeclaration, MechanicZone
from cardgen.spec.source import PathKey

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataGame, DataState

NAME = "ceratopsians"
SLOTS = 3
MIDDLE = 1
EMPTY = -1
SLOT_WORDS = ("nearest them", "in the middle", "furthest from them")


def _enough_cards_to_draft(spec: Spec) -> Iterator[tuple[PathKey, str]]:
    """Every draft finds a card: the boneyard plus the deck hold enough for both players' drafts."""
    deck = next((d for d in spec.decks if d.id == DECK_ID), None)
    drafts = spec.numbers.get("drafts_per_player")
    slots = next((s.display.get(DECK_ID) for s in spec.setups if s.players == 2), None)
    if deck is None or drafts is None or slots is None:
        return
    cards = sum(c.copies for c in deck.cards)
    if 2 * drafts > cards - slots + 1:
        yield ("numbers", "drafts_per_player"), f"{drafts} drafts each need {2 * drafts} cards, but {cards} cards with {slots} in the boneyard allow {cards - slots + 1}"


CONTRACT = RulesContract(
    players=(2, 2),
    numbers={
        "drafts_per_player": NumberRule(1, 100, "cards each player drafts (the rules data's end; the mechanic's proof that a complete display is out of reach)"),
        "pair_points": NumberRule(1, 10, "points for each matching pair of markers"),
        "complete_display_bonus": NumberRule(0, 50, "bonus for a display with all six parts"),
    },
    decks={
        DECK_ID: DeckRule(
            fields={"part": "palette", "cell": "int_list", "top": "palette_list", "right": "palette_list", "bottom": "palette_list", "left": "palette_list"},
            art_fields=frozenset({"colours", "top_hollow", "right_hollow", "bottom_hollow", "left_hollow"}),
            copies="one",
        )
    },
    setup=SetupRule(display={DECK_ID: (SLOTS, SLOTS)}),
    checks=(_enough_cards_to_draft,),
)
"""What the mechanic reads: the scoring numbers, each face's part, cell and filled markers, and the
boneyard (the setup's display of three cards: the slide names a middle slot). Every card is one copy:
a side belongs to a card. Two players: the boneyard has two ends."""


class Boneyard(Mechanic):
    """The boneyard's positions and the cards' sides, the draft from a slot, the slide, flip and refill, the displays."""

    declaration = MechanicDeclaration(
        name=NAME,
        package="ceratopsians",
        contract=CONTRACT,
        zones={
            "deck": MechanicZone(per_seat=False, meaning="the face-down deck the boneyard is refilled from (its top is the end)"),
            "collection": MechanicZone(per_seat=True, meaning="the cards a player has drafted, each with the side it showed"),
        },
        setups={"turn_sides": PHRASES["turn_sides"], "lay_out": PHRASES["lay_out"]},
        actions={"draft": PHRASES["draft"]},
        effects={"slide": PHRASES["slide"], "refill": PHRASES["refill"]},
        scores={"displays": PHRASES["displays"]},
    )

    def __init__(self, game: "DataGame", index: int) -> None:
        super().__init__(game, index)
        spec = game.spec
        if game.num_players != 2:
            raise ValueError("the boneyard has two ends: Ceratopsians is played by two")
        setup = next(s for s in spec.setups if s.players == game.num_players)
        if setup.display.get(DECK_ID, 0) != SLOTS:
            raise ValueError(f"the boneyard is a display of {SLOTS} {DECK_ID} cards: the slide names a middle slot")
        self.skulls = Skulls(spec, spec.numbers["pair_points"], spec.numbers["complete_display_bonus"])
        designs = game.deck_designs.get(DECK_ID, [])
        if [game.card_ids[d] for d in designs] != self.skulls.card_ids or any(game.copies[d] != 1 for d in designs):
            raise ValueError(f"the {NAME} mechanic needs deck {DECK_ID!r} in play with one copy of each card")
        self.first = designs[0] if designs else 0
        """The design of the deck's first card: a card's index in :class:`Skulls` is its design minus this."""
        self.deck = game.slot("deck")
        self.slides = [[self._slide_plan(seat, drafted) for drafted in range(SLOTS)] for seat in range(2)]
        """``slides[seat][drafted]``: where each slot left goes (see :meth:`_slide_plan`), worked out once."""
        self.collections = [game.slot("collection", seat) for seat in range(game.num_players)]

    @staticmethod
    def _slide_plan(seat: int, drafted: int) -> tuple[tuple[int, int], ...]:
        """(from slot, to slot) of the two slots not drafted from: the one further from the drafter goes to the
        slot furthest from them, the other to the middle. A hole (once the deck ran out) slides like a card,
        so the cards keep their order in the column."""
        near = 0 if seat == 0 else SLOTS - 1
        far = SLOTS - 1 - near
        left = sorted((slot for slot in range(SLOTS) if slot != drafted), key=lambda slot: abs(slot - near), reverse=True)
        return tuple(zip(left, (far, MIDDLE)))

    # -- the slice -------------------------------------------------------------------------------

    def start(self) -> list[Any]:
        return [[0] * self.skulls.deck_size, [EMPTY] * SLOTS, EMPTY]

    def clone(self, part: Any) -> list[Any]:
        return [list(part[0]), list(part[1]), part[2]]

    def fingerprint(self, part: Any) -> object:
        return (tuple(part[0]), tuple(part[1]), part[2])

    def held(self, part: Any) -> Iterable[int]:
        return [card + self.first for card in part[1] if card != EMPTY]

    def summary(self, part: Any) -> str:
        """The boneyard's cards, slot by slot (``-`` for a hole)."""
        names = self.game.card_names
        return "boneyard " + ", ".join(names[card + self.first] if card != EMPTY else "-" for card in part[1])

    def errors(self, state: "DataState") -> list[str]:
        sides, bone, _ = state.m[self.index]
        errors = []
        if len(bone) != SLOTS or len(sides) != self.skulls.deck_size or any(side not in (0, 1) for side in sides):
            errors.append(f"the slice is malformed: {len(bone)} slots, {len(sides)} sides")
        return errors

    def face(self, state: "DataState", design: int) -> int:
        """The face ``design`` shows in ``state``."""
        card = design - self.first
        return 2 * card + state.m[self.index][0][card]

    def collection_faces(self, state: "DataState", seat: int) -> list[int]:
        """The faces of ``seat``'s collection, in the order drafted."""
        sides = state.m[self.index][0]
        first = self.first
        return [2 * (d - first) + sides[d - first] for d in state.z[self.collections[seat]]]

    # -- setup -----------------------------------------------------------------------------------

    def setup(self, name: str) -> SetupFunction:
        index, deck = self.index, self.deck
        if name == "turn_sides":

            def turn_sides(s: "DataState", rng: random.Random) -> None:
                sides = s.m[index][0]
                bits = rng.getrandbits
                for card in range(len(sides)):  # in the deck's card order, whatever the shuffle did
                    # rng.randrange(2), spelt out: two bits drawn until they are below 2 (the draws
                    # CPython's randrange makes), without its argument checks
                    r = bits(2)
                    while r >= 2:
                        r = bits(2)
                    sides[card] = r
            return turn_sides
        if name == "lay_out":
            first = self.first

            def lay_out(s: "DataState", rng: random.Random) -> None:
                pile, bone = s.z[deck], s.m[index][1]
                for slot in range(SLOTS):  # the top card into slot 0, nearest the first seat
                    bone[slot] = pile.pop() - first if pile else EMPTY
            return lay_out
        return super().setup(name)

    # -- the draft -------------------------------------------------------------------------------

    def width(self, name: str) -> int:
        return SLOTS if name == "draft" else super().width(name)

    def actions(self, name: str) -> ActionsFunction:
        if name != "draft":
            return super().actions(name)
        index = self.index
        return lambda s, seat: [slot for slot, card in enumerate(s.m[index][1]) if card != EMPTY]

    def act(self, name: str) -> ActFunction:
        if name != "draft":
            return super().act(name)
        index, collections, first = self.index, self.collections, self.first

        def draft(s: "DataState", seat: int, slot: int) -> None:
            part = s.m[index]
            bone = part[1]
            card = bone[slot]
            if card == EMPTY:
                raise ValueError(f"slot {slot} of the boneyard is empty")
            bone[slot] = EMPTY
            part[2] = slot
            s.z[collections[seat]].append(card + first)
        return draft

    def describe(self, name: str, state: "DataState", parameter: int) -> str:
        card = state.m[self.index][1][parameter] if 0 <= parameter < SLOTS else EMPTY
        if card == EMPTY:
            return f"from empty slot {parameter}"
        near = parameter if state.deciding_seat() == 0 else SLOTS - 1 - parameter
        return f"{self.skulls.face_label(2 * card + state.m[self.index][0][card])} from slot {parameter}, {SLOT_WORDS[near]}"

    # -- slide, flip and refill --------------------------------------------------------------------

    def effect(self, name: str) -> EffectFunction:
        index, deck, first = self.index, self.deck, self.first
        if name == "slide":
            plans = self.slides

            def slide(s: "DataState", seat: int, card: int) -> None:
                part = s.m[index]
                sides, bone = part[0], part[1]
                if part[2] == EMPTY:
                    raise ValueError("the boneyard slides after a draft, and no card was drafted")
                moved = [EMPTY] * SLOTS
                for from_slot, to in plans[seat][part[2]]:
                    moved_card = bone[from_slot]
                    if from_slot == to and moved_card != EMPTY:
                        sides[moved_card] ^= 1
                    moved[to] = moved_card
                part[1] = moved
                part[2] = EMPTY
            return slide
        if name == "refill":

            def refill(s: "DataState", seat: int, card: int) -> None:
                bone, pile = s.m[index][1], s.z[deck]
                near = 0 if seat == 0 else SLOTS - 1
                if pile and bone[near] == EMPTY:
                    bone[near] = pile.pop() - first
            return refill
        return super().effect(name)

    # -- displays ----------------------------------------------------------------------------------

    def score(self, name: str) -> ScoreFunction:
        if name != "displays":
            return super().score(name)
        scorer, faces = self.skulls.scorer, self.collection_faces

        def displays(s: "DataState", seat: int) -> int:
            if s.over is not None:  # a finished game is also asked for its arrangements (usage): one search serves both
                return scorer.best(faces(s, seat))[0]
            return scorer.value(faces(s, seat))
        return displays

    def score_bound(self, name: str) -> int:
        return self.skulls.max_score(self.skulls.deck_size)

    def usage_keys(self) -> list[str]:
        """Every card id (drafted) and ``display:complete`` (a complete display in a final best arrangement)."""
        return sorted(set(self.skulls.usage_names)) + ["display:complete"]

    def proven_unusable(self) -> dict[str, str]:
        """A complete display needs one face of every part, so fewer drafts than parts can never make one."""
        parts = len(self.skulls.part_ids)
        drafts = self.game.spec.numbers.get("drafts_per_player", parts)
        if drafts < parts:
            return {"display:complete": f"a complete display needs {parts} parts and a player drafts {drafts} cards"}
        return {}

    def usage(self, state: "DataState") -> dict[str, int]:
        counts: dict[str, int] = {}
        names = self.skulls.usage_names
        for seat in range(len(self.collections)):
            for d in state.z[self.collections[seat]]:
                key = names[d - self.first]
                counts[key] = counts.get(key, 0) + 1
        if state.is_terminal():
            parts = len(self.skulls.part_ids)
            scorer = self.skulls.scorer
            complete = sum(1 for seat in (0, 1) for display in scorer.best(self.collection_faces(state, seat))[1] if len(display) == parts)
            if complete:
                counts["display:complete"] = complete
        return counts
