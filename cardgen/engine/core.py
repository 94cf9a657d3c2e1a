"""The game API every rules module implements (after OpenSpiel's Game/State split).

A :class:`Game` is immutable: it is built once from a validated spec and a
player count and holds the fixed facts (decks, numbers, bounds). A
:class:`State` is one position: who is to move, their legal actions, how an
action changes the state, chance steps (dice) and, at the end, the scores.

Randomness only ever comes from the seed given to :meth:`Game.new_initial_state`
(the setup shuffle) and from chance steps, whose outcome is an action like any
other: the simulator samples it from a generator it is handed, a solver can
enumerate :meth:`State.chance_outcomes`, and a replay just applies the recorded
outcome. One (spec, player count, seed, actions) therefore always reaches one
state.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from collections.abc import Container
from typing import Callable, ClassVar, Sequence

from cardgen.spec.contract import RulesContract
from cardgen.spec.models import Spec

Seat = int
Action = int

CHANCE: Seat = -1
"""The 'player' who moves at a chance step (a die roll)."""
TERMINAL: Seat = -4
"""The 'player' to move once the game is over."""


class Termination(Enum):
    """Why a game ended; each rules module names its own reasons with these tags."""

    NORMAL = "normal"
    DECK_EXHAUSTED = "deck exhausted"
    NO_LEGAL_MOVES = "no player can move"
    HANDS_EMPTY = "hands played out"
    TURN_LIMIT = "turn limit reached"


@dataclass(frozen=True)
class GameInfo:
    """Fixed facts about a game at one player count, used by the checks and the harness."""

    num_players: int
    max_game_length: int
    """An upper bound on the number of actions (including chance steps) in any game."""
    min_score: int
    max_score: int


class State(ABC):
    """One position of a game. Mutable: :meth:`apply_action` changes it in place."""

    @abstractmethod
    def current_player(self) -> Seat:
        """The seat to move, :data:`CHANCE` at a chance step, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The sorted legal actions of the seat to move (chance outcomes at a chance step); empty when over."""

    @abstractmethod
    def apply_action(self, action: Action) -> None:
        """Play ``action`` (or the chance outcome ``action``)."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def scores(self) -> list[int]:
        """The score of every seat as the rules count it (final once terminal)."""

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy."""

    @abstractmethod
    def action_to_string(self, action: Action) -> str:
        """A readable description of ``action`` from the position before it is applied."""

    @abstractmethod
    def fingerprint(self) -> tuple[object, ...]:
        """A hashable, complete description of the position (two states are equal when these are)."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance step, every outcome with its probability (default: none)."""
        return []

    def is_chance_node(self) -> bool:
        """Whether the next action is a chance outcome."""
        return self.current_player() == CHANCE

    def ranking(self) -> list[list[Seat]]:
        """Seats grouped from first place down, ties in one group (default: by score only)."""
        scores = self.scores()
        order = sorted(set(scores), reverse=True)
        return [[seat for seat, s in enumerate(scores) if s == value] for value in order]

    def termination(self) -> Termination | None:
        """Why the game ended, once it has."""
        return Termination.NORMAL if self.is_terminal() else None

    def conservation_errors(self) -> list[str]:
        """Broken invariants: a piece in two places or none, scores not matching the position."""
        return []

    def summary(self) -> str:
        """The position in a few readable words, for playthroughs (default: none)."""
        return ""

    def usage(self) -> dict[str, int]:
        """Counters of things used so far, keyed 'kind:id' (cards played, patterns completed...).

        The reachability check sums these over playouts; anything the game
        declares in :meth:`Game.usage_keys` that is never counted is a finding.
        """
        return {}

    def state_hash(self) -> str:
        """A stable hex digest of :meth:`fingerprint`."""
        return hashlib.sha256(repr(self.fingerprint()).encode()).hexdigest()[:16]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and type(other) is type(self) and self.fingerprint() == other.fingerprint()

    def __hash__(self) -> int:
        return hash(self.fingerprint())

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw one chance outcome with ``rng`` according to :meth:`chance_outcomes`."""
        outcomes = self.chance_outcomes()
        pick = rng.random()
        total = 0.0
        for action, probability in outcomes:
            total += probability
            if pick < total:
                return action
        return outcomes[-1][0]


class Game(ABC):
    """An immutable game: a spec's facts at one player count."""

    rules_id: ClassVar[str]
    """The id a spec names in its ``rules`` key to use this module."""
    contract: ClassVar[RulesContract | None] = None
    """What this rules module reads from a spec (see :mod:`cardgen.spec.contract`); the validator checks
    every spec naming this module against it before anything is simulated."""

    def __init__(self, spec: Spec, num_players: int) -> None:
        lo, hi = spec.players.min, spec.players.max
        if not lo <= num_players <= hi:
            raise ValueError(f"{spec.id} plays with {lo} to {hi} players, not {num_players}")
        self.spec = spec
        self.num_players = num_players

    @abstractmethod
    def info(self) -> GameInfo:
        """Bounds on length and scores for this player count."""

    @abstractmethod
    def new_initial_state(self, seed: int) -> State:
        """The position after setup, dealt from a generator seeded with ``seed``."""

    def usage_keys(self) -> list[str]:
        """Every 'kind:id' the reachability check expects to see used in some playout."""
        return []

    def proven_unusable(self) -> dict[str, str]:
        """Usage keys this game can never use at this player count, each with the reason (a bound).

        The coverage check reports a key proved here as an error; a key no game happened to use,
        without a proof, is only a warning.
        """
        return {}

    def greedy_value(self, state: State, seat: Seat) -> float:
        """The greedy agent's evaluation of ``state`` for ``seat`` (default: score margin)."""
        scores = state.scores()
        best_other = max((s for i, s in enumerate(scores) if i != seat), default=0)
        return float(scores[seat] - best_other) if len(scores) > 1 else float(scores[seat])


GameFactory = Callable[[Spec, int], Game]
_REGISTRY: dict[str, GameFactory] = {}
_CONTRACTS: dict[str, RulesContract | None] = {}


def register_game(rules_id: str, factory: GameFactory, contract: RulesContract | None = None) -> None:
    """Make a rules module available to specs that name ``rules_id``.

    ``contract`` is what the module reads from a spec; by default the factory's own ``contract``
    (a Game class declares it as a class attribute).
    """
    _REGISTRY[rules_id] = factory
    _CONTRACTS[rules_id] = contract if contract is not None else getattr(factory, "contract", None)


def registered_rules() -> list[str]:
    """The ids of every registered rules module, sorted."""
    from cardgen.games import load_game_packages

    load_game_packages()
    return sorted(_REGISTRY)


def _load_registering(rules_id: str, registry: Container[str]) -> None:
    """Import what registers ``rules_id``: its own game package first, every package only when that does not."""
    from cardgen.games import load_game_package, load_game_packages

    load_game_package(rules_id)
    if rules_id not in registry:
        load_game_packages()


def rules_registered(rules_id: str) -> bool:
    """Whether a rules module is registered as ``rules_id`` (importing its own game package, or every one when it has none)."""
    _load_registering(rules_id, _REGISTRY)
    return rules_id in _REGISTRY


def spec_contract(spec: Spec) -> RulesContract | None:
    """What the spec's rules read: the named module's contract, or the one its rules data implies."""
    if spec.rules_data is not None:
        from cardgen.engine.mechanics import mechanic_declaration
        from cardgen.spec.rules_check import derived_contract
        from cardgen.spec.mechanic_declaration import with_mechanics

        found = [mechanic_declaration(name) for name in spec.rules_data.mechanics]
        return with_mechanics(derived_contract(spec, spec.rules_data), [d for d in found if d is not None])
    return contract_for(spec.rules_module) if spec.rules_module is not None else None


def contract_for(rules_id: str) -> RulesContract | None:
    """The contract of the rules module registered as ``rules_id`` (None: unknown, or it declares none)."""
    _load_registering(rules_id, _CONTRACTS)
    return _CONTRACTS.get(rules_id)


def make_game(spec: Spec, num_players: int) -> Game:
    """Build the Game for a spec at a player count through the registry."""
    if spec.rules is None:
        raise LookupError(f"spec {spec.id!r} names no rules module; it can be validated and rendered but not simulated")
    if spec.rules_data is not None:
        from cardgen.engine.interpreter import DataGame  # the generic interpreter, part of this layer

        return DataGame(spec, num_players)
    assert spec.rules_module is not None
    _load_registering(spec.rules_module, _REGISTRY)
    factory = _REGISTRY.get(spec.rules_module)
    if factory is None:
        from cardgen.games import package_errors

        broken = "; ".join(f"package {name} failed to import ({error})" for name, error in sorted(package_errors().items()))
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise LookupError(f"no rules module {spec.rules_module!r} is registered (known: {known}){'; ' + broken if broken else ''}")
    return factory(spec, num_players)


def play_actions(game: Game, seed: int, actions: Sequence[Action]) -> State:
    """Replay ``actions`` from the initial state for ``seed``; raises ValueError on an illegal one."""
    state = game.new_initial_state(seed)
    for ply, action in enumerate(actions):
        if action not in state.legal_actions():
            raise ValueError(f"action {action} at ply {ply} is not legal")
        state.apply_action(action)
    return state


@dataclass(frozen=True)
class Solution:
    """An exact solver's answer for one deal: the value, proved, and a line of play reaching it."""

    value: float
    """The optimal value (for one seat's score, or a score margin; ``detail`` says which)."""
    actions: tuple[Action, ...]
    """One optimal sequence of actions from the initial state; replaying it reaches ``value``."""
    proved: bool
    """Whether the search was exhaustive (True) or stopped at a budget (False: a lower bound)."""
    nodes: int
    """Positions searched."""
    detail: str = ""
    """What ``value`` measures, e.g. 'solo score' or 'first player's margin'."""
    information: str = ""
    """What the solver knows that the players may not (e.g. the deck order); empty when it knows only what they do."""
    notes: tuple[str, ...] = ()
    """Further figures the solver found, one readable line each."""


Solver = Callable[[Game, int], Solution]
"""Solve the deal of ``seed`` for a game: ``solver(game, seed)``."""
_SOLVERS: dict[str, Solver] = {}


def register_solver(rules_id: str, solver: Solver) -> None:
    """Make an exact solver available for games whose spec names ``rules_id``."""
    _SOLVERS[rules_id] = solver


def solver_for(rules_id: str) -> Solver | None:
    """The exact solver registered for ``rules_id``, if any."""
    _load_registering(rules_id, _SOLVERS)
    return _SOLVERS.get(rules_id)
