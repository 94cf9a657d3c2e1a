"""A dedicated exact search for solo Ceramus over a compact bit-board position.

In a solo game the only tiles on the Mural are the player's own, so a position
at the start of a round is fully described by

* ``tiles``: one cell mask per style, the cells covered by a tile of that style
  (their union is the covered mask; the reserve of a style is the number of
  tiles per style minus the tiles of that style on the Mural);
* ``hand``: a mask of the Shape cards still in hand;
* ``table`` and ``held``: masks of the Ceramas cards still in the row and held
  by the player (a card in neither has been used).

A search node is one whole turn: reveal a shape, use held cards (with their
targets), then build the shape (compulsory when possible) or pass. With
``options.bonus_timing: when_wanted`` any number of held cards may be used
before the build, in any order, and after it (a card just claimed included);
with ``start_of_turn`` at most one, before it. In a solo game a card used after
one turn's build leaves the same position as the same card used before the
next turn's build, and the end check between them cannot tell the two apart (a
held card with a target keeps the game going), so uses after the build are
searched on the last turn only, where no next turn follows.
The rules are the game's (the rules data with the mechanic :mod:`cardgen.games.ceramus.mechanic`) specialised to
one player, where "does not hold your own tile" means "is not covered", so an
uncovered cell always shows its Original:

* a build of shape placement ``mask`` in style ``s`` is legal when ``mask``
  misses every covered cell, exactly one of its cells has an Original of ``s``
  (the anchor, which stays uncovered) and the reserve of ``s`` holds the other
  squares' tiles;
* Add lays one tile of a style in reserve on an uncovered cell whose Original
  is of another style; Remove lifts any tile; Move slides a tile (not one moved
  this turn) to an uncovered orthogonal neighbour whose Original differs from
  the tile's style, Move up to 2 may stop after the first slide;
* after a build every Ceramas card in the row whose pattern has an occurrence
  touching a tile laid by the build, all its cells covered, one style per
  letter and different styles for different letters, is claimed;
* the game ends when the hand is empty, or when no shape in hand can be built
  (mirrored too while a Mirror card is held) and no held Add, Remove or Move
  card has a target (clarification 13).

Nodes are memoised on ``(tiles, hand, table, held)`` with either the exact
value or an upper bound (fail-soft search), probed MTD-style from a sound upper
bound (see :meth:`SoloSearch.bound`) downwards. The best line is translated to
engine actions by replaying it through the engine, move by move by name (:func:`engine_actions`), so
the same search serves the data game (:func:`cardgen.games.ceramus.position.view`) and the tests' reference engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import NamedTuple

from cardgen.engine.core import Action, State
from cardgen.games.ceramus.geometry import ADD, BUILD, MOVE, ON_TABLE, OVER, REMOVE, REVEAL
from cardgen.games.ceramus.position import MoveNamer, MuralPosition

Tiles = tuple[int, ...]
Key = tuple[Tiles, int, int, int]

NEG = -(1 << 30)


Use = tuple[int, tuple[object, ...]]
"""One card used: its index and its targets, ``(cell, style)`` for Add, ``cell`` for Remove and
``(cell, direction)`` for Move (none for Mirror)."""


class Turn(NamedTuple):
    """One solo turn: the shape revealed, the cards used before the build in order, the build, and the
    cards used after it (``build`` is ``(style, top-left cell)`` or ``None`` for a pass)."""

    shape: int
    uses: tuple[Use, ...]
    build: tuple[int, int] | None
    after: tuple[Use, ...] = ()


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _distinct(options: list[int], used: int) -> bool:
    """Whether one style can be picked from each mask in ``options``, all different and not in ``used``."""
    if not options:
        return True
    first = options[0] & ~used
    while first:
        low = first & -first
        if _distinct(options[1:], used | low):
            return True
        first ^= low
    return False


class SoloSearch:
    """Exact search for one solo position at the start of a round (phase REVEAL or OVER)."""

    def __init__(self, state: MuralPosition, node_budget: int | None = None) -> None:
        if state.n != 1:
            raise ValueError("the solo search plays solo games only")
        if state.phase not in (REVEAL, OVER):
            raise ValueError("the solo search starts at the beginning of a round")
        g = state.game
        geo = state.geo
        if g.points_on <= g.points_reserve:
            raise ValueError(
                "the solo search assumes a tile scores more on the Mural than in reserve"
            )
        self.state = state
        self.game = g
        self.ns = g.nstyles
        self.cells = geo.cells
        self.full = (1 << geo.cells) - 1
        self.tps = g.tiles_per_style
        self.tpp = g.tiles_per_player
        self.pon = g.points_on
        self.pres = g.points_reserve
        self.when_wanted = g.when_wanted
        orig = state.orig
        self.orig = orig
        self.omask = [
            sum(1 << c for c in range(geo.cells) if orig[c] == s)
            for s in range(self.ns)
        ]
        self.not_o = [self.full & ~m for m in self.omask]
        self.neigh = geo.neighbours
        # slide[cell][style]: the neighbours a tile of that style on that cell could slide to
        self.slide = [
            [
                sum(1 << y for y in geo.neighbours[x] if y >= 0 and orig[y] != st)
                for st in range(self.ns)
            ]
            for x in range(geo.cells)
        ]
        # slide_dirs[cell][style]: (direction, neighbour) pairs of those, in the engine's direction order
        self.slide_dirs = [
            [
                [(d, y) for d, y in enumerate(geo.neighbours[x]) if y >= 0 and orig[y] != st]
                for st in range(self.ns)
            ]
            for x in range(geo.cells)
        ]
        nshapes = len(g.shape_ids)
        self.need = [g.shape_size[i] - 1 for i in range(nshapes)]
        # builds[shape][mirrored] = [(mask, style, tile cells, top-left cell)], placements as the engine lists them
        self.builds: list[tuple[list[tuple[int, int, int, int]], ...]] = []
        for shape in range(nshapes):
            pair = []
            for mirrored in (0, 1):
                opts = []
                for pos, mask, _ in geo.placements[shape][mirrored]:
                    for s in range(self.ns):
                        anchor = mask & self.omask[s]
                        if anchor and not anchor & (anchor - 1):
                            opts.append((mask, s, mask ^ anchor, pos))
                pair.append(opts)
            self.builds.append((pair[0], pair[1]))
        self.kind = list(g.card_kind)
        self.count = list(g.card_count)
        ncards = len(g.card_ids)
        self.occ = [
            [
                (o.mask, tuple(sum(1 << c for c in grp) for grp in o.groups))
                for o in geo.occurrences[c]
            ]
            for c in range(ncards)
        ]
        self.kind_mask = {
            k: sum(1 << c for c in range(ncards) if self.kind[c] == k)
            for k in (ADD, REMOVE, MOVE, BUILD)
        }
        self.opening = self.kind_mask[REMOVE] | self.kind_mask[MOVE]
        self.add_remove = self.kind_mask[ADD] | self.kind_mask[REMOVE]
        # the root position
        tiles = [0] * self.ns
        for cell in range(geo.cells):
            if state.owner[cell] >= 0:
                tiles[state.vstyle[cell]] |= 1 << cell
        for s in range(self.ns):
            if state.pool[s] != self.tps - tiles[s].bit_count():
                raise ValueError("the reserve does not match the Mural")
        table = sum(1 << c for c, h in enumerate(state.holder) if h == ON_TABLE)
        held = sum(1 << c for c, h in enumerate(state.holder) if h == 0)
        self.root: Key = (
            tuple(tiles),
            state.hands[0] if state.phase != OVER else 0,
            table,
            held,
        )
        self.root_over = state.phase == OVER
        self.table: dict[Key, tuple[int, bool, Turn | None, Key | None, bool]] = {}
        self.claim_cache: dict[tuple[object, ...], bool] = {}
        self.pack_cache: dict[tuple[object, ...], int] = {}
        self.touch_cache: dict[tuple[int, int], list[tuple[int, int, tuple[int, ...]]]] = {}
        self.quick_cache: dict[tuple[object, ...], int] = {}
        self.nodes = 0
        self.expanded = 0
        # the full bound is computed only with at most this many Shape cards in hand; with more it
        # hardly ever cuts a branch the cheap bound keeps (measured on deals 0-19) and costs more
        self.full_bound_cards = 2
        self.budget = node_budget
        self.out_of_budget = False

    # --- scoring and the end -------------------------------------------------------------

    def score(self, on: int) -> int:
        """The solo score with ``on`` tiles on the Mural."""
        return on * self.pon + (self.tpp - on) * self.pres

    def _can_build(self, tiles: Tiles, cov: int, shape: int, mirrored: int) -> bool:
        need = self.need[shape]
        tps = self.tps
        for mask, s, _, _ in self.builds[shape][mirrored]:
            if not mask & cov and tps - tiles[s].bit_count() >= need:
                return True
        return False

    def is_over(self, key: Key) -> bool:
        """The engine's end check at the start of a round (clarification 13), for one player."""
        tiles, hand, _, held = key
        if not hand:
            return True
        cov = 0
        for t in tiles:
            cov |= t
        if held & self.kind_mask[REMOVE] and cov:
            return False
        if held & self.kind_mask[MOVE] and self._can_slide(tiles):
            return False
        mirror = bool(held & self.kind_mask[BUILD])
        for shape in _bits(hand):
            if self._can_build(tiles, cov, shape, 0) or (
                mirror and self._can_build(tiles, cov, shape, 1)
            ):
                return False
        if held & self.kind_mask[ADD]:
            free = self.full & ~cov
            for s in range(self.ns):
                if tiles[s].bit_count() < self.tps and free & self.not_o[s]:
                    return False
        return True

    # --- turns ----------------------------------------------------------------------------

    def _move_results(self, tiles: Tiles, moved: int) -> list[tuple[Tiles, int, int]]:
        """Every single slide: (new tiles, source cell, direction), tiles already moved excluded."""
        out = []
        cov = 0
        for t in tiles:
            cov |= t
        slide_dirs = self.slide_dirs
        for s, t in enumerate(tiles):
            for cell in _bits(t & ~moved):
                for d, dest in slide_dirs[cell][s]:
                    if not cov >> dest & 1:
                        nt = list(tiles)
                        nt[s] = (t & ~(1 << cell)) | (1 << dest)
                        out.append((tuple(nt), cell, d))
        return out

    def _can_slide(self, tiles: Tiles) -> bool:
        """Whether some tile has a neighbour to slide to (a Move card has a target)."""
        cov = 0
        for t in tiles:
            cov |= t
        free = self.full & ~cov
        slide = self.slide
        for s, t in enumerate(tiles):
            for cell in _bits(t):
                if slide[cell][s] & free:
                    return True
        return False

    def _card_results(self, tiles: Tiles, card: int) -> list[tuple[Tiles, tuple[object, ...]]]:
        """Every result of using ``card`` (not a Mirror) on ``tiles``, with its targets; none when it has no target."""
        kind = self.kind[card]
        if kind == ADD:
            return self._adds(tiles, self.count[card])
        if kind == REMOVE:
            return self._removes(tiles, self.count[card])
        return self._moves(tiles, self.count[card], 0, True)

    def _bonus_variants(
        self, tiles: Tiles, held: int, before: bool = True
    ) -> list[tuple[Tiles, int, bool, tuple[Use, ...]]]:
        """The possible card uses of one moment of a turn: (tiles, held after, mirrored, uses); first none.

        With one card a turn, before the build only: each single use. When wanted: every sequence of
        the held cards, each distinct result once; a Mirror only before the build (``before``).
        """
        out: list[tuple[Tiles, int, bool, tuple[Use, ...]]] = [(tiles, held, False, ())]
        if not self.when_wanted:
            if not before:
                return out
            for card in _bits(held):
                rest = held & ~(1 << card)
                if self.kind[card] == BUILD:
                    out.append((tiles, rest, True, ((card, ()),)))
                else:
                    for nt, targets in self._card_results(tiles, card):
                        out.append((nt, rest, False, ((card, targets),)))
            return out
        seen = {(tiles, held, False)}
        frontier = list(out)
        while frontier:
            nxt = []
            for vt, vheld, flipped, uses in frontier:
                for card in _bits(vheld):
                    rest = vheld & ~(1 << card)
                    if self.kind[card] == BUILD:
                        if not before or flipped:
                            continue
                        results: list[tuple[Tiles, tuple[object, ...]]] = [(vt, ())]
                        mirrored = True
                    else:
                        results = self._card_results(vt, card)
                        mirrored = flipped
                    for nt, targets in results:
                        k = (nt, rest, mirrored)
                        if k in seen:
                            continue
                        seen.add(k)
                        item = (nt, rest, mirrored, uses + ((card, targets),))
                        out.append(item)
                        nxt.append(item)
            frontier = nxt
        return out

    def _adds(self, tiles: Tiles, left: int) -> list[tuple[Tiles, tuple[object, ...]]]:
        """All results of an Add card with ``left`` tiles to lay (it goes on while a target remains)."""
        cov = 0
        for t in tiles:
            cov |= t
        out: list[tuple[Tiles, tuple[object, ...]]] = []
        free = self.full & ~cov
        for s in range(self.ns):
            if tiles[s].bit_count() >= self.tps:
                continue
            for cell in _bits(free & self.not_o[s]):
                nt = list(tiles)
                nt[s] |= 1 << cell
                ntt = tuple(nt)
                if left > 1:
                    more = self._adds(ntt, left - 1)
                    if more:
                        out.extend((r, ((cell, s),) + tg) for r, tg in more)
                        continue
                out.append((ntt, ((cell, s),)))
        return out

    def _removes(
        self, tiles: Tiles, left: int
    ) -> list[tuple[Tiles, tuple[object, ...]]]:
        out: list[tuple[Tiles, tuple[object, ...]]] = []
        for s, t in enumerate(tiles):
            for cell in _bits(t):
                nt = list(tiles)
                nt[s] = t & ~(1 << cell)
                ntt = tuple(nt)
                if left > 1 and any(ntt):
                    out.extend(
                        (r, (cell,) + tg) for r, tg in self._removes(ntt, left - 1)
                    )
                else:
                    out.append((ntt, (cell,)))
        return out

    def _moves(
        self, tiles: Tiles, left: int, moved: int, first: bool
    ) -> list[tuple[Tiles, tuple[object, ...]]]:
        out: list[tuple[Tiles, tuple[object, ...]]] = []
        for nt, cell, d in self._move_results(tiles, moved):
            dest = self.neigh[cell][d]
            out.append((nt, ((cell, d),)))  # stop here (or no target is left)
            if left > 1:
                out.extend(
                    (r, ((cell, d),) + tg)
                    for r, tg in self._moves(nt, left - 1, moved | 1 << dest, False)
                )
        return out

    def _claims(self, tiles: Tiles, cov: int, laid: int, table: int) -> int:
        """The Ceramas cards in ``table`` claimed by a build that laid the cells ``laid``."""
        ck = (laid, table)
        touching = self.touch_cache.get(ck)
        if touching is None:
            # the occurrences of the cards in the row that contain a laid cell (a claim needs one)
            touching = [
                (1 << card, mask, groups)
                for card in _bits(table)
                for mask, groups in self.occ[card]
                if mask & laid
            ]
            self.touch_cache[ck] = touching
        won = 0
        for bit, mask, groups in touching:
            if mask & cov != mask or won & bit:
                continue
            seen = 0
            for grp in groups:
                for s, t in enumerate(tiles):
                    if grp & t == grp:
                        break
                else:
                    break  # the letter's cells show more than one style
                if seen >> s & 1:
                    break  # two letters show the same style
                seen |= 1 << s
            else:
                won |= bit
        return won

    def children(self, key: Key) -> list[tuple[int, Key, Turn]]:
        """Every distinct position after one turn from ``key``, with a turn reaching it and the tiles it gained."""
        tiles, hand, table, held = key
        seen: dict[Key, tuple[int, Turn]] = {}
        tps = self.tps
        # per turn start: its tiles, covered cells, tiles on the Mural and reserves (shared by the shapes)
        starts = []
        for vt, vheld, flipped, uses in self._bonus_variants(tiles, held):
            cov = 0
            for t in vt:
                cov |= t
            pools = [tps - t.bit_count() for t in vt]
            starts.append((vt, vheld, 1 if flipped else 0, uses, cov, cov.bit_count(), pools))
        last = self.when_wanted and not hand & (hand - 1)  # the last turn: cards may follow the build

        def reach(child: Key, gain: int, turn: Turn) -> None:
            if child in seen:
                return
            seen[child] = (gain, turn)
            if last and child[3] & ~self.kind_mask[BUILD]:
                for at, aheld, _, after in self._bonus_variants(child[0], child[3], before=False)[1:]:
                    later = (at, child[1], child[2], aheld)
                    if later not in seen:
                        seen[later] = (sum(t.bit_count() for t in at), turn._replace(after=after))

        claims = self._claims
        for shape in _bits(hand):
            rest = hand & ~(1 << shape)
            need = self.need[shape]
            pair = self.builds[shape]
            for vt, vheld, mirrored, uses, cov, base_gain, pools in starts:
                built = False
                for mask, s, laid, pos in pair[mirrored]:
                    if mask & cov or pools[s] < need:
                        continue
                    built = True
                    nt = list(vt)
                    nt[s] |= laid
                    ntt = tuple(nt)
                    won = claims(ntt, cov | laid, laid, table) if table else 0
                    reach((ntt, rest, table & ~won, vheld | won), base_gain + need, Turn(shape, uses, (s, pos)))
                if not built:
                    reach((vt, rest, table, vheld), base_gain, Turn(shape, uses, None))
        out = [(gain, child, turn) for child, (gain, turn) in seen.items()]
        out.sort(key=lambda x: -x[0])
        return out

    # --- the upper bound ------------------------------------------------------------------

    def _reach(
        self, cov: int, hand: int, mirror: bool, pools: list[int]
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """For the shapes in ``hand``: (tiles needed, mask of styles with a legal placement) per shape that
        has one, and per style the cells some legal placement in that style would lay a tile on."""
        items = []
        reach = [0] * self.ns
        for shape in _bits(hand):
            n = self.need[shape]
            allowed = 0
            for mirrored in (0, 1) if mirror else (0,):
                for mask, s, laid, _ in self.builds[shape][mirrored]:
                    if not mask & cov and pools[s] >= n:
                        allowed |= 1 << s
                        reach[s] |= laid
            if allowed:
                items.append((n, allowed))
        return items, reach

    def _reach_relaxed(
        self,
        tiles: Tiles,
        cov: int,
        hand: int,
        mirror: bool,
        pools: list[int],
        lift: int,
        removes: int,
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """Like :meth:`_reach` when up to ``lift`` tiles may still be moved or removed (``removes`` of them
        by Remove, which returns the tile to the reserve).

        A placement is kept when the ``k`` cells of it covered now can all be vacated: ``k <= lift``,
        one of them may be removed when a Remove is available, and each other one needs a neighbour
        whose Original differs from its tile's style to slide to, a neighbour that is uncovered now
        and outside the placement unless a spare lift (``lift > k``) could first clear it.
        """
        items = []
        reach = [0] * self.ns
        slide = self.slide
        # the style of the tile on each covered cell
        tile_style = {}
        for st, t in enumerate(tiles):
            for x in _bits(t):
                tile_style[x] = st
        removable = 1 if removes else 0
        for shape in _bits(hand):
            n = self.need[shape]
            allowed = 0
            for mirrored in (0, 1) if mirror else (0,):
                for mask, s, laid, _ in self.builds[shape][mirrored]:
                    if pools[s] + removes < n:
                        continue
                    blocked = mask & cov
                    if blocked:
                        k = blocked.bit_count()
                        if k > lift:
                            continue
                        room = self.full if lift > k else self.full & ~(mask | cov)
                        stuck = 0
                        for x in _bits(blocked):
                            if not slide[x][tile_style[x]] & room:
                                stuck += 1
                        if stuck > removable:
                            continue
                    allowed |= 1 << s
                    reach[s] |= laid
            if allowed:
                items.append((n, allowed))
        return items, reach

    def _claimable(
        self,
        tiles: Tiles,
        cov: int,
        card: int,
        budget: int,
        adds: int,
        cells: int,
        reach: list[int],
        ck: tuple[object, ...],
    ) -> bool:
        """Whether the pattern of ``card`` may still be formed by a build while no tile is lifted or moved.

        Then covered cells keep their style and every tile laid from now on comes from a build that
        is legal now (so it lies in ``reach`` of its style) or from one of at most ``adds`` Adds
        (a style other than the cell's Original). The build that forms the pattern lays one of its
        cells; each build lays one style, so at most ``budget`` letters may still have cells to cover,
        and at most ``cells`` cells (the tiles the builds before a later turn and the Adds can lay).
        """
        known = self.claim_cache.get(ck)
        if known is not None:
            return known
        result = False
        tps = self.tps
        omask = self.omask
        for mask, groups in self.occ[card]:
            if not mask & ~cov or (mask & ~cov).bit_count() > cells:
                continue
            fixed = 0
            slots: list[tuple[int, int]] = []  # (open cells, style or -1)
            ok = True
            for grp in groups:
                style = -1
                covered = grp & cov
                if covered:
                    for s, t in enumerate(tiles):
                        if covered & t == covered:
                            style = s
                            break
                    if style < 0 or fixed >> style & 1:
                        ok = False
                        break
                    fixed |= 1 << style
                slots.append((grp & ~cov, style))
            if not ok or sum(1 for o, _ in slots if o) > budget:
                continue
            if adds == 0:
                # every open cell is laid by a build in its letter's style: distinct styles per letter
                options = []
                for opened, st in slots:
                    if st >= 0:
                        fits = (
                            1 << st
                            if (not opened or opened & reach[st] == opened)
                            else 0
                        )
                    else:
                        fits = 0
                        for s2 in range(self.ns):
                            if not fixed >> s2 & 1 and opened & reach[s2] == opened:
                                fits |= 1 << s2
                    if opened:
                        fits = sum(
                            1 << s2
                            for s2 in _bits(fits)
                            if opened.bit_count() <= tps - tiles[s2].bit_count()
                        )
                    if not fits:
                        break
                    options.append(fits)
                else:
                    if _distinct(options, 0):
                        result = True
                        break
                continue
            free = [k for k, (_, st) in enumerate(slots) if st < 0]
            choices = [st for st in range(self.ns) if not fixed >> st & 1]
            for perm in permutations(choices, len(free)):
                styles = [st for _, st in slots]
                for k, st in zip(free, perm):
                    styles[k] = st
                missing = 0
                laid = False
                for (opened, _), st in zip(slots, styles):
                    if (
                        opened & omask[st]
                        or opened.bit_count() > tps - tiles[st].bit_count()
                    ):
                        missing = adds + 1
                        break
                    missing += (opened & ~reach[st]).bit_count()
                    if opened & reach[st]:
                        laid = True
                if laid and missing <= adds:
                    result = True
                    break
            if result:
                break
        self.claim_cache[ck] = result
        return result

    def _claimable_relaxed(
        self,
        tiles: Tiles,
        cov: int,
        card: int,
        lift: int,
        adds: int,
        budget: int,
        cells: int,
        reach: list[int],
        ck: tuple[object, ...],
    ) -> bool:
        """Whether the pattern of ``card`` may still be formed when up to ``lift`` tiles can be moved or removed.

        ``reach`` is :meth:`_reach_relaxed`'s. For some style per letter (all different), the tiles
        now in the pattern showing another style must be lifted (at most ``lift``) and every cell
        not showing its letter's style must then get a tile from a build (in ``reach`` of that
        style) or from one of at most ``adds`` Adds (other Add cards), never on an Original of that
        style; the build that forms it lays one of the cells. Each build lays one style, so at most
        ``budget`` letters may have cells to cover, and at most ``cells`` cells. A Move may also fill
        a cell by sliding a tile of the right style into it, so every lift may stand in for one
        missing cell (one letter, one cell), as well as clear one wrong tile.
        """
        known = self.claim_cache.get(ck)
        if known is not None:
            return known
        result = False
        omask = self.omask
        ns = self.ns
        for mask, groups in self.occ[card]:
            for perm in permutations(range(ns), len(groups)):
                conflicts = 0
                missing = 0
                letters = 0
                total = 0
                laid = False
                for grp, st in zip(groups, perm):
                    wrong = grp & cov & ~tiles[st]
                    conflicts += wrong.bit_count()
                    todo = (grp & ~cov) | wrong
                    if todo & omask[st]:
                        conflicts = lift + 1
                        break
                    if todo:
                        letters += 1
                        total += todo.bit_count()
                    missing += (todo & ~reach[st]).bit_count()
                    if grp & reach[st]:
                        laid = True
                # a slide may fill a cell with a tile of the right style: each lift may also fill a cell
                if (
                    laid
                    and conflicts <= lift
                    and missing <= adds + lift
                    and letters <= budget + lift
                    and total <= cells + lift
                ):
                    result = True
                    break
            if result:
                break
        self.claim_cache[ck] = result
        return result

    def _pack(self, items: tuple[tuple[int, int], ...], caps: tuple[int, ...]) -> int:
        """The most tiles the shapes ``items`` ((tiles needed, allowed style mask), largest first) can lay
        with at most ``caps[s]`` tiles of each style s, each shape built in one allowed style or not at all."""
        pk = (items, caps)
        known = self.pack_cache.get(pk)
        if known is not None:
            return known
        total = sum(n for n, _ in items)
        ceiling = min(total, sum(caps))
        best = 0
        capl = list(caps)
        suffix = [0] * (len(items) + 1)
        for i in range(len(items) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + items[i][0]

        def go(i: int, got: int) -> bool:
            nonlocal best
            if got > best:
                best = got
                if best >= ceiling:
                    return True
            if i == len(items) or got + suffix[i] <= best:
                return False
            n, allowed = items[i]
            for s in range(len(capl)):
                if allowed >> s & 1 and capl[s] >= n:
                    capl[s] -= n
                    done = go(i + 1, got + n)
                    capl[s] += n
                    if done:
                        return True
            return go(i + 1, got)

        go(0, 0)
        self.pack_cache[pk] = best
        return best

    def quick_bound(self, key: Key) -> int:
        """A cheaper, looser bound than :meth:`bound`: every card in the row counted as claimable, no
        geometry; only the tile counts, the reserve, the cells and the packing of needs into reserves.

        It depends only on the tile count of each style, the hand and the Add and Remove cards that
        may still be used, so it is remembered on those.

        Why it is sound: it is :meth:`bound` with each condition relaxed. Every Add and Remove card
        held, or in the row while a later turn follows (two Shape cards or more in hand), is taken
        as usable, so the Adds ``A`` and the Removes counted are at least those that can be used.
        The tiles gained are then at most the needs plus ``A`` and at most the reserve, and the
        last-build cap (its anchor stays uncovered, only Adds follow) holds as in :meth:`bound`.
        The packing lets every shape take any style, a superset of the styles it can really use,
        and only the reserve caps each style, so it is at least the true packing; with one Remove
        it is also tried with one reserve raised by the lifted tile, minus the tile lifted. With
        two Removes or more no packing is used. Move cards only shift tiles (no tile is gained),
        so they change none of these counts.
        """
        tiles, hand, table, held = key
        # a card claimed now helps only on a later turn, unless cards may be used when wanted (after the build)
        later = self.when_wanted or hand & (hand - 1)
        cards = (held | (table if later else 0)) & self.add_remove
        qk = (tuple(map(int.bit_count, tiles)), hand, cards)
        known = self.quick_cache.get(qk)
        if known is None:
            known = self._quick_bound(tiles, hand, cards)
            self.quick_cache[qk] = known
        return known

    def _quick_bound(self, tiles: Tiles, hand: int, cards: int) -> int:
        on = sum(t.bit_count() for t in tiles)
        needs = [self.need[i] for i in _bits(hand)]
        total_need = sum(needs)
        km = self.kind_mask
        count = self.count
        adds = sum(count[c] for c in _bits(cards & km[ADD]))
        removes = sum(count[c] for c in _bits(cards & km[REMOVE]))
        if self.when_wanted:  # Adds may follow the last build
            gain = min(total_need + adds, max(on, self.cells - 1) + adds - on, self.tpp - on)
        else:
            all_built = min(total_need + adds, self.cells - 1 - on)
            not_all = min(
                total_need - min(needs) + adds, max(on, self.cells - 1) + adds - on
            )
            gain = min(max(all_built, not_all), self.tpp - on)
        if removes <= 1:
            pools = [self.tps - t.bit_count() for t in tiles]
            allowed_all = (1 << self.ns) - 1
            items = tuple(sorted(((n, allowed_all) for n in needs), reverse=True))
            packed = self._pack(items, tuple(pools))
            if removes:
                for s in range(self.ns):
                    if pools[s] < self.tps:
                        raised = list(pools)
                        raised[s] += 1
                        packed = max(packed, self._pack(items, tuple(raised)) - 1)
            gain = min(gain, packed + adds)
        return self.score(on + max(gain, 0))

    def bound(self, key: Key) -> int:
        """A score the player cannot beat from the round start ``key`` (which is not over).

        Let ``on`` be the tiles on the Mural and ``A`` the tiles Add cards can still lay (held, or in
        the row when a later turn could use them). From now on tiles reach the Mural only through
        builds (``size - 1`` tiles of one style each) and Adds, and leave it only through Removes, so
        the tiles gained are at most

        * the tiles the remaining shapes need plus ``A``;
        * the tiles in reserve;
        * ``max(on, cells - 1) + A - on``: a build never covers its anchor, so after the last build at
          least one cell is uncovered and only Adds can follow;
        * a packing bound: each shape is built in one style, so the tiles laid by builds are at most
          the largest total of needs that fits the per-style capacities (the reserve; and, while no
          tile can ever be lifted or moved, also the uncovered cells whose Original is another style,
          and only styles in which the shape can still be placed). A Remove lifts one tile (score
          -1) and frees one place of one style, so with ``R`` Removes the packing is also tried with
          one capacity raised, minus one;
        * while nothing can lift or move a tile, the uncovered cells that some still-legal placement
          of a remaining shape would lay a tile on, plus ``A``.

        "Nothing can lift or move a tile" holds when no Remove or Move card is held and none left in
        the row can still be claimed by a build that a later turn follows (checked while the Mural
        only grows: :meth:`_claimable`). Under that condition the legal builds only shrink over time
        (covered cells stay covered, reserves only go down), which makes the placement-based parts
        sound.

        When cards may be used when wanted (:meth:`_bound_when_wanted`) the turn-counting parts are
        left out.
        """
        if self.when_wanted:
            return self._bound_when_wanted(key)
        tiles, hand, table, held = key
        cov = 0
        for t in tiles:
            cov |= t
        on = cov.bit_count()
        needs = [self.need[i] for i in _bits(hand)]
        nb = len(needs)
        total_need = sum(needs)
        later = nb >= 2  # a card claimed now can only help if a later turn follows
        km = self.kind_mask
        count = self.count
        pools = [self.tps - t.bit_count() for t in tiles]
        held_adds = sum(count[c] for c in _bits(held & km[ADD]))
        loose_mirror = bool(held & km[BUILD]) or (later and bool(table & km[BUILD]))
        first_tiles = total_need - min(
            needs
        )  # the most the builds of all turns but the last can lay
        opening = bool(held & self.opening)
        claimable_openers = 0
        claimed_adds: list[int] = []
        items: list[tuple[int, int]] = []
        reach: list[int] = []
        if not opening and later:
            # no tile can be lifted or moved before a Remove or Move card is claimed
            items, reach = self._reach(cov, hand, loose_mirror, pools)
            ck = (tiles, hand, loose_mirror)
            # an Add claimed in the row helps claim another card only if a turn can follow its use
            adds_claim = held_adds + (
                sum(count[c] for c in _bits(table & km[ADD])) if nb >= 3 else 0
            )
            budget = nb - 1 + adds_claim
            for c in _bits(table & self.opening):
                if self._claimable(
                    tiles,
                    cov,
                    c,
                    budget,
                    adds_claim,
                    first_tiles + adds_claim,
                    reach,
                    ck + (c, adds_claim),
                ):
                    opening = True
                    claimable_openers |= 1 << c
                    if nb >= 3:
                        break
            if not opening:
                for c in _bits(table & km[ADD]):
                    if self._claimable(
                        tiles,
                        cov,
                        c,
                        nb - 1 + held_adds,
                        held_adds,
                        first_tiles + held_adds,
                        reach,
                        ck + (c, held_adds),
                    ):
                        claimed_adds.append(c)
        if opening:
            adds = held_adds
            # the Remove and Move cards that may still be used: held ones on any turn; ones in the row
            # on the turns after they are claimed (with two turns left, only one claimable now)
            held_open = held & self.opening
            row_open = 0
            if later:
                row_open = (
                    table & self.opening
                    if (held_open or nb >= 3)
                    else claimable_openers
                )
            row_counts = sorted((count[c] for c in _bits(row_open)), reverse=True)[
                : nb - 1
            ]
            counts = sorted(
                [count[c] for c in _bits(held_open)] + row_counts, reverse=True
            )
            lift = sum(counts[:nb])
            removes = min(
                lift, sum(count[c] for c in _bits((held_open | row_open) & km[REMOVE]))
            )
            items, reach = self._reach_relaxed(
                tiles, cov, hand, loose_mirror, pools, lift, removes
            )
            if later:
                for c in _bits(table & km[ADD]):
                    if self._claimable_relaxed(
                        tiles,
                        cov,
                        c,
                        lift,
                        held_adds,
                        nb - 1 + held_adds,
                        first_tiles + held_adds,
                        reach,
                        (tiles, hand, loose_mirror, lift, removes, held_adds, c),
                    ):
                        adds += count[c]
        else:
            adds = held_adds + sum(count[c] for c in claimed_adds)
            mirror = bool(held & km[BUILD])
            if later and not mirror:
                ck = (tiles, hand, loose_mirror)
                for c in _bits(table & km[BUILD]):
                    if self._claimable(
                        tiles,
                        cov,
                        c,
                        nb - 1 + adds,
                        adds,
                        first_tiles + adds,
                        reach,
                        ck + (c, adds),
                    ):
                        mirror = True
                        break
            if mirror != loose_mirror or not reach:
                items, reach = self._reach(cov, hand, mirror, pools)
            removes = 0
            lift = 0
        # every shape built: nothing follows the last build, whose anchor stays uncovered;
        # some shape not built: its tiles are missing, and Adds may follow the last build
        all_built = min(total_need + adds, self.cells - 1 - on)
        not_all = min(
            total_need - min(needs) + adds, max(on, self.cells - 1) + adds - on
        )
        gain = min(max(all_built, not_all), self.tpp - on)
        if opening:
            pack_items = tuple(sorted(items, reverse=True))
            caps = tuple(pools)
            packed = self._pack(pack_items, caps)
            if removes == 1:
                for s in range(self.ns):
                    if caps[s] < self.tps:
                        raised = list(caps)
                        raised[s] += 1
                        packed = max(packed, self._pack(pack_items, tuple(raised)) - 1)
            if removes <= 1:
                gain = min(gain, packed + adds)
            # the cells covered at the end: covered now, laid by a build, moved onto, or added
            union = 0
            for r in reach:
                union |= r
            gain = min(gain, (union & ~cov).bit_count() + lift + adds)
        else:
            caps = tuple(min(pools[s], reach[s].bit_count()) for s in range(self.ns))
            union = 0
            for r in reach:
                union |= r
            pack_items = tuple(sorted(items, reverse=True))
            gain = min(
                gain, self._pack(pack_items, caps) + adds, union.bit_count() + adds
            )
        return self.score(on + max(gain, 0))

    def _bound_when_wanted(self, key: Key) -> int:
        """:meth:`bound` when any number of cards may be used before and after each build.

        Every card held or still in the row is counted as usable: Adds ``A``, the lifts of every
        Remove and Move card, a Mirror. The tiles gained are at most the needs plus ``A``, the reserve,
        and ``max(on, cells - 1) + A - on`` (after the last build its anchor is uncovered, and only Adds
        can follow it). With a Remove or Move card held or in the row, the placements and packing are
        :meth:`bound`'s relaxed ones with all those lifts (they count lifts, not turns); with none,
        nothing can ever lift or move a tile, so the legal builds only shrink and the caps of
        :meth:`bound` per style and per reachable cell hold.
        """
        tiles, hand, table, held = key
        cov = 0
        for t in tiles:
            cov |= t
        on = cov.bit_count()
        km = self.kind_mask
        count = self.count
        cards = held | table
        adds = sum(count[c] for c in _bits(cards & km[ADD]))
        mirror = bool(cards & km[BUILD])
        pools = [self.tps - t.bit_count() for t in tiles]
        total_need = sum(self.need[i] for i in _bits(hand))
        gain = min(total_need + adds, max(on, self.cells - 1) + adds - on, self.tpp - on)
        openers = cards & self.opening
        if openers:
            lift = sum(count[c] for c in _bits(openers))
            removes = min(lift, sum(count[c] for c in _bits(openers & km[REMOVE])))
            items, reach = self._reach_relaxed(tiles, cov, hand, mirror, pools, lift, removes)
            if removes <= 1:
                pack_items = tuple(sorted(items, reverse=True))
                packed = self._pack(pack_items, tuple(pools))
                if removes == 1:
                    for s in range(self.ns):
                        if pools[s] < self.tps:
                            raised = list(pools)
                            raised[s] += 1
                            packed = max(packed, self._pack(pack_items, tuple(raised)) - 1)
                gain = min(gain, packed + adds)
            union = 0
            for r in reach:
                union |= r
            gain = min(gain, (union & ~cov).bit_count() + lift + adds)
        else:
            items, reach = self._reach(cov, hand, mirror, pools)
            caps = tuple(min(pools[s], reach[s].bit_count()) for s in range(self.ns))
            union = 0
            for r in reach:
                union |= r
            pack_items = tuple(sorted(items, reverse=True))
            gain = min(gain, self._pack(pack_items, caps) + adds, union.bit_count() + adds)
        return self.score(on + max(gain, 0))

    # --- the search -----------------------------------------------------------------------

    def _entry(
        self, key: Key, floor: int
    ) -> tuple[int, bool, Turn | None, Key | None, bool]:
        """The table entry of ``key``: the exact value at the end, else an upper bound.

        The cheap bound is computed first; the full one only when the cheap one exceeds ``floor``.
        The last field says whether the full bound (or a search result) is already in the entry.
        """
        entry = self.table.get(key)
        if entry is None:
            self.nodes += 1
            if self.is_over(key):
                entry = (
                    self.score(sum(t.bit_count() for t in key[0])),
                    True,
                    None,
                    None,
                    True,
                )
            else:
                ub = self.quick_bound(key)
                if ub <= floor or key[1].bit_count() > self.full_bound_cards:
                    entry = (ub, False, None, None, False)
                else:
                    entry = (min(ub, self.bound(key)), False, None, None, True)
            self.table[key] = entry
        elif not entry[4] and entry[0] > floor and key[1].bit_count() <= self.full_bound_cards:
            entry = (min(entry[0], self.bound(key)), False, None, None, True)
            self.table[key] = entry
        return entry

    def value(self, key: Key, alpha: int) -> int:
        """Fail-soft search: the exact value when it is above ``alpha``, else an upper bound <= ``alpha``.

        The children are tried in order of their upper bound (then of the tiles on the Mural after
        the turn); once a child's bound cannot beat the best so far the rest are skipped.
        """
        entry = self._entry(key, alpha)
        ub = entry[0]
        if entry[1] or ub <= alpha:
            return ub
        if self.budget is not None and self.expanded >= self.budget:
            self.out_of_budget = True
            return ub
        self.expanded += 1
        kids = []
        for gain, child, turn in self.children(key):
            kids.append((self._entry(child, alpha)[0], gain, child, turn))
        kids.sort(key=lambda k: (-k[0], -k[1]))
        best = NEG
        best_turn: Turn | None = None
        best_child: Key | None = None
        for child_ub, _, child, turn in kids:
            floor = max(best, alpha)
            if child_ub <= floor:
                best = max(best, child_ub)  # an upper bound only: best <= alpha here
                break
            v = self.value(child, floor)
            if v > best:
                best, best_turn, best_child = v, turn, child
                if best >= ub:
                    break
            if self.out_of_budget:
                break
        if self.out_of_budget:
            return ub
        self.table[key] = (best, best > alpha, best_turn, best_child, True)
        return best

    def solve(self) -> int:
        """The exact best score from the root (probing downwards from the bound)."""
        key = self.root
        if self.root_over or self.is_over(key):
            return self.score(sum(t.bit_count() for t in key[0]))
        target = self.bound(key)
        while True:
            v = self.value(key, target - 1)
            if v >= target or self.out_of_budget:
                return v
            target = v

    def greedy_line(self) -> list[Turn]:
        """A complete line chosen turn by turn by the children's table entries (bound, then tiles):
        the fallback when the node budget ran out, a lower bound only."""
        out: list[Turn] = []
        key = self.root
        if self.root_over:
            return out
        while not self.is_over(key):
            _, child, turn = max(
                ((self._entry(c, NEG)[0], gain), c, t)
                for gain, c, t in self.children(key)
            )
            out.append(turn)
            key = child
        return out

    def line(self) -> list[Turn]:
        """The turns of the best line found, from the root to the end."""
        out: list[Turn] = []
        key = self.root
        while True:
            entry = self.table.get(key)
            if entry is None or entry[2] is None or entry[3] is None:
                return out
            out.append(entry[2])
            key = entry[3]


def engine_actions(state: State, position: MuralPosition, turns: list[Turn], name_of: MoveNamer) -> list[Action]:
    """The actions of ``state``'s engine playing ``turns`` from ``state`` (a solo round start whose facts are
    ``position``), found by their names (``name_of``) among the legal actions and checked by replaying them."""
    g = position.game
    cells = position.geo.cells
    s = state.clone()
    out: list[Action] = []

    def offered() -> dict[str, Action]:
        return {name_of(s, action): action for action in s.legal_actions()}

    def play(name: str) -> None:
        moves = offered()
        if name not in moves:
            raise ValueError(f"the solo search produced a move the engine does not offer: {name} (offered: {', '.join(sorted(moves))})")
        out.append(moves[name])
        s.apply_action(moves[name])

    def use(uses: tuple[Use, ...]) -> None:
        for card, targets in uses:
            play(f"use {g.card_ids[card]}")
            kind = g.card_kind[card]
            for target in targets:
                if kind == ADD:
                    assert isinstance(target, tuple)
                    play(f"add {int(target[0]) * g.nstyles + int(target[1])}")
                elif kind == REMOVE:
                    assert isinstance(target, int)
                    play(f"remove {target}")
                else:
                    assert isinstance(target, tuple)
                    play(f"move {int(target[0]) * 4 + int(target[1])}")
            if "stop" in offered():
                play("stop")
        if "skip" in offered():
            play("skip")

    for turn in turns:
        if s.is_terminal():
            raise ValueError("the solo line goes on after the game ended")
        play(f"reveal {g.shape_ids[turn.shape]}")
        use(turn.uses)
        if turn.build is None:
            play("pass")
        else:
            style, pos = turn.build
            play(f"build {style * cells + pos}")
        use(turn.after)
    if not s.is_terminal():
        raise ValueError("the solo line stops before the end of the game")
    return out
