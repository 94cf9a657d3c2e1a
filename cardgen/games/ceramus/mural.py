"""The slice of a Ceramus position the mechanic ``ceramus_mural`` keeps: the Mural's cells, tiles and reserves.

Every cell shows its Original style until a tile covers it; a cell holds at most one tile. The position is kept
in flat lists and bitmasks (one bit per cell), kept in step by :meth:`Mural.put` and :meth:`Mural.lift`, so that
finding the placements of a Shape is a handful of integer operations per candidate (as the former rules module did).
"""

from __future__ import annotations

IDLE = 0
"""No bonus waits for its targets (see :mod:`cardgen.games.ceramus.mechanic` for the other kinds)."""


class Mural:
    """The mechanic's slice: the cells (Original, style shown, owner), bitmasks kept in step, reserves, the bonus waiting."""

    __slots__ = ("orig", "owner", "vstyle", "vis", "own", "covered", "pool", "on", "laid", "pending", "left", "moved", "placed", "built")

    def __init__(self) -> None:
        self.orig: tuple[int, ...] = ()
        """The Original style of each cell (fixed once the Mural is laid; shared between copies)."""
        self.owner: list[int] = []
        """The seat whose tile covers each cell (-1: none)."""
        self.vstyle: list[int] = []
        """The style each cell shows: its tile's, else its Original's."""
        self.vis: list[int] = []
        """Per style, the bitmask of cells showing it."""
        self.own: list[int] = []
        """Per seat, the bitmask of cells holding its tiles."""
        self.covered = 0
        self.pool: list[int] = []
        """Tiles in reserve, per seat and style (``seat * styles + style``)."""
        self.on: list[int] = []
        """Tiles on the Mural, per seat."""
        self.laid: tuple[int, ...] = ()
        """The Mural cards' designs laid into the grid (held outside the zones)."""
        self.pending = IDLE
        self.left = 0
        """Targets the bonus being carried out may still take."""
        self.moved = 0
        """Cells a tile was moved to by the bonus being carried out (it does not move again)."""
        self.placed: tuple[int, ...] = ()
        """The cells the last build laid tiles on (what ``claim`` looks at)."""
        self.built = 0
        """The Shapes built so far, one bit per Shape (for the usage counts; not part of the position)."""

    def copy(self) -> "Mural":
        """An independent copy (the Originals and the cards laid are shared: they never change)."""
        other = Mural.__new__(Mural)
        other.orig, other.laid = self.orig, self.laid
        other.owner, other.vstyle, other.vis, other.own = list(self.owner), list(self.vstyle), list(self.vis), list(self.own)
        other.covered, other.pool, other.on = self.covered, list(self.pool), list(self.on)
        other.pending, other.left, other.moved, other.placed, other.built = self.pending, self.left, self.moved, self.placed, self.built
        return other

    def put(self, cell: int, seat: int, style: int, styles: int) -> None:
        """Put a tile of ``seat`` in ``style`` from their reserve on ``cell``, breaking whatever tile was there
        (``styles``: how many styles there are)."""
        bit = 1 << cell
        if self.owner[cell] >= 0:
            self.lift(cell, styles)
        self.vis[self.vstyle[cell]] &= ~bit
        self.vis[style] |= bit
        self.vstyle[cell] = style
        self.owner[cell] = seat
        self.own[seat] |= bit
        self.covered |= bit
        self.pool[seat * styles + style] -= 1
        self.on[seat] += 1

    def lift(self, cell: int, styles: int) -> None:
        """Take the tile off ``cell`` and return it to its owner's reserve."""
        bit = 1 << cell
        seat, style, base = self.owner[cell], self.vstyle[cell], self.orig[cell]
        self.pool[seat * styles + style] += 1
        self.on[seat] -= 1
        self.own[seat] &= ~bit
        self.covered &= ~bit
        self.owner[cell] = -1
        self.vis[style] &= ~bit
        self.vis[base] |= bit
        self.vstyle[cell] = base
