"""Ceramus in the rulebook's pictures: the table read off a state, its actions said in words, and the Mural
with its Shapes built and scored.

Registered on import; the rulebook imports this module through its figure discovery.
"""

from __future__ import annotations

import random

from cardgen.engine.agents import GreedyAgent
from cardgen.engine.core import Action, Game, State
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.games.ceramus.geometry import DIRECTIONS, ON_TABLE
from cardgen.games.ceramus.mechanic import CeramusMural, Mural
from cardgen.games.ceramus.position import game_view, move_name, mural_mechanic, view
from cardgen.render.figures import GameFigures, Mark, Position, TableView, Words, Zone, cell_label, register_figures
from cardgen.render.scene import Primitive, Scene
from cardgen.render.table_figure import board

MURAL, SHAPES, CERAMAS, TILE, STYLES = "mural", "shapes", "ceramas", "tile", "styles"
"""The deck, component and palette ids the mechanic reads (see its contract)."""


def _mural(state: DataState) -> tuple[CeramusMural, Mural]:
    mechanic = mural_mechanic(state)
    return mechanic, state.m[mechanic.index]


def _cell(mechanic: CeramusMural, cell: int) -> str:
    return cell_label(cell % mechanic.cols, cell // mechanic.cols)


def mural_zone(state: DataState) -> Zone:
    """The Mural as a board: every cell's visible style, a tile's owner on it, a heavier line round each card."""
    mechanic, m = _mural(state)
    marks = tuple(Mark(entry=mechanic.style_ids[m.vstyle[cell]], owner=m.owner[cell]) for cell in range(mechanic.geo.cells))
    return Zone("cells", MURAL, mechanic.card_columns * mechanic.card_rows, marks=marks, columns=mechanic.cols, palette=STYLES, block=mechanic.side)


def table(state: State) -> TableView:
    """The Mural, the Ceramas row, the Shape cards left and played, and each seat's hand, tiles and Ceramas."""
    assert isinstance(state, DataState)
    facts = view(state)
    g = facts.game
    zones = [mural_zone(state)]
    row = tuple(Mark(card=card) for i, card in enumerate(g.card_ids) if facts.holder[i] == ON_TABLE)
    if row:
        zones.append(Zone("row", CERAMAS, len(row), marks=row))
    undealt, played = state.z[state.g.slot("pile")], state.z[state.g.slot("played")]
    if undealt:
        zones.append(Zone("pile", SHAPES, len(undealt)))
    if played:
        zones.append(Zone("discard", SHAPES, len(played)))
    for seat in range(facts.n):
        zones.append(Zone("hand", SHAPES, bin(facts.hands[seat]).count("1"), seat))
        for style in range(g.nstyles):
            zones.append(Zone("pieces", TILE, facts.pool[seat * g.nstyles + style], seat, entry=g.style_ids[style]))
        held = tuple(Mark(card=card) for i, card in enumerate(g.card_ids) if facts.holder[i] == seat)
        if held:
            zones.append(Zone("collection", CERAMAS, len(held), seat, held))
    return TableView(facts.n, tuple(zones))


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


def _mirrored(state: DataState) -> bool:
    """Whether this turn's Shape is built mirrored (a mirror card was used this turn)."""
    return state.c[state.g.tables.counter_index["mirrored"]] > 0


def describe(state: State, action: Action, words: Words) -> str:
    """``action`` in ``words``' language, from the position before it (as ``action_to_string`` says it),
    cells named as the Mural picture labels them (column letter, row number)."""
    assert isinstance(state, DataState)
    if state.is_terminal():
        return state.action_to_string(action)
    mechanic, m = _mural(state)
    g = game_view(state)
    name, _, value = move_name(state, action).partition(" ")
    who = words.seat(state.deciding_seat())

    def say(key: str, **values: object) -> str:
        return words.phrase(P[key]).format(who=who, **values)

    def shape(index: int) -> str:
        return words.card(SHAPES, g.shape_ids[index], -1)

    def style(index: int) -> str:
        return words.entry(STYLES, g.style_ids[index])

    played = state.z[state.g.slot("played")]
    current = played[-1] - mechanic.shape_first if played else -1
    if name == "pass":
        return say("pass", shape=shape(current))
    if name in ("skip", "stop"):
        return say(name)
    if name == "reveal":
        return say("reveal", shape=shape(g.shape_ids.index(value)))
    if name == "use":
        return say("use", card=words.card(CERAMAS, value, -1))
    number = int(value)
    if name == "build":
        chosen, pos = divmod(number, mechanic.geo.cells)
        mirrored = _mirrored(state)
        at = mechanic.geo.at[current][1 if mirrored else 0].get(pos)
        if at is None:
            return state.action_to_string(action)
        mask, cells = at
        anchor = (mask & m.vis[chosen]).bit_length() - 1
        tiles = ", ".join(_cell(mechanic, c) for c in cells if c != anchor)
        text = say("mirrored" if mirrored else "build", shape=shape(current), style=style(chosen), anchor=_cell(mechanic, anchor), tiles=tiles)
        owners = sorted({m.owner[c] for c in cells if c != anchor and m.owner[c] >= 0})
        if owners:
            text += words.phrase(P["breaking"]).format(others=", ".join(words.seat(o) for o in owners))
        return text
    if name == "add":
        cell, chosen = divmod(number, g.nstyles)
        return say("add", style=style(chosen), cell=_cell(mechanic, cell))
    if name == "remove":
        return say("remove", style=style(m.vstyle[number]), owner=words.seat(m.owner[number]), cell=_cell(mechanic, number))
    cell, direction = divmod(number, len(DIRECTIONS))
    dest = mechanic.geo.neighbours[cell][direction]
    return say("move", style=style(m.vstyle[cell]), owner=words.seat(m.owner[cell]), cell=_cell(mechanic, cell), dest=_cell(mechanic, dest))


def built_cells(state: DataState, action: Action) -> list[int]:
    """The cells a build action covers (its Original included); empty for any other action."""
    name, _, value = move_name(state, action).partition(" ")
    if name != "build":
        return []
    mechanic, _ = _mural(state)
    pos = int(value) % mechanic.geo.cells
    at = mechanic.geo.at[mechanic.shape_of(state)][1 if _mirrored(state) else 0].get(pos)
    return list(at[1]) if at is not None else []


OUTLINES = ("#111111", "#8a1c7c", "#0b6e6e", "#7a4a00")
"""The line round each seat's Shapes (the tiles' seat discs tell them apart without colour)."""
POSITION = {
    "en": "The Mural after the first round: each player built the revealed Shape, outlined on the Mural",
    "pt_BR": "O Mural depois da primeira rodada: cada jogador construiu a Forma revelada, contornada no Mural",
}
TILES = {"en": "{who}: {on} tiles on the Mural, {off} in reserve", "pt_BR": "{who}: {on} azulejos no Mural, {off} na reserva"}


SEEDS_TRIED = 50
"""Deals tried, from the figure's seed on, for a first round whose Shapes all stay whole on the Mural."""


def first_round(game: DataGame, seed: int) -> tuple[DataState, list[tuple[int, list[int]]]]:
    """The first round of the deal of ``seed`` played by greedy players (ties from ``seed``): the state after
    it, and each Shape built in it (its builder and cells)."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    agent = GreedyAgent(game)
    shapes: list[tuple[int, list[int]]] = []
    builders: set[int] = set()
    while not state.is_terminal() and len(builders) < game.num_players:
        seat = state.deciding_seat()
        action = agent.choose(state, state.legal_actions(), rng)
        cells = built_cells(state, action)
        if cells:
            shapes.append((seat, cells))
        if cells or move_name(state, action) == "pass":
            builders.add(seat)
        state.apply_action(action)
    return state, shapes


def positions(game: Game, seed: int, words: Words) -> list[Position]:
    """The Mural after the first round of a deal, each Shape built in it outlined, with the tiles each player
    has on the Mural and in reserve (the engine's score follows from them).

    The deal is the first from ``seed`` on whose Shapes all stay whole (no tile broken), so the outlines read
    plainly; breaking is shown by the rules text.
    """
    assert isinstance(game, DataGame)
    for tried in range(SEEDS_TRIED):
        state, shapes = first_round(game, seed + tried)
        _, m = _mural(state)
        whole = all(
            all(m.owner[c] in (-1, builder) for c in cells) and sum(m.owner[c] == builder for c in cells) == len(cells) - 1
            for builder, cells in shapes
        )
        if whole and all(m.on[s] for s in range(game.num_players)):
            break
    mechanic, m = _mural(state)
    palette = next(p for p in game.spec.palettes if p.id == STYLES)
    entries = {e.id: e for e in palette.entries}
    zone = mural_zone(state)
    marks = tuple(Mark(entry=m.entry, owner=m.owner, text=entries[m.entry].symbol_in(words.locale), fill=entries[m.entry].colour) for m in zone.marks)
    drawn = board(Zone("cells", MURAL, zone.count, marks=marks, columns=zone.columns, block=zone.block), 160.0)
    items: list[Primitive] = list(drawn.items)
    width = mechanic.cols
    for seat, cells in shapes:
        items.extend(drawn.outline([(c % width, c // width) for c in cells], OUTLINES[seat % len(OUTLINES)]))
    lines = tuple(
        words.phrase(TILES).format(who=words.seat(seat), on=words.number(m.on[seat]), off=words.number(mechanic.tiles_per_player - m.on[seat]))
        for seat in range(game.num_players)
    )
    scene = Scene(drawn.w + 2.0, drawn.h + 2.0, tuple(items))
    return [Position(scene, state, words.phrase(POSITION), lines)]


register_figures("ceramus", GameFigures(table=table, describe=describe, positions=positions))
