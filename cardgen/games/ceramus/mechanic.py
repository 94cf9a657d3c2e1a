"""Ceramus' named mechanic ``ceramus_mural``: the Mural's cells, tiles and owners, the Shapes laid on it, the patterns.

What the rules-data vocabulary cannot say, and so is Python (see docs/decisions.md, "Ceramus as rules data"):
the Mural is a grid of *cells* (two by two per Mural card), each showing its Original style until a tile of
some player covers it; zones hold cards, not cells, styles or owners. This mechanic keeps that grid, lays the
Mural cards into it (``lay_mural``), offers the placements of the revealed Shape (``build``, ``build_mirrored``,
clarifications 2-5, 12), the targets of the Ceramas bonuses (``add``, ``remove``, ``move``, ``stop``,
clarifications 9-11), hands out the Ceramas cards whose pattern a build completes (``claim``, 6-7), answers
three questions the rules data asks (``waiting``: a bonus waits for its targets; ``usable``: a Ceramas card would
change something, 8; ``can_add``: someone could still add a tile, 13) and counts the tiles (``tiles``).

Everything else is rules data in the spec: the zones of Shape and Ceramas cards, the shuffles and the deal, the
round (the reveal on a round's first turn, the first player moving on), the bonus steps and their timing
(``options.bonus_timing``), which card effect starts which bonus, the end and the first player.

The slice of the position is a :class:`~cardgen.games.ceramus.mural.Mural`; the Mural's geometry (placements, pattern occurrences,
neighbours) is :class:`~cardgen.games.ceramus.geometry.Geometry` (the one the former rules module used), worked out once per
Game.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from cardgen.engine.interpreter.summary import per_seat
from cardgen.engine.mechanics import ActFunction, ActionsFunction, EffectFunction, Mechanic, QueryFunction, ScoreFunction, SetupFunction
from cardgen.games.ceramus.mural import IDLE, Mural
from cardgen.games.ceramus.phrases import CONDITIONS, NEGATIONS, PHRASES
from cardgen.games.ceramus.geometry import DIRECTION_NAMES, EFFECT_COUNT_NUMBER, Geometry, mirror_without_asymmetric_shapes, rotate_grid
from cardgen.spec.contract import WHOLE_DECK, ComponentRule, DeckRule, NumberRule, RulesContract, SetupRule
from cardgen.spec.mechanic_declaration import MechanicDeclaration, MechanicZone
from cardgen.spec.models import MAX_PLAYERS, Spec
from cardgen.spec.source import PathKey

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataGame, DataState

NAME = "ceramus_mural"
ADD, REMOVE, MOVE, MIRROR = range(1, 5)
"""What the bonus being carried out waits for besides nothing (:data:`IDLE`): a cell to add to, a tile to lift, a tile to move (and the
kind of a mirror card, which waits for nothing: the rules data builds mirrored)."""
BONUS_KINDS = {"add_tile": ADD, "remove_tile": REMOVE, "move_one": MOVE, "move_two": MOVE}
"""The mechanic's bonus effects (named as the card effects using them) and the targets each asks for."""



def _mural_cards_fit_the_side(spec: Spec) -> Iterator[tuple[PathKey, str]]:
    """Every Mural card is a square of ``cells_per_card_side`` cells."""
    side = spec.numbers.get("cells_per_card_side")
    for d_index, deck in enumerate(spec.decks):
        if deck.id != "mural" or side is None:
            continue
        for c_index, card in enumerate(deck.cards):
            rows = card.data.get("originals")
            if not isinstance(rows, list) or len(rows) != side or any(not isinstance(r, list) or len(r) != side for r in rows):
                yield ("decks", d_index, "cards", c_index, "data", "originals"), f"mural card {card.id!r} is not {side} by {side} cells (numbers.cells_per_card_side)"


CONTRACT = RulesContract(
    players=(1, MAX_PLAYERS),
    numbers={
        "cells_per_card_side": NumberRule(1, 6, "cells along each side of a Mural card"),
        "points_per_tile_on_mural": NumberRule(-20, 20, "points for each of your tiles on the Mural"),
        "points_per_tile_in_reserve": NumberRule(-20, 20, "points for each tile left in your reserve"),
        "add_tile_count": NumberRule(1, 10, "tiles the add bonus places", effect="add_tile"),
        "remove_tile_count": NumberRule(1, 10, "tiles the remove bonus lifts", effect="remove_tile"),
        "move_one_max_tiles": NumberRule(1, 10, "tiles the first move bonus moves", effect="move_one"),
        "move_two_max_tiles": NumberRule(1, 10, "tiles the second move bonus moves", effect="move_two"),
    },
    decks={
        "mural": DeckRule(fields={"originals": "palette_grid"}, copies="one"),
        "shapes": DeckRule(fields={"cells": "polyomino"}, copies="one"),
        "ceramas": DeckRule(fields={"pattern": "pattern"}, copies="one"),
    },
    setup=SetupRule(deal={"shapes": (1, 64)}, display={"ceramas": WHOLE_DECK}, grids={"mural": ("mural", (1, 400))}),
    components={"tile": ComponentRule(per_player=True, min_count=1, max_count=100)},
    palettes={"styles": (2, 26)},
    checks=(_mural_cards_fit_the_side,),
    inert=(mirror_without_asymmetric_shapes,),
)
"""What the mechanic reads: the Mural's size and cards, the Shapes' squares, the patterns, each player's tiles
(the tile component's count of each style), the bonus counts and the points per tile."""


class CeramusMural(Mechanic):
    """The Mural's grid and tiles, the placements of a Shape, the bonus targets, the pattern claims and the end test."""

    declaration = MechanicDeclaration(
        name=NAME,
        package="ceramus",
        contract=CONTRACT,
        zones={
            "murals": MechanicZone(per_seat=False, meaning="the shuffled Mural cards the Mural is laid from (its top is the end)"),
            "hand": MechanicZone(per_seat=True, meaning="each player's Shape cards, for the end test"),
            "played": MechanicZone(per_seat=False, meaning="the revealed Shape cards; the top one is this round's Shape"),
            "row": MechanicZone(per_seat=False, meaning="the Ceramas cards still to be claimed"),
            "won": MechanicZone(per_seat=True, meaning="the Ceramas cards a player holds (a claim puts them there)", fills=True),
        },
        setups={"lay_mural": PHRASES["lay_mural"]},
        actions={name: PHRASES[name] for name in ("build", "build_mirrored", "add", "remove", "move", "stop")},
        effects={name: PHRASES[name] for name in ("claim", "add_tile", "remove_tile", "move_one", "move_two")},
        scores={"tiles": PHRASES["tiles"]},
        conditions=CONDITIONS,
        negations=NEGATIONS,
    )

    def __init__(self, game: "DataGame", index: int) -> None:
        super().__init__(game, index)
        spec = game.spec
        n = game.num_players
        styles = next((p for p in spec.palettes if p.id == "styles"), None)
        if styles is None:
            raise ValueError("the ceramus_mural mechanic needs a palette 'styles'")
        self.style_ids = [e.id for e in styles.entries]
        self.style_names = [e.name.get("en", e.id) for e in styles.entries]
        self.nstyles = len(self.style_ids)
        style_index = {sid: i for i, sid in enumerate(self.style_ids)}
        numbers = spec.numbers
        self.side = numbers["cells_per_card_side"]
        self.points_on = numbers["points_per_tile_on_mural"]
        self.points_reserve = numbers["points_per_tile_in_reserve"]
        self.counts = {effect: numbers[number] for effect, number in EFFECT_COUNT_NUMBER.items()}
        tile = next(c for c in spec.components if c.id == "tile")
        self.tiles_per_style = tile.count
        self.tiles_per_player = tile.count * self.nstyles
        setup = next(s for s in spec.setups if s.players == n)
        layout = setup.grids["mural"]
        self.card_columns, self.card_rows = layout.columns, layout.rows
        self.cols, self.rows = layout.columns * self.side, layout.rows * self.side
        designs = game.deck_designs
        self.mural_first = designs["mural"][0]
        cards = {deck.id: deck.cards for deck in spec.decks}
        """Each deck's cards in spec order: the order of its designs in the Game."""
        self.mural_grids = [[[style_index[str(v)] for v in row] for row in card.data["originals"]] for card in cards["mural"]]  # type: ignore[union-attr]
        self.shape_first = designs["shapes"][0]
        self.shape_ids = [game.card_ids[d] for d in designs["shapes"]]
        self.shape_cells = [sorted((int(c[0]), int(c[1])) for c in card.data["cells"]) for card in cards["shapes"]]  # type: ignore[index, union-attr]
        self.shape_size = [len(c) for c in self.shape_cells]
        self.card_first = designs["ceramas"][0]
        self.card_ids = [game.card_ids[d] for d in designs["ceramas"]]
        patterns = [[str(r) for r in card.data["pattern"]] for card in cards["ceramas"]]  # type: ignore[union-attr]
        self.patterns = patterns
        self.card_effects = [card.effect or "" for card in cards["ceramas"]]
        self.card_kind = [MIRROR if card.effect == "mirror_shape" else BONUS_KINDS.get(card.effect or "", IDLE) for card in cards["ceramas"]]
        self.geo = Geometry(self.cols, self.rows, self.shape_cells, patterns)
        self.hands = [game.slot("hand", seat) for seat in range(n)]
        self.won = [game.slot("won", seat) for seat in range(n)]
        self.murals, self.played, self.row = game.slot("murals"), game.slot("played"), game.slot("row")
        self.n = n

    # -- the slice -------------------------------------------------------------------------------

    def start(self) -> Mural:
        cells = self.cols * self.rows
        m = Mural()
        m.orig = (0,) * cells
        m.owner = [-1] * cells
        m.vstyle = [0] * cells
        m.vis = [0] * self.nstyles
        m.vis[0] = (1 << cells) - 1
        m.own = [0] * self.n
        m.pool = [self.tiles_per_style] * (self.n * self.nstyles)
        m.on = [0] * self.n
        return m

    def clone(self, part: Any) -> Mural:
        return part.copy()

    def fingerprint(self, part: Any) -> object:
        m: Mural = part
        return (m.orig, tuple(m.owner), tuple(m.vstyle), tuple(m.pool), m.pending, m.left, m.moved, m.placed)

    def held(self, part: Any) -> Iterable[int]:
        return part.laid

    def summary(self, part: Any) -> str:
        """Tiles each seat has on the Mural and in reserve."""
        m: Mural = part
        reserve = [sum(m.pool[seat * self.nstyles : (seat + 1) * self.nstyles]) for seat in range(self.n)]
        return f"tiles on the Mural {per_seat([str(n) for n in m.on])}; in reserve {per_seat([str(n) for n in reserve])}"

    def errors(self, state: "DataState") -> list[str]:
        m: Mural = state.m[self.index]
        errors = []
        counts = [0] * (self.n * self.nstyles)
        vis, own, on, covered = [0] * self.nstyles, [0] * self.n, [0] * self.n, 0
        for cell, seat in enumerate(m.owner):
            style = m.vstyle[cell]
            vis[style] |= 1 << cell
            if seat >= 0:
                counts[seat * self.nstyles + style] += 1
                on[seat] += 1
                own[seat] |= 1 << cell
                covered |= 1 << cell
            elif style != m.orig[cell]:
                errors.append(f"uncovered cell {cell} shows the wrong style")
        for k, (laid, left) in enumerate(zip(counts, m.pool)):
            if laid + left != self.tiles_per_style or left < 0:
                errors.append(f"P{k // self.nstyles + 1} has {laid + left} {self.style_names[k % self.nstyles]} tiles, not {self.tiles_per_style}")
        if vis != m.vis or own != m.own or covered != m.covered or on != m.on:
            errors.append("the bitmasks disagree with the cells")
        return errors

    # -- setup -----------------------------------------------------------------------------------

    def setup(self, name: str) -> SetupFunction:
        if name != "lay_mural":
            return super().setup(name)
        index, murals, first, side, width = self.index, self.murals, self.mural_first, self.side, self.cols
        columns, rows, grids = self.card_columns, self.card_rows, self.mural_grids

        def lay_mural(s: "DataState", rng: random.Random) -> None:
            m: Mural = s.m[index]
            pile = s.z[murals]
            orig = [0] * len(m.owner)
            laid = []
            for slot in range(columns * rows):  # row by row, from the top of the pile; a missing card leaves its cells style 0
                if not pile:
                    break
                design = pile.pop()
                laid.append(design)
                grid = rotate_grid(grids[design - first], rng.randrange(4))
                cx, cy = slot % columns, slot // columns
                for r in range(side):
                    for c in range(side):
                        orig[(cy * side + r) * width + cx * side + c] = grid[r][c]
            self.lay(m, orig)
            m.laid = tuple(laid)
        return lay_mural

    def lay(self, m: Mural, orig: list[int]) -> None:
        """Give the slice ``m`` the Originals ``orig`` (cell by cell), with no tile on them."""
        m.orig = tuple(orig)
        m.vstyle = list(orig)
        m.vis = [0] * self.nstyles
        for cell, style in enumerate(orig):
            m.vis[style] |= 1 << cell

    # -- changing the Mural ------------------------------------------------------------------------

    # -- what a seat may do ------------------------------------------------------------------------

    def builds(self, m: Mural, seat: int, shape: int, mirrored: bool, first_only: bool = False) -> list[int]:
        """The placements of ``shape`` (by its index in the deck) ``seat`` may build, as ``style * cells + top-left cell``."""
        need = self.shape_size[shape] - 1
        base = seat * self.nstyles
        styles = [s for s in range(self.nstyles) if m.pool[base + s] >= need]
        if not styles:
            return []
        own, cov, vis, cells = m.own[seat], m.covered, m.vis, self.geo.cells
        out: list[int] = []
        for pos, mask, _ in self.geo.placements[shape][1 if mirrored else 0]:
            if mask & own:
                continue
            for s in styles:
                x = mask & vis[s]
                if x and not (x & (x - 1)) and not (x & cov):
                    out.append(s * cells + pos)
                    if first_only:
                        return out
        out.sort()
        return out

    def add_targets(self, m: Mural, seat: int) -> list[int]:
        """Where ``seat`` may add a tile, as ``cell * styles + style``."""
        out = []
        free = ~m.own[seat] & ((1 << self.geo.cells) - 1)
        for s in range(self.nstyles):
            if m.pool[seat * self.nstyles + s] == 0:
                continue
            allowed = free & ~m.vis[s]
            while allowed:
                low = allowed & -allowed
                out.append((low.bit_length() - 1) * self.nstyles + s)
                allowed ^= low
        out.sort()
        return out

    def move_targets(self, m: Mural) -> list[int]:
        """The tiles that may move one space, as ``cell * 4 + direction`` (up, right, down, left)."""
        out = []
        cov = m.covered & ~m.moved
        nb = self.geo.neighbours
        while cov:
            low = cov & -cov
            cell = low.bit_length() - 1
            cov ^= low
            style = m.vstyle[cell]
            for d, dest in enumerate(nb[cell]):
                if dest >= 0 and m.owner[dest] < 0 and m.orig[dest] != style:
                    out.append(cell * 4 + d)
        out.sort()
        return out

    @staticmethod
    def _bits(mask: int) -> list[int]:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def shape_of(self, s: "DataState") -> int:
        """This round's Shape (the top of ``played``), by its index in the deck."""
        played = s.z[self.played]
        if not played:
            raise ValueError("no Shape is revealed")
        return played[-1] - self.shape_first

    def width(self, name: str) -> int:
        cells = self.geo.cells
        widths = {"build": self.nstyles * cells, "build_mirrored": self.nstyles * cells, "add": cells * self.nstyles, "remove": cells, "move": cells * 4, "stop": 1}
        if name not in widths:
            return super().width(name)
        return widths[name]

    def actions(self, name: str) -> ActionsFunction:
        index = self.index
        if name in ("build", "build_mirrored"):
            mirrored = name == "build_mirrored"
            return lambda s, seat: self.builds(s.m[index], seat, self.shape_of(s), mirrored)
        if name == "add":
            return lambda s, seat: self.add_targets(s.m[index], seat) if s.m[index].pending == ADD else []
        if name == "remove":
            return lambda s, seat: self._bits(s.m[index].covered) if s.m[index].pending == REMOVE else []
        if name == "move":
            return lambda s, seat: self.move_targets(s.m[index]) if s.m[index].pending == MOVE else []
        if name == "stop":
            return lambda s, seat: [0] if s.m[index].pending == MOVE and s.m[index].moved else []
        return super().actions(name)

    def _after_target(self, m: Mural, more: bool) -> None:
        """One target taken: the bonus waits for another while it may take more and one is there."""
        m.left -= 1
        if m.left <= 0 or not more:
            m.pending, m.left, m.moved = IDLE, 0, 0

    def act(self, name: str) -> ActFunction:
        index, geo, nstyles = self.index, self.geo, self.nstyles
        if name in ("build", "build_mirrored"):
            mirrored = 1 if name == "build_mirrored" else 0

            def build(s: "DataState", seat: int, parameter: int) -> None:
                m: Mural = s.m[index]
                style, pos = divmod(parameter, geo.cells)
                shape = self.shape_of(s)
                m.built |= 1 << shape
                mask, cells = geo.at[shape][mirrored][pos]
                anchor = mask & m.vis[style]
                placed = []
                for cell in cells:
                    if not (anchor >> cell) & 1:
                        m.put(cell, seat, style, self.nstyles)
                        placed.append(cell)
                m.placed = tuple(placed)
            return build
        if name == "add":

            def add(s: "DataState", seat: int, parameter: int) -> None:
                m: Mural = s.m[index]
                cell, style = divmod(parameter, nstyles)
                m.put(cell, seat, style, self.nstyles)
                self._after_target(m, bool(self.add_targets(m, seat)))
            return add
        if name == "remove":

            def remove(s: "DataState", seat: int, parameter: int) -> None:
                m: Mural = s.m[index]
                m.lift(parameter, self.nstyles)
                self._after_target(m, m.covered != 0)
            return remove
        if name == "move":

            def move(s: "DataState", seat: int, parameter: int) -> None:
                m: Mural = s.m[index]
                cell, d = divmod(parameter, 4)
                dest = geo.neighbours[cell][d]
                owner, style = m.owner[cell], m.vstyle[cell]
                m.lift(cell, self.nstyles)
                m.put(dest, owner, style, self.nstyles)
                m.moved |= 1 << dest
                self._after_target(m, bool(self.move_targets(m)))
            return move
        if name == "stop":

            def stop(s: "DataState", seat: int, parameter: int) -> None:
                m: Mural = s.m[index]
                m.pending, m.left, m.moved = IDLE, 0, 0
            return stop
        return super().act(name)

    def cell_name(self, cell: int) -> str:
        """A cell as (column,row), counted from 0 at the top left."""
        return f"({cell % self.cols},{cell // self.cols})"

    def describe(self, name: str, state: "DataState", parameter: int) -> str:
        m: Mural = state.m[self.index]
        if name in ("build", "build_mirrored"):
            style, pos = divmod(parameter, self.geo.cells)
            at = self.geo.at[self.shape_of(state)][1 if name == "build_mirrored" else 0].get(pos)
            if at is None:
                return f"bad placement {parameter}"
            mask, cells = at
            anchor = (mask & m.vis[style]).bit_length() - 1
            tiles = " ".join(self.cell_name(c) for c in cells if c != anchor)
            return f"{self.style_names[style]} from the Original at {self.cell_name(anchor)}, tiles at {tiles}"
        if name == "add":
            cell, style = divmod(parameter, self.nstyles)
            return f"a {self.style_names[style]} tile at {self.cell_name(cell)}"
        if name == "remove":
            return f"P{m.owner[parameter] + 1}'s tile at {self.cell_name(parameter)}"
        if name == "move":
            cell, d = divmod(parameter, 4)
            return f"P{m.owner[cell] + 1}'s tile {DIRECTION_NAMES[d]} from {self.cell_name(cell)}"
        return "no more tiles"

    # -- effects ---------------------------------------------------------------------------------

    def effect(self, name: str) -> EffectFunction:
        index = self.index
        if name in BONUS_KINDS:
            kind, count = BONUS_KINDS[name], self.counts[name]

            def start_bonus(s: "DataState", seat: int, card: int) -> None:
                m: Mural = s.m[index]
                m.pending, m.left, m.moved = kind, count, 0
            return start_bonus
        if name == "claim":
            return self._claim
        return super().effect(name)

    def _claim(self, s: "DataState", seat: int, card: int) -> None:
        """Every Ceramas card of the row whose pattern the last build formed goes to ``seat`` (clarifications 6-7)."""
        m: Mural = s.m[self.index]
        row = s.z[self.row]
        geo, cov, vstyle = self.geo, m.covered, m.vstyle
        for design in sorted(row):
            k = design - self.card_first
            occs, by_cell = geo.occurrences[k], geo.by_cell[k]
            seen: set[int] = set()
            formed = False
            for cell in m.placed:
                for i in by_cell[cell]:
                    if i in seen:
                        continue
                    seen.add(i)
                    occ = occs[i]
                    if occ.mask & cov != occ.mask:
                        continue
                    reps = []
                    for group in occ.groups:
                        s0 = vstyle[group[0]]
                        if any(vstyle[c] != s0 for c in group):
                            break
                        reps.append(s0)
                    else:
                        if len(set(reps)) == len(reps):
                            formed = True
                            break
                if formed:
                    break
            if formed:
                row.remove(design)
                s.z[self.won[seat]].append(design)

    # -- questions -------------------------------------------------------------------------------

    def query(self, name: str) -> QueryFunction:
        """The condition ``name`` as ``f(state, seat, card)``, for the expressions of the rules data."""
        index = self.index
        if name == "waiting":
            return lambda s, seat, card: s.m[index].pending != IDLE
        if name == "usable":
            return self._usable
        if name == "can_add":
            return lambda s, seat, card: self._anyone_can_add(s)
        raise NotImplementedError(f"mechanic {NAME!r} has no condition {name!r}")

    def condition(self, name: str) -> Callable[["DataState"], bool]:
        query = self.query(name)
        return lambda s: query(s, 0, 0)

    def _usable(self, s: "DataState", seat: int, card: int) -> bool:
        """Whether the Ceramas card ``card`` would change something now: a tile to add, lift or move (a mirror
        is judged by the rules data: before the build, once a turn)."""
        m: Mural = s.m[self.index]
        k = card - self.card_first
        kind = self.card_kind[k] if 0 <= k < len(self.card_kind) else IDLE
        if kind == ADD:
            return bool(self.add_targets(m, seat))
        if kind == REMOVE:
            return m.covered != 0
        if kind == MOVE:
            return bool(self.move_targets(m))
        return True

    def _anyone_can_add(self, s: "DataState") -> bool:
        """Whether some player could still add a tile (clarification 13): a Shape left in any hand fits for them (mirrored
        too with a mirror card held), or they hold an Add card with a place, or a Remove or Move card with a target."""
        m: Mural = s.m[self.index]
        z = s.z
        shapes = sorted({d - self.shape_first for slot in self.hands for d in z[slot]})
        for seat in range(self.n):
            held = [d - self.card_first for d in z[self.won[seat]]]
            kinds = {self.card_kind[k] for k in held}
            mirror = MIRROR in kinds
            for shape in shapes:
                if self.builds(m, seat, shape, False, True) or (mirror and self.builds(m, seat, shape, True, True)):
                    return True
            if ADD in kinds and self.add_targets(m, seat):
                return True
            if REMOVE in kinds and m.covered:
                return True
            if MOVE in kinds and self.move_targets(m):
                return True
        return False

    # -- score and usage ---------------------------------------------------------------------------

    def score(self, name: str) -> ScoreFunction:
        if name != "tiles":
            return super().score(name)
        index, on, reserve, total = self.index, self.points_on, self.points_reserve, self.tiles_per_player
        return lambda s, seat: s.m[index].on[seat] * on + (total - s.m[index].on[seat]) * reserve

    def score_bound(self, name: str) -> int:
        return self.tiles_per_player * max(abs(self.points_on), abs(self.points_reserve))

    def usage_keys(self) -> list[str]:
        """``card:SHAPE`` for every Shape (built) and ``pattern:CARD`` for every Ceramas card (claimed from the row)."""
        return [f"card:{sid}" for sid in self.shape_ids] + [f"pattern:{cid}" for cid in self.card_ids]

    def usage(self, state: "DataState") -> dict[str, int]:
        m: Mural = state.m[self.index]
        row = set(state.z[self.row])
        out = {f"card:{sid}": 1 for k, sid in enumerate(self.shape_ids) if m.built >> k & 1}
        out.update({f"pattern:{cid}": 1 for k, cid in enumerate(self.card_ids) if k + self.card_first not in row})
        return out

    def proven_unusable(self) -> dict[str, str]:
        """Shapes and patterns that cannot fit this Mural or these tiles, and card effects only such patterns grant.

        A Shape is built in one style, so it needs no more cells than a player's tiles of one style, and its
        bounding box (the same mirrored) must fit the Mural. A pattern needs as many styles as it has distinct
        letters, and its rows must fit the Mural. An effect is unusable when every card carrying it is.
        """
        out: dict[str, str] = {}
        for sid, cells in zip(self.shape_ids, self.shape_cells):
            wide = 1 + max(c[0] for c in cells) - min(c[0] for c in cells)
            tall = 1 + max(c[1] for c in cells) - min(c[1] for c in cells)
            if wide > self.cols or tall > self.rows:
                out[f"card:{sid}"] = f"the Shape is {wide}x{tall} cells and the Mural {self.cols}x{self.rows}"
            elif len(cells) > self.tiles_per_style:
                out[f"card:{sid}"] = f"the Shape has {len(cells)} cells, one style, and a player owns {self.tiles_per_style} tiles of each style"
        for cid, rows in zip(self.card_ids, self.patterns):
            letters = {ch for row in rows for ch in row if ch != "."}
            if len(letters) > self.nstyles:
                out[f"pattern:{cid}"] = f"the pattern needs {len(letters)} different styles and there are {self.nstyles}"
            elif len(rows[0]) > self.cols or len(rows) > self.rows:
                out[f"pattern:{cid}"] = f"the pattern is {len(rows[0])}x{len(rows)} cells and the Mural {self.cols}x{self.rows}"
        for effect in sorted(set(self.card_effects)):
            granting = [cid for cid, e in zip(self.card_ids, self.card_effects) if e == effect]
            if all(f"pattern:{cid}" in out for cid in granting):
                out[f"effect:{effect}"] = f"only {', '.join(granting)} carry it, and no player can claim them"
        return out

