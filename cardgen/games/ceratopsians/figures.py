"""Ceratopsians in the rulebook's pictures: the table read off a state, a draft said in words, a scored display.

Registered on import; the rulebook imports this module through its figure discovery.
"""

from __future__ import annotations

from cardgen.engine.core import Action, State
from cardgen.games.ceratopsians.rules import DECK_ID, EMPTY, CeratopsiansGame, CeratopsiansState
from cardgen.render.figures import GameFigures, Mark, TableView, Words, Zone, register_figures


def face_mark(game: CeratopsiansGame, face: int) -> Mark:
    """The mark of a card showing ``face`` (the spec's card id, and which of its two faces shows)."""
    return Mark(card=game.card_ids[face // 2].split("#")[0], face=face % 2)


def table(state: State) -> TableView:
    """The deck, the boneyard's slots (seat 1's nearest first) and each player's collection (empty at the start)."""
    assert isinstance(state, CeratopsiansState)
    game = state.game
    zones = [Zone("pile", DECK_ID, len(state.order) - state.top)]
    bone = tuple(face_mark(game, 2 * card + state.sides[card]) for card in state.bone if card != EMPTY)
    zones.append(Zone("row", DECK_ID, len(bone), marks=bone))
    for seat in (0, 1):
        faces = state.collections[seat]
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
    assert isinstance(state, CeratopsiansState)
    player = state.drafts & 1
    card = state.bone[action] if 0 <= action < 3 else EMPTY
    if card == EMPTY:
        return state.action_to_string(action)
    mark = face_mark(state.game, 2 * card + state.sides[card])
    relative = action if player == 0 else 2 - action
    slot = words.phrase(SLOTS[relative])
    return words.phrase(DRAFT).format(who=words.seat(player), card=words.card(DECK_ID, mark.card, mark.face), slot=slot)


register_figures("ceratopsians", GameFigures(table=table, describe=describe))
