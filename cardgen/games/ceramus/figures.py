"""Ceramus in the rulebook's pictures: the table read off a state, its actions said in words, and the Mural
with its Shapes built and scored.

Registered on import; the rulebook imports this module through its figure discovery.
"""

from __future__ import annotations

import random

from cardgen.engine.agents import GreedyAgent
from cardgen.engine.core import Action, Game, State
from cardgen.games.ceramus.rules import DIRECTIONS, ON_TABLE, OVER, PASS, SKIP, STOP, CeramusGame, CeramusState
from cardgen.render.figures import GameFigures, Mark, Position, TableView, Words, Zone, cell_label, register_figures
from cardgen.render.scene import Primitive, Scene
from cardgen.render.table_figure import board

MURAL, SHAPES, CERAMAS, TILE, STYLES = "mural", "shapes", "ceramas", "tile", "styles"
"""The deck, component and palette ids the rules module reads (see its contract)."""


def _cell(state: CeramusState, cell: int) -> str:
    return cell_label(cell % state.geo.width, cell // state.geo.width)


def mural_zone(state: CeramusState) -> Zone:
    """The Mural as a board: every cell's visible style, a tile's owner on it, a heavier line round each card."""
    g = state.game
    marks = tuple(Mark(entry=g.style_ids[state.vstyle[cell]], owner=state.owner[cell]) for cell in range(state.geo.cells))
    return Zone("cells", MURAL, g.card_columns * g.card_rows, marks=marks, columns=state.geo.width, palette=STYLES, block=g.side)


def table(state: State) -> TableView:
    """The Mural, the Ceramas row, the Shape cards left and played, and each seat's hand, tiles and Ceramas."""
    assert isinstance(state, CeramusState)
    g = state.game
    zones = [mural_zone(state)]
    row = tuple(Mark(card=card) for i, card in enumerate(g.card_ids) if state.holder[i] == ON_TABLE)
    if row:
        zones.append(Zone("row", CERAMAS, len(row), marks=row))
    if state.undealt:
        zones.append(Zone("pile", SHAPES, len(state.undealt)))
    if state.played:
        zones.append(Zone("discard", SHAPES, len(state.played)))
    for seat in range(g.num_players):
        zones.append(Zone("hand", SHAPES, bin(state.hands[seat]).count("1"), seat))
        for style in range(g.nstyles):
            zones.append(Zone("pieces", TILE, state.pool[seat * g.nstyles + style], seat, entry=g.style_ids[style]))
        held = tuple(Mark(card=card) for i, card in enumerate(g.card_ids) if state.holder[i] == seat)
        if held:
            zones.append(Zone("collection", CERAMAS, len(held), seat, held))
    return TableView(g.num_players, tuple(zones))


P: dict[str, dict[str, str]] = {
    "pass": {"en": "{who} cannot build {shape} and passes", "pt_BR": "{who} não consegue construir {shape} e passa"},
    "skip": {"en": "{who} uses no bonus", "pt_BR": "{who} não usa bônus"},
    "stop": {"en": "{who} stops moving tiles", "pt_BR": "{who} para de mover azulejos"},
    "reveal": {"en": "{who} reveals {shape}", "pt_BR": "{who} revela {shape}"},
    "use": {"en": "{who} uses {card}", "pt_BR": "{who} usa {card}"},
    "build": {"en": "{who} builds {shape} in {style} from the Original at {anchor}, with tiles on {tiles}",
              "pt_BR": "{who} constrói {shape} em {style} a partir do Original em {anchor}, com azulejos em {tiles}"},
    "mirrored": {"en": "{who} builds {shape}, mirrored, in {style} from the Original at {anchor}, with tiles on {tiles}",
                 "pt_BR": "{who} constrói {shape}, espelhada, em {style} a partir do Original em {anchor}, com azulejos em {tiles}"},
    "breaking": {"en": ", breaking the tiles of {others}", "pt_BR": ", quebrando os azulejos de {others}"},
    "add": {"en": "{who} adds a {style} tile on {cell}", "pt_BR": "{who} acrescenta um azulejo {style} em {cell}"},
    "remove": {"en": "{who} removes the {style} tile of {owner} from {cell}", "pt_BR": "{who} retira o azulejo {style} de {owner} de {cell}"},
    "move": {"en": "{who} moves the {style} tile of {owner} from {cell} to {dest}", "pt_BR": "{who} move o azulejo {style} de {owner} de {cell} para {dest}"},
}


def describe(state: State, action: Action, words: Words) -> str:
    """``action`` in ``words``' language, from the position before it (as ``action_to_string`` says it),
    cells named as the Mural picture labels them (column letter, row number)."""
    assert isinstance(state, CeramusState)
    g = state.game
    if state.phase == OVER:
        return state.action_to_string(action)
    who = words.seat((state.first + state.turn) % state.n)

    def say(key: str, **values: object) -> str:
        return words.phrase(P[key]).format(who=who, **values)

    def shape(index: int) -> str:
        return words.card(SHAPES, g.shape_ids[index], -1)

    def style(index: int) -> str:
        return words.entry(STYLES, g.style_ids[index])

    if action == PASS:
        return say("pass", shape=shape(state.shape))
    if action == SKIP:
        return say("skip")
    if action == STOP:
        return say("stop")
    if action < g.use_base:
        return say("reveal", shape=shape(action - g.reveal_base))
    if action < g.build_base:
        return say("use", card=words.card(CERAMAS, g.card_ids[action - g.use_base], -1))
    if action < g.add_base:
        chosen, pos = divmod(action - g.build_base, state.geo.cells)
        for place, mask, cells in state.geo.placements[state.shape][1 if state.mirror else 0]:
            if place == pos:
                anchor = (mask & state.vis[chosen]).bit_length() - 1
                tiles = ", ".join(_cell(state, c) for c in cells if c != anchor)
                text = say("mirrored" if state.mirror else "build", shape=shape(state.shape), style=style(chosen), anchor=_cell(state, anchor), tiles=tiles)
                owners = sorted({state.owner[c] for c in cells if c != anchor and state.owner[c] >= 0})
                if owners:
                    text += words.phrase(P["breaking"]).format(others=", ".join(words.seat(o) for o in owners))
                return text
        return state.action_to_string(action)
    if action < g.remove_base:
        cell, chosen = divmod(action - g.add_base, g.nstyles)
        return say("add", style=style(chosen), cell=_cell(state, cell))
    if action < g.move_base:
        cell = action - g.remove_base
        return say("remove", style=style(state.vstyle[cell]), owner=words.seat(state.owner[cell]), cell=_cell(state, cell))
    cell, direction = divmod(action - g.move_base, len(DIRECTIONS))
    dest = state.geo.neighbours[cell][direction]
    return say("move", style=style(state.vstyle[cell]), owner=words.seat(state.owner[cell]), cell=_cell(state, cell), dest=_cell(state, dest))


def built_cells(state: CeramusState, action: Action) -> list[int]:
    """The cells a build action covers (its Original included); empty for any other action."""
    g = state.game
    if not g.build_base <= action < g.add_base:
        return []
    pos = (action - g.build_base) % state.geo.cells
    for place, _mask, cells in state.geo.placements[state.shape][1 if state.mirror else 0]:
        if place == pos:
            return list(cells)
    return []


OUTLINES = ("#111111", "#8a1c7c", "#0b6e6e", "#7a4a00")
"""The line round each seat's Shapes (the tiles' seat discs tell them apart without colour)."""
POSITION = {
    "en": "The Mural after the first round: each player built the revealed Shape, outlined on the Mural",
    "pt_BR": "O Mural depois da primeira rodada: cada jogador construiu a Forma revelada, contornada no Mural",
}
TILES = {"en": "{who}: {on} tiles on the Mural, {off} in reserve", "pt_BR": "{who}: {on} azulejos no Mural, {off} na reserva"}


SEEDS_TRIED = 50
"""Deals tried, from the figure's seed on, for a first round whose Shapes all stay whole on the Mural."""


def first_round(game: CeramusGame, seed: int) -> tuple[CeramusState, list[tuple[int, list[int]]]]:
    """The first round of the deal of ``seed`` played by greedy players (ties from ``seed``): the state after
    it, and each Shape built in it (its builder and cells)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    agent = GreedyAgent(game)
    shapes: list[tuple[int, list[int]]] = []
    builders: set[int] = set()
    while not state.is_terminal() and len(builders) < game.num_players:
        seat = (state.first + state.turn) % state.n
        action = agent.choose(state, state.legal_actions(), rng)
        cells = built_cells(state, action)
        if cells:
            shapes.append((seat, cells))
        if cells or action == PASS:
            builders.add(seat)
        state.apply_action(action)
    return state, shapes


def positions(game: Game, seed: int, words: Words) -> list[Position]:
    """The Mural after the first round of a deal, each Shape built in it outlined, with the tiles each player
    has on the Mural and in reserve (the engine's score follows from them).

    The deal is the first from ``seed`` on whose Shapes all stay whole (no tile broken), so the outlines read
    plainly; breaking is shown by the rules text.
    """
    assert isinstance(game, CeramusGame)
    for tried in range(SEEDS_TRIED):
        state, shapes = first_round(game, seed + tried)
        whole = all(
            all(state.owner[c] in (-1, builder) for c in cells) and sum(state.owner[c] == builder for c in cells) == len(cells) - 1
            for builder, cells in shapes
        )
        if whole and all(state.on_mural[s] for s in range(game.num_players)):
            break
    palette = next(p for p in game.spec.palettes if p.id == STYLES)
    entries = {e.id: e for e in palette.entries}
    zone = mural_zone(state)
    marks = tuple(Mark(entry=m.entry, owner=m.owner, text=entries[m.entry].symbol_in(words.locale), fill=entries[m.entry].colour) for m in zone.marks)
    drawn = board(Zone("cells", MURAL, zone.count, marks=marks, columns=zone.columns, block=zone.block), 160.0)
    items: list[Primitive] = list(drawn.items)
    width = state.geo.width
    for seat, cells in shapes:
        items.extend(drawn.outline([(c % width, c // width) for c in cells], OUTLINES[seat % len(OUTLINES)]))
    lines = tuple(
        words.phrase(TILES).format(who=words.seat(seat), on=words.number(state.on_mural[seat]), off=words.number(game.tiles_per_player - state.on_mural[seat]))
        for seat in range(game.num_players)
    )
    scene = Scene(drawn.w + 2.0, drawn.h + 2.0, tuple(items))
    return [Position(scene, state, words.phrase(POSITION), lines)]


register_figures("ceramus", GameFigures(table=table, describe=describe, positions=positions))
