"""A depth-limited expectimax planner for Keramikos' push-your-luck choice, on the data game.

The search looks ``depth`` rolls ahead from the player to move. At a chance node it averages over the dice
outcomes the interpreter offers with their exact probabilities (the totals split by doubles). At a decision node
of the player it takes the best of: stop (bank the marked cards), roll again, and, after a roll, every way of
marking the spec's options offer (``resolve.mark``, ``resolve.mark_extra``, ``resolve.deepen``... a bust being
``resolve.bust``). A bust is worth the player's collection without the marked cards. Moves are played by the
interpreter itself, so the planner holds no rule of its own: it reads positions through :mod:`.position` and
chooses options by their keys.

Leaves are valued by :func:`evaluate`: the exact score of the collection the player would bank (the rules'
``sets`` scorer, wild Complete cards placed at best), plus a small share of the points of sets they have started
(so that a second piece of a four-piece set is worth something before the set is complete) and a flat value for
marked special cards. Opponents are assumed not to play Sabotage during the search.

Decisions outside the push-your-luck loop (which level-1 card to take, whom to rob with Steal, which card to burn,
Trash, Sabotage, the new order after Sort) are made greedily with the same evaluation. Sort is played before a roll
when it brings a card worth clearly more than the current top card to the top of a stack.
"""

from __future__ import annotations

import random
from typing import Sequence

from cardgen.engine.agents import Agent
from cardgen.engine.core import CHANCE, Action, Game, State
from cardgen.engine.interpreter import DataState
from cardgen.games.keramikos.position import Facts, facts, key_of

POTENTIAL_WEIGHT = 0.5
"""Share of a started set's pro-rata points counted beyond its exact score."""
SPECIAL_VALUE = 1.5
"""Value of one special card (marked, or held and about to be spent)."""
SORT_THRESHOLD = 2.0
"""Play Sort only when the card brought to the top is worth this much more than the old top card."""
SABOTAGE_THRESHOLD = 3.0
"""Play Sabotage when the roller's roll would be worth at least this much to them."""

MARKS = ("resolve.bust", "resolve.mark", "resolve.mark_site", "resolve.mark_site_take", "resolve.mark_extra", "resolve.deepen", "resolve.deepen_extra")
"""The ways of answering a roll with a marker (a bust included: it is what a roll on a marked site leaves)."""
SPENDS_A_CARD = ("resolve.mark_extra", "resolve.deepen_extra")
AGAIN = ("resolve.reroll", "resolve.burn")
"""Rolling again instead of marking: a Reroll card, or a pottery card burnt."""
WANTED = ("decide.roll", "decide.stop", "sabotage.let_stand", "take.take", *MARKS, *AGAIN)
"""The options the planner needs the spec to have."""
NEGATIVE = -1.0e9


def _counts(f: Facts, designs: Sequence[int]) -> list[int]:
    counts = [0] * len(f.scorer.size)
    for design in designs:
        k = f.scorer.set_index[design]
        if k >= 0:
            counts[k] += 1
    return counts


def evaluate_counts(f: Facts, counts: Sequence[int], wilds: int) -> float:
    """Exact score of a collection (cards per set) with ``wilds`` wild cards, plus a partial credit for started sets."""
    scorer = f.scorer
    value = float(scorer.best(counts, wilds)[0])
    per = scorer.per or 1
    for k, c in enumerate(counts):
        size = scorer.size[k]
        if 0 < c < size:
            share = c * scorer.points[k] / size - c // per
            if share > 0:
                value += POTENTIAL_WEIGHT * share
    return value


def _own(state: DataState, seat: int) -> tuple[list[int], int]:
    f = facts(state.g)
    return f.scorer.counts(state, seat), f.scorer.wilds(state, seat)


def evaluate(state: DataState, seat: int, banked: bool = True) -> float:
    """The value of ``state`` to ``seat``: its collection, with the cards it marked this turn if ``banked``."""
    f = facts(state.g)
    counts, wilds = _own(state, seat)
    specials = 0
    if banked and seat == state.seat and state.over is None:
        marked_at = state.g.tables.zone_index["marked"]
        for pile in range(len(f.sites)):
            for design in state.z[marked_at + pile]:
                k = f.scorer.set_index[design]
                if k >= 0:
                    counts[k] += 1
                else:
                    specials += 1
    return evaluate_counts(f, counts, wilds) + SPECIAL_VALUE * specials


def _placed(state: DataState) -> int:
    """Markers the active seat placed this turn: its markers less those it has left."""
    return facts(state.g).markers - state.c[state.g.tables.counter_index["markers"]]


def _step(state: DataState) -> str:
    f = facts(state.g)
    return f.step_ids[state.step] if 0 <= state.step < len(f.step_ids) else ""


def _settle(state: DataState, seat: int) -> None:
    """Let every other seat's Sabotage window pass (the planner assumes no Sabotage in its search)."""
    f = facts(state.g)
    let = f.action("sabotage.let_stand")
    while state.over is None and state.current_player() not in (CHANCE, seat) and _step(state) == "sabotage":
        state.apply_action(let)


def _expected(state: DataState, seat: int, depth: int) -> float:
    """The expected value of a position waiting for the dice: every outcome with its probability, then marking at best."""
    total = 0.0
    for outcome, prob in state.chance_outcomes():
        child = state.clone()
        child.apply_action(outcome)
        _settle(child, seat)
        total += prob * _resolve_value(child, seat, depth)
    return total


def _options(state: DataState, keys: Sequence[str]) -> list[Action]:
    g = state.g
    return [a for a in state.legal_actions() if key_of(g, a)[0] in keys]


def _resolve_value(state: DataState, seat: int, depth: int) -> float:
    """Best value over the ways of marking the pending roll."""
    if state.over is not None or state.current_player() != seat or _step(state) != "resolve":
        return evaluate(state, seat, banked=False)
    return max((_resolve_value_of(state, seat, a, depth) for a in _options(state, MARKS)), default=evaluate(state, seat, banked=False))


def _roll_value(state: DataState, seat: int, depth: int, action: Action | None = None) -> float:
    """Expected value of rolling now (``decide.roll``, or ``action``: a Reroll card or a burn), over the exact dice."""
    child = state.clone()
    child.apply_action(facts(state.g).action("decide.roll") if action is None else action)
    if child.current_player() != CHANCE:
        return _resolve_value(child, seat, depth)
    return _expected(child, seat, depth)


def _may_roll(state: DataState) -> bool:
    return _placed(state) < facts(state.g).markers


def _decide_value(state: DataState, seat: int, depth: int) -> float:
    """Value of a roll-or-stop decision with ``depth`` rolls of look-ahead."""
    placed = _placed(state)
    stop = evaluate(state, seat) if placed else NEGATIVE
    if depth <= 0 or not _may_roll(state):
        return stop if placed else evaluate(state, seat)
    return max(stop, _roll_value(state, seat, depth))


def roll_or_stop_values(state: DataState, depth: int) -> tuple[float, float]:
    """(value of stopping, value of rolling) for the player to move at a roll-or-stop decision."""
    seat = state.current_player()
    stop = evaluate(state, seat) if _placed(state) else NEGATIVE
    roll = _roll_value(state, seat, max(depth, 1)) if _may_roll(state) else NEGATIVE
    return stop, roll


def _resolve_value_of(state: DataState, seat: int, action: Action, depth: int) -> float:
    child = state.clone()
    child.apply_action(action)
    if child.over is None and child.current_player() == seat and _step(child) == "take":
        child.apply_action(_best_take(child, seat))
    if child.over is not None or child.seat != seat or _step(child) != "decide":
        return evaluate(child, seat, banked=False)
    value = _decide_value(child, seat, depth - 1)
    if key_of(state.g, action)[0] in SPENDS_A_CARD:
        value -= SPECIAL_VALUE
    return value


def _gain_with(state: DataState, seat: int, design: int) -> float:
    f = facts(state.g)
    counts, wilds = _own(state, seat)
    k = f.scorer.set_index[design]
    if k >= 0:
        counts[k] += 1
    return evaluate_counts(f, counts, wilds)


def _loss_without(state: DataState, seat: int, design: int) -> float:
    f = facts(state.g)
    counts, wilds = _own(state, seat)
    before = evaluate_counts(f, counts, wilds)
    k = f.scorer.set_index[design]
    if k >= 0 and counts[k]:
        counts[k] -= 1
    return before - evaluate_counts(f, counts, wilds)


def _card_worth(state: DataState, seat: int, design: int) -> float:
    """What one more card is worth to ``seat``: its pottery gain, or a flat special value."""
    f = facts(state.g)
    if not f.pottery[design]:
        return SPECIAL_VALUE
    counts, wilds = _own(state, seat)
    return _gain_with(state, seat, design) - evaluate_counts(f, counts, wilds)


def _best_take(state: DataState, seat: int) -> Action:
    return max(state.legal_actions(), key=lambda a: (_gain_with(state, seat, key_of(state.g, a)[1]), -a))


def _best_sort(state: DataState, seat: int, legal: list[Action]) -> Action | None:
    """Sort a stack when a card below the markers is worth clearly more to ``seat`` than the card that would be
    marked next; the new order then puts the cards from most to least valuable (see the ``arrange`` choices)."""
    g = state.g
    stacks_at = g.tables.zone_index["stacks"]
    best, best_gain = None, SORT_THRESHOLD
    for a in legal:
        key, pile = key_of(g, a)
        if key != "decide.sort":
            continue
        rest = list(reversed(state.z[stacks_at + pile]))
        if not rest:
            continue
        gain = max(_card_worth(state, seat, card) for card in rest) - _card_worth(state, seat, rest[0])
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _roll_worth_to_roller(state: DataState, seat: int) -> float:
    """How much the pending roll is worth to the roller compared with busting now (``seat`` lets it stand to see)."""
    roller = state.seat
    probe = state.clone()
    probe.apply_action(facts(state.g).action("sabotage.let_stand"))
    _settle(probe, roller)
    if probe.over is not None or probe.current_player() != roller or _step(probe) != "resolve":
        return 0.0
    best = max((_resolve_value_of(probe, roller, a, 1) for a in _options(probe, MARKS)), default=0.0)
    return best - evaluate(state, roller, banked=False)


def expectimax_action(state: DataState, depth: int) -> Action:
    """The planner's action for the seat to move, looking ``depth`` rolls ahead (depth >= 1)."""
    if state.current_player() == CHANCE or state.is_terminal():
        raise ValueError("expectimax_action needs a decision of a player")
    g = state.g
    f = facts(g)
    legal = state.legal_actions()
    seat = state.current_player()
    depth = max(depth, 1)
    keyed = [(key_of(g, a), a) for a in legal]
    keys = {key for (key, _), _ in keyed}
    if keys == {"arrange"}:  # Sort's new order, from the top down: the most valuable card first
        return max(legal, key=lambda a: (_card_worth(state, seat, key_of(g, a)[1]), -a))
    step = _step(state)
    if step == "decide":
        trash = [a for (key, _), a in keyed if key.startswith("decide.trash_")]
        if trash:
            return max(trash, key=lambda a: (_card_worth(state, seat, key_of(g, a)[1]), -a))
        sort = _best_sort(state, seat, legal)
        if sort is not None:
            return sort
        roll, stop = f.action("decide.roll"), f.action("decide.stop")
        if roll not in legal:
            return stop
        if stop not in legal:
            return roll
        stop_value, roll_value = roll_or_stop_values(state, depth)
        return roll if roll_value > stop_value else stop
    if step == "resolve":
        best_action, best_value = legal[0], NEGATIVE
        for (key, _), a in keyed:
            if key in MARKS:
                value = _resolve_value_of(state, seat, a, depth)
                if value > best_value:
                    best_action, best_value = a, value
        for (key, parameter), a in keyed:
            if key == "resolve.reroll":
                cost = SPECIAL_VALUE
            elif key == "resolve.burn":
                cost = _loss_without(state, seat, parameter)
            else:
                continue
            if _roll_value(state, seat, depth, a) - cost > best_value + 1e-9:
                best_action, best_value = a, _roll_value(state, seat, depth, a) - cost
        return best_action
    if step == "take":
        return _best_take(state, seat)
    if step in ("steal", "trash_steal"):
        steals = [a for (key, _), a in keyed if key.endswith(".steal")]
        if steals:
            return max(steals, key=lambda a: (_steal_value(state, seat, a), -a))
    if step == "sabotage":
        sabotage = [a for (key, _), a in keyed if key == "sabotage.sabotage"]
        let = f.action("sabotage.let_stand")
        if sabotage and let in legal:
            return sabotage[0] if _roll_worth_to_roller(state, seat) >= SABOTAGE_THRESHOLD else let
    return legal[0]


def _steal_value(state: DataState, seat: int, action: Action) -> float:
    g = state.g
    victim, design = divmod(key_of(g, action)[1], g.card_width)
    return _gain_with(state, seat, design) + _loss_without(state, victim, design)


class ExpectimaxAgent(Agent):
    """The planner as an engine agent: ``keramikos-expectimax[:depth]`` (default depth 2)."""

    name = "keramikos-expectimax"

    def __init__(self, depth: int = 2) -> None:
        self.depth = depth

    def choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """The planner's choice; falls back to a random legal action on a foreign state."""
        if not isinstance(state, DataState):
            return legal[int(rng.random() * len(legal))]
        return expectimax_action(state, self.depth)


def make_expectimax_agent(game: Game, param: str | None) -> Agent:
    """Agent factory for :func:`cardgen.engine.agents.register_agent`: Keramikos' data game only."""
    try:
        known = facts(game)
    except TypeError:
        raise ValueError("keramikos-expectimax only plays Keramikos") from None
    missing = [key for key in WANTED if key not in known.options]
    if missing:
        raise ValueError(f"keramikos-expectimax only plays Keramikos (the rules have no option {', '.join(missing)})")
    depth = 2
    if param:
        try:
            depth = int(param)
        except ValueError:
            raise ValueError(f"keramikos-expectimax takes a depth after ':', not {param!r}") from None
        if not 1 <= depth <= 6:
            raise ValueError("keramikos-expectimax depth must be 1 to 6")
    return ExpectimaxAgent(depth)
