"""Agents that choose actions: random, one-ply greedy and a UCT planner.

Every agent draws its randomness from the generator the playout hands it, so
a game played by agents is as reproducible as its seed. Agents are looked up
by name (``"random"``, ``"greedy"``, ``"mcts"``, optionally with a parameter
after a colon such as ``"mcts:400"``) through :func:`make_agent`; a game
package may add a specialised planner with :func:`register_agent`.
"""

from __future__ import annotations

import math
import random
from typing import Callable

from cardgen.engine.core import CHANCE, Action, Game, Seat, State
from cardgen.limits import MAX_AGENT_BUDGET


class Agent:
    """Chooses one of the legal actions for the seat to move."""

    name: str = "agent"

    def reset(self, game: Game) -> None:
        """Called once before each game; agents that keep memory clear it here."""

    def choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """One of ``legal`` (never empty, more than one action) for ``state.current_player()``."""
        raise NotImplementedError


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """A uniformly random member of ``legal``."""
        return legal[int(rng.random() * len(legal))]


def _rank_rewards(state: State, num_players: int, low: int, high: int) -> list[float]:
    """Each seat's reward in [0, 1] for the position: rank share, nudged by score margin.

    Solo: the score scaled to the game's score bounds. Several seats: 0.8 of
    the reward is the share of opponents the seat beats (ties count half) and
    0.2 is its margin over the best opponent scaled by the score range.
    """
    scores = state.scores()
    span = float(high - low) or 1.0
    if num_players == 1:
        return [min(1.0, max(0.0, (scores[0] - low) / span))]
    rewards = [0.0] * num_players
    placed = 0
    for group in state.ranking():
        placed += len(group)
        below = num_players - placed
        share = (below + 0.5 * (len(group) - 1)) / (num_players - 1)
        for seat in group:
            rewards[seat] = 0.8 * share
    for seat in range(num_players):
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        margin = (scores[seat] - best_other) / span
        rewards[seat] += 0.2 * (min(1.0, max(-1.0, margin)) + 1.0) / 2.0
    return rewards


class GreedyAgent(Agent):
    """One-ply lookahead: the action whose result ``game.greedy_value`` rates highest.

    When the action leads to a chance step with at most ``chance_limit``
    outcomes, the value is the probability-weighted average over them. Ties
    are broken with the playout's generator.
    """

    name = "greedy"

    def __init__(self, game: Game, chance_limit: int = 36) -> None:
        self.game = game
        self.chance_limit = chance_limit

    def reset(self, game: Game) -> None:
        """Follow the game being played."""
        self.game = game

    def _value(self, state: State, seat: Seat) -> float:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if 0 < len(outcomes) <= self.chance_limit:
                total = 0.0
                for outcome, probability in outcomes:
                    after = state.clone()
                    after.apply_action(outcome)
                    total += probability * self.game.greedy_value(after, seat)
                return total
        return self.game.greedy_value(state, seat)

    def choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """The best-rated action, ties broken at random."""
        seat = state.current_player()
        best: list[Action] = []
        best_value = -math.inf
        for action in legal:
            after = state.clone()
            after.apply_action(action)
            value = self._value(after, seat)
            if value > best_value + 1e-12:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[int(rng.random() * len(best))]


class _Node:
    """A search-tree node: visits, per-seat reward totals and children by action."""

    __slots__ = ("children", "untried", "visits", "totals")

    def __init__(self, num_players: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.untried: list[Action] | None = None
        self.visits = 0
        self.totals = [0.0] * num_players


class MctsAgent(Agent):
    """UCT (Kocsis and Szepesvari) with uniformly random rollouts.

    Each decision runs ``budget`` iterations from the current position. Chance
    steps are sampled with their probabilities, so a node's value averages over
    them. Every seat maximises its own reward (rank share and margin, see
    :func:`_rank_rewards`), which handles solo and multiplayer games alike.

    The planner sees the whole position, hidden deck order included: it is a
    strong reference player for the skill gradient, not a fair opponent.
    """

    name = "mcts"

    def __init__(self, game: Game, budget: int = 200, exploration: float = 1.0) -> None:
        self.game = game
        self.budget = max(1, budget)
        self.exploration = exploration
        self._set_bounds(game)

    def _set_bounds(self, game: Game) -> None:
        info = game.info()
        self._low, self._high, self._bound = info.min_score, info.max_score, info.max_game_length

    def reset(self, game: Game) -> None:
        """Follow the game being played."""
        self.game = game
        self._set_bounds(game)

    def choose(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """The root action visited most after ``budget`` iterations."""
        num_players = self.game.num_players
        root = _Node(num_players)
        root.untried = list(legal)
        rng.shuffle(root.untried)
        c = self.exploration
        for _ in range(self.budget):
            node = root
            path = [root]
            movers: list[Seat] = []
            current = state.clone()
            while not current.is_terminal():
                player = current.current_player()
                if player == CHANCE:
                    action = current.sample_chance(rng)
                    child = node.children.get(action)
                    if child is None:
                        child = node.children[action] = _Node(num_players)
                    current.apply_action(action)
                    node = child
                    path.append(node)
                    movers.append(CHANCE)
                    continue
                if node.untried is None:
                    node.untried = current.legal_actions()
                    rng.shuffle(node.untried)
                if node.untried:
                    action = node.untried.pop()
                    child = node.children[action] = _Node(num_players)
                    current.apply_action(action)
                    path.append(child)
                    movers.append(player)
                    break
                if not node.children:
                    break  # a dead end: the checks report it; the planner just scores it
                log_n = math.log(node.visits + 1)
                best_score = -math.inf
                best_action = -1
                for action, child in node.children.items():
                    score = child.totals[player] / child.visits + c * math.sqrt(log_n / child.visits)
                    if score > best_score:
                        best_score, best_action = score, action
                current.apply_action(best_action)
                node = node.children[best_action]
                path.append(node)
                movers.append(player)
            rewards = self._rollout(current, rng)
            for visited in path:
                visited.visits += 1
                totals = visited.totals
                for seat in range(num_players):
                    totals[seat] += rewards[seat]
        best = max(root.children.items(), key=lambda item: (item[1].visits, -item[0]))
        return best[0]

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        steps = 0
        while not state.is_terminal() and steps < self._bound:
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                if not legal:
                    break
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        return _rank_rewards(state, self.game.num_players, self._low, self._high)


AgentFactory = Callable[[Game, "str | None"], Agent]
"""Builds an agent for a game; the second argument is the text after ``name:`` (or None)."""

_AGENTS: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make an agent available by ``name`` (a game package may add its own planner)."""
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    """Every registered agent name, sorted."""
    from cardgen.games import load_game_packages

    load_game_packages()
    return sorted(_AGENTS)


def _int_param(name: str, param: str | None, default: int) -> int:
    if param is None or param == "":
        return default
    try:
        value = int(param)
    except ValueError:
        raise ValueError(f"agent {name!r} takes a whole number after ':', not {param!r}") from None
    if value < 1:
        raise ValueError(f"agent {name!r} needs a positive number after ':', not {value}")
    if value > MAX_AGENT_BUDGET:
        raise ValueError(f"agent {name!r} may spend at most {MAX_AGENT_BUDGET:,} per decision (MAX_AGENT_BUDGET), not {value:,}")
    return value


def make_agent(spec: str, game: Game) -> Agent:
    """Build the agent named by ``spec`` (``name`` or ``name:param``) for ``game``.

    Raises ValueError for an unknown name, listing the known ones.
    """
    from cardgen.games import load_game_packages

    load_game_packages()
    name, _, param = spec.strip().partition(":")
    factory = _AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(sorted(_AGENTS))})")
    agent = factory(game, param or None)
    agent.name = spec.strip()
    return agent


register_agent("random", lambda game, param: RandomAgent())
register_agent("greedy", lambda game, param: GreedyAgent(game, _int_param("greedy", param, 36)))
register_agent("mcts", lambda game, param: MctsAgent(game, _int_param("mcts", param, 200)))
