"""The Mural's geometry and the words of a Ceramus position, shared by the mechanic, the solvers and the figures.

The Mural is a grid of cells (``cells_per_card_side`` by ``cells_per_card_side`` per Mural card). A Shape is
placed by its top-left cell, never turned (clarification 5), mirrored only by the mirror bonus (12); a pattern
lies where its rows fit (6). :class:`Geometry` works out every placement, every pattern occurrence and every
cell's neighbours once per Mural size, as bitmasks (one bit per cell). The constants below name the phases of a
turn and where a Ceramas card is, as the solvers and the tests' reference engine read positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from cardgen.spec.models import Spec
from cardgen.spec.source import PathKey

# Phases.
REVEAL, BONUS, BUILD, ADD, REMOVE, MOVE, OVER = range(7)

# Where a Ceramas card is (any value >= 0 is the seat holding it).
ON_TABLE = -1
USED = -2

# Bonus kinds, by effect id.
EFFECT_KINDS = {"add_tile": ADD, "remove_tile": REMOVE, "mirror_shape": BUILD, "move_one": MOVE, "move_two": MOVE}
EFFECT_COUNT_NUMBER = {
    "add_tile": "add_tile_count",
    "remove_tile": "remove_tile_count",
    "move_one": "move_one_max_tiles",
    "move_two": "move_two_max_tiles",
}

# Directions for moves: up, right, down, left.
DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIRECTION_NAMES = ("up", "right", "down", "left")


def mirror_symmetric(cells: Sequence[tuple[int, int]]) -> bool:
    """Whether a Shape is its own left-to-right mirror image (then a mirror bonus changes nothing)."""
    if not cells:
        return True
    left, right = min(x for x, _ in cells), max(x for x, _ in cells)
    return {(left + right - x, y) for x, y in cells} == set(cells)


def mirror_without_asymmetric_shapes(spec: Spec) -> Iterator[tuple[PathKey, str]]:
    """A mirror bonus changes nothing when every Shape is its own mirror image (shapes are never turned)."""
    shapes = next((d for d in spec.decks if d.id == "shapes"), None)
    ceramas = next(((i, d) for i, d in enumerate(spec.decks) if d.id == "ceramas"), None)
    if shapes is None or ceramas is None:
        return
    asymmetric = []
    for card in shapes.cards:
        raw = card.data.get("cells")
        cells = [(int(c[0]), int(c[1])) for c in raw if isinstance(c, list) and len(c) == 2] if isinstance(raw, list) else []
        if cells and not mirror_symmetric(cells):
            asymmetric.append(card.id)
    if asymmetric:
        return
    d_index, deck = ceramas
    for c_index, card in enumerate(deck.cards):
        if card.effect == "mirror_shape":
            yield ("decks", d_index, "cards", c_index, "effect"), f"card {card.id!r} mirrors the Shape, and every Shape is its own mirror image"


def rotate_grid(grid: Sequence[Sequence[int]], quarter_turns: int) -> list[list[int]]:
    """``grid`` (a square of rows) turned clockwise by ``quarter_turns`` quarter turns."""
    out = [list(row) for row in grid]
    for _ in range(quarter_turns % 4):
        n = len(out)
        out = [[out[n - 1 - c][r] for c in range(n)] for r in range(n)]
    return out


@dataclass(frozen=True)
class Occurrence:
    """One place a Ceramas pattern can lie on the Mural: its cells grouped by letter."""

    mask: int
    groups: tuple[tuple[int, ...], ...]


class Geometry:
    """Everything precomputed for one Mural size: placements of shapes and patterns, neighbours."""

    def __init__(self, width: int, height: int, shapes: Sequence[Sequence[tuple[int, int]]], patterns: Sequence[Sequence[str]]) -> None:
        self.width = width
        self.height = height
        self.cells = width * height
        # placements[shape][mirrored] = list of (position, mask, cells); position = top-left cell index
        self.placements: list[tuple[list[tuple[int, int, tuple[int, ...]]], list[tuple[int, int, tuple[int, ...]]]]] = []
        for cells in shapes:
            self.placements.append((self._place(cells), self._place(self.mirror(cells))))
        # at[shape][mirrored][position] = (mask, cells)
        self.at: list[tuple[dict[int, tuple[int, tuple[int, ...]]], ...]] = [
            tuple({pos: (mask, idx) for pos, mask, idx in variant} for variant in pair) for pair in self.placements
        ]
        # occurrences[card] = list of Occurrence; by_cell[card][cell] = indexes into occurrences[card]
        self.occurrences: list[list[Occurrence]] = []
        self.by_cell: list[list[tuple[int, ...]]] = []
        for rows in patterns:
            occs = self._pattern_occurrences(rows)
            self.occurrences.append(occs)
            lists: list[list[int]] = [[] for _ in range(self.cells)]
            for index, occ in enumerate(occs):
                for group in occ.groups:
                    for cell in group:
                        lists[cell].append(index)
            self.by_cell.append([tuple(x) for x in lists])
        # neighbours[cell][direction] = cell or -1
        self.neighbours: list[tuple[int, int, int, int]] = []
        for cell in range(self.cells):
            x, y = cell % width, cell // width
            around = []
            for dx, dy in DIRECTIONS:
                nx, ny = x + dx, y + dy
                around.append(ny * width + nx if 0 <= nx < width and 0 <= ny < height else -1)
            self.neighbours.append((around[0], around[1], around[2], around[3]))

    @staticmethod
    def mirror(cells: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """The shape flipped left to right (clarification 12), kept at column 0."""
        right = max(x for x, _ in cells)
        return sorted((right - x, y) for x, y in cells)

    def _place(self, cells: Sequence[tuple[int, int]]) -> list[tuple[int, int, tuple[int, ...]]]:
        out = []
        w = max(x for x, _ in cells) + 1
        h = max(y for _, y in cells) + 1
        for oy in range(self.height - h + 1):
            for ox in range(self.width - w + 1):
                idx = tuple((oy + y) * self.width + ox + x for x, y in cells)
                mask = 0
                for i in idx:
                    mask |= 1 << i
                out.append((oy * self.width + ox, mask, idx))
        return out

    def _pattern_occurrences(self, rows: Sequence[str]) -> list[Occurrence]:
        h = len(rows)
        w = len(rows[0])
        letters = sorted({ch for row in rows for ch in row if ch != "."})
        out = []
        for oy in range(self.height - h + 1):
            for ox in range(self.width - w + 1):
                groups = []
                mask = 0
                for letter in letters:
                    group = tuple((oy + y) * self.width + ox + x for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == letter)
                    for cell in group:
                        mask |= 1 << cell
                    groups.append(group)
                out.append(Occurrence(mask, tuple(groups)))
        return out
