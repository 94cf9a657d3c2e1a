"""Exhaustive and engine-based references for the solo Ceramus solver (test-only code).

:func:`solve_state_reference` is a depth-first search over the engine's own
states (so every rule is the engine's), with a transposition table keyed on the
parts of the position that decide the future, storing either the exact value or
an upper bound found when the branch failed low; pruning by :func:`upper_bound`;
and an early stop at a node once a child reaches that node's bound. It was the
product's first solver; it stays here as an independent check of the bit-board
search of :mod:`cardgen.games.ceramus.solo_search`. :func:`exhaustive` tries
every line with no bound at all. Both play the reference engine (tests/reference/ceramus.py, the rules module
the game shipped with), which the lockstep test ties to the rules data move for move.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from cardgen.engine.core import Action, Game, Solution

TESTS = str(Path(__file__).resolve().parents[1])
if TESTS not in sys.path:  # tests/, where the reference engines live (tests/engine sees it as its package's parent)
    sys.path.insert(0, TESTS)

from reference.ceramus import (  # noqa: E402
    ADD,
    BUILD,
    MOVE,
    ON_TABLE,
    OVER,
    REMOVE,
    REVEAL,
    CeramusGame,
    CeramusState,
)

Key = tuple[object, ...]


def solo_key(state: CeramusState) -> Key:
    """What decides the rest of a solo game: the board, hand, Ceramas cards and the turn's phase."""
    return (
        state.covered, state.vis[0], state.vis[1], state.vis[2], state.vis[3], state.hands[0], tuple(state.holder),
        state.phase, state.shape, state.mirror, state.targets_left, state.moved, state.uses, state.built,
    )


def upper_bound(state: CeramusState, cache: dict[Key, bool] | None = None) -> int:
    """A score the solo player cannot beat from ``state``.

    Tiles reach the Mural only through builds (a shape of N squares lays N - 1
    tiles of one style) and Add bonuses. While no Remove or Move bonus can ever
    be used (none held, and none still in the row whose pattern could still be
    formed), a solo build only takes options away: a style that cannot build a
    shape now never will, the reserve only shrinks and covered cells stay
    covered. Then the tiles of each style are also capped by the reserve and by
    the free cells that do not show that style.
    """
    g = state.game
    if state.phase == OVER:
        return state.scores()[0]
    shapes = [i for i in range(len(g.shape_ids)) if state.hands[0] >> i & 1]
    if state.phase != REVEAL and state.shape >= 0:
        shapes.append(state.shape)
    builds = len(shapes)
    needs = sum(g.shape_size[i] - 1 for i in shapes)
    adds = state.targets_left if state.phase == ADD else 0
    mirror = state.mirror
    # a card claimed in a build is used from the next turn on, or right after that build when wanted
    claimed_in_time = builds if g.when_wanted else builds - 1
    row_adds = []
    for c, h in enumerate(state.holder):
        if h == 0 or h == ON_TABLE:
            kind = g.card_kind[c]
            if kind == ADD:
                if h == 0:
                    adds += g.card_count[c]
                elif claimed_in_time >= 1:
                    row_adds.append(c)
            elif kind == BUILD:
                mirror = True
    on = state.on_mural[0]
    pool_total = g.tiles_per_player - on
    every_add = adds + sum(g.card_count[c] for c in row_adds)
    if _opening_possible(state, cache, builds, needs + every_add, every_add):
        # a tile lifted or moved may complete a pattern too: every Add in the row counts
        adds = every_add
        tiles = needs + adds
        gain = tiles
    else:
        adds += sum(g.card_count[c] for c in row_adds if _claim_possible(state, c, cache, claimed_in_time, needs))
        demand = [0] * g.nstyles
        for shape in shapes:
            need = g.shape_size[shape] - 1
            for style in _buildable_styles(state, shape, mirror):
                demand[style] += need
        free = ~state.covered & ((1 << state.geo.cells) - 1)
        gain = adds
        for style in range(g.nstyles):
            cap = min(state.pool[style], bin(free & ~state.vis[style]).count("1"))
            gain += min(cap, demand[style])
    # After the last build its anchor Original is still showing; only Adds can cover a cell after it.
    gain = min(gain, max(state.geo.cells - 1, on) + adds - on)
    reachable = on + min(pool_total, gain)
    return reachable * g.points_on + (g.tiles_per_player - reachable) * g.points_reserve


def _buildable_styles(state: CeramusState, shape: int, mirror: bool) -> set[int]:
    g = state.game
    base = g.build_base
    cells = state.geo.cells
    styles = {(a - base) // cells for a in state._builds(0, shape, False)}
    if mirror:
        styles |= {(a - base) // cells for a in state._builds(0, shape, True)}
    return styles


def _opening_possible(state: CeramusState, cache: dict[Key, bool] | None, builds: int, tiles: int, adds: int) -> bool:
    """Whether a Remove or Move bonus may still matter: one is held or under way, or one in the row can be claimed.

    A card claimed in a build can only be used on a later turn, and only matters if a build follows,
    so a claim has to come from one of the first ``builds - 1`` builds of the ``builds`` left.
    """
    g = state.game
    if state.phase in (REMOVE, MOVE):
        return True
    table = []
    for c, h in enumerate(state.holder):
        if g.card_kind[c] in (REMOVE, MOVE):
            if h == 0:
                return True
            if h == ON_TABLE:
                table.append(c)
    for c in table:
        if builds >= 2 and _claim_possible(state, c, cache, builds - 1 + adds, tiles):
            return True
    return False


def _claim_possible(state: CeramusState, card: int, cache: dict[Key, bool] | None, styles_budget: int, tiles: int) -> bool:
    """:func:`_claimable`, remembered per board in ``cache``."""
    if styles_budget < 1:
        return False
    key: Key = (card, styles_budget, tiles, state.covered, state.vis[0], state.vis[1], state.vis[2], state.vis[3])
    known = cache.get(key) if cache is not None else None
    if known is None:
        known = _claimable(state, card, styles_budget, tiles)
        if cache is not None:
            cache[key] = known
    return known


def _claimable(state: CeramusState, card: int, styles_budget: int, tiles: int) -> bool:
    """Whether card's pattern could still be formed by a later build, with builds and Adds alone.

    Covered cells keep their style; an uncovered cell can still receive a tile of any style but
    its Original's; at least one pattern cell must still be uncovered (a tile to be laid). Each
    build lays one style, so the letters still to be laid may number at most ``styles_budget``,
    and the cells still to be covered at most ``tiles``.
    """
    g = state.game
    covered = state.covered
    for occ in state.geo.occurrences[card]:
        open_cells = occ.mask & ~covered
        if open_cells == 0 or bin(open_cells).count("1") > tiles:
            continue
        if sum(1 for group in occ.groups if any(not covered >> cell & 1 for cell in group)) > styles_budget:
            continue
        fixed: list[int] = []
        options: list[list[int]] = []
        ok = True
        for group in occ.groups:
            style = -1
            for cell in group:
                if covered >> cell & 1:
                    if style >= 0 and state.vstyle[cell] != style:
                        ok = False
                        break
                    style = state.vstyle[cell]
            if not ok:
                break
            if style >= 0:
                if any(not covered >> cell & 1 and state.orig[cell] == style for cell in group):
                    ok = False
                    break
                fixed.append(style)
            else:
                options.append([s for s in range(g.nstyles) if all(state.orig[cell] != s for cell in group)])
        if not ok or len(set(fixed)) != len(fixed):
            continue
        if _assign(options, set(fixed)):
            return True
    return False


def _assign(options: list[list[int]], taken: set[int]) -> bool:
    if not options:
        return True
    for style in options[0]:
        if style not in taken:
            taken.add(style)
            found = _assign(options[1:], taken)
            taken.discard(style)
            if found:
                return True
    return False


def _ordered(state: CeramusState, actions: list[Action]) -> list[Action]:
    """Try bigger shapes first when revealing; otherwise the engine's order."""
    if state.phase == REVEAL:
        g = state.game
        return sorted(actions, key=lambda a: -g.shape_size[a - g.reveal_base])
    return actions


class _Search:
    def __init__(self) -> None:
        self.table: dict[Key, tuple[int, bool, Action]] = {}
        self.claims: dict[Key, bool] = {}
        self.nodes = 0

    def value(self, state: CeramusState, alpha: int) -> int:
        """Fail-soft search: the exact value when it is above ``alpha``, else an upper bound <= ``alpha``."""
        self.nodes += 1
        if state.phase == OVER:
            return state.scores()[0]
        key = solo_key(state)
        entry = self.table.get(key)
        bound = upper_bound(state, self.claims)
        if entry is not None:
            if entry[1]:
                return entry[0]
            bound = min(bound, entry[0])
        if bound <= alpha:
            return bound
        best = -sys.maxsize
        best_action = -1
        for action in _ordered(state, state.legal_actions()):
            child = state.clone()
            child.apply_action(action)
            v = self.value(child, max(alpha, best))
            if v > best:
                best, best_action = v, action
                if best >= bound:
                    break
        exact = best > alpha
        self.table[key] = (best, exact, best_action)
        return best

    def line(self, state: CeramusState) -> Iterator[Action]:
        """The optimal actions stored in the table, from ``state`` to the end."""
        state = state.clone()
        while state.phase != OVER:
            entry = self.table.get(solo_key(state))
            if entry is None or not entry[1]:
                raise RuntimeError("the principal line left the solved positions")
            yield entry[2]
            state.apply_action(entry[2])


def solve_state_reference(state: CeramusState) -> Solution:
    """Solve a solo position exactly with the engine-based search (slow; the reference for tests)."""
    if state.n != 1:
        raise ValueError("the exact Ceramus solver plays solo games only")
    search = _Search()
    # Test "can the score reach target?" from the bound downwards; every failed test leaves
    # upper bounds in the table that make the next test cheaper (the MTD idea).
    target = upper_bound(state, search.claims)
    while True:
        value = search.value(state, target - 1)
        if value >= target:
            break
        target = value
    actions = tuple(search.line(state))
    return Solution(value=float(value), actions=actions, proved=True, nodes=search.nodes, detail="solo score")


def solve_reference(game: Game, seed: int) -> Solution:
    """:func:`solve` with the engine-based reference search."""
    if not isinstance(game, CeramusGame):
        raise TypeError("not a Ceramus game")
    return solve_state_reference(game.new_initial_state(seed))


def exhaustive(state: CeramusState) -> int:
    """The best final solo score by plain enumeration of every line (for checking the solver on tiny positions)."""
    if state.phase == OVER:
        return state.scores()[0]
    best = -sys.maxsize
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        best = max(best, exhaustive(child))
    return best
