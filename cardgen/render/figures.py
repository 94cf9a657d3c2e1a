"""Pictures of a game drawn from its engine: what a game package tells the rulebook about a position.

The rulebook shows setup diagrams, a worked turn and scored positions drawn
from the engine's own states, so their counts are right by construction. This
module holds the generic vocabulary for that and the registry, and knows no
game:

* a :class:`TableView` says what lies on the table in one engine state: zones
  (a face-down pile, a face-up row or grid, a seat's hand, its pieces, its
  collection) with the count read off the state and, where the cards are face
  up, which spec card (or palette entry) each one is;
* a :class:`GameFigures` is what a game package registers for its rules id
  (:func:`register_figures`, from ``cardgen/games/<pkg>/figures.py``): how to
  read a :class:`TableView` off a state, optionally how to say an action in a
  language, and optionally positions it draws itself (a scored board) as a
  :class:`~cardgen.render.scene.Scene` with the state they show.

The views carry spec ids, never words: the rulebook fills in the titles and
card names in its language (through its catalogs and the spec) before
:func:`cardgen.render.table_figure.draw_table` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal

from cardgen.engine.core import Action, Game, State
from cardgen.render.scene import Scene

ZoneKind = Literal["pile", "discard", "row", "grid", "cells", "hand", "pieces", "collection"]
"""What a zone is: a face-down ``pile``, a face-up ``discard`` pile, a face-up ``row`` or ``grid`` of cards, a
board of coloured ``cells`` (one palette entry each, ``columns`` wide, a heavier line every ``block`` cells), a
seat's ``hand`` (face down to the others), a seat's ``pieces``, or the cards a seat keeps face up in front of
them (``collection``)."""


@dataclass(frozen=True)
class Mark:
    """One face-up card or piece shown on its own: a spec card of the zone's deck (``card``) or a palette entry.

    ``text`` and ``fill`` are left empty by the game and filled in by whoever labels the view (the rulebook:
    the card's name in its language, the entry's colour).
    """

    card: str = ""
    face: int = -1
    """Which face of a two-sided card shows (-1: the card's only face)."""
    entry: str = ""
    owner: int = -1
    """The seat whose piece lies on it (a tile on a board's cell), -1 for none."""
    depth: int = 1
    """Cards in this place: a stack shows its top card (``card``) with the rest behind it; 0 is an empty place."""
    text: str = ""
    fill: str | None = None


@dataclass(frozen=True)
class Zone:
    """A place on the table and what it holds, read off an engine state.

    ``source`` is a deck id (cards) or a component id (pieces) of the spec; ``count`` is how many cards or
    pieces the state has there; ``seat`` is the owner (None: shared); ``marks`` are the face-up cards in order
    (a grid's row by row, ``columns`` wide); ``entry`` is the palette entry of a zone of pieces of one kind.
    ``title`` is filled in by the labeller.
    """

    kind: ZoneKind
    source: str
    count: int
    seat: int | None = None
    marks: tuple[Mark, ...] = ()
    columns: int = 0
    entry: str = ""
    palette: str = ""
    """The palette of the marks' and the zone's entries (default: the component's own palette)."""
    block: int = 0
    title: str = ""
    heading: str = ""
    """The name of the source alone (filled in by the labeller): the title of neighbouring zones of pieces drawn as one."""


@dataclass(frozen=True)
class TableView:
    """Everything on the table in one state: the shared zones and each seat's."""

    seats: int
    zones: tuple[Zone, ...] = field(default_factory=tuple)

    def shared(self) -> list[Zone]:
        """The zones nobody owns, in order."""
        return [zone for zone in self.zones if zone.seat is None]

    def of_seat(self, seat: int) -> list[Zone]:
        """The zones of ``seat``, in order."""
        return [zone for zone in self.zones if zone.seat == seat]


@dataclass(frozen=True)
class Position:
    """A position a game draws itself (a scored board, a tableau and what scores in it), with the state it shows.

    ``text`` says what the picture shows, in the figure's language; the rulebook adds the scores it reads from
    ``state``. ``scene`` is in mm (y down), any size; the rulebook scales it to its text width.
    """

    scene: Scene
    state: State
    text: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Words:
    """The names a game needs to say an action or caption a position in one language, from the spec and catalogs.

    ``seat(i)`` names seat i ("Player 1"); ``card(deck, card, face)`` a card (``face`` -1 for its only face);
    ``entry(palette, entry)`` a palette entry; ``number(n)`` formats a count for the locale.
    """

    locale: str
    seat: Callable[[int], str]
    card: Callable[[str, str, int], str]
    entry: Callable[[str, str], str]
    number: Callable[[int], str]

    def phrase(self, table: dict[str, str]) -> str:
        """The entry of ``table`` (locale -> text) for this locale; English when the game has no wording in it."""
        return table.get(self.locale) or table.get(self.locale.split("_")[0]) or table["en"]


TableFn = Callable[[State], TableView]
DescribeFn = Callable[[State, Action, Words], str]
"""Say ``action`` (legal in ``state``, before it is applied) as a player would, with ``Words``' language."""
PositionsFn = Callable[[Game, int, Words], list[Position]]
"""The positions a game draws for ``game`` from the deal of a seed, in ``Words``' language."""


@dataclass(frozen=True)
class GameFigures:
    """What a game package offers the rulebook's pictures (see the module docstring)."""

    table: TableFn
    describe: DescribeFn | None = None
    positions: PositionsFn | None = None


def cell_label(column: int, row: int) -> str:
    """A board cell as players read it off the picture: the column's letter and the row's number, from A1 at the top left."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row + 1}"


_FIGURES: dict[str, GameFigures] = {}


def register_figures(rules_id: str, figures: GameFigures) -> None:
    """Offer ``figures`` for games whose spec names ``rules_id``."""
    _FIGURES[rules_id] = figures


def registered_figures(rules_id: str) -> GameFigures | None:
    """The figures registered for ``rules_id`` (the caller loads the game packages' figure modules first)."""
    return _FIGURES.get(rules_id)
