"""Play one whole game with one agent per seat and record what happened.

A playout is fully determined by the game, the agents and the seed: the setup
shuffle comes from ``game.new_initial_state(seed)`` and every other random
choice (chance steps, the agents' tie breaks and rollouts) from one
:class:`random.Random` seeded from the same seed. A playout never loops
forever: after ``game.info().max_game_length`` actions it stops and is marked
as timed out, which the checks report as a finding.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import CHANCE, Action, Game, State

if TYPE_CHECKING:
    from cardgen.engine.agents import Agent

TIMEOUT = "timeout"
"""The termination recorded when a playout passes the game's length bound."""
DEAD_END = "dead end"
"""The termination recorded when a non-terminal state offers no legal action."""
CRASH = "engine error"
"""The termination recorded when the rules module raised an exception."""


def playout_rng(seed: int) -> random.Random:
    """The generator a playout draws chance steps and agent choices from.

    It is seeded from ``seed`` but is not the generator of the setup shuffle,
    so the agents' draws do not mirror the deal.
    """
    return random.Random(f"cardgen-playout:{seed}")


@dataclass
class PlayoutResult:
    """Everything the checks need to know about one finished (or stopped) game."""

    seed: int
    num_players: int
    agents: tuple[str, ...]
    actions: list[Action] = field(default_factory=list)
    """Every action in order, chance outcomes included."""
    scores: list[int] = field(default_factory=list)
    ranking: list[list[int]] = field(default_factory=list)
    termination: str = ""
    """The game's own termination tag, or TIMEOUT / DEAD_END / CRASH."""
    decisions: int = 0
    """Decision points: plies where a seat (not chance) had to act."""
    forced: int = 0
    """Decision points with exactly one legal action."""
    branching_total: int = 0
    """Sum of the number of legal actions over all decision points."""
    branching_max: int = 0
    """The most legal actions seen at one decision point."""
    usage: dict[str, int] = field(default_factory=dict)
    timed_out: bool = False
    dead_end: bool = False
    error: str = ""
    """The exception text when the rules module raised one."""
    conservation: list[str] = field(default_factory=list)
    """Invariants broken in the final position."""

    @property
    def length(self) -> int:
        """Actions played, chance steps included."""
        return len(self.actions)

    @property
    def completed(self) -> bool:
        """Whether the game reached a terminal state by its own rules."""
        return not (self.timed_out or self.dead_end or self.error)


def play_game(
    game: Game,
    agents: Sequence["Agent"],
    seed: int,
    *,
    check_conservation: bool = True,
) -> PlayoutResult:
    """Play the deal of ``seed`` to the end with ``agents[seat]`` choosing for each seat.

    Exceptions raised by the rules module are caught and recorded in
    ``error`` so one broken game does not stop a whole batch of checks.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{len(agents)} agents for {game.num_players} seats")
    result = PlayoutResult(seed=seed, num_players=game.num_players, agents=tuple(a.name for a in agents))
    bound = game.info().max_game_length
    rng = playout_rng(seed)
    draw = rng.random
    actions = result.actions
    record = actions.append
    # Uniformly random seats are played here rather than through choose():
    # the same draw from the same generator, without a method call per action.
    all_random = all(type(agent) is RandomAgent for agent in agents)
    state: State | None = None
    decisions = forced = branching_total = branching_max = 0
    played = 0
    try:
        state = game.new_initial_state(seed)
        for agent in agents:
            agent.reset(game)
        # The State API calls, bound once (a rules module never swaps its methods mid-game).
        is_terminal = state.is_terminal
        current_player = state.current_player
        legal_actions = state.legal_actions
        apply_action = state.apply_action
        chance_outcomes = state.chance_outcomes
        own_sampler = type(state).sample_chance is not State.sample_chance
        while not is_terminal():
            if played >= bound:
                result.timed_out = True
                break
            player = current_player()
            if player == CHANCE:
                outcomes = chance_outcomes()
                if not outcomes:
                    result.dead_end = True
                    break
                if own_sampler:
                    action = state.sample_chance(rng)
                else:
                    # State.sample_chance, inlined on the outcomes already fetched.
                    pick = draw()
                    total = 0.0
                    action = outcomes[-1][0]
                    for outcome, probability in outcomes:
                        total += probability
                        if pick < total:
                            action = outcome
                            break
            else:
                legal = legal_actions()
                count = len(legal)
                if count == 0:
                    result.dead_end = True
                    break
                decisions += 1
                branching_total += count
                if count > branching_max:
                    branching_max = count
                if count == 1:
                    forced += 1
                    action = legal[0]
                elif all_random:
                    action = legal[int(draw() * count)]
                else:
                    action = agents[player].choose(state, legal, rng)
            apply_action(action)
            record(action)
            played += 1
    except Exception as error:  # the rules module's bug, recorded for the report
        result.error = f"{type(error).__name__}: {error}"
    result.decisions, result.forced = decisions, forced
    result.branching_total, result.branching_max = branching_total, branching_max
    if state is not None:
        try:
            result.scores = list(state.scores())
            result.ranking = [list(group) for group in state.ranking()]
            result.usage = dict(state.usage())
            if check_conservation:
                result.conservation = list(state.conservation_errors())
            tag = state.termination()
        except Exception as error:
            result.error = result.error or f"{type(error).__name__}: {error}"
            tag = None
    else:
        tag = None
    if result.error:
        result.termination = CRASH
    elif result.timed_out:
        result.termination = TIMEOUT
    elif result.dead_end:
        result.termination = DEAD_END
    else:
        result.termination = tag.value if tag is not None else "normal"
    return result
