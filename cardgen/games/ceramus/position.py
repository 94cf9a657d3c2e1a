"""A Ceramus position as the solvers and figures read it, taken from a data game's state through the mechanic.

The solo solver (:mod:`.solo_search`, :mod:`.solver`) and the rulebook figures read a position as plain facts:
each cell's Original, the style it shows and its owner, the reserves, the Shape cards in each hand (a bitmask
by the Shape's index in its deck), where each Ceramas card is (:data:`~.geometry.ON_TABLE`,
:data:`~.geometry.USED` or the seat holding it) and whether the round is about to begin (:data:`~.geometry.REVEAL`),
over (:data:`~.geometry.OVER`) or under way. :func:`view` reads them off a
:class:`~cardgen.engine.interpreter.DataState` through the ``ceramus_mural`` mechanic's slice and the rules
data's zones; the reference engine of the tests has the same attributes and is read the same way.

A move is named the same way for every engine (:func:`move_name`): ``reveal SHAPE``, ``skip``, ``use CARD``,
``build P`` (``P`` = style * cells + the Shape's top-left cell, mirrored or not as the position says), ``pass``,
``add P`` (cell * styles + style), ``remove CELL``, ``move P`` (cell * 4 + direction) and ``stop``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from cardgen.engine.core import Action, State
from cardgen.engine.interpreter import DataState
from cardgen.games.ceramus.geometry import BONUS, BUILD, EFFECT_KINDS, ON_TABLE, OVER, REVEAL, USED, Geometry
from cardgen.games.ceramus.mechanic import NAME, CeramusMural, Mural

MoveNamer = Callable[[State, Action], str]
"""An engine's name of one of its actions in a position (see :func:`move_name`)."""


class MuralFacts(Protocol):
    """What the readers of a position need to know of the game: its Shapes, Ceramas cards, styles, tiles and points."""

    shape_ids: list[str]
    shape_size: list[int]
    card_ids: list[str]
    card_kind: list[int]
    card_count: list[int]
    nstyles: int
    points_on: int
    points_reserve: int
    tiles_per_player: int
    tiles_per_style: int
    when_wanted: bool


class MuralPosition(Protocol):
    """A position's facts (see the module's docstring)."""

    @property
    def game(self) -> MuralFacts: ...
    @property
    def geo(self) -> Geometry: ...
    @property
    def n(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def orig(self) -> Sequence[int]: ...
    @property
    def owner(self) -> Sequence[int]: ...
    @property
    def vstyle(self) -> Sequence[int]: ...
    @property
    def pool(self) -> Sequence[int]: ...
    @property
    def hands(self) -> Sequence[int]: ...
    @property
    def holder(self) -> Sequence[int]: ...


@dataclass
class GameView:
    """:class:`MuralFacts` of a data game, read from its ``ceramus_mural`` mechanic and its rule option."""

    shape_ids: list[str]
    shape_size: list[int]
    card_ids: list[str]
    card_kind: list[int]
    card_count: list[int]
    nstyles: int
    points_on: int
    points_reserve: int
    tiles_per_player: int
    tiles_per_style: int
    when_wanted: bool
    style_ids: list[str]
    style_names: list[str]
    style_symbols: list[str]


@dataclass
class PositionView:
    """:class:`MuralPosition` of a data game's state (a snapshot: lists copied out of the slice and the zones)."""

    game: GameView
    geo: Geometry
    n: int
    phase: int
    orig: list[int]
    owner: list[int]
    vstyle: list[int]
    pool: list[int]
    hands: list[int]
    holder: list[int]
    first: int
    shape: int
    """This round's Shape by its index (-1 before the reveal)."""


def mural_mechanic(state: DataState) -> CeramusMural:
    """The ``ceramus_mural`` mechanic of a data game's state."""
    mechanic = state.g.mechanic(NAME)
    assert isinstance(mechanic, CeramusMural)
    return mechanic


def game_view(state: DataState) -> GameView:
    """The facts of ``state``'s game, as the solvers read them."""
    mechanic = mural_mechanic(state)
    spec = state.g.spec
    rules = spec.rules_data
    assert rules is not None
    ceramas = next(d for d in spec.decks if d.id == "ceramas")
    styles = next(p for p in spec.palettes if p.id == "styles")
    effects = [card.effect or "" for card in ceramas.cards]
    timing = spec.options.get("bonus_timing", rules.options["bonus_timing"].default if "bonus_timing" in rules.options else "when_wanted")
    return GameView(
        shape_ids=list(mechanic.shape_ids),
        shape_size=list(mechanic.shape_size),
        card_ids=list(mechanic.card_ids),
        card_kind=[EFFECT_KINDS.get(effect, BUILD) for effect in effects],
        card_count=[mechanic.counts.get(effect, 0) for effect in effects],
        nstyles=mechanic.nstyles,
        points_on=mechanic.points_on,
        points_reserve=mechanic.points_reserve,
        tiles_per_player=mechanic.tiles_per_player,
        tiles_per_style=mechanic.tiles_per_style,
        when_wanted=timing == "when_wanted",
        style_ids=list(mechanic.style_ids),
        style_names=list(mechanic.style_names),
        style_symbols=[entry.symbol for entry in styles.entries],
    )


def at_round_start(state: DataState) -> bool:
    """Whether ``state`` waits for a round's reveal (no action of the round taken yet)."""
    return not state.is_terminal() and state.step >= 0 and state.g.rules.turn[state.step].id == "reveal"


def view(state: DataState) -> PositionView:
    """The facts of ``state`` (see the module's docstring)."""
    g = state.g
    mechanic = mural_mechanic(state)
    m: Mural = state.m[mechanic.index]
    n = g.num_players
    hands = []
    for seat in range(n):
        mask = 0
        for design in state.z[g.slot("hand", seat)]:
            mask |= 1 << (design - mechanic.shape_first)
        hands.append(mask)
    holder = [USED] * len(mechanic.card_ids)
    for design in state.z[g.slot("row")]:
        holder[design - mechanic.card_first] = ON_TABLE
    for seat in range(n):
        for design in state.z[g.slot("won", seat)]:
            holder[design - mechanic.card_first] = seat
    phase = OVER if state.is_terminal() else REVEAL if at_round_start(state) else BONUS
    played = state.z[g.slot("played")]
    first = (state.seat - (state.turn - 1) % n) % n
    return PositionView(
        game=game_view(state), geo=mechanic.geo, n=n, phase=phase, orig=list(m.orig), owner=list(m.owner), vstyle=list(m.vstyle),
        pool=list(m.pool), hands=hands, holder=holder, first=first,
        shape=played[-1] - mechanic.shape_first if played and phase != REVEAL else -1,
    )


def move_name(state: State, action: Action) -> str:
    """A data game's action by its name for every engine (see the module's docstring)."""
    assert isinstance(state, DataState)
    g = state.g
    index, parameter = divmod(action, g.width)
    name = g.options[index].key.split(".")[-1]
    if name in ("reveal", "use"):
        return f"{name} {g.card_ids[parameter]}"
    if name in ("skip", "pass", "stop"):
        return name
    if name == "build_mirrored":
        return f"build {parameter}"
    return f"{name} {parameter}"
