"""A depth-limited expectimax planner for Keramikos' push-your-luck choice.

The search looks ``depth`` rolls ahead from the player to move. At a chance
node it averages over the dice with their exact probabilities (the 16 ordered
pairs grouped into the 9 classes that lead to different positions: the total,
and for even totals whether it is a double). At a decision node of the player
it takes the best of: stop (bank the marked cards), roll again, and, after a
roll, every way of marking (plain mark, Extra Mark, the doubles options). A bust
is worth the player's collection without the marked cards.

Leaves are valued by :func:`evaluate`: the exact score of the collection the
player would bank, plus a small share of the points of sets they have started
(so that a second piece of a four-piece set is worth something before the set
is complete) and a flat value for marked special cards. Opponents are assumed
not to play Sabotage during the search.

Decisions outside the push-your-luck loop (which level-1 card to take, whom to
rob with Steal, which card to burn, Trash, Sabotage) are made greedily with the
same evaluation. Sort is played before a roll when it brings a card worth
clearly more than the current top card to the top of a stack.
"""

from __future__ import annotations

import random

from cardgen.engine.agents import Agent
from cardgen.engine.core import CHANCE, Action, Game, State
from cardgen.games.keramikos.rules import (
    A_BURN,
    A_BURN_DECLARE,
    A_DEEPEN,
    A_DEEPEN_EXTRA,
    A_MARK,
    A_MARK_EXTRA,
    A_PASS,
    A_REROLL,
    A_ROLL,
    A_SABOTAGE,
    A_SORT,
    A_SORT_PICK,
    A_STEAL,
    A_STOP,
    A_TAKE,
    A_TRASH,
    BURN,
    DECIDE,
    RESOLVE,
    SABOTAGE_WINDOW,
    SORTING,
    STEAL,
    TAKE,
    KeramikosGame,
    KeramikosState,
)

POTENTIAL_WEIGHT = 0.5
"""Share of a started set's pro-rata points counted beyond its exact score."""
SPECIAL_VALUE = 1.5
"""Value of one special card (marked, or held and about to be spent)."""
SORT_THRESHOLD = 2.0
"""Play Sort only when the card brought to the top is worth this much more than the old top card."""
SABOTAGE_THRESHOLD = 3.0
"""Play Sabotage when the roller's roll would be worth at least this much to them."""


def evaluate_collection(game: KeramikosGame, coll: list[int], completes: int) -> float:
    """Exact score of ``coll`` plus a partial credit for started, unfinished sets."""
    value = float(game.fast_score(coll, completes))
    for k in range(game.num_pottery):
        c = coll[k]
        size = game.set_size[k]
        if 0 < c < size:
            share = c * game.points[k] / size - c // game.pieces_per_point
            if share > 0:
                value += POTENTIAL_WEIGHT * share
    return value


def evaluate(state: KeramikosState, seat: int, banked: bool = True) -> float:
    """The value of ``state`` to ``seat``: its collection, with the marked cards if ``banked``."""
    g = state.g
    coll = state.coll[seat][:]
    specials = 0
    if banked and seat == state.player:
        for s in range(g.num_sites):
            for card in state.stacks[s][: state.marks[s]]:
                if card < g.num_pottery:
                    coll[card] += 1
                else:
                    specials += 1
    return evaluate_collection(g, coll, state.hand[seat][g.sp_complete]) + SPECIAL_VALUE * specials


def _outcome_classes(game: KeramikosGame) -> list[tuple[int, float]]:
    """One representative dice outcome per (site, doubles) class, with the class probability."""
    classes: dict[tuple[int, bool], tuple[int, float]] = {}
    p = 1.0 / len(game.outcome_site)
    for idx, (site, dbl) in enumerate(zip(game.outcome_site, game.outcome_double)):
        key = (site, dbl)
        rep, prob = classes.get(key, (idx, 0.0))
        classes[key] = (rep, prob + p)
    return sorted(classes.values())


_CLASS_CACHE: dict[int, list[tuple[int, float]]] = {}


def _classes(game: KeramikosGame) -> list[tuple[int, float]]:
    key = id(game)
    found = _CLASS_CACHE.get(key)
    if found is None:
        found = _outcome_classes(game)
        _CLASS_CACHE[key] = found
    return found


def _with_roll(state: KeramikosState, outcome: int) -> KeramikosState:
    """A copy of ``state`` waiting for the roller's answer to dice ``outcome`` (no Sabotage)."""
    child = state.clone()
    child.roll = outcome
    child.phase = RESOLVE
    child.sab_seat = -1
    return child


def _mark_options(state: KeramikosState) -> list[Action]:
    return [a for a in state.legal_actions() if a in (A_MARK, A_MARK_EXTRA) or A_DEEPEN <= a < A_DEEPEN_EXTRA + state.g.num_sites]


def _best_take(state: KeramikosState, seat: int) -> Action:
    g = state.g
    best, best_value = -1, -1.0e9
    for a in state.legal_actions():
        coll = state.coll[seat][:]
        coll[a - A_TAKE] += 1
        v = evaluate_collection(g, coll, state.hand[seat][g.sp_complete])
        if v > best_value:
            best, best_value = a, v
    return best


def _resolve_value(state: KeramikosState, seat: int, depth: int) -> float:
    """Best value over the ways of marking the pending roll."""
    return max(_resolve_value_of(state, seat, a, depth) for a in _mark_options(state))


def _roll_value(state: KeramikosState, seat: int, depth: int) -> float:
    """Expected value of rolling now, over the exact dice probabilities."""
    total = 0.0
    for outcome, prob in _classes(state.g):
        total += prob * _resolve_value(_with_roll(state, outcome), seat, depth)
    return total


def _decide_value(state: KeramikosState, seat: int, depth: int) -> float:
    """Value of a roll-or-stop decision with ``depth`` rolls of look-ahead."""
    stop = evaluate(state, seat) if state.placed() else -1.0e9
    if depth <= 0 or state.supply[seat] < 1:
        return stop if state.placed() else evaluate(state, seat)
    return max(stop, _roll_value(state, seat, depth))


def roll_or_stop_values(state: KeramikosState, depth: int) -> tuple[float, float]:
    """(value of stopping, value of rolling) for the player to move at a roll-or-stop decision."""
    seat = state.player
    stop = evaluate(state, seat) if state.placed() else -1.0e9
    roll = _roll_value(state, seat, max(depth, 1)) if state.supply[seat] >= 1 else -1.0e9
    return stop, roll


def expectimax_action(state: KeramikosState, depth: int) -> int:
    """The planner's action for the seat to move, looking ``depth`` rolls ahead (depth >= 1)."""
    if state.current_player() == CHANCE or state.is_terminal():
        raise ValueError("expectimax_action needs a decision of a player")
    g = state.g
    legal = state.legal_actions()
    seat = state.current_player()
    depth = max(depth, 1)
    phase = state.phase
    if phase == DECIDE:
        trash = [a for a in legal if A_TRASH <= a < A_TRASH + g.num_kinds]
        if trash:
            return max(trash, key=lambda a: _card_worth(state, seat, a - A_TRASH))
        sort = _best_sort(state, seat, legal)
        if sort is not None:
            return sort
        if A_ROLL not in legal:
            return A_STOP
        if A_STOP not in legal:
            return A_ROLL
        stop, roll = roll_or_stop_values(state, depth)
        return A_ROLL if roll > stop else A_STOP
    if phase == RESOLVE:
        best_action, best_value = A_MARK, -1.0e9
        for a in _mark_options(state):
            value = _resolve_value_of(state, seat, a, depth)
            if value > best_value:
                best_action, best_value = a, value
        if A_REROLL in legal or A_BURN_DECLARE in legal:
            again = _roll_value(_as_deciding(state), seat, depth)
            if A_REROLL in legal and again - SPECIAL_VALUE > best_value:
                return A_REROLL
            if A_BURN_DECLARE in legal:
                cost = min(_loss_without(state, seat, k) for k in range(g.num_pottery) if state.coll[seat][k])
                if again - cost > best_value + 1e-9:
                    return A_BURN_DECLARE
        return best_action
    if phase == BURN:
        return min(legal, key=lambda a: (_loss_without(state, seat, a - A_BURN), a))
    if phase == TAKE:
        return _best_take(state, seat)
    if phase == STEAL:
        return max(legal, key=lambda a: _steal_value(state, seat, a))
    if phase == SORTING:
        return max(legal, key=lambda a: (_card_worth(state, seat, a - A_SORT_PICK), -a))
    if phase == SABOTAGE_WINDOW:
        return A_SABOTAGE if _roll_worth_to_roller(state) >= SABOTAGE_THRESHOLD else A_PASS
    return legal[0]


def _card_worth(state: KeramikosState, seat: int, card: int) -> float:
    """What one more card of kind ``card`` is worth to ``seat``: its pottery gain, or a flat special value."""
    g = state.g
    base = evaluate_collection(g, state.coll[seat], state.hand[seat][g.sp_complete])
    return _gain_with(state, seat, card) - base if card < g.num_pottery else SPECIAL_VALUE


def _best_sort(state: KeramikosState, seat: int, legal: list[Action]) -> Action | None:
    """Sort a stack when a card below its markers is worth clearly more to ``seat`` than the card that would be
    marked next; the new order then puts the cards from most to least valuable (see the SORTING phase)."""
    sorts = [a for a in legal if A_SORT <= a < A_SORT + state.g.num_sites]
    if not sorts:
        return None
    best, best_gain = None, SORT_THRESHOLD
    for a in sorts:
        s = a - A_SORT
        rest = state.stacks[s][state.marks[s] :]
        gain = max(_card_worth(state, seat, card) for card in rest) - _card_worth(state, seat, rest[0])
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _resolve_value_of(state: KeramikosState, seat: int, action: Action, depth: int) -> float:
    child = state.clone()
    child.apply_action(action)
    if child.phase == TAKE and child.player == seat:
        child.apply_action(_best_take(child, seat))
    if child.player != seat or child.phase != DECIDE:
        return evaluate(child, seat, banked=False)
    value = _decide_value(child, seat, depth - 1)
    if action == A_MARK_EXTRA or action >= A_DEEPEN_EXTRA:
        value -= SPECIAL_VALUE
    return value


def _as_deciding(state: KeramikosState) -> KeramikosState:
    """The position as if the pending roll were undone (for valuing a reroll)."""
    child = state.clone()
    child.roll = -1
    child.phase = DECIDE
    return child


def _gain_with(state: KeramikosState, seat: int, kind: int) -> float:
    g = state.g
    coll = state.coll[seat][:]
    coll[kind] += 1
    return evaluate_collection(g, coll, state.hand[seat][g.sp_complete])


def _loss_without(state: KeramikosState, seat: int, kind: int) -> float:
    g = state.g
    coll = state.coll[seat][:]
    before = evaluate_collection(g, coll, state.hand[seat][g.sp_complete])
    coll[kind] -= 1
    return before - evaluate_collection(g, coll, state.hand[seat][g.sp_complete])


def _steal_value(state: KeramikosState, seat: int, action: Action) -> float:
    victim, kind = divmod(action - A_STEAL, 100)
    return _gain_with(state, seat, kind) + _loss_without(state, victim, kind)


def _roll_worth_to_roller(state: KeramikosState) -> float:
    """How much the pending roll is worth to the roller compared with busting now."""
    roller = state.player
    probe = state.clone()
    probe.phase = RESOLVE
    probe.sab_seat = -1
    best = max(_resolve_value_of(probe, roller, a, 1) for a in _mark_options(probe))
    return best - evaluate(state, roller, banked=False)


class ExpectimaxAgent(Agent):
    """The planner as an engine agent: ``keramikos-expectimax[:depth]`` (default depth 2)."""

    name = "keramikos-expectimax"

    def __init__(self, depth: int = 2) -> None:
        self.depth = depth

    def choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """The planner's choice; falls back to a random legal action on a foreign state."""
        if not isinstance(state, KeramikosState):
            return legal[int(rng.random() * len(legal))]
        return expectimax_action(state, self.depth)


def make_expectimax_agent(game: Game, param: str | None) -> Agent:
    """Agent factory for :func:`cardgen.engine.agents.register_agent`."""
    if not isinstance(game, KeramikosGame):
        raise ValueError("keramikos-expectimax only plays Keramikos")
    depth = 2
    if param:
        try:
            depth = int(param)
        except ValueError:
            raise ValueError(f"keramikos-expectimax takes a depth after ':', not {param!r}") from None
        if not 1 <= depth <= 6:
            raise ValueError("keramikos-expectimax depth must be 1 to 6")
    return ExpectimaxAgent(depth)
