"""Named mechanics: the registry, and the class a game package subclasses to play a rule the vocabulary lacks.

A game package (``cardgen/games/<pkg>/``) or an installed distribution (the
``cardgen.games`` entry-point group) calls :func:`register_mechanic` once with a
:class:`Mechanic` subclass whose ``declaration`` says what it offers and reads
(:class:`cardgen.spec.mechanic_declaration.MechanicDeclaration`). The interpreter makes
one instance per :class:`~cardgen.engine.interpreter.DataGame` (one player count),
which compiles what it needs from the spec once, as the hand-written engines do.

A mechanic's position lives in the state as its own *slice* (``state.m[index]``,
any value the mechanic makes in :meth:`Mechanic.start`): the state copies it with
:meth:`Mechanic.clone`, compares positions through :meth:`Mechanic.fingerprint`
and counts the cards it holds (:meth:`Mechanic.held`) with the zones' when it checks
conservation, adding :meth:`Mechanic.errors`. Its actions are numbered inside the
interpreter's own numbering: an option using the mechanic's action ``A`` is offered
as ``option * W + p`` for every parameter ``p`` that :meth:`Mechanic.actions` gives,
``0 <= p < width``. Nothing in the generic layers names a game; an exception raised
by a mechanic is a bug in cardgen (exit 3), as in any engine.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable

from cardgen.spec.mechanic_declaration import MechanicDeclaration

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataGame, DataState
    from cardgen.spec.models import Spec

SetupFunction = Callable[["DataState", random.Random], None]
ActionsFunction = Callable[["DataState", int], list[int]]
"""The parameters of a mechanic's action the seat may choose in the position."""
ActFunction = Callable[["DataState", int, int], None]
"""Carry out the action with a parameter for a seat."""
EffectFunction = Callable[["DataState", int, int], None]
ScoreFunction = Callable[["DataState", int], int]
ConditionFunction = Callable[["DataState"], bool]
QueryFunction = Callable[["DataState", int, int], bool]
"""A condition asked in an expression (``mechanic(NAME, CONDITION)``): ``f(state, seat, card)``, the seat the expression is
about and the card of a card choice's ``where`` (0 elsewhere)."""


class Mechanic(ABC):
    """A named mechanic compiled for one data game at one player count."""

    declaration: ClassVar[MechanicDeclaration]

    def __init__(self, game: "DataGame", index: int) -> None:
        self.game = game
        self.index = index
        """Where this mechanic's slice sits in ``DataState.m``."""

    # -- the state slice -----------------------------------------------------------------------------

    @abstractmethod
    def start(self) -> Any:
        """A fresh slice for a new position (before setup)."""

    @abstractmethod
    def clone(self, part: Any) -> Any:
        """An independent copy of a slice."""

    @abstractmethod
    def fingerprint(self, part: Any) -> object:
        """A hashable value equal for slices that are the same position."""

    def held(self, part: Any) -> Iterable[int]:
        """The card designs the slice holds outside the zones (each once per copy), for conservation."""
        return ()

    def summary(self, part: Any) -> str:
        """The slice in a few readable words for a position's summary (playthroughs); none by default."""
        return ""

    def errors(self, state: "DataState") -> list[str]:
        """What is wrong with the slice in ``state`` (a card held twice, a stale cache); none by default."""
        return []

    # -- the uses the declaration names ------------------------------------------------------------

    def setup(self, name: str) -> SetupFunction:
        """The setup step ``name``."""
        raise NotImplementedError(f"mechanic {self.declaration.name!r} has no setup step {name!r}")

    def width(self, name: str) -> int:
        """How many parameters action ``name`` can take (its parameters lie in ``range(width)``)."""
        raise NotImplementedError(f"mechanic {self.declaration.name!r} has no action {name!r}")

    def actions(self, name: str) -> ActionsFunction:
        """The parameters of action ``name`` the seat may choose in a position."""
        raise NotImplementedError(f"mechanic {self.declaration.name!r} has no action {name!r}")

    def act(self, name: str) -> ActFunction:
        """Carry out action ``name`` with a parameter."""
        raise NotImplementedError(f"mechanic {self.declaration.name!r} has no action {name!r}")

    def describe(self, name: str, state: "DataState", parameter: int) -> str:
        """Action ``name`` with ``parameter`` in words (for logs and playthroughs), before it is applied."""
        return str(parameter)

    def effect(self, name: str) -> EffectFunction:
        """The effect ``name`` as ``f(state, seat, card)``."""
        raise NotImplementedError(f"mechanic {self.declaration.name!r} has no effect {name!r}")

    def score(self, name: str) -> ScoreFunction:
        """The score ``name`` as ``f(state, seat)``."""
        raise NotImplementedError(f"mechanic {self.declaration.name!r} has no score {name!r}")

    def condition(self, name: str) -> ConditionFunction:
        """The condition ``name`` as ``f(state)`` (an end condition: whether the game is over)."""
        raise NotImplementedError(f"mechanic {self.declaration.name!r} has no condition {name!r}")

    def query(self, name: str) -> QueryFunction:
        """The condition ``name`` as ``f(state, seat, card)`` for an expression; by default :meth:`condition`, which
        reads neither the seat nor the card."""
        condition = self.condition(name)
        return lambda state, seat, card: condition(state)

    def score_bound(self, name: str) -> int:
        """The largest absolute value score ``name`` can give (bounds the game's scores)."""
        return 0

    def usage_keys(self) -> list[str]:
        """Extra 'kind:id' usage keys the mechanic reports (see :meth:`usage`)."""
        return []

    def usage(self, state: "DataState") -> dict[str, int]:
        """Counts of the mechanic's own usage keys in ``state``."""
        return {}

    def proven_unusable(self) -> dict[str, str]:
        """Usage keys of the mechanic proved unusable at this player count, with the reason."""
        return {}


_MECHANICS: dict[str, type[Mechanic]] = {}


def register_mechanic(mechanic: type[Mechanic]) -> None:
    """Make ``mechanic`` available to rules data naming ``mechanic.declaration.name`` (a game package calls this once)."""
    name = mechanic.declaration.name
    known = _MECHANICS.get(name)
    if known is not None and known is not mechanic:
        raise ValueError(f"mechanic {name!r} is registered twice ({known.__module__} and {mechanic.__module__})")
    _MECHANICS[name] = mechanic


def mechanic_class(name: str) -> type[Mechanic] | None:
    """The mechanic registered as ``name`` (None: unknown); its own game package is imported first, every one
    only when that does not register it (see :func:`cardgen.games.load_game_package`)."""
    from cardgen.games import load_game_package, load_game_packages

    load_game_package(name)
    if name not in _MECHANICS:
        load_game_packages()
    return _MECHANICS.get(name)


def mechanic_declaration(name: str) -> MechanicDeclaration | None:
    """What the mechanic registered as ``name`` declares (None: unknown)."""
    found = mechanic_class(name)
    return found.declaration if found is not None else None


def registered_mechanics() -> list[str]:
    """The names of every registered mechanic, sorted."""
    from cardgen.games import load_game_packages

    load_game_packages()
    return sorted(_MECHANICS)


def make_mechanics(game: "DataGame", names: Iterable[str]) -> list[Mechanic]:
    """One instance of each named mechanic for ``game``, in order (ValueError for a name nothing registered)."""
    made: list[Mechanic] = []
    for index, name in enumerate(names):
        found = mechanic_class(name)
        if found is None:
            known = ", ".join(registered_mechanics()) or "none"
            raise ValueError(f"no mechanic {name!r} is registered (known: {known})")
        made.append(found(game, index))
    return made


def game_package(spec: "Spec") -> str | None:
    """The id a spec's game package registered its layouts, figures and solver under.

    The rules module a spec names; for rules data, the package of its first registered mechanic, else the
    spec's own id (a game package may keep the widgets, layouts and figures of a game written wholly as data,
    as Mausoleum Guardians' does: see ``Spec.package_id``); None without rules.
    """
    if spec.rules_module is not None:
        return spec.rules_module
    rules = spec.rules_data
    if rules is None:
        return None
    for name in rules.mechanics:
        declaration = mechanic_declaration(name)
        if declaration is not None:
            return declaration.package
    return spec.package_id
