"""Pebble Grab: a tiny dice-and-take game that exercises the engine tooling.

Rules (spec at tests/fixtures/toy/game.yaml): a row of pebbles lies face up.
On a turn the player rolls a die (a chance step; no roll when ``die_sides`` is
0) and takes one pebble whose value is at most the roll, or passes. A pebble
with effect ``wild`` can be taken on any roll and is worth ``wild_points``; a
pebble with effect ``cursed`` can never be taken. A taken pebble is replaced
from the top of the bag while it lasts. The game ends when the row is empty or
after ``max_turns`` turns. Seat 0 starts with ``first_seat_bonus`` points.

Two numbers break the game on purpose so the checks can be tested:
``test_dead_end_turn`` (from that turn on the seat to move has no legal
action) and ``test_never_ends`` (the game ignores both ways of ending).
"""

from __future__ import annotations

import random

from cardgen.engine.core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    Seat,
    Solution,
    State,
    Termination,
    register_game,
    register_solver,
)
from cardgen.spec.models import Spec

PASS = 50
ROLL_BASE = 100


class ToyGame(Game):
    """Pebble Grab at one player count; every number comes from the spec."""

    rules_id = "toy"

    def __init__(self, spec: Spec, num_players: int) -> None:
        super().__init__(spec, num_players)
        numbers = spec.numbers
        self.die_sides = numbers["die_sides"]
        self.max_turns = numbers["max_turns"]
        self.wild_points = numbers["wild_points"]
        self.first_seat_bonus = numbers["first_seat_bonus"]
        self.dead_end_turn = numbers.get("test_dead_end_turn", 0)
        self.never_ends = bool(numbers.get("test_never_ends", 0))
        setup = next((s for s in spec.setups if s.players == num_players), None)
        if setup is None:
            raise ValueError(f"no setup for {num_players} players")
        self.row_size = setup.display["pebbles"]
        deck = spec.decks[0]
        self.card_ids: list[str] = []
        self.card_names: list[str] = []
        self.card_of: list[int] = []  # physical pebble -> design index
        self.value_of: list[int] = []  # physical pebble -> roll needed (99 = never)
        self.points_of: list[int] = []  # physical pebble -> points
        for design, card in enumerate(deck.cards):
            self.card_ids.append(card.id)
            self.card_names.append(card.name["en"])
            value = card.data["value"]
            assert isinstance(value, int)
            need, points = value, value
            if card.effect == "wild":
                need, points = 0, self.wild_points
            elif card.effect == "cursed":
                need, points = 99, value
            for _ in range(card.copies):
                self.card_of.append(design)
                self.value_of.append(need)
                self.points_of.append(points)

    def info(self) -> GameInfo:
        """At most one roll and one decision per turn; scores between 0 and every point plus the bonus."""
        per_turn = 2 if self.die_sides else 1
        return GameInfo(self.num_players, per_turn * self.max_turns, 0, sum(self.points_of) + self.first_seat_bonus)

    def new_initial_state(self, seed: int) -> "ToyState":
        """Shuffle the bag with ``seed`` and lay out the row."""
        bag = list(range(len(self.card_of)))
        random.Random(seed).shuffle(bag)
        row = [bag.pop() for _ in range(min(self.row_size, len(bag)))]
        return ToyState(self, bag, row)

    def usage_keys(self) -> list[str]:
        """Every pebble design should be taken in some game."""
        return [f"card:{card_id}" for card_id in self.card_ids]

    def proven_unusable(self) -> dict[str, str]:
        """A pebble needing more than any roll (or, with no die, more than 98) is never taken."""
        limit = self.die_sides if self.die_sides else 98
        return {
            f"card:{self.card_ids[design]}": f"it needs {need} and a turn allows at most {limit}"
            for design, need in sorted(set(zip(self.card_of, self.value_of)))
            if need > limit
        }


class ToyState(State):
    """A Pebble Grab position."""

    __slots__ = ("game", "bag", "row", "taken", "points", "seat", "turn", "roll")

    def __init__(self, game: ToyGame, bag: list[int], row: list[int]) -> None:
        self.game = game
        self.bag = bag
        self.row = row
        self.taken: list[list[int]] = [[] for _ in range(game.num_players)]
        self.points = [0] * game.num_players
        self.points[0] = game.first_seat_bonus
        self.seat = 0
        self.turn = 0
        self.roll = 0

    def is_terminal(self) -> bool:
        """The row is empty or the turns are used up (never, in the broken variant)."""
        if self.game.never_ends:
            return False
        return not self.row or self.turn >= self.game.max_turns

    def current_player(self) -> Seat:
        """Chance before a roll, else the seat whose turn it is."""
        if self.is_terminal():
            return TERMINAL
        if self.game.die_sides and self.roll == 0:
            return CHANCE
        return self.seat

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Every face of the die, equally likely."""
        if not self.game.die_sides or self.roll or self.is_terminal():
            return []
        sides = self.game.die_sides
        return [(ROLL_BASE + face, 1.0 / sides) for face in range(1, sides + 1)]

    def legal_actions(self) -> list[Action]:
        """Rolls at a chance step; otherwise the takeable slots and pass."""
        if self.is_terminal():
            return []
        game = self.game
        if game.die_sides and self.roll == 0:
            return [ROLL_BASE + face for face in range(1, game.die_sides + 1)]
        if game.dead_end_turn and self.turn >= game.dead_end_turn:
            return []
        limit = self.roll if game.die_sides else 98
        value_of = game.value_of
        actions = [slot for slot, pebble in enumerate(self.row) if value_of[pebble] <= limit]
        actions.append(PASS)
        return actions

    def apply_action(self, action: Action) -> None:
        """Roll, take a slot, or pass."""
        if action > ROLL_BASE:
            self.roll = action - ROLL_BASE
            return
        if action != PASS:
            pebble = self.row[action]
            self.taken[self.seat].append(pebble)
            self.points[self.seat] += self.game.points_of[pebble]
            if self.bag:
                self.row[action] = self.bag.pop()
            else:
                del self.row[action]
        self.turn += 1
        self.seat = (self.seat + 1) % self.game.num_players
        self.roll = 0

    def scores(self) -> list[int]:
        """Points held by each seat."""
        return list(self.points)

    def clone(self) -> "ToyState":
        """A copy sharing only the immutable game."""
        other = ToyState.__new__(ToyState)
        other.game = self.game
        other.bag = self.bag[:]
        other.row = self.row[:]
        other.taken = [t[:] for t in self.taken]
        other.points = self.points[:]
        other.seat, other.turn, other.roll = self.seat, self.turn, self.roll
        return other

    def action_to_string(self, action: Action) -> str:
        """E.g. 'P1 rolls 4', 'P2 takes Three (3) from slot 2', 'P1 passes'."""
        if action > ROLL_BASE:
            return f"P{self.seat + 1} rolls {action - ROLL_BASE}"
        if action == PASS:
            return f"P{self.seat + 1} passes"
        pebble = self.row[action]
        design = self.game.card_of[pebble]
        return f"P{self.seat + 1} takes {self.game.card_names[design]} ({self.game.points_of[pebble]}) from slot {action + 1}"

    def fingerprint(self) -> tuple[object, ...]:
        """Bag order, row, every seat's pebbles, seat, turn and roll."""
        return (tuple(self.bag), tuple(self.row), tuple(tuple(t) for t in self.taken), self.seat, self.turn, self.roll)

    def termination(self) -> Termination | None:
        """Row emptied or turns used up."""
        if not self.is_terminal():
            return None
        return Termination.HANDS_EMPTY if not self.row else Termination.TURN_LIMIT

    def usage(self) -> dict[str, int]:
        """How many of each pebble design were taken."""
        counts: dict[str, int] = {}
        for pile in self.taken:
            for pebble in pile:
                key = "card:" + self.game.card_ids[self.game.card_of[pebble]]
                counts[key] = counts.get(key, 0) + 1
        return counts

    def conservation_errors(self) -> list[str]:
        """Each pebble in exactly one place; points equal to the pebbles held."""
        errors = []
        places = self.bag + self.row + [p for pile in self.taken for p in pile]
        if sorted(places) != list(range(len(self.game.card_of))):
            errors.append("a pebble is missing or in two places")
        for seat, pile in enumerate(self.taken):
            expected = sum(self.game.points_of[p] for p in pile) + (self.game.first_seat_bonus if seat == 0 else 0)
            if expected != self.points[seat]:
                errors.append(f"P{seat + 1} holds {expected} points but scores {self.points[seat]}")
        return errors


def solve_toy(game: Game, seed: int) -> Solution:
    """Exact best solo score of a deal without a die (depth-first search with a memo)."""
    assert isinstance(game, ToyGame)
    if game.num_players != 1 or game.die_sides:
        raise ValueError("the toy solver handles only the solo game without a die")
    memo: dict[tuple[object, ...], tuple[int, tuple[Action, ...]]] = {}
    nodes = 0

    def best(state: ToyState) -> tuple[int, tuple[Action, ...]]:
        nonlocal nodes
        nodes += 1
        if state.is_terminal():
            return 0, ()
        key = (len(state.bag), tuple(state.row), state.turn)
        if key in memo:
            return memo[key]
        answer: tuple[int, tuple[Action, ...]] = (-1, ())
        for action in state.legal_actions():
            gain = 0 if action == PASS else game.points_of[state.row[action]]
            after = state.clone()
            after.apply_action(action)
            rest, line = best(after)
            if gain + rest > answer[0]:
                answer = (gain + rest, (action,) + line)
        memo[key] = answer
        return answer

    start = game.new_initial_state(seed)
    value, line = best(start)
    return Solution(float(value + game.first_seat_bonus), line, True, nodes, "solo score")


register_game("toy", ToyGame)
register_solver("toy", solve_toy)
