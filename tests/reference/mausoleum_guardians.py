"""Mausoleum Guardians: the rules engine.

Every reading the source leaves open is a numbered clarification in
``specs/mausoleum-guardians/game.yaml``; the comments below cite them as
``(C7)`` and the code does exactly what they say.

Cards are told apart by *kind*: the index of their design in the spec (Base,
Columns, ... Protection). Every zone is a flat list of counts per kind, so a
position is a handful of small int lists and a clone is a few list copies. The
draw pile is the shuffled tuple of kinds fixed at setup, shared between clones,
and a pointer to its top.

Turn flow (one seat, :data:`PLAY` phase): the draw is done automatically when
the turn starts (the deck order is fixed by the seed, so it is no chance step);
the player passes or plays one card; an attack may need a further choice (the
target's answer with Protection, C11; the target's card for Earthquake; the
attacker's for Invasion, Exchange and Discovery) or a chance step (the random card taken by Theft and Exchange); then the player
discards down to the hand limit one card at a time. A choice with a single
option is made automatically, so it never costs an action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Iterable, Iterator, Literal

from cardgen.engine.core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    Seat,
    State,
    Termination,
)
from cardgen.engine.state_copy import state_methods
from cardgen.spec.contract import DeckRule, NumberRule, OptionRule, RulesContract, SetupRule, read_option
from cardgen.spec.models import MAX_PLAYERS, Spec
from cardgen.spec.source import PathKey

RULES_ID = "mausoleum-guardians"
CardKind = int
"""The index of a card design in the spec's deck order."""

CONSTRUCTION_TYPE = "construction"
"""The card type whose kinds make up a complete set (one of each)."""

# Behaviours, by effect id. Construction cards build whatever their effect.
BUILD, DOUBLE_SET, DRAW_THREE, GUARD_CONSTRUCTION, GUARD_HAND, EARTHQUAKE, INVASION, DISCOVERY, EXCHANGE, THEFT, PROTECTION = range(11)
EFFECT_BEHAVIOUR: dict[str, int] = {
    "build": BUILD,
    "double_set": DOUBLE_SET,
    "draw_three": DRAW_THREE,
    "guard_construction": GUARD_CONSTRUCTION,
    "guard_hand": GUARD_HAND,
    "earthquake": EARTHQUAKE,
    "invasion": INVASION,
    "discovery": DISCOVERY,
    "exchange": EXCHANGE,
    "theft": THEFT,
    "protection": PROTECTION,
}
CHARACTER_BEHAVIOURS = frozenset({DOUBLE_SET, DRAW_THREE, GUARD_CONSTRUCTION, GUARD_HAND})

# Phases: what the pending decision is.
PLAY = 0
"""The turn player passes or plays a card."""
DISCARD = 1
"""The turn player discards down to the hand limit (C2)."""
QUAKE_PICK = 2
"""The Earthquake's target picks a construction card to discard (C14)."""
INVADE_PICK = 3
"""The Invasion's player picks a construction card to take (C14)."""
DIG_PICK = 4
"""The Discovery's player picks a card from the discard pile (C15)."""
GIVE_PICK = 5
"""The Exchange's player picks the card to give (C14)."""
TAKE_CHANCE = 6
"""Chance: the random card taken from the target's hand (Theft, Exchange)."""
OVER = 7
"""The game has ended."""
DEFEND = 8
"""The attack's target decides whether to answer it with a Protection from their hand (C11, ``may_answer``)."""

# How a card in hand becomes legal actions (precomputed per kind).
PLAIN, NEEDS_SET, HITS_AREA, HITS_HAND, SWAPS_HAND, ANSWER_ONLY = range(6)

# Rule options: the source's reading is each default (C7, C10, C11).
MUST_ANSWER, MAY_ANSWER, IN_ADVANCE = "must_answer", "may_answer", "in_advance"
"""``options.protection``: the target must answer an attack with a Protection held in hand (the source's "must
respond if they can defend"), may choose to, or lays it face up on their own turn beforehand (the first edition)."""
ON_PLAY, AT_END = "on_play", "at_end"
"""``options.mausolo``: the doubling is scored when Mausolo is played (the source) or at the end, kept only while a
complete set stands (the first edition)."""

PASS: Action = 0
"""The only action id that is the same in every phase."""

# The Sculptors' effect keeps its first-edition id, ``guard_hand``; what it guards against is the option's.
SCULPTORS_GUARD: dict[str, str] = {"invasion": "invasion", "theft": "theft"}
"""``options.sculptors``: the attack effect Sculptors stop. The source says "event cards that steal", and the
only event that steals is Invasion (the default); the first edition read it as the action Theft."""


def guarded_by(spec: Spec) -> dict[str, tuple[str, ...]]:
    """The effects each defence stops in ``spec`` (Sculptors' depends on ``options.sculptors``; a choice the
    rules do not offer is CG171, and Sculptors are then left out here)."""
    guards = {
        "guard_construction": ("earthquake",),
        "protection": ("earthquake", "invasion", "exchange", "theft"),
    }
    sculptors = SCULPTORS_GUARD.get(read_option(CONTRACT, spec, "sculptors"))
    if sculptors is not None:
        guards["guard_hand"] = (sculptors,)
    return guards


def _defences_without_attacks(spec: Spec) -> Iterator[tuple[PathKey, str]]:
    """A defence whose attacks are all missing from the deck can never stop anything."""
    guards = guarded_by(spec)
    for d_index, deck in enumerate(spec.decks):
        effects = {card.effect for card in deck.cards if card.effect}
        for c_index, card in enumerate(deck.cards):
            attacks = guards.get(card.effect or "")
            if attacks and not effects & set(attacks):
                yield ("decks", d_index, "cards", c_index, "effect"), f"card {card.id!r} defends against {', '.join(attacks)}, and no card of the deck carries it"


CONTRACT = RulesContract(
    players=(2, MAX_PLAYERS),
    numbers={
        "hand_limit": NumberRule(1, 60, "cards a player may keep at the end of their turn"),
        "draw_per_turn": NumberRule(1, 10, "cards drawn at the start of a turn"),
        "artemisia_draw": NumberRule(1, 10, "cards Artemisia draws"),
        "set_points": NumberRule(1, 100, "points for each complete set"),
        "multi_set_bonus": NumberRule(0, 100, "bonus points for reaching the multi-set threshold"),
        "multi_set_threshold": NumberRule(2, 10, "complete sets that earn the bonus"),
        "mausolo_multiplier": NumberRule(2, 10, "what Mausolo multiplies a set's points by (1 would do nothing)"),
        "mausolo_sets_per_player": NumberRule(1, 10, "sets one player's Mausolo cards may double"),
    },
    options={
        "protection": OptionRule(
            (MUST_ANSWER, MAY_ANSWER, IN_ADVANCE),
            MUST_ANSWER,
            "Protection answers an attack from the target's hand, always (must_answer) or by the target's choice "
            "(may_answer), or is laid face up on the owner's turn beforehand (in_advance)",
        ),
        "sculptors": OptionRule(
            tuple(SCULPTORS_GUARD), "invasion", "the attack Sculptors stop: the stealing event (invasion) or the action (theft)"
        ),
        "mausolo": OptionRule(
            (ON_PLAY, AT_END),
            ON_PLAY,
            "Mausolo doubles a set when played (on_play), or at the end if a complete set still stands (at_end)",
        ),
    },
    decks={
        "cards": DeckRule(
            effects=frozenset(EFFECT_BEHAVIOUR),
            card_types=frozenset({CONSTRUCTION_TYPE}),
            open_types=True,
        )
    },
    setup=SetupRule(deal={"cards": (1, 60)}),
    inert=(_defences_without_attacks,),
)
"""What these rules read: the hand dealt comes from the setup table, never from a second number."""


class MausoleumGame(Game):
    """Mausoleum Guardians at one player count: the card kinds, numbers and action layout, fixed."""

    rules_id = RULES_ID
    contract = CONTRACT

    def __init__(self, spec: Spec, num_players: int) -> None:
        super().__init__(spec, num_players)
        missing = [name for name in CONTRACT.numbers if name not in spec.numbers]
        if missing:
            raise ValueError(f"{spec.id}: numbers lacks {', '.join(missing)}")
        n = spec.numbers
        setup = next((s for s in spec.setups if s.players == num_players), None)
        if setup is None or "cards" not in setup.deal:
            raise ValueError(f"{spec.id}: no setup deals cards to {num_players} players")
        self.hand_size: int = setup.deal["cards"]
        self.hand_limit: int = n["hand_limit"]
        self.draw_per_turn: int = n["draw_per_turn"]
        self.artemisia_draw: int = n["artemisia_draw"]
        self.set_points: int = n["set_points"]
        self.multi_set_bonus: int = n["multi_set_bonus"]
        self.multi_set_threshold: int = n["multi_set_threshold"]
        self.mausolo_multiplier: int = n["mausolo_multiplier"]
        self.mausolo_sets: int = n["mausolo_sets_per_player"]
        self.protection_mode: str = read_option(CONTRACT, spec, "protection")
        """How Protection is played (C11): answered from the hand, always or by choice, or laid in advance."""
        self.mausolo_on_play: bool = read_option(CONTRACT, spec, "mausolo") == ON_PLAY
        """Whether Mausolo's doubling is scored when it is played (C7), not counted at the end."""
        hand_guarded = EFFECT_BEHAVIOUR[SCULPTORS_GUARD[read_option(CONTRACT, spec, "sculptors")]]

        ids: list[str] = []
        names: list[str] = []
        copies: list[int] = []
        behaviour: list[int] = []
        for deck in (d for d in spec.decks if d.id in CONTRACT.decks):
            for card in deck.cards:
                if card.type == CONSTRUCTION_TYPE:
                    kind_behaviour = BUILD
                elif card.effect in EFFECT_BEHAVIOUR and card.effect != "build":
                    kind_behaviour = EFFECT_BEHAVIOUR[card.effect]
                else:
                    raise ValueError(f"{spec.id}: card {card.id!r} has effect {card.effect!r}, which {RULES_ID} does not know")
                ids.append(card.id)
                names.append(card.name.get("en") or next(iter(card.name.values())))
                copies.append(card.copies)
                behaviour.append(kind_behaviour)
        self.card_ids: tuple[str, ...] = tuple(ids)
        self.card_names: tuple[str, ...] = tuple(names)
        self.copies: tuple[int, ...] = tuple(copies)
        self.behaviour: tuple[int, ...] = tuple(behaviour)
        self.kinds: int = len(ids)
        self.kind_of: dict[str, CardKind] = {card_id: k for k, card_id in enumerate(ids)}
        self.construction_kinds: tuple[CardKind, ...] = tuple(k for k, b in enumerate(behaviour) if b == BUILD)
        """The kinds of one complete set, read from the spec's construction cards (C4)."""
        if not self.construction_kinds:
            raise ValueError(f"{spec.id}: no card of type {CONSTRUCTION_TYPE!r}, so no set can be completed")
        self.character_kinds: tuple[CardKind, ...] = tuple(k for k, b in enumerate(behaviour) if b in CHARACTER_BEHAVIOURS)
        self.mausolo_kinds: tuple[CardKind, ...] = tuple(k for k, b in enumerate(behaviour) if b == DOUBLE_SET)
        self.quake_guard_kinds: tuple[CardKind, ...] = tuple(k for k, b in enumerate(behaviour) if b == GUARD_CONSTRUCTION)
        self.theft_guard_kinds: tuple[CardKind, ...] = tuple(k for k, b in enumerate(behaviour) if b == GUARD_HAND)
        self.protection_kinds: tuple[CardKind, ...] = tuple(k for k, b in enumerate(behaviour) if b == PROTECTION)
        self.total_cards: int = sum(copies)
        if self.total_cards < num_players * self.hand_size:
            raise ValueError(f"{spec.id}: {self.total_cards} cards cannot deal {self.hand_size} to {num_players} players")

        # Action layout: PASS, then one 'play' per kind, then 'play at seat' per kind and seat, then 'pick kind'.
        self.max_seats: int = spec.players.max
        self.play_base: Action = 1
        self.target_base: Action = self.play_base + self.kinds
        self.pick_base: Action = self.target_base + self.kinds * self.max_seats

        self.play_class: tuple[int, ...] = tuple(
            NEEDS_SET if b == DOUBLE_SET
            else HITS_AREA if b in (EARTHQUAKE, INVASION)
            else HITS_HAND if b == THEFT
            else SWAPS_HAND if b == EXCHANGE
            else ANSWER_ONLY if b == PROTECTION and self.protection_mode != IN_ADVANCE
            else PLAIN
            for b in behaviour
        )
        self.guard_of: tuple[tuple[CardKind, ...], ...] = tuple(
            self.quake_guard_kinds if b == EARTHQUAKE else self.theft_guard_kinds if b == hand_guarded else ()
            for b in behaviour
        )
        """For each attack kind, the character kinds that stop it while they stand in the target's row (C10)."""
        self.opponents: tuple[tuple[Seat, ...], ...] = tuple(
            tuple(t for t in range(num_players) if t != seat) for seat in range(num_players)
        )

        self.max_sets: int = min(self.copies[k] for k in self.construction_kinds)
        self._info = GameInfo(
            num_players=num_players,
            max_game_length=self._length_bound(),
            min_score=0,
            max_score=self.score_for(self.max_sets, self._most_doubled()),
        )

    def _most_doubled(self) -> int:
        """The most sets one player can have doubled by Mausolo."""
        if not self.mausolo_kinds or not self.max_sets:
            return 0
        if self.mausolo_on_play:  # each copy played beside a complete set doubles one, up to the cap (C7)
            return min(self.mausolo_sets, sum(self.copies[k] for k in self.mausolo_kinds))
        return min(self.max_sets, self.mausolo_sets)

    def _length_bound(self) -> int:
        """A true upper bound on actions in one game (see the proof in the comments)."""
        # Turns that start with cards in the pile each draw at least one card.
        pile_turns = max(self.total_cards - self.num_players * self.hand_size, 0)
        # Once the pile is empty every card played lowers M = cards in hands + Discovery cards in hands
        # by at least one (a Discovery returns no Discovery, C15), and at most num_players - 1 passes can
        # come between two plays before the game ends (C16).
        discoveries = sum(c for c, b in zip(self.copies, self.behaviour) if b == DISCOVERY)
        late_turns = (self.total_cards + discoveries + 1) * self.num_players
        # Per turn: the play, up to two follow-up choices and a chance step, and the discards, which
        # are at most the cards gained in the turn (the draw, Artemisia's extra cards, one stolen card).
        extra = max(self.artemisia_draw - self.draw_per_turn, 0)
        surplus = max(self.hand_size - self.hand_limit, 0)
        # A Protection answered from the hand (C11) is one more card leaving a hand, and by choice one more
        # decision, at most once per turn (one attack per turn).
        answer = 1 if self.protection_mode == MAY_ANSWER else 0
        per_turn = 1 + 3 + surplus + self.draw_per_turn + extra + 1 + answer
        return (pile_turns + late_turns) * per_turn

    def score_for(self, sets: int, doubled: int) -> int:
        """The points of ``sets`` complete sets with ``doubled`` of them doubled by Mausolo (C7)."""
        points = sets * self.set_points
        if doubled:
            points += doubled * self.set_points * (self.mausolo_multiplier - 1)
        if sets >= self.multi_set_threshold:
            points += self.multi_set_bonus
        return points

    def info(self) -> GameInfo:
        """Bounds on the game's length and scores."""
        return self._info

    def new_initial_state(self, seed: int) -> MausoleumState:
        """Shuffle with ``seed``, deal the hands and let the first player draw."""
        pile = [k for k in range(self.kinds) for _ in range(self.copies[k])]
        random.Random(seed).shuffle(pile)
        return MausoleumState(self, tuple(pile), deal=True)

    def custom_state(
        self,
        pile: Sequence[str] = (),
        hands: Sequence[Sequence[str]] = (),
        areas: Sequence[Sequence[str]] = (),
        characters: Sequence[Sequence[str]] = (),
        shields: Sequence[Sequence[str]] = (),
        discard: Sequence[str] = (),
        rest: Literal["discard", "pile"] = "discard",
        current: Seat = 0,
        draw: bool = True,
    ) -> MausoleumState:
        """A position laid out by card ids, for examples and tests.

        ``pile`` lists the draw pile from its top; ``hands``, ``areas``,
        ``characters`` (character rows) and ``shields`` (waiting Protection
        cards, laid in advance) give one list per seat. Under ``mausolo:
        on_play`` each Mausolo named in a character row beside a complete set
        has doubled one, up to the cap. Every card not named goes to ``rest``:
        the discard pile, or the bottom of the draw pile in deck order, so the
        position always holds all the cards. With ``draw`` the current player
        then draws, as at the start of a turn.
        """
        K = self.kinds
        named = [0] * K
        for card_id in pile:
            named[self.kind_of[card_id]] += 1
        for per_seat in (hands, areas, characters, shields):
            for cards in per_seat:
                for card_id in cards:
                    named[self.kind_of[card_id]] += 1
        for card_id in discard:
            named[self.kind_of[card_id]] += 1
        left = [self.copies[k] - named[k] for k in range(K)]
        if any(n < 0 for n in left):
            over = [self.card_ids[k] for k in range(K) if left[k] < 0]
            raise ValueError(f"more copies named than the deck holds: {', '.join(over)}")
        order = [self.kind_of[c] for c in pile]
        if rest == "pile":
            order += [k for k in range(K) for _ in range(left[k])]
        state = MausoleumState(self, tuple(order), deal=False)
        for zone, per_seat in ((state.hands, hands), (state.area, areas), (state.chars, characters), (state.shields, shields)):
            for seat, cards in enumerate(per_seat):
                for card_id in cards:
                    zone[seat * K + self.kind_of[card_id]] += 1
        for card_id in discard:
            state.discard[self.kind_of[card_id]] += 1
        if rest == "discard":
            for k in range(K):
                state.discard[k] += left[k]
        for seat in range(self.num_players):
            state.hsize[seat] = sum(state.hands[seat * K : seat * K + K])
            state.sets[seat] = state.count_sets(seat)
            state.area_total[seat] = state.area_size(seat)
            if self.mausolo_on_play and state.sets[seat]:
                played = sum(state.chars[seat * K + k] for k in self.mausolo_kinds)
                state.doubled[seat] = min(played, self.mausolo_sets)
        if any(state.shields) and self.protection_mode != IN_ADVANCE:
            raise ValueError("a Protection lies face up, and these rules play it only in answer to an attack")
        state.cur = current
        if draw:
            state.draw(current, self.draw_per_turn)
        return state

    def usage_keys(self) -> list[str]:
        """Every card played at least once, and a set completed."""
        return [f"card:{card_id}" for card_id in self.card_ids] + ["set:complete"]


def _per_seat(values: Iterable[object]) -> str:
    """``P1 3, P2 0``: one value per seat, for a position's summary."""
    return ", ".join(f"P{seat + 1} {value}" for seat, value in enumerate(values))


class MausoleumState(State):
    """One position of Mausoleum Guardians."""

    __slots__ = (
        "area",
        "area_total",
        "chars",
        "completed",
        "cur",
        "discard",
        "doubled",
        "ended",
        "g",
        "given",
        "hands",
        "hsize",
        "passes",
        "pending",
        "phase",
        "pile",
        "plays",
        "sets",
        "shields",
        "target",
        "top",
    )

    clone, fingerprint = state_methods(
        __slots__,
        shared="g pile",
        values="completed cur ended given passes pending phase target top",
        lists="area area_total chars discard doubled hands hsize plays sets shields",
        fingerprint="phase cur target pending given passes tail:pile:top hands area chars shields discard doubled",
    )
    """``clone()`` and ``fingerprint()``, generated from the fields declared here (:mod:`cardgen.engine.state_copy`)."""

    def __init__(self, game: MausoleumGame, pile: tuple[CardKind, ...], deal: bool) -> None:
        P, K = game.num_players, game.kinds
        self.g = game
        self.pile = pile
        """The draw pile from the top, fixed at setup; ``top`` is the next card."""
        self.top = 0
        self.hands = [0] * (P * K)
        """Cards in hand, ``hands[seat * K + kind]``."""
        self.hsize = [0] * P
        self.area = [0] * (P * K)
        """Construction cards in each player's area."""
        self.area_total = [0] * P
        self.chars = [0] * (P * K)
        """Characters in each player's character row (C6)."""
        self.shields = [0] * (P * K)
        """Protection cards waiting face up in front of each player (C11, ``in_advance`` only)."""
        self.doubled = [0] * P
        """Sets each player has had doubled by playing Mausolo (C7, ``on_play`` only)."""
        self.discard = [0] * K
        self.sets = [0] * P
        """Complete sets per player, kept up to date as cards move."""
        self.phase = PLAY
        self.cur = 0
        self.target = -1
        self.pending = -1
        """The card being resolved (between its play and the discard pile), or -1."""
        self.given = -1
        """The card an Exchange will hand over, set aside until the random take is done, or -1."""
        self.passes = 0
        """Turns passed in a row with the draw pile empty (C16)."""
        self.plays = [0] * K
        self.completed = 0
        self.ended: Termination | None = None
        if deal:
            for _ in range(game.hand_size):
                for seat in range(P):
                    self.draw(seat, 1)
            self.draw(0, game.draw_per_turn)

    # --- small helpers -------------------------------------------------------

    def draw(self, seat: Seat, count: int) -> None:
        """Move up to ``count`` cards from the top of the pile into ``seat``'s hand."""
        pile, K = self.pile, self.g.kinds
        for _ in range(count):
            if self.top >= len(pile):
                return
            self.hands[seat * K + pile[self.top]] += 1
            self.hsize[seat] += 1
            self.top += 1

    def count_sets(self, seat: Seat) -> int:
        """Complete sets in ``seat``'s area: the count of the scarcest construction kind (C4)."""
        base = seat * self.g.kinds
        area = self.area
        return min(area[base + k] for k in self.g.construction_kinds)

    def _refresh_sets(self, seat: Seat) -> None:
        now = self.count_sets(seat)
        if now > self.sets[seat]:
            self.completed += now - self.sets[seat]
        self.sets[seat] = now

    def _has(self, zone: list[int], seat: Seat, kinds: tuple[CardKind, ...]) -> bool:
        base = seat * self.g.kinds
        for k in kinds:
            if zone[base + k]:
                return True
        return False

    def area_size(self, seat: Seat) -> int:
        """Construction cards in ``seat``'s area."""
        base = seat * self.g.kinds
        return sum(self.area[base + k] for k in self.g.construction_kinds)

    def different_characters(self, seat: Seat) -> int:
        """How many different characters ``seat`` has played (the second tiebreaker, C17)."""
        base = seat * self.g.kinds
        return sum(1 for k in self.g.character_kinds if self.chars[base + k])

    def _kinds_in(self, zone: list[int], seat: Seat) -> list[CardKind]:
        base = seat * self.g.kinds
        return [k for k in range(self.g.kinds) if zone[base + k]]

    # --- State API -----------------------------------------------------------

    def current_player(self) -> Seat:
        """The seat to decide, CHANCE for a random take, or TERMINAL."""
        phase = self.phase
        if phase == PLAY or phase == DISCARD or phase == INVADE_PICK or phase == DIG_PICK or phase == GIVE_PICK:
            return self.cur
        if phase == QUAKE_PICK or phase == DEFEND:
            return self.target
        if phase == TAKE_CHANCE:
            return CHANCE
        return TERMINAL

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.phase == OVER

    def termination(self) -> Termination | None:
        """Everyone passed with an empty pile, or every hand ran out."""
        return self.ended

    def legal_actions(self) -> list[Action]:
        """The sorted legal actions of the seat to move."""
        phase = self.phase
        g = self.g
        K = g.kinds
        if phase == PLAY:
            return self._play_actions()
        if phase == OVER:
            return []
        pick = g.pick_base
        if phase == DISCARD or phase == GIVE_PICK:
            base = self.cur * K
            hands = self.hands
            return [pick + k for k in range(K) if hands[base + k]]
        if phase == QUAKE_PICK or phase == INVADE_PICK:
            base = self.target * K
            area = self.area
            return [pick + k for k in g.construction_kinds if area[base + k]]
        if phase == DIG_PICK:
            return [pick + k for k in self._dig_options()]
        if phase == DEFEND:
            base = self.target * K
            hands = self.hands
            return [PASS] + [pick + k for k in g.protection_kinds if hands[base + k]]
        return [action for action, _ in self.chance_outcomes()]

    def _play_actions(self) -> list[Action]:
        g = self.g
        K, cur = g.kinds, self.cur
        hsize = self.hsize
        base = cur * K
        play_class = g.play_class
        plays: list[Action] = [PASS]
        attacks: list[Action] = []
        for k, held in enumerate(self.hands[base : base + K]):
            if not held:
                continue
            c = play_class[k]
            if c == PLAIN:
                plays.append(g.play_base + k)
            elif c == ANSWER_ONLY:
                continue
            elif c == NEEDS_SET:
                if self.sets[cur]:
                    plays.append(g.play_base + k)
            else:
                first = g.target_base + k * g.max_seats
                if c == HITS_AREA:
                    area_total = self.area_total
                    attacks.extend(first + t for t in g.opponents[cur] if area_total[t])
                elif c == HITS_HAND or hsize[cur] >= 2:
                    attacks.extend(first + t for t in g.opponents[cur] if hsize[t])
        return plays + attacks

    def _dig_options(self) -> list[CardKind]:
        behaviour = self.g.behaviour
        return [k for k, n in enumerate(self.discard) if n and behaviour[k] != DISCOVERY]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a random take, each kind in the target's hand, weighted by how many it holds."""
        if self.phase != TAKE_CHANCE:
            return []
        g = self.g
        base = self.target * g.kinds
        size = self.hsize[self.target]
        hands = self.hands
        return [(g.pick_base + k, hands[base + k] / size) for k in range(g.kinds) if hands[base + k]]

    def apply_action(self, action: Action) -> None:
        """Play ``action`` in the current phase."""
        phase = self.phase
        g = self.g
        if phase == PLAY:
            if action == PASS:
                self._end_play(played=False)
            elif action < g.target_base:
                self._play(action - g.play_base)
            else:
                kind, target = divmod(action - g.target_base, g.max_seats)
                self._attack(kind, target)
            return
        kind = action - g.pick_base
        K = g.kinds
        if phase == DISCARD:
            self.hands[self.cur * K + kind] -= 1
            self.hsize[self.cur] -= 1
            self.discard[kind] += 1
            self._end_turn()
        elif phase == QUAKE_PICK:
            self._quake(kind)
        elif phase == INVADE_PICK:
            self._invade(kind)
        elif phase == DIG_PICK:
            self._dig(kind)
        elif phase == GIVE_PICK:
            self._give(kind)
        elif phase == TAKE_CHANCE:
            self._take(kind)
        elif phase == DEFEND:
            if action == PASS:
                self._resolve(g.behaviour[self.pending])
            else:
                self._answer(kind)
        else:
            raise ValueError("the game is over")

    # --- playing cards ---------------------------------------------------------

    def _play(self, kind: CardKind) -> None:
        g = self.g
        cur = self.cur
        slot = cur * g.kinds + kind
        self.hands[slot] -= 1
        self.hsize[cur] -= 1
        self.plays[kind] += 1
        b = g.behaviour[kind]
        if b == BUILD:
            self.area[slot] += 1
            self.area_total[cur] += 1
            self._refresh_sets(cur)
        elif b in CHARACTER_BEHAVIOURS:
            self.chars[slot] += 1
            if b == DOUBLE_SET and g.mausolo_on_play and self.doubled[cur] < g.mausolo_sets:
                self.doubled[cur] += 1  # C7: a complete set stands (the play needs one) and is doubled now
            elif b == DRAW_THREE:
                self.draw(cur, g.artemisia_draw - g.draw_per_turn)  # C8
        elif b == PROTECTION:
            self.shields[slot] += 1
        elif b == DISCOVERY:
            self.pending = kind
            options = self._dig_options()
            if not options:
                self._finish_attack()  # C15: nothing to take
                return
            if len(options) == 1:
                self._dig(options[0])
                return
            self.phase = DIG_PICK
            return
        self._end_play(played=True)

    def _attack(self, kind: CardKind, target: Seat) -> None:
        g = self.g
        cur, K = self.cur, g.kinds
        self.hands[cur * K + kind] -= 1
        self.hsize[cur] -= 1
        self.plays[kind] += 1
        self.pending = kind
        self.target = target
        b = g.behaviour[kind]
        # C10 and C12: a standing character guard first, then a Protection.
        if self._has(self.chars, target, g.guard_of[kind]):
            self._finish_attack()
            return
        mode = g.protection_mode
        zone = self.shields if mode == IN_ADVANCE else self.hands
        for k in g.protection_kinds:
            if zone[target * K + k]:
                if mode == MAY_ANSWER:
                    self.phase = DEFEND  # the target decides, on the attacker's turn (C11)
                elif mode == MUST_ANSWER:
                    self._answer(k)
                else:
                    self.shields[target * K + k] -= 1
                    self.discard[k] += 1
                    self._finish_attack()
                return
        self._resolve(b)

    def _answer(self, kind: CardKind) -> None:
        """The target plays a Protection from their hand: it and the attack go to the discard pile (C11)."""
        target = self.target
        self.hands[target * self.g.kinds + kind] -= 1
        self.hsize[target] -= 1
        self.discard[kind] += 1
        self.plays[kind] += 1
        self._finish_attack()

    def _resolve(self, b: int) -> None:
        """Carry out an attack nothing stopped."""
        g = self.g
        cur, K, target = self.cur, g.kinds, self.target
        if b == EARTHQUAKE or b == INVASION:
            options = [k for k in g.construction_kinds if self.area[target * K + k]]
            if len(options) == 1:
                (self._quake if b == EARTHQUAKE else self._invade)(options[0])
            else:
                self.phase = QUAKE_PICK if b == EARTHQUAKE else INVADE_PICK
        elif b == THEFT:
            self._to_take()
        else:  # EXCHANGE
            options = self._kinds_in(self.hands, cur)
            if len(options) == 1:
                self._give(options[0])
            else:
                self.phase = GIVE_PICK

    def _quake(self, kind: CardKind) -> None:
        target = self.target
        self.area[target * self.g.kinds + kind] -= 1
        self.area_total[target] -= 1
        self.discard[kind] += 1
        self.sets[target] = self.count_sets(target)
        self._finish_attack()

    def _invade(self, kind: CardKind) -> None:
        K = self.g.kinds
        target = self.target
        self.area[target * K + kind] -= 1
        self.area[self.cur * K + kind] += 1
        self.area_total[target] -= 1
        self.area_total[self.cur] += 1
        self.sets[target] = self.count_sets(target)
        self._refresh_sets(self.cur)
        self._finish_attack()

    def _dig(self, kind: CardKind) -> None:
        self.discard[kind] -= 1
        self.hands[self.cur * self.g.kinds + kind] += 1
        self.hsize[self.cur] += 1
        self._finish_attack()

    def _give(self, kind: CardKind) -> None:
        self.hands[self.cur * self.g.kinds + kind] -= 1
        self.hsize[self.cur] -= 1
        self.given = kind
        self._to_take()

    def _to_take(self) -> None:
        """Take from the target's hand: a chance step, unless every card there is of one kind."""
        base = self.target * self.g.kinds
        hands = self.hands
        for k in range(self.g.kinds):
            if hands[base + k]:
                if hands[base + k] == self.hsize[self.target]:
                    self._take(k)
                else:
                    self.phase = TAKE_CHANCE
                return

    def _take(self, kind: CardKind) -> None:
        K = self.g.kinds
        target, cur = self.target, self.cur
        self.hands[target * K + kind] -= 1
        self.hands[cur * K + kind] += 1
        self.hsize[cur] += 1
        self.hsize[target] -= 1
        if self.given >= 0:
            self.hands[target * K + self.given] += 1
            self.hsize[target] += 1
            self.given = -1
        self._finish_attack()

    def _finish_attack(self) -> None:
        self.discard[self.pending] += 1
        self.pending = -1
        self.target = -1
        self._end_play(played=True)

    # --- end of turn and of game -------------------------------------------------

    def _end_play(self, played: bool) -> None:
        if played:
            self.passes = 0
        elif self.top >= len(self.pile):
            self.passes += 1  # C16: only passes with an empty pile count
        else:
            self.passes = 0
        self._end_turn()

    def _end_turn(self) -> None:
        g = self.g
        if self.hsize[self.cur] > g.hand_limit:
            self.phase = DISCARD
            return
        if self.top >= len(self.pile):
            if self.passes >= g.num_players:
                self.phase = OVER
                self.ended = Termination.DECK_EXHAUSTED
                return
            if not any(self.hsize):
                self.phase = OVER
                self.ended = Termination.HANDS_EMPTY
                return
        self.cur = (self.cur + 1) % g.num_players
        self.phase = PLAY
        self.draw(self.cur, g.draw_per_turn)

    # --- scores --------------------------------------------------------------

    def _score(self, seat: Seat, sets: int) -> int:
        g = self.g
        if g.mausolo_on_play:
            return g.score_for(sets, self.doubled[seat])
        doubled = min(sets, g.mausolo_sets) if self._has(self.chars, seat, g.mausolo_kinds) else 0
        return g.score_for(sets, doubled)

    def scores(self) -> list[int]:
        """Each player's points for the position as it stands (final once the game is over)."""
        return [self._score(seat, self.sets[seat]) for seat in range(self.g.num_players)]

    def ranking(self) -> list[list[Seat]]:
        """Seats from first place down: points, then complete sets, then different characters (C17)."""
        keys = [
            (score, self.sets[seat], self.different_characters(seat)) for seat, score in enumerate(self.scores())
        ]
        order = sorted(set(keys), reverse=True)
        return [[seat for seat, key in enumerate(keys) if key == value] for value in order]

    # --- copies, replays, checks -----------------------------------------------

    def _seat(self, seat: Seat) -> str:
        return f"P{seat + 1}"

    def action_to_string(self, action: Action) -> str:
        """A readable line for a replay, from the position before ``action``."""
        g = self.g
        names = g.card_names
        phase = self.phase
        if phase == PLAY:
            who = self._seat(self.cur)
            if action == PASS:
                return f"{who} passes"
            if action < g.target_base:
                return f"{who} plays {names[action - g.play_base]}"
            kind, target = divmod(action - g.target_base, g.max_seats)
            return f"{who} plays {names[kind]} against {self._seat(target)}"
        if phase == DEFEND:
            attack = f"{self._seat(self.cur)}'s {names[self.pending]}"
            if action == PASS:
                return f"{self._seat(self.target)} lets {attack} through"
            return f"{self._seat(self.target)} answers {attack} with {names[action - g.pick_base]}"
        kind = action - g.pick_base
        if not 0 <= kind < g.kinds:
            return f"action {action}"
        card = names[kind]
        if phase == DISCARD:
            return f"{self._seat(self.cur)} discards {card} down to the hand limit"
        if phase == QUAKE_PICK:
            return f"{self._seat(self.target)} discards {card} from their area (Earthquake)"
        if phase == INVADE_PICK:
            return f"{self._seat(self.cur)} takes {card} from {self._seat(self.target)}'s area (Invasion)"
        if phase == DIG_PICK:
            return f"{self._seat(self.cur)} takes {card} from the discard pile (Archaeological Discovery)"
        if phase == GIVE_PICK:
            return f"{self._seat(self.cur)} will give {card} to {self._seat(self.target)} (Exchange)"
        if phase == TAKE_CHANCE:
            return f"chance: {self._seat(self.cur)} takes {card} at random from {self._seat(self.target)}'s hand"
        return f"action {action}"

    def summary(self) -> str:
        """Cards left in the draw pile and the discard pile, and per seat: cards in hand, in the area, and sets."""
        return (
            f"pile {len(self.pile) - self.top}; discard {sum(self.discard)}; hands {_per_seat(self.hsize)}; "
            f"areas {_per_seat(self.area_total)}; sets {_per_seat(self.sets)}"
        )

    def usage(self) -> dict[str, int]:
        """Cards played so far, by card id, and complete sets formed."""
        out = {f"card:{card_id}": n for card_id, n in zip(self.g.card_ids, self.plays)}
        out["set:complete"] = self.completed
        return out

    def conservation_errors(self) -> list[str]:
        """Every card in exactly one place, hand sizes and set counts matching the cards."""
        g = self.g
        K, P = g.kinds, g.num_players
        errors: list[str] = []
        where = [0] * K
        for k in self.pile[self.top :]:
            where[k] += 1
        for zone_name, zone in (("hand", self.hands), ("area", self.area), ("characters", self.chars), ("shields", self.shields)):
            for index, value in enumerate(zone):
                if value < 0:
                    errors.append(f"{zone_name} of {self._seat(index // K)} holds {value} of {g.card_ids[index % K]}")
                where[index % K] += value
        for k in range(K):
            if self.discard[k] < 0:
                errors.append(f"the discard pile holds {self.discard[k]} of {g.card_ids[k]}")
            where[k] += self.discard[k]
        if self.pending >= 0:
            where[self.pending] += 1
        if self.given >= 0:
            where[self.given] += 1
        for k in range(K):
            if where[k] != g.copies[k]:
                errors.append(f"{g.card_ids[k]}: {where[k]} cards in play, the spec has {g.copies[k]}")
        for seat in range(P):
            base = seat * K
            if sum(self.hands[base : base + K]) != self.hsize[seat]:
                errors.append(f"{self._seat(seat)}'s hand size {self.hsize[seat]} does not match the cards held")
            for k in range(K):
                if self.area[base + k] and g.behaviour[k] != BUILD:
                    errors.append(f"{g.card_ids[k]} lies in {self._seat(seat)}'s construction area")
                if self.chars[base + k] and g.behaviour[k] not in CHARACTER_BEHAVIOURS:
                    errors.append(f"{g.card_ids[k]} lies in {self._seat(seat)}'s character row")
                if self.shields[base + k] and (g.behaviour[k] != PROTECTION or g.protection_mode != IN_ADVANCE):
                    errors.append(f"{g.card_ids[k]} waits face up as a protection of {self._seat(seat)}")
            if self.doubled[seat] and not (
                g.mausolo_on_play
                and self.doubled[seat] <= min(g.mausolo_sets, sum(self.chars[base + k] for k in g.mausolo_kinds))
            ):
                errors.append(f"{self._seat(seat)} is credited {self.doubled[seat]} doubled sets without the Mausolo cards played")
            if self.area_size(seat) != self.area_total[seat]:
                errors.append(f"{self._seat(seat)}'s area count {self.area_total[seat]} does not match the cards there")
            if self.count_sets(seat) != self.sets[seat]:
                errors.append(f"{self._seat(seat)} is credited {self.sets[seat]} sets but the area holds {self.count_sets(seat)}")
        recomputed = [self._score(seat, self.count_sets(seat)) for seat in range(P)]
        if recomputed != self.scores():
            errors.append(f"scores {self.scores()} differ from the position's {recomputed}")
        if (self.phase == OVER) != (self.ended is not None):
            errors.append("the end reason does not match the phase")
        return errors
