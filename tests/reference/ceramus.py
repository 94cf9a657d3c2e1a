"""The reference engine of Ceramus: the rules module the game shipped with, kept to check the rules data against.

Ceramus is played from its spec's rules data (``specs/ceramus``, with the named mechanic ``ceramus_mural`` of
:mod:`cardgen.games.ceramus.mechanic`); this engine, written from the rulebook and its numbered clarifications, is
what ``tests/engine/test_lockstep_ceramus.py`` compares the interpreter with at every decision, and what the
solver tests compare the solver on. It is not registered as a game.

The Mural is a grid of cells (two per Mural card side). Every cell shows its
Original style until a tile covers it; a cell holds at most one tile. The
position is kept in flat lists and bitmasks (one bit per cell) so that move
generation is a handful of integer operations per candidate placement.

Phases of a turn, each with its own actions (see :class:`CeramusGame` for the
action numbering):

* ``REVEAL``  the round's first player picks a Shape card from their hand;
* ``BONUS``   a player holding a usable Ceramas card may use one or skip;
* ``ADD`` / ``REMOVE`` / ``MOVE``  the targets of the chosen bonus;
* ``BUILD``   the player builds the revealed shape, or passes when they cannot;
* ``BONUS`` again after the build or pass (``built`` set), when ``options.bonus_timing`` is
  ``when_wanted``: cards may be used until the player skips, which ends the turn.

Every reading of the source written down in the spec's clarifications is
carried out here exactly: the anchor Original (2), what a build may cover (3),
compulsory building and passing (4), fixed orientation (5), pattern matching
(6), automatic claims (7), bonus timing (8), the bonuses (9-12) and the end of
the game (13).
"""

from __future__ import annotations

import random
from typing import Iterable, Iterator, Sequence

from cardgen.engine.core import TERMINAL, Action, Game, GameInfo, Seat, Solution, State, Termination
from cardgen.engine.interpreter import DataState
from cardgen.engine.state_copy import state_methods
from cardgen.spec.contract import WHOLE_DECK, ComponentRule, DeckRule, NumberRule, OptionRule, RulesContract, SetupRule, read_option
from cardgen.spec.models import MAX_PLAYERS, Deck, Spec
from cardgen.spec.source import PathKey
from cardgen.games.ceramus.geometry import (
    ADD,
    BONUS,
    BUILD,
    DIRECTION_NAMES,
    EFFECT_COUNT_NUMBER,
    EFFECT_KINDS,
    MOVE,
    ON_TABLE,
    OVER,
    REMOVE,
    REVEAL,
    USED,
    Geometry,
    mirror_symmetric,
    mirror_without_asymmetric_shapes as _mirror_without_asymmetric_shapes,
    rotate_grid,
)

# Choices of options.bonus_timing (clarification 8).
WHEN_WANTED = "when_wanted"
START_OF_TURN = "start_of_turn"

# Fixed actions.
PASS = 0
SKIP = 1
STOP = 2


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
    options={
        "bonus_timing": OptionRule(
            (WHEN_WANTED, START_OF_TURN),
            WHEN_WANTED,
            "when a Ceramas card may be used: any number on one's own turn, before and after the build, a card "
            "claimed in the build included; or one at the start of one's turn, from the turn after its claim",
        ),
    },
    decks={
        "mural": DeckRule(fields={"originals": "palette_grid"}, copies="one"),
        "shapes": DeckRule(fields={"cells": "polyomino"}, copies="one"),
        "ceramas": DeckRule(fields={"pattern": "pattern"}, effects=frozenset(EFFECT_KINDS), copies="one"),
    },
    setup=SetupRule(
        deal={"shapes": (1, 64)},
        display={"ceramas": WHOLE_DECK},
        grids={"mural": ("mural", (1, 400))},
    ),
    components={"tile": ComponentRule(per_player=True, min_count=1, max_count=100)},
    palettes={"styles": (2, 26)},
    checks=(_mural_cards_fit_the_side,),
    inert=(_mirror_without_asymmetric_shapes,),
)
"""What these rules read. Each card of the three decks is played once (a hand is a set of Shapes); the
Ceramas cards are always laid out whole; each player's tiles are the tile component's count per style."""


def _deck(spec: Spec, deck_id: str) -> Deck:
    for deck in spec.decks:
        if deck.id == deck_id:
            return deck
    raise ValueError(f"the Ceramus rules need a deck {deck_id!r}")


class CeramusGame(Game):
    """Ceramus at one player count, with every fact read from the spec.

    Actions (ints, with ``S`` shape cards, ``K`` Ceramas cards, ``C`` Mural cells, 4 styles):
    0 pass, 1 skip the bonus, 2 stop moving; ``reveal_base + shape``; ``use_base + card``;
    ``build_base + style * C + top-left cell``; ``add_base + cell * 4 + style``;
    ``remove_base + cell``; ``move_base + cell * 4 + direction`` (up, right, down, left).
    """

    rules_id = "ceramus"
    contract = CONTRACT

    def __init__(self, spec: Spec, num_players: int) -> None:
        super().__init__(spec, num_players)
        styles = next((p for p in spec.palettes if p.id == "styles"), None)
        if styles is None:
            raise ValueError("the Ceramus rules need a palette 'styles'")
        self.style_ids = [e.id for e in styles.entries]
        self.style_names = [e.name.get("en", e.id) for e in styles.entries]
        self.style_symbols = [e.symbol for e in styles.entries]
        self.nstyles = len(self.style_ids)
        style_index = {sid: i for i, sid in enumerate(self.style_ids)}
        numbers = spec.numbers
        self.side = numbers["cells_per_card_side"]
        self.points_on = numbers["points_per_tile_on_mural"]
        self.points_reserve = numbers["points_per_tile_in_reserve"]
        self.when_wanted: bool = read_option(CONTRACT, spec, "bonus_timing") == WHEN_WANTED
        """Cards may be used any number of times per turn, before and after the build (else one, before it)."""

        mural = _deck(spec, "mural")
        self.mural_grids: list[list[list[int]]] = []
        for card in mural.cards:
            rows = card.data["originals"]
            assert isinstance(rows, list)
            grid = [[style_index[str(v)] for v in row] for row in rows]  # type: ignore[union-attr]
            if len(grid) != self.side or any(len(r) != self.side for r in grid):
                raise ValueError(f"mural card {card.id} is not {self.side} by {self.side}")
            self.mural_grids.append(grid)

        shapes = _deck(spec, "shapes")
        self.shape_ids = [c.id for c in shapes.cards]
        self.shape_names = [c.name.get("en", c.id) for c in shapes.cards]
        self.shape_cells: list[list[tuple[int, int]]] = []
        for card in shapes.cards:
            cells = card.data["cells"]
            assert isinstance(cells, list)
            self.shape_cells.append(sorted((int(c[0]), int(c[1])) for c in cells))  # type: ignore[index]
        self.shape_size = [len(c) for c in self.shape_cells]
        self.shape_symmetric = [mirror_symmetric(c) for c in self.shape_cells]
        """Shapes a mirror leaves as they are: a mirror bonus on them is played but changes nothing."""

        ceramas = _deck(spec, "ceramas")
        self.card_ids = [c.id for c in ceramas.cards]
        self.card_names = [c.name.get("en", c.id) for c in ceramas.cards]
        self.card_patterns: list[list[str]] = []
        self.card_effect: list[str] = []
        self.card_kind: list[int] = []
        self.card_count: list[int] = []
        for card in ceramas.cards:
            pattern = card.data["pattern"]
            assert isinstance(pattern, list)
            self.card_patterns.append([str(r) for r in pattern])
            if card.effect not in EFFECT_KINDS:
                raise ValueError(f"Ceramas card {card.id} has unknown effect {card.effect!r}")
            self.card_effect.append(card.effect)
            self.card_kind.append(EFFECT_KINDS[card.effect])
            count_name = EFFECT_COUNT_NUMBER.get(card.effect)
            self.card_count.append(numbers[count_name] if count_name else 0)
        if any(c.copies != 1 for d in (mural, shapes, ceramas) for c in d.cards):
            raise ValueError("the Ceramus rules play each Mural, Shape and Ceramas card once (copies: 1)")
        self.effect_ids = sorted(set(self.card_effect))

        tile = next(c for c in spec.components if c.id == "tile")
        self.tiles_per_style = tile.count
        self.tiles_per_player = tile.count * self.nstyles

        setup = next((s for s in spec.setups if s.players == num_players), None)
        if setup is None:
            raise ValueError(f"the spec has no setup for {num_players} players")
        self.hand_size = setup.deal["shapes"]
        layout = setup.grids["mural"]
        self.card_columns, self.card_rows = layout.columns, layout.rows
        self.width = layout.columns * self.side
        self.height = layout.rows * self.side
        self._geometries: dict[tuple[int, int], Geometry] = {}
        self.geometry = self.geometry_for(self.width, self.height)

        cells = self.width * self.height
        nshapes, ncards = len(self.shape_ids), len(self.card_ids)
        self.reveal_base = 3
        self.use_base = self.reveal_base + nshapes
        self.build_base = self.use_base + ncards
        self.add_base = self.build_base + self.nstyles * cells
        self.remove_base = self.add_base + cells * self.nstyles
        self.move_base = self.remove_base + cells

    def geometry_for(self, width: int, height: int) -> Geometry:
        """The precomputed geometry of a Mural of ``width`` by ``height`` cells (cached)."""
        key = (width, height)
        geo = self._geometries.get(key)
        if geo is None:
            geo = Geometry(width, height, self.shape_cells, self.card_patterns)
            self._geometries[key] = geo
        return geo

    def info(self) -> GameInfo:
        """Bounds: every round has a reveal and, per player, a build (or pass) and one bonus decision before it
        (and one after it when cards may be used when wanted); each card is used at most once, with its targets."""
        rounds = self.num_players * self.hand_size
        targets = sum(self.card_count)
        if self.when_wanted:
            per_game = rounds * (1 + self.num_players * 3) + len(self.card_ids) + targets
        else:
            per_game = rounds * (1 + self.num_players * 2) + targets
        return GameInfo(
            num_players=self.num_players,
            max_game_length=per_game,
            min_score=self.tiles_per_player * min(self.points_on, self.points_reserve),
            max_score=self.tiles_per_player * max(self.points_on, self.points_reserve),
        )

    def new_initial_state(self, seed: int) -> "CeramusState":
        """Shuffle and turn the Mural cards, shuffle and deal the Shape cards, all from ``seed``."""
        rng = random.Random(seed)
        order = list(range(len(self.mural_grids)))
        rng.shuffle(order)
        origs = [0] * (self.width * self.height)
        for slot in range(self.card_columns * self.card_rows):
            cx, cy = slot % self.card_columns, slot // self.card_columns
            grid = rotate_grid(self.mural_grids[order[slot]], rng.randrange(4))
            for r in range(self.side):
                for c in range(self.side):
                    origs[(cy * self.side + r) * self.width + cx * self.side + c] = grid[r][c]
        deck = list(range(len(self.shape_ids)))
        rng.shuffle(deck)
        hands = []
        for p in range(self.num_players):
            mask = 0
            for i in deck[p * self.hand_size : (p + 1) * self.hand_size]:
                mask |= 1 << i
            hands.append(mask)
        undealt = deck[self.num_players * self.hand_size :]
        return CeramusState.fresh(self, self.geometry, origs, hands, undealt)

    def custom_state(self, mural: Sequence[str], hands: Sequence[Sequence[str]], first: Seat = 0) -> "CeramusState":
        """A position for examples and tests: Mural rows as style symbols (e.g. 'MINP'), hands as shape ids.

        The Mural may have any size; shapes not in a hand are counted as undealt.
        """
        sym = {s: i for i, s in enumerate(self.style_symbols)}
        width = len(mural[0])
        origs = [sym[ch] for row in mural for ch in row]
        geo = self.geometry_for(width, len(mural))
        masks = []
        used: set[int] = set()
        for hand in hands:
            mask = 0
            for sid in hand:
                i = self.shape_ids.index(sid)
                mask |= 1 << i
                used.add(i)
            masks.append(mask)
        if len(masks) != self.num_players:
            raise ValueError("give one hand per player")
        undealt = [i for i in range(len(self.shape_ids)) if i not in used]
        state = CeramusState.fresh(self, geo, origs, masks, undealt, first)
        return state

    def usage_keys(self) -> list[str]:
        """Every Shape card revealed, every Ceramas pattern claimed and every bonus used."""
        keys = [f"card:{sid}" for sid in self.shape_ids]
        keys += [f"pattern:{cid}" for cid in self.card_ids]
        keys += [f"bonus:{eid}" for eid in self.effect_ids]
        return keys

    def proven_unusable(self) -> dict[str, str]:
        """Shapes and patterns that cannot fit this Mural or these tiles, and bonuses only they grant.

        A Shape is built in one style, so it needs no more cells than a player's tiles of one style, and
        its bounding box (the same mirrored) must fit the Mural. A pattern needs as many styles as it has
        distinct letters, and its rows must fit the Mural. A bonus is unusable when every card granting it is.
        """
        out: dict[str, str] = {}
        for sid, cells in zip(self.shape_ids, self.shape_cells):
            wide = 1 + max(c[0] for c in cells) - min(c[0] for c in cells)
            tall = 1 + max(c[1] for c in cells) - min(c[1] for c in cells)
            if wide > self.width or tall > self.height:
                out[f"card:{sid}"] = f"the Shape is {wide}x{tall} cells and the Mural {self.width}x{self.height}"
            elif len(cells) > self.tiles_per_style:
                out[f"card:{sid}"] = f"the Shape has {len(cells)} cells, one style, and a player owns {self.tiles_per_style} tiles of each style"
        for cid, rows in zip(self.card_ids, self.card_patterns):
            letters = {ch for row in rows for ch in row if ch != "."}
            if len(letters) > self.nstyles:
                out[f"pattern:{cid}"] = f"the pattern needs {len(letters)} different styles and there are {self.nstyles}"
            elif len(rows[0]) > self.width or len(rows) > self.height:
                out[f"pattern:{cid}"] = f"the pattern is {len(rows[0])}x{len(rows)} cells and the Mural {self.width}x{self.height}"
        for effect in self.effect_ids:
            granting = [cid for cid, e in zip(self.card_ids, self.card_effect) if e == effect]
            if all(f"pattern:{cid}" in out for cid in granting):
                out[f"bonus:{effect}"] = f"only {', '.join(granting)} grant it, and no player can claim them"
        return out

    def greedy_value(self, state: State, seat: Seat) -> float:
        """Score margin, with a small credit for Ceramas cards held."""
        base = super().greedy_value(state, seat)
        if isinstance(state, CeramusState):
            base += 0.5 * sum(1 for h in state.holder if h == seat)
        return base


def _per_seat(values: Iterable[object]) -> str:
    """``P1 3, P2 0``: one value per seat, for a position's summary."""
    return ", ".join(f"P{seat + 1} {value}" for seat, value in enumerate(values))


class CeramusState(State):
    """One Ceramus position; see the module docstring for the phases."""

    __slots__ = (
        "game", "geo", "n", "orig", "owner", "vstyle", "vis", "own", "covered", "pool", "on_mural",
        "hands", "undealt", "played", "holder", "first", "turn", "phase", "shape", "mirror",
        "targets_left", "moved", "uses", "built", "reason", "counts", "placed",
    )

    clone, fingerprint = state_methods(
        __slots__,
        shared="game geo orig undealt",
        values="n covered first turn phase shape mirror targets_left moved uses built reason placed",
        lists="owner vstyle vis own pool on_mural hands played holder",
        dicts="counts",
        fingerprint="orig owner vstyle pool hands tuple:undealt played holder first turn phase shape mirror targets_left moved uses built",
    )
    """``clone()`` and ``fingerprint()``, generated from the fields declared here (:mod:`cardgen.engine.state_copy`)."""

    game: CeramusGame
    geo: Geometry
    n: int
    orig: tuple[int, ...]
    owner: list[int]
    vstyle: list[int]
    vis: list[int]
    own: list[int]
    covered: int
    pool: list[int]
    on_mural: list[int]
    hands: list[int]
    undealt: list[int]
    played: list[int]
    holder: list[int]
    first: int
    turn: int
    phase: int
    shape: int
    mirror: bool
    targets_left: int
    moved: int
    uses: int
    built: bool
    """The build (or pass) of this turn is done: a BONUS phase now comes after it."""
    reason: Termination | None
    counts: dict[str, int]
    placed: tuple[int, ...]

    @classmethod
    def fresh(
        cls, game: CeramusGame, geo: Geometry, origs: list[int], hands: list[int], undealt: list[int], first: Seat = 0
    ) -> "CeramusState":
        """The position before the first reveal: empty Mural, full reserves, all Ceramas in the row."""
        s = cls.__new__(cls)
        s.game = game
        s.geo = geo
        s.n = game.num_players
        s.orig = tuple(origs)
        s.owner = [-1] * len(origs)
        s.vstyle = list(origs)
        s.vis = [0] * game.nstyles
        for cell, style in enumerate(origs):
            s.vis[style] |= 1 << cell
        s.own = [0] * s.n
        s.covered = 0
        s.pool = [game.tiles_per_style] * (s.n * game.nstyles)
        s.on_mural = [0] * s.n
        s.hands = list(hands)
        s.undealt = list(undealt)
        s.played = []
        s.holder = [ON_TABLE] * len(game.card_ids)
        s.first = first
        s.turn = 0
        s.phase = REVEAL
        s.shape = -1
        s.mirror = False
        s.targets_left = 0
        s.moved = 0
        s.uses = 0
        s.built = False
        s.reason = None
        s.counts = {}
        s.placed = ()
        s._start_round()
        return s

    # --- small helpers -----------------------------------------------------------

    def current_player(self) -> Seat:
        """The seat to move, or TERMINAL."""
        if self.phase == OVER:
            return TERMINAL
        return (self.first + self.turn) % self.n

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == OVER

    def termination(self) -> Termination | None:
        """Why the game ended: hands played out, or nobody could add a tile."""
        return self.reason

    def cell_name(self, cell: int) -> str:
        """A cell as (column,row), counted from 0 at the top left."""
        return f"({cell % self.geo.width},{cell // self.geo.width})"

    def _count(self, key: str) -> None:
        self.counts[key] = self.counts.get(key, 0) + 1

    def scores(self) -> list[int]:
        """Points per seat: tiles on the Mural times the on-Mural value plus tiles in reserve times theirs."""
        g = self.game
        return [m * g.points_on + (g.tiles_per_player - m) * g.points_reserve for m in self.on_mural]

    def summary(self) -> str:
        """Phase, tiles on the Mural, Shape cards in hand and Ceramas held, per seat."""
        phase = ("reveal", "bonus", "build", "add", "remove", "move", "over")[self.phase]
        held = [sum(1 for holder in self.holder if holder == seat) for seat in range(self.n)]
        shapes = [hand.bit_count() for hand in self.hands]
        return f"{phase}; on the Mural {_per_seat(self.on_mural)}; shapes in hand {_per_seat(shapes)}; Ceramas held {_per_seat(held)}"

    def usage(self) -> dict[str, int]:
        """Shape cards revealed, patterns claimed and bonuses used so far."""
        return dict(self.counts)

    # --- setting up examples -----------------------------------------------------

    def put_tile(self, column: int, row: int, seat: Seat, style: str) -> None:
        """Lay a tile of ``seat`` from their reserve on a cell (for examples and tests).

        Follows the physical limits only: the cell must be free and must not show ``style``.
        """
        g = self.game
        s = g.style_symbols.index(style) if style in g.style_symbols else g.style_ids.index(style)
        cell = row * self.geo.width + column
        if self.owner[cell] >= 0 or self.vstyle[cell] == s or self.pool[seat * g.nstyles + s] == 0:
            raise ValueError(f"cannot put a {style} tile of P{seat + 1} at ({column},{row})")
        self._lay(cell, seat, s)

    def give_ceramas(self, card_id: str, seat: Seat) -> None:
        """Hand a Ceramas card to ``seat`` (for examples and tests)."""
        self.holder[self.game.card_ids.index(card_id)] = seat
        if self.phase in (BONUS, BUILD) and self.uses == 0 and not self.built:
            self._begin_turn_phase()

    # --- changing the Mural --------------------------------------------------------

    def _lay(self, cell: int, seat: Seat, style: int) -> None:
        """Put a tile of ``seat`` on ``cell``, breaking whatever tile was there."""
        bit = 1 << cell
        old = self.owner[cell]
        if old >= 0:
            self._lift(cell)
        shown = self.vstyle[cell]
        self.vis[shown] &= ~bit
        self.vis[style] |= bit
        self.vstyle[cell] = style
        self.owner[cell] = seat
        self.own[seat] |= bit
        self.covered |= bit
        self.pool[seat * self.game.nstyles + style] -= 1
        self.on_mural[seat] += 1

    def _lift(self, cell: int) -> None:
        """Take the tile off ``cell`` and return it to its owner's reserve."""
        bit = 1 << cell
        seat = self.owner[cell]
        style = self.vstyle[cell]
        base = self.orig[cell]
        self.pool[seat * self.game.nstyles + style] += 1
        self.on_mural[seat] -= 1
        self.own[seat] &= ~bit
        self.covered &= ~bit
        self.owner[cell] = -1
        self.vis[style] &= ~bit
        self.vis[base] |= bit
        self.vstyle[cell] = base

    # --- move generation -------------------------------------------------------------

    def _builds(self, seat: Seat, shape: int, mirrored: bool, first_only: bool = False) -> list[Action]:
        """Legal builds of ``shape`` for ``seat`` (clarifications 2-3), as actions."""
        g = self.game
        need = g.shape_size[shape] - 1
        pool = self.pool
        base = seat * g.nstyles
        styles = [s for s in range(g.nstyles) if pool[base + s] >= need]
        if not styles:
            return []
        own = self.own[seat]
        cov = self.covered
        vis = self.vis
        cells = self.geo.cells
        out: list[Action] = []
        bb = g.build_base
        for pos, mask, _ in self.geo.placements[shape][1 if mirrored else 0]:
            if mask & own:
                continue
            for s in styles:
                x = mask & vis[s]
                if x and not (x & (x - 1)) and not (x & cov):
                    out.append(bb + s * cells + pos)
                    if first_only:
                        return out
        out.sort()
        return out

    def _add_targets(self, seat: Seat) -> list[Action]:
        g = self.game
        out = []
        free = ~self.own[seat]
        for s in range(g.nstyles):
            if self.pool[seat * g.nstyles + s] == 0:
                continue
            allowed = free & ~self.vis[s] & ((1 << self.geo.cells) - 1)
            while allowed:
                low = allowed & -allowed
                cell = low.bit_length() - 1
                out.append(g.add_base + cell * g.nstyles + s)
                allowed ^= low
        out.sort()
        return out

    def _remove_targets(self) -> list[Action]:
        out = []
        cov = self.covered
        while cov:
            low = cov & -cov
            out.append(self.game.remove_base + low.bit_length() - 1)
            cov ^= low
        return out

    def _move_targets(self) -> list[Action]:
        out = []
        cov = self.covered & ~self.moved
        nb = self.geo.neighbours
        mb = self.game.move_base
        while cov:
            low = cov & -cov
            cell = low.bit_length() - 1
            cov ^= low
            style = self.vstyle[cell]
            for d, dest in enumerate(nb[cell]):
                if dest >= 0 and self.owner[dest] < 0 and self.orig[dest] != style:
                    out.append(mb + cell * 4 + d)
        return out

    def _card_usable(self, card: int, seat: Seat) -> bool:
        """Whether the card would change something now (clarification 8): a mirror only before the build, once."""
        kind = self.game.card_kind[card]
        if kind == BUILD:
            return not self.built and not self.mirror
        if kind == ADD:
            return bool(self._add_targets(seat))
        if kind == REMOVE:
            return self.covered != 0
        return bool(self._move_targets())

    def _usable_cards(self, seat: Seat) -> list[int]:
        return [c for c, h in enumerate(self.holder) if h == seat and self._card_usable(c, seat)]

    def legal_actions(self) -> list[Action]:
        """The sorted legal actions of the seat to move; empty once the game is over."""
        phase = self.phase
        if phase == BUILD:
            seat = (self.first + self.turn) % self.n
            return self._builds(seat, self.shape, self.mirror) or [PASS]
        if phase == REVEAL:
            hand = self.hands[self.first]
            rb = self.game.reveal_base
            return [rb + i for i in range(len(self.game.shape_ids)) if hand >> i & 1]
        if phase == BONUS:
            seat = (self.first + self.turn) % self.n
            return [SKIP] + [self.game.use_base + c for c in self._usable_cards(seat)]
        if phase == ADD:
            return self._add_targets((self.first + self.turn) % self.n)
        if phase == REMOVE:
            return self._remove_targets()
        if phase == MOVE:
            moves = sorted(self._move_targets())
            if self.moved:
                return [STOP] + moves
            return moves
        return []

    # --- flow ---------------------------------------------------------------------------

    def _start_round(self) -> None:
        """Check the end (clarification 13), then wait for the first player's reveal."""
        self.turn = 0
        self.shape = -1
        if self.hands[self.first] == 0:
            self.phase = OVER
            self.reason = Termination.HANDS_EMPTY
            return
        if not self._anyone_can_add():
            self.phase = OVER
            self.reason = Termination.NO_LEGAL_MOVES
            return
        self.phase = REVEAL

    def _anyone_can_add(self) -> bool:
        g = self.game
        remaining = 0
        for hand in self.hands:
            remaining |= hand
        shapes = [i for i in range(len(g.shape_ids)) if remaining >> i & 1]
        for seat in range(self.n):
            held = [c for c, h in enumerate(self.holder) if h == seat]
            mirror = any(g.card_kind[c] == BUILD for c in held)
            for shape in shapes:
                if self._builds(seat, shape, False, True):
                    return True
                if mirror and self._builds(seat, shape, True, True):
                    return True
            if any(g.card_kind[c] == ADD for c in held) and self._add_targets(seat):
                return True
            # a held Remove or Move card with a target may open a place for a build (clarification 13)
            if any(g.card_kind[c] == REMOVE for c in held) and self.covered:
                return True
            if any(g.card_kind[c] == MOVE for c in held) and self._move_targets():
                return True
        return False

    def _begin_turn_phase(self) -> None:
        """Offer a bonus when the player may still use one and holds a usable card; else build, or end the
        turn when the build is done (clarification 8)."""
        if self.phase == OVER:
            return
        seat = (self.first + self.turn) % self.n
        may = self.game.when_wanted or self.uses == 0
        if may and seat in self.holder and self._usable_cards(seat):
            self.phase = BONUS
        elif self.built:
            self._end_turn()
        else:
            self.phase = BUILD

    def _after_build(self) -> None:
        """The build or pass is done: with cards used when wanted, the player may use more; else the turn ends."""
        if self.game.when_wanted:
            self.built = True
            self._begin_turn_phase()
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.mirror = False
        self.uses = 0
        self.built = False
        self.moved = 0
        self.turn += 1
        if self.turn == self.n:
            self.first = (self.first + 1) % self.n
            self._start_round()
        else:
            self._begin_turn_phase()

    def _claims(self, seat: Seat, placed: tuple[int, ...]) -> None:
        """Give ``seat`` every Ceramas card in the row whose pattern the build formed (6-7)."""
        geo = self.geo
        cov = self.covered
        vstyle = self.vstyle
        for card, where in enumerate(self.holder):
            if where != ON_TABLE:
                continue
            occs = geo.occurrences[card]
            by_cell = geo.by_cell[card]
            seen: set[int] = set()
            for cell in placed:
                for index in by_cell[cell]:
                    if index in seen:
                        continue
                    seen.add(index)
                    occ = occs[index]
                    if occ.mask & cov != occ.mask:
                        continue
                    reps = []
                    ok = True
                    for group in occ.groups:
                        s0 = vstyle[group[0]]
                        for c in group:
                            if vstyle[c] != s0:
                                ok = False
                                break
                        if not ok:
                            break
                        reps.append(s0)
                    if ok and len(set(reps)) == len(reps):
                        self.holder[card] = seat
                        self._count(f"pattern:{self.game.card_ids[card]}")
                        break
                if self.holder[card] != ON_TABLE:
                    break

    def apply_action(self, action: Action) -> None:
        """Play ``action`` for the seat to move."""
        g = self.game
        phase = self.phase
        seat = (self.first + self.turn) % self.n
        if phase == BUILD:
            if action == PASS:
                self.placed = ()
                self._after_build()
                return
            code = action - g.build_base
            cells = self.geo.cells
            style, pos = divmod(code, cells)
            mask, idx = self.geo.at[self.shape][1 if self.mirror else 0][pos]
            anchor = mask & self.vis[style]
            placed = []
            for cell in idx:
                if not (anchor >> cell) & 1:
                    self._lay(cell, seat, style)
                    placed.append(cell)
            self.placed = tuple(placed)
            self._count(f"card:{g.shape_ids[self.shape]}")  # a Shape card is used when it is built, not just revealed
            self._claims(seat, self.placed)
            self._after_build()
        elif phase == REVEAL:
            shape = action - g.reveal_base
            self.hands[seat] &= ~(1 << shape)
            self.played.append(shape)
            self.shape = shape
            self.turn = 0
            self._begin_turn_phase()
        elif phase == BONUS:
            if action == SKIP:
                if self.built:
                    self._end_turn()
                else:
                    self.phase = BUILD
                return
            card = action - g.use_base
            self.holder[card] = USED
            self.uses += 1
            kind = g.card_kind[card]
            if kind != BUILD or not g.shape_symmetric[self.shape]:  # used = it changes something (issue 13)
                self._count(f"bonus:{g.card_effect[card]}")
            if kind == BUILD:
                self.mirror = True
                self._begin_turn_phase()
            else:
                self.phase = kind
                self.targets_left = g.card_count[card]
                self.moved = 0
        elif phase == ADD:
            cell, style = divmod(action - g.add_base, g.nstyles)
            self._lay(cell, seat, style)
            self._after_target(self._add_targets(seat))
        elif phase == REMOVE:
            self._lift(action - g.remove_base)
            self._after_target(self._remove_targets())
        elif phase == MOVE:
            if action == STOP:
                self.targets_left = 0
                self._after_target([])
                return
            cell, d = divmod(action - g.move_base, 4)
            dest = self.geo.neighbours[cell][d]
            owner = self.owner[cell]
            style = self.vstyle[cell]
            self._lift(cell)
            self._lay(dest, owner, style)
            self.moved |= 1 << dest
            self._after_target(self._move_targets())
        else:
            raise ValueError("the game is over")

    def _after_target(self, more: list[Action]) -> None:
        self.targets_left -= 1
        if self.targets_left > 0 and more:
            return
        self.targets_left = 0
        self.moved = 0
        self._begin_turn_phase()

    # --- text -------------------------------------------------------------------------------

    def action_to_string(self, action: Action) -> str:
        """A replay line such as 'P1 builds shape s03 (Bar) in Islamic from the Original at (2,1), ...'."""
        g = self.game
        if self.phase == OVER:
            return f"(game over) {action}"
        seat = (self.first + self.turn) % self.n
        who = f"P{seat + 1}"
        if action == PASS:
            return f"{who} passes: cannot build shape {g.shape_ids[self.shape]}"
        if action == SKIP:
            return f"{who} uses no more bonuses this turn" if self.built else f"{who} uses no bonus"
        if action == STOP:
            return f"{who} stops moving tiles"
        if action < g.use_base:
            i = action - g.reveal_base
            return f"{who} reveals shape {g.shape_ids[i]} ({g.shape_names[i]})"
        if action < g.build_base:
            c = action - g.use_base
            return f"{who} uses Ceramas {g.card_ids[c]} ({g.card_names[c]}): {g.card_effect[c]}"
        if action < g.add_base:
            style, pos = divmod(action - g.build_base, self.geo.cells)
            for p, mask, idx in self.geo.placements[self.shape][1 if self.mirror else 0]:
                if p == pos:
                    anchor = (mask & self.vis[style]).bit_length() - 1
                    tiles = " ".join(self.cell_name(c) for c in idx if c != anchor)
                    broken = [c for c in idx if c != anchor and self.owner[c] >= 0]
                    text = (
                        f"{who} builds shape {g.shape_ids[self.shape]}{' mirrored' if self.mirror else ''} in "
                        f"{g.style_names[style]} from the Original at {self.cell_name(anchor)}, tiles at {tiles}"
                    )
                    if broken:
                        text += ", breaking " + " ".join(f"P{self.owner[c] + 1}'s tile at {self.cell_name(c)}" for c in broken)
                    return text
            return f"{who} builds (bad placement {action})"
        if action < g.remove_base:
            cell, style = divmod(action - g.add_base, g.nstyles)
            return f"{who} adds a {g.style_names[style]} tile at {self.cell_name(cell)}"
        if action < g.move_base:
            cell = action - g.remove_base
            return f"{who} removes P{self.owner[cell] + 1}'s {g.style_names[self.vstyle[cell]]} tile at {self.cell_name(cell)}"
        cell, d = divmod(action - g.move_base, 4)
        dest = self.geo.neighbours[cell][d]
        return (
            f"{who} moves P{self.owner[cell] + 1}'s {g.style_names[self.vstyle[cell]]} tile "
            f"{DIRECTION_NAMES[d]} from {self.cell_name(cell)} to {self.cell_name(dest)}"
        )

    # --- checks -----------------------------------------------------------------------------

    def conservation_errors(self) -> list[str]:
        """Every tile on the Mural or in its owner's reserve exactly once; cards in one place; scores agree."""
        g = self.game
        errors = []
        counts = [0] * (self.n * g.nstyles)
        on = [0] * self.n
        vis = [0] * g.nstyles
        own = [0] * self.n
        covered = 0
        for cell, seat in enumerate(self.owner):
            style = self.vstyle[cell]
            vis[style] |= 1 << cell
            if seat >= 0:
                counts[seat * g.nstyles + style] += 1
                on[seat] += 1
                own[seat] |= 1 << cell
                covered |= 1 << cell
            elif style != self.orig[cell]:
                errors.append(f"uncovered cell {self.cell_name(cell)} shows the wrong style")
        for seat in range(self.n):
            for s in range(g.nstyles):
                total = counts[seat * g.nstyles + s] + self.pool[seat * g.nstyles + s]
                if total != g.tiles_per_style or self.pool[seat * g.nstyles + s] < 0:
                    errors.append(f"P{seat + 1} has {total} {g.style_names[s]} tiles, not {g.tiles_per_style}")
        if vis != self.vis or own != self.own or covered != self.covered or on != self.on_mural:
            errors.append("the bitmasks disagree with the cells")
        places = [0] * len(g.shape_ids)
        for hand in self.hands:
            for i in range(len(places)):
                if hand >> i & 1:
                    places[i] += 1
        for i in list(self.played) + list(self.undealt):
            places[i] += 1
        for i, k in enumerate(places):
            if k != 1:
                errors.append(f"shape {g.shape_ids[i]} is in {k} places")
        for c, h in enumerate(self.holder):
            if not (h in (ON_TABLE, USED) or 0 <= h < self.n):
                errors.append(f"Ceramas {g.card_ids[c]} is nowhere")
        expected = [m * g.points_on + (g.tiles_per_player - m) * g.points_reserve for m in on]
        if expected != self.scores():
            errors.append("scores do not match the Mural")
        return errors

    def render(self) -> str:
        """The Mural as text: upper-case Original symbols, lower-case symbol plus seat for tiles."""
        g = self.game
        lines = []
        for y in range(self.geo.height):
            row = []
            for x in range(self.geo.width):
                cell = y * self.geo.width + x
                if self.owner[cell] >= 0:
                    row.append(g.style_symbols[self.vstyle[cell]].lower() + str(self.owner[cell] + 1))
                else:
                    row.append(g.style_symbols[self.orig[cell]] + ".")
            lines.append(" ".join(row))
        return "\n".join(lines)


def move_name(state: State, action: Action) -> str:
    """``action`` by the name every engine of Ceramus gives it (see :mod:`cardgen.games.ceramus.position`)."""
    assert isinstance(state, CeramusState)
    g = state.game
    if action == PASS:
        return "pass"
    if action == SKIP:
        return "skip"
    if action == STOP:
        return "stop"
    if action < g.use_base:
        return f"reveal {g.shape_ids[action - g.reveal_base]}"
    if action < g.build_base:
        return f"use {g.card_ids[action - g.use_base]}"
    if action < g.add_base:
        return f"build {action - g.build_base}"
    if action < g.remove_base:
        return f"add {action - g.add_base}"
    if action < g.move_base:
        return f"remove {action - g.remove_base}"
    return f"move {action - g.move_base}"


def dealt_like(game: CeramusGame, data: DataState) -> CeramusState:
    """The reference's position dealt as the data game ``data`` was: the same Mural (cell by cell, as the mechanic
    laid it), the same Shape cards in each hand and the same ones undealt."""
    from cardgen.games.ceramus.position import mural_mechanic

    g = data.g
    mechanic = mural_mechanic(data)
    index = {sid: i for i, sid in enumerate(game.shape_ids)}
    hands = []
    for seat in range(g.num_players):
        mask = 0
        for design in data.z[g.slot("hand", seat)]:
            mask |= 1 << index[g.card_ids[design]]
        hands.append(mask)
    undealt = [index[g.card_ids[d]] for d in data.z[g.slot("pile")]]
    return CeramusState.fresh(game, game.geometry, list(data.m[mechanic.index].orig), hands, undealt)


def solve_fast(state: CeramusState, node_budget: int | None = None) -> Solution:
    """The shipped solo solver's search (:func:`cardgen.games.ceramus.solver.solve_position`) on a reference position,
    its line played by the reference's move names."""
    from cardgen.games.ceramus.solver import solve_position

    return solve_position(state, state, move_name, node_budget)
