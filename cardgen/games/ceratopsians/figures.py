"""Ceratopsians in the rulebook's pictures: the table read off a state, a draft said in words, a scored display.

Registered on import; the rulebook imports this module through its figure discovery.
"""

from __future__ import annotations

import random

from cardgen.engine.agents import GreedyAgent
from cardgen.engine.core import Action, Game, State
from cardgen.engine.interpreter import DataState
from cardgen.games.ceratopsians.faces import DECK_ID, EDGES
from cardgen.games.ceratopsians.mechanic import EMPTY
from cardgen.games.ceratopsians.position import DraftFacts, draft_slot, facts, position
from cardgen.games.ceratopsians.widgets import _skull_outline
from cardgen.render.colour import ink_on
from cardgen.render.figures import GameFigures, Mark, Position, TableView, Words, Zone, register_figures
from cardgen.render.scene import Box, Circle, Line, Primitive, Rect, Scene, Text
from cardgen.render.table_figure import BOLD, INK, TEXT_PT
from cardgen.render.units import pt_to_mm


def face_mark(game: DraftFacts, face: int) -> Mark:
    """The mark of a card showing ``face`` (the spec's card id, and which of its two faces shows)."""
    return Mark(card=game.card_ids[face // 2].split("#")[0], face=face % 2)


def table(state: State) -> TableView:
    """The deck, the boneyard's slots (seat 1's nearest first) and each player's collection (empty at the start)."""
    seen = position(state)
    game = seen.game
    zones = [Zone("pile", DECK_ID, len(seen.order) - seen.top)]
    bone = tuple(face_mark(game, 2 * card + seen.sides[card]) for card in seen.bone if card != EMPTY)
    zones.append(Zone("row", DECK_ID, len(bone), marks=bone))
    for seat in (0, 1):
        faces = seen.collections[seat]
        zones.append(Zone("collection", DECK_ID, len(faces), seat, tuple(face_mark(game, f) for f in faces)))
    return TableView(game.num_players, tuple(zones))


SLOTS = (
    {"en": "the slot nearest them", "pt_BR": "o espaço mais perto de si"},
    {"en": "the middle slot", "pt_BR": "o espaço do meio"},
    {"en": "the slot furthest from them", "pt_BR": "o espaço mais distante de si"},
)
DRAFT = {"en": "{who} drafts {card} from {slot}", "pt_BR": "{who} pega {card} d{slot}"}


def describe(state: State, action: Action, words: Words) -> str:
    """A draft in ``words``' language: who, which face, from which slot as seen by the drafting player."""
    assert isinstance(state, DataState)
    seen = position(state)
    slot = draft_slot(state.g, action)
    player = seen.drafts & 1
    card = seen.bone[slot] if 0 <= slot < 3 else EMPTY
    if card == EMPTY:
        return state.action_to_string(action)
    mark = face_mark(seen.game, 2 * card + seen.sides[card])
    relative = slot if player == 0 else 2 - slot
    where = words.phrase(SLOTS[relative])
    return words.phrase(DRAFT).format(who=words.seat(player), card=words.card(DECK_ID, mark.card, mark.face), slot=where)


COLOURS = "colours"
"""The palette of the skulls' marker colours."""
CARD_W, CARD_H, GAP = 23.0, 19.0, 5.0
WIDTH = 168.0
"""The widest the picture may be (a rulebook's text width)."""
MARKER_R, MARKER_INSET, SPAN = 1.7, 2.4, 0.62


def face_data(game: DraftFacts, face: int) -> dict[str, object]:
    """The spec's data of the face ``face`` shows (part, cell, filled and hollow markers per edge)."""
    deck = next(d for d in game.spec.decks if d.id == DECK_ID)
    mark = face_mark(game, face)
    card = next(c for c in deck.cards if c.id == mark.card)
    assert card.faces is not None
    return dict(card.faces[mark.face].data)


def pairs(game: DraftFacts, display: list[int]) -> list[tuple[int, int, str, str]]:
    """Every scoring pair of a display: the two faces, the edge of the first they meet on, and the colour
    filled on both sides (as the mechanic counts them, :meth:`.faces.Skulls._facing`)."""
    cell = {game.face_part[f]: f for f in display}
    out: list[tuple[int, int, str, str]] = []
    for joint in game.joints:
        if joint.first in cell and joint.second in cell:
            f, g = cell[joint.first], cell[joint.second]
            (fx, fy), (gx, gy) = game.part_cell[joint.first], game.part_cell[joint.second]
            edge, other = ("right", "left") if gx > fx else ("bottom", "top")
            mine, theirs = face_data(game, f).get(edge), face_data(game, g).get(other)
            if isinstance(mine, list) and isinstance(theirs, list):
                out.extend((f, g, edge, str(colour)) for colour in mine if colour in theirs)
    return out


def _marker_at(box: Box, edge: str, index: int, count: int) -> tuple[float, float]:
    f = (1 - SPAN) / 2 + SPAN * (index + 0.5) / count
    if edge == "top":
        return box.x + f * box.w, box.y + MARKER_INSET
    if edge == "bottom":
        return box.x + f * box.w, box.bottom - MARKER_INSET
    if edge == "left":
        return box.x + MARKER_INSET, box.y + f * box.h
    return box.right - MARKER_INSET, box.y + f * box.h


def _display(game: DraftFacts, display: list[int], x0: float, y0: float, words: Words) -> tuple[list[Primitive], float, float]:
    """One display at (x0, y0): its cards in their positions (the part's drawing and its markers, filled or
    hollow, with the colour's symbol in the card language), each scoring pair joined by a line of its colour."""
    palette = next(p for p in game.spec.palettes if p.id == COLOURS)
    order = [e.id for e in palette.entries]
    entries = {e.id: e for e in palette.entries}
    columns = max(c for c, _ in game.part_cell) + 1
    rows = max(r for _, r in game.part_cell) + 1
    items: list[Primitive] = []

    def box_of(part: int) -> Box:
        col, row = game.part_cell[part]
        return Box(x0 + col * (CARD_W + GAP), y0 + row * (CARD_H + GAP), CARD_W, CARD_H)

    placed = {game.face_part[f]: f for f in display}
    for part in range(len(game.part_ids)):
        box = box_of(part)
        if part not in placed:
            items.append(Rect(box.x, box.y, box.w, box.h, stroke="#b9a58f", stroke_width=0.3, radius=1.2))
            continue
        face = placed[part]
        data = face_data(game, face)
        items.append(Rect(box.x, box.y, box.w, box.h, fill="#ffffff", stroke=INK, stroke_width=0.3, radius=1.2))
        art = Box(box.x + box.w * 0.27, box.y + box.h * 0.22, box.w * 0.46, box.h * 0.56)
        items.extend(_skull_outline(str(data.get("part")), art))
        for edge in EDGES:
            for filled, key in ((True, edge), (False, f"{edge}_hollow")):
                values = data.get(key)
                for value in values if isinstance(values, list) else []:
                    if value not in entries:
                        continue
                    cx, cy = _marker_at(box, edge, order.index(str(value)), len(order))
                    entry = entries[str(value)]
                    symbol = entry.symbol_in(words.locale)
                    if filled:
                        items.append(Circle(cx, cy, MARKER_R, fill=entry.colour, stroke=INK, stroke_width=0.2))
                    else:
                        items.append(Circle(cx, cy, MARKER_R, fill="#ffffff", stroke=entry.colour, stroke_width=0.5))
                    items.append(Text(cx, cy + pt_to_mm(TEXT_PT) * 0.35, symbol, BOLD, TEXT_PT, ink_on(entry.colour) if filled else INK, "middle"))
    for f, g, edge, colour in pairs(game, display):
        a, b = box_of(game.face_part[f]), box_of(game.face_part[g])
        k = order.index(colour)
        (ax, ay), (bx, by) = _marker_at(a, edge, k, len(order)), _marker_at(b, "left" if edge == "right" else "top", k, len(order))
        if edge == "right":
            ax, bx = ax + MARKER_R, bx - MARKER_R
        else:
            ay, by = ay + MARKER_R, by - MARKER_R
        items.append(Line(ax, ay, bx, by, INK, 1.6))
        items.append(Line(ax, ay, bx, by, entries[colour].colour, 0.9))
    return items, columns * CARD_W + (columns - 1) * GAP, rows * CARD_H + (rows - 1) * GAP


POSITION = {
    "en": "The displays of {who} at the end of a game, each pair of filled markers joined",
    "pt_BR": "As exposições de {who} no fim de uma partida, cada par de marcadores cheios ligado",
}
DISPLAY = {
    "en": "Display {n}: {pairs} pairs × {points} = {sum}",
    "pt_BR": "Exposição {n}: {pairs} pares × {points} = {sum}",
}
DISPLAY_ONE = {
    "en": "Display {n}: {pairs} pair × {points} = {sum}",
    "pt_BR": "Exposição {n}: {pairs} par × {points} = {sum}",
}
COMPLETE = {"en": ", complete: + {bonus} = {total}", "pt_BR": ", completa: + {bonus} = {total}"}


def positions(game: Game, seed: int, words: Words) -> list[Position]:
    """A whole game of the deal of ``seed`` played by greedy players (ties from ``seed``): the first player's
    best arrangement into displays, as the engine scores it, each pair of filled markers joined."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    agent = GreedyAgent(game)
    while not state.is_terminal():
        state.apply_action(agent.choose(state, state.legal_actions(), rng))
    seat = 0
    seen = position(state)
    displays = [list(d) for d in seen.arrangement(seat) if d]
    game_facts = facts(game)
    items: list[Primitive] = []
    lines = []
    x, y, row_h, widest = 2.0, 0.0, 0.0, 0.0
    for n, display in enumerate(displays, start=1):
        count = len(pairs(game_facts, display))
        score = game_facts.scorer.display_score(display)
        points = game_facts.pair_points
        line = words.phrase(DISPLAY_ONE if count == 1 else DISPLAY).format(n=words.number(n), pairs=words.number(count), points=words.number(points), sum=words.number(count * points))
        if score != count * points:
            line += words.phrase(COMPLETE).format(bonus=words.number(score - count * points), total=words.number(score))
        lines.append(line)
        width = len({c for c, _ in game_facts.part_cell}) * (CARD_W + GAP) - GAP
        if x > 2.0 and x + width > WIDTH:
            x, y, row_h = 2.0, y + row_h + 6.0, 0.0
        items.append(Text(x, y + 2.0 + pt_to_mm(TEXT_PT + 1), line, BOLD, TEXT_PT + 1, INK))
        drawn, w, h = _display(game_facts, display, x, y + 6.0, words)
        items.extend(drawn)
        widest = max(widest, x + w)
        x += w + 8.0
        row_h = max(row_h, 6.0 + h)
    scene = Scene(max(widest + 2.0, 40.0), y + row_h + 2.0, tuple(items))
    return [Position(scene, state, words.phrase(POSITION).format(who=words.seat(seat)), tuple(lines))]


register_figures("ceratopsians", GameFigures(table=table, describe=describe, positions=positions))
