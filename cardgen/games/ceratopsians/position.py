"""A Ceratopsians position as the solvers and figures read it, taken from a data game's state through the mechanic.

The solvers (:mod:`.solver`, :mod:`.information`) and the rulebook figures read a position
as plain facts: the deck from its top, each card's side, the boneyard's slots, both
collections as faces with their canonical keys, the drafts made. :func:`position` reads them
off a :class:`~cardgen.engine.interpreter.DataState` through the ``ceratopsians`` mechanic's
slice and the rules data's zones; anything else with the same attributes (the reference
engine of the tests) is read the same way (:class:`DraftView`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from cardgen.engine.core import Action, Game, State
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.games.ceratopsians.assembly import Arrangement, DisplayScorer, Joint
from cardgen.games.ceratopsians.faces import Skulls
from cardgen.games.ceratopsians.mechanic import NAME, Boneyard
from cardgen.spec.models import Spec


class DraftFacts(Protocol):
    """The fixed facts a position's readers need: the deal's size, the scorer, the faces' geometry."""

    spec: Spec
    num_players: int
    drafts_per_player: int
    scorer: DisplayScorer
    pair_points: int
    card_ids: list[str]
    part_ids: list[str]
    face_part: list[int]
    part_cell: list[tuple[int, int]]

    @property
    def joints(self) -> Sequence[Joint]: ...


class DraftView(Protocol):
    """A position: the deck ``order[top:]`` from its top, sides by card, the boneyard (a card or -1 per slot), faces drafted."""

    @property
    def game(self) -> DraftFacts: ...
    @property
    def order(self) -> Sequence[int]: ...
    @property
    def top(self) -> int: ...
    @property
    def sides(self) -> Sequence[int]: ...
    @property
    def bone(self) -> Sequence[int]: ...
    @property
    def drafts(self) -> int: ...
    @property
    def collections(self) -> Sequence[Sequence[int]]: ...
    @property
    def keys(self) -> Sequence[int]: ...


class Facts(Skulls):
    """The skull facts of a data game with the deal's size (the rules data's ``numbers.drafts_per_player``)."""

    def __init__(self, game: DataGame, mechanic: Boneyard) -> None:
        skulls = mechanic.skulls
        self.__dict__.update(skulls.__dict__)
        self.spec = game.spec
        self.num_players = game.num_players
        self.drafts_per_player = game.spec.numbers["drafts_per_player"]


@dataclass
class Draft:
    """One position's facts (see :class:`DraftView`)."""

    game: Facts
    order: tuple[int, ...]
    top: int
    sides: list[int]
    bone: list[int]
    drafts: int
    collections: list[list[int]]
    keys: list[int]

    def arrangement(self, seat: int) -> Arrangement:
        """One best arrangement of ``seat``'s collection into displays."""
        return self.game.scorer.best(self.collections[seat])[1]


_FACTS: dict[int, Facts] = {}


def boneyard_of(game: Game) -> Boneyard:
    """The ``ceratopsians`` mechanic of a data game (TypeError for any other game)."""
    if isinstance(game, DataGame):
        for mechanic in game.mechanics:
            if isinstance(mechanic, Boneyard):
                return mechanic
    raise TypeError(f"a Ceratopsians position needs a data game using the mechanic {NAME!r}")


def facts(game: Game) -> Facts:
    """The facts of a data game using the mechanic (made once per Game)."""
    known = _FACTS.get(id(game))
    if known is None or known.spec is not getattr(game, "spec", None):
        assert isinstance(game, DataGame)
        known = _FACTS[id(game)] = Facts(game, boneyard_of(game))
    return known


def position(state: State) -> Draft:
    """The facts of a data game's position (a copy: changing it changes nothing in ``state``)."""
    assert isinstance(state, DataState)
    mechanic = boneyard_of(state.g)
    sides, bone, _ = state.m[mechanic.index]
    first = mechanic.first
    collections = [[2 * (d - first) + sides[d - first] for d in state.z[slot]] for slot in mechanic.collections]
    scorer = mechanic.skulls.scorer
    return Draft(
        game=facts(state.g),
        order=tuple(d - first for d in reversed(state.z[mechanic.deck])),
        top=0,
        sides=list(sides),
        bone=list(bone),
        drafts=sum(len(c) for c in collections),
        collections=collections,
        keys=[scorer.key(c) for c in collections],
    )


def draft_action(game: Game, slot: int) -> Action:
    """The data game's action that drafts from ``slot`` (the option using the mechanic's ``draft``)."""
    assert isinstance(game, DataGame)
    option = next(o for o in game.options if o.mechanic is not None and o.mechanic[1] == "draft")
    return option.index * game.width + slot


def draft_slot(game: Game, action: Action) -> int:
    """The slot a data game's draft action takes from."""
    assert isinstance(game, DataGame)
    return action % game.width
