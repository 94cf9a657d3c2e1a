"""Ceratopsians (Michael Purcell, rules v0.1): the hand-written engine, the reference for its rules data.

This was the rules module ``ceratopsians`` until the spec's play became rules data with the named
mechanic ``ceratopsians`` (cardgen/games/ceratopsians/mechanic.py); it is kept, written from the
rulebook rather than from the interpreter, so tests/engine/test_lockstep_ceratopsians.py can check
both agree move for move. Its own slide table (:func:`update_plan`) is not the mechanic's code.

Two players draft two-sided cards from a three-slot *boneyard* that lies in a
column between them. Slot 0 is the end nearest seat 0 (the first player) and
slot 2 the end nearest seat 1, so the slot closest to one player is the one
furthest from the other. After a draft the two cards left slide towards the
drafter's rival (the further one into the furthest slot, the other into the
middle); a card already in its destination slot did not move and is flipped
(clarification 3). The deck's top card then refills the slot nearest the
drafter. A drafted card keeps the side it showed (clarification 1).

The game ends after ``drafts_per_player`` drafts each; each player scores the
best arrangement of their collection into displays (see :mod:`.assembly`).

Everything the rules read comes from the spec: the numbers, each face's part,
colours, display cell and markers. Actions are absolute slot indices 0-2.
"""

from __future__ import annotations

import random
from typing import Iterable, Iterator, Sequence

from cardgen.engine.core import TERMINAL, Action, Game, GameInfo, Seat, State
from cardgen.engine.state_copy import state_methods
from cardgen.games.ceratopsians.assembly import Arrangement, DisplayScorer, Joint
from cardgen.spec.contract import DeckRule, NumberRule, RulesContract, SetupRule
from cardgen.spec.models import Deck, Spec
from cardgen.spec.source import PathKey

RULES_ID = "ceratopsians"
DECK_ID = "skulls"
EDGES = ("top", "right", "bottom", "left")
EMPTY = -1

Slot = int
CardIndex = int
Face = int
"""A card with a side: ``2 * card + side``."""


def update_plan(player: Seat, drafted: Slot, slots: int = 3) -> tuple[Slot, Slot, bool, Slot, bool, Slot]:
    """How the boneyard changes after ``player`` drafts from slot ``drafted``.

    Returns ``(from_far, to_far, flip_far, from_mid, flip_mid, near)``: the card in
    ``from_far`` (the one further from the player) goes to ``to_far`` (the slot
    furthest from the player), the other card goes from ``from_mid`` to the middle
    slot, each is flipped when it did not change slot, and ``near`` is the slot the
    refill goes into.
    """
    if slots != 3:
        raise ValueError("the boneyard update is defined for three slots")
    rest = [s for s in range(slots) if s != drafted]
    middle = 1
    if player == 0:
        near, far = 0, 2
        from_far, from_mid = rest[1], rest[0]
    else:
        near, far = 2, 0
        from_far, from_mid = rest[0], rest[1]
    return from_far, far, from_far == far, from_mid, from_mid == middle, near


UPDATE = [[update_plan(p, s) for s in range(3)] for p in range(2)]
"""``UPDATE[player][slot]``: the plan of :func:`update_plan`, precomputed."""

SLOT_WORDS = ("nearest them", "in the middle", "furthest from them")


def _deck(spec: Spec) -> Deck:
    for deck in spec.decks:
        if deck.id == DECK_ID:
            return deck
    raise ValueError(f"the ceratopsians rules need a deck {DECK_ID!r}")


def _strings(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"expected a list of colour ids, got {value!r}")
    return [str(v) for v in value]


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
        "drafts_per_player": NumberRule(1, 100, "cards each player drafts"),
        "pair_points": NumberRule(1, 10, "points for each matching pair of markers"),
        "complete_display_bonus": NumberRule(0, 50, "bonus for a display with all six parts"),
    },
    decks={
        DECK_ID: DeckRule(
            fields={"part": "palette", "cell": "int_list", "top": "palette_list", "right": "palette_list", "bottom": "palette_list", "left": "palette_list"},
            art_fields=frozenset({"colours", "top_hollow", "right_hollow", "bottom_hollow", "left_hollow"}),
        )
    },
    setup=SetupRule(display={DECK_ID: (3, 3)}),
    checks=(_enough_cards_to_draft,),
)
"""What these rules read. The boneyard is the setup's display of three cards (the slide names a
middle slot); the skull colours and hollow markers are drawn, never scored."""


class CeratopsiansGame(Game):
    """The fixed facts of Ceratopsians read from the spec: cards, faces, weights and numbers."""

    rules_id = RULES_ID
    contract = CONTRACT

    def __init__(self, spec: Spec, num_players: int = 2, drafts_per_player: int | None = None) -> None:
        super().__init__(spec, num_players)
        numbers = spec.numbers
        setup = next((s for s in spec.setups if s.players == num_players), None)
        self.slots = setup.display.get(DECK_ID, 0) if setup is not None else 0
        if self.slots != 3:
            raise ValueError(f"the boneyard is a display of 3 {DECK_ID} cards, not {self.slots}: the update step names a middle slot")
        self.drafts_per_player = numbers["drafts_per_player"] if drafts_per_player is None else drafts_per_player
        self.pair_points = numbers["pair_points"]
        self.bonus = numbers["complete_display_bonus"]
        deck = _deck(spec)
        self.card_ids: list[str] = []
        self.face_names: list[str] = []
        part_ids: list[str] = []
        face_part_id: list[str] = []
        face_cell: list[tuple[int, int]] = []
        face_filled: list[dict[str, set[str]]] = []
        for card in deck.cards:
            if card.faces is None or len(card.faces) != 2:
                raise ValueError(f"card {card.id!r} needs two faces")
            for copy in range(card.copies):
                self.card_ids.append(card.id if card.copies == 1 else f"{card.id}#{copy + 1}")
                for face in card.faces:
                    data = face.data
                    part = data["part"]
                    cell = data["cell"]
                    if not isinstance(part, str) or not isinstance(cell, list) or len(cell) != 2:
                        raise ValueError(f"card {card.id!r}: each face needs a part and a [column, row] cell")
                    if part not in part_ids:
                        part_ids.append(part)
                    face_part_id.append(part)
                    face_cell.append((int(cell[0]), int(cell[1])))  # type: ignore[arg-type]
                    face_filled.append({edge: set(_strings(data.get(edge))) for edge in EDGES})
                    name = face.name or card.name
                    self.face_names.append(name.get("en", card.id))
        self.deck_size = len(self.card_ids)
        if 2 * self.drafts_per_player > self.deck_size - self.slots + 1:
            raise ValueError("not enough cards for that many drafts")
        self.part_ids = part_ids
        self.face_part = [part_ids.index(p) for p in face_part_id]
        cells: dict[int, tuple[int, int]] = {}
        for part, where in zip(self.face_part, face_cell):
            if cells.setdefault(part, where) != where:
                raise ValueError(f"faces of part {part_ids[part]!r} give different cells")
        if len(set(cells.values())) != len(cells):
            raise ValueError("two parts share a display cell")
        self.part_cell = [cells[p] for p in range(len(part_ids))]
        joints: list[Joint] = []
        for a, (ax, ay) in enumerate(self.part_cell):
            for b, (bx, by) in enumerate(self.part_cell):
                if (bx, by) in ((ax + 1, ay), (ax, ay + 1)):
                    joints.append(Joint(a, b))
        self.joints = joints
        n_faces = len(self.face_part)
        weight = [[0] * n_faces for _ in range(n_faces)]
        for f in range(n_faces):
            for g in range(n_faces):
                weight[f][g] = self.pair_points * len(self._facing(f, g, face_filled))
        self.weight = weight
        self.scorer = DisplayScorer(self.face_part, weight, joints, len(part_ids), self.bonus)
        self.usage_names = [f"card:{cid.split('#')[0]}" for cid in self.card_ids]
        max_weight = max(max(row) for row in weight)
        n = self.drafts_per_player
        self.max_score = max_weight * (3 * n // 2) + self.bonus * (n // len(part_ids))

    def _facing(self, f: Face, g: Face, filled: Sequence[dict[str, set[str]]]) -> set[str]:
        """Colours filled on both sides of the edge where faces ``f`` and ``g`` meet (empty if not adjacent)."""
        (fx, fy), (gx, gy) = self.part_cell[self.face_part[f]], self.part_cell[self.face_part[g]]
        delta = (gx - fx, gy - fy)
        sides = {(1, 0): ("right", "left"), (-1, 0): ("left", "right"), (0, 1): ("bottom", "top"), (0, -1): ("top", "bottom")}
        if delta not in sides:
            return set()
        mine, theirs = sides[delta]
        return filled[f][mine] & filled[g][theirs]

    def info(self) -> GameInfo:
        """Exactly ``2 * drafts_per_player`` actions; scores from 0 to a counted bound."""
        return GameInfo(self.num_players, 2 * self.drafts_per_player, 0, self.max_score)

    def deal(self, seed: int) -> tuple[list[CardIndex], list[int]]:
        """The deck order (its top first) and the side each card shows, from ``seed`` alone.

        The convention every implementation of the spec shares to deal the same cards: the deck in
        the spec's card order, shuffled with ``random.Random(seed).shuffle``, its top at the end of
        the shuffled list; then one side drawn for each card, in the spec's card order.
        """
        rng = random.Random(seed)
        order = list(range(self.deck_size))
        rng.shuffle(order)
        order.reverse()  # the top of the shuffled list is its end; this order reads from the top
        # rng.randrange(2) for each card, spelt out: two bits drawn until they are below 2
        # (the draws CPython's randrange makes), without its argument checks.
        bits = rng.getrandbits
        sides = []
        for _ in range(self.deck_size):
            r = bits(2)
            while r >= 2:
                r = bits(2)
            sides.append(r)
        return order, sides

    def new_initial_state(self, seed: int) -> "CeratopsiansState":
        """Shuffle order and facings, then deal the top three cards into slots 0, 1, 2 (clarification 2)."""
        order, sides = self.deal(seed)
        return CeratopsiansState(self, tuple(order), sides, order[: self.slots], self.slots)

    def usage_keys(self) -> list[str]:
        """Every card id and ``display:complete``."""
        return sorted(set(self.usage_names)) + ["display:complete"]

    def proven_unusable(self) -> dict[str, str]:
        """A complete display needs one face of every part, so fewer drafts than parts can never make one."""
        parts = len(self.part_ids)
        if self.drafts_per_player < parts:
            return {"display:complete": f"a complete display needs {parts} parts and a player drafts {self.drafts_per_player} cards"}
        return {}

    def face_label(self, face: Face) -> str:
        """A readable face: its English name and card id."""
        return f"{self.face_names[face]} ({self.card_ids[face // 2]})"


def _per_seat(values: Iterable[object]) -> str:
    """``P1 3, P2 0``: one value per seat, for a position's summary."""
    return ", ".join(f"P{seat + 1} {value}" for seat, value in enumerate(values))


class CeratopsiansState(State):
    """One position: deck order and sides, the boneyard, both collections and whose turn it is."""

    __slots__ = ("game", "order", "sides", "bone", "top", "drafts", "collections", "keys")

    clone, fingerprint = state_methods(
        __slots__,
        shared="game order",
        values="top drafts",
        lists="sides bone keys",
        nested="collections*2",
        fingerprint="drafts tail:order:top sides bone sorted-each:collections",
    )
    """``clone()`` and ``fingerprint()``, generated from the fields declared here (:mod:`cardgen.engine.state_copy`)."""

    def __init__(self, game: CeratopsiansGame, order: tuple[int, ...], sides: list[int], bone: list[int], top: int) -> None:
        self.game = game
        self.order = order
        self.sides = sides
        self.bone = bone
        self.top = top
        self.drafts = 0
        self.collections: list[list[Face]] = [[], []]
        self.keys = [0, 0]

    def current_player(self) -> Seat:
        """Seat 0 drafts first; seats alternate; TERMINAL once every draft is made."""
        if self.drafts >= 2 * self.game.drafts_per_player:
            return TERMINAL
        return self.drafts & 1

    def legal_actions(self) -> list[Action]:
        """The slots holding a card."""
        if self.drafts >= 2 * self.game.drafts_per_player:
            return []
        return [s for s in range(3) if self.bone[s] >= 0]

    def apply_action(self, action: Action) -> None:
        """Draft, update (slide and flip) and refill, as the turn is written."""
        bone = self.bone
        card = bone[action]
        if card < 0 or self.drafts >= 2 * self.game.drafts_per_player:
            raise ValueError(f"slot {action} cannot be drafted now")
        player = self.drafts & 1
        sides = self.sides
        face = 2 * card + sides[card]
        self.collections[player].append(face)
        self.keys[player] += self.game.scorer.key_step[face]
        from_far, to_far, flip_far, from_mid, flip_mid, near = UPDATE[player][action]
        far_card, mid_card = bone[from_far], bone[from_mid]
        if flip_far:
            sides[far_card] ^= 1
        if flip_mid:
            sides[mid_card] ^= 1
        new_bone = [EMPTY, EMPTY, EMPTY]
        new_bone[to_far] = far_card
        new_bone[1] = mid_card
        if self.top < len(self.order):
            new_bone[near] = self.order[self.top]
            self.top += 1
        self.bone = new_bone
        self.drafts += 1

    def is_terminal(self) -> bool:
        """Whether both players have made all their drafts."""
        return self.drafts >= 2 * self.game.drafts_per_player

    def scores(self) -> list[int]:
        """Each player's best display assembly of their collection so far."""
        scorer = self.game.scorer
        if self.drafts >= 2 * self.game.drafts_per_player:
            # A finished game will also be asked for its arrangements (usage): one search serves both.
            memo = scorer.memo
            for seat in (0, 1):
                if self.keys[seat] not in memo:
                    scorer.best(self.collections[seat])
        value = scorer.value
        return [value(self.collections[0], self.keys[0]), value(self.collections[1], self.keys[1])]

    def arrangement(self, seat: Seat) -> Arrangement:
        """One best arrangement of ``seat``'s collection into displays."""
        return self.game.scorer.best(self.collections[seat])[1]

    def action_to_string(self, action: Action) -> str:
        """E.g. 'P1 drafts Red-Yellow Left Frill (lf-ry) from slot 0, nearest them'."""
        player = self.drafts & 1
        card = self.bone[action] if 0 <= action < 3 else EMPTY
        if card < 0:
            return f"P{player + 1} drafts from empty slot {action}"
        relative = action if player == 0 else 2 - action
        face = 2 * card + self.sides[card]
        return f"P{player + 1} drafts {self.game.face_label(face)} from slot {action}, {SLOT_WORDS[relative]}"

    def summary(self) -> str:
        """Cards left in the deck, cards in the boneyard, and the cards each seat has drafted."""
        bone = sum(1 for card in self.bone if card >= 0)
        return f"deck {len(self.order) - self.top}; boneyard {bone}; drafted {_per_seat(len(faces) for faces in self.collections)}"

    def usage(self) -> dict[str, int]:
        """Drafted cards, and complete displays in the players' best arrangements once the game is over."""
        counts: dict[str, int] = {}
        names = self.game.usage_names
        for collection in self.collections:
            for face in collection:
                key = names[face // 2]
                counts[key] = counts.get(key, 0) + 1
        if self.is_terminal():
            parts = len(self.game.part_ids)
            complete = sum(1 for seat in (0, 1) for d in self.arrangement(seat) if len(d) == parts)
            if complete:
                counts["display:complete"] = complete
        return counts

    def conservation_errors(self) -> list[str]:
        """Each card in exactly one place (deck, boneyard, a collection) and scores that match the position."""
        errors: list[str] = []
        seen = [0] * self.game.deck_size
        for card in self.order[self.top :]:
            seen[card] += 1
        for card in self.bone:
            if card >= 0:
                seen[card] += 1
        for collection in self.collections:
            for face in collection:
                seen[face >> 1] += 1
        if seen.count(1) != len(seen):
            errors.extend(self._misplaced())
        if sum(len(c) for c in self.collections) != self.drafts:
            errors.append("collections do not hold one card per draft")
        scorer = self.game.scorer
        scores = self.scores()
        for seat, collection in enumerate(self.collections):
            if scorer.key(collection) != self.keys[seat]:
                errors.append(f"P{seat + 1}'s collection key is stale")
            # A search of this exact collection, not the memo entry the incremental key points at.
            fresh = scorer.best(collection)[0]
            if fresh != scores[seat]:
                errors.append(f"P{seat + 1}'s score {scores[seat]} differs from a fresh count {fresh}")
        return errors

    def _misplaced(self) -> list[str]:
        """Where each card that is not in exactly one place is (the slow, descriptive count)."""
        errors: list[str] = []
        places: dict[int, list[str]] = {}
        for card in self.order[self.top :]:
            places.setdefault(card, []).append("deck")
        for slot, card in enumerate(self.bone):
            if card >= 0:
                places.setdefault(card, []).append(f"slot {slot}")
        for seat, collection in enumerate(self.collections):
            for face in collection:
                places.setdefault(face // 2, []).append(f"P{seat + 1}")
        for card in range(self.game.deck_size):
            where = places.get(card, [])
            if len(where) != 1:
                errors.append(f"card {self.game.card_ids[card]} is in {len(where)} places: {where}")
        return errors
