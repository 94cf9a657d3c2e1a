"""Mausoleum Guardians in the rulebook's pictures: the table read off a state of its rules data, and its actions said in words.

The game is played by the generic interpreter from the ``rules:`` mapping of its spec; this module
reads the interpreter's zones (the draw pile, the discard pile, and each seat's hand, area, character
row and Protections laid out) and says each option of the rules data in the game's own words.
Registered on import under the spec's id; the rulebook imports it through its figure discovery.
"""

from __future__ import annotations

from cardgen.engine.core import Action, State
from cardgen.engine.interpreter import DataState
from cardgen.render.figures import GameFigures, Mark, TableView, Words, Zone, register_figures

GAME_ID = "mausoleum-guardians"
SEAT_ZONES = ("area", "row", "shields")
"""The zones each seat keeps face up, drawn with their cards."""


def _deck(state: DataState) -> str:
    return next(iter(state.g.deck_designs))


def table(state: State) -> TableView:
    """The draw pile, the discard pile, and each seat's hand, area, character row and waiting Protections."""
    assert isinstance(state, DataState)
    g = state.g
    deck = _deck(state)
    zones = [Zone("pile", deck, len(state.z[g.slot("pile")]))]
    discarded = len(state.z[g.slot("discard")]) + len(state.z[g.slot("aside")])
    if discarded:
        zones.append(Zone("discard", deck, discarded))
    for seat in range(g.num_players):
        zones.append(Zone("hand", deck, len(state.z[g.slot("hand", seat)]), seat))
        for name in SEAT_ZONES:
            cards = sorted(state.z[g.slot(name, seat)])
            if cards:
                zones.append(Zone("collection", deck, len(cards), seat, tuple(Mark(card=g.card_ids[d]) for d in cards)))
    return TableView(g.num_players, tuple(zones))


PHRASES: dict[str, dict[str, str]] = {
    "pass": {"en": "{who} passes", "pt_BR": "{who} passa"},
    "play": {"en": "{who} plays {card}", "pt_BR": "{who} joga {card}"},
    "attack": {"en": "{who} plays {card} against {target}", "pt_BR": "{who} joga {card} contra {target}"},
    "let": {"en": "{who} lets the attack through", "pt_BR": "{who} deixa o ataque passar"},
    "answer": {"en": "{who} answers with {card}", "pt_BR": "{who} responde com {card}"},
    "stopped": {"en": "the characters of {who} stop the attack", "pt_BR": "os personagens de {who} barram o ataque"},
    "discard": {"en": "{who} discards {card} down to the hand limit", "pt_BR": "{who} descarta {card} até o limite da mão"},
    "quake": {"en": "{who} discards {card} from their area", "pt_BR": "{who} descarta {card} da sua área"},
    "invade": {"en": "{who} takes {card} from the area of {target}", "pt_BR": "{who} pega {card} da área de {target}"},
    "dig": {"en": "{who} takes {card} from the discard pile", "pt_BR": "{who} pega {card} da pilha de descarte"},
    "nothing": {"en": "{who} finds nothing to take", "pt_BR": "{who} não acha nada para pegar"},
    "give": {"en": "{who} chooses {card} to give to {target}", "pt_BR": "{who} escolhe {card} para dar a {target}"},
    "hand_over": {"en": "{who} hands the card set aside to {target}", "pt_BR": "{who} entrega a carta separada a {target}"},
    "take": {"en": "{who} takes {card} at random from the hand of {target}", "pt_BR": "{who} pega {card} ao acaso da mão de {target}"},
    "draw": {"en": "{who} draws", "pt_BR": "{who} compra"},
    "steal": {"en": "{who} takes a card at random from the hand of {target}", "pt_BR": "{who} pega uma carta ao acaso da mão de {target}"},
}
OPTION_PHRASES = {
    "play.pass": "pass",
    "draw.draw": "draw",
    "stop.stopped": "stopped",
    "defend.answer": "answer",
    "defend.spend": "answer",
    "defend.let_through": "let",
    "limit.discard": "discard",
    "quake.crumble": "quake",
    "invade.seize": "invade",
    "find.unearth": "dig",
    "find.nothing": "nothing",
    "swap.give": "give",
    "hand_over.hand_over": "hand_over",
    "steal.take": "steal",
}
"""The phrase of each option of the rules data that is not a card played on one's turn."""


def describe(state: State, action: Action, words: Words) -> str:
    """``action`` in ``words``' language, from the position before it."""
    assert isinstance(state, DataState)
    g = state.g
    deck = _deck(state)
    who = words.seat(state.deciding_seat())
    target = words.seat(state.tg) if state.tg >= 0 else ""
    index, parameter = divmod(action, g.width)
    if index >= g.chance_base:
        return words.phrase(PHRASES["take"]).format(who=who, target=target, card=words.card(deck, g.card_ids[parameter], -1))
    if index >= g.choice_base:
        return state.action_to_string(action)
    option = g.options[index]
    if option.target is not None:
        aim, parameter = divmod(parameter, g.card_width)
        target = words.seat(aim)
    card = words.card(deck, g.card_ids[parameter], -1) if option.chooses_card else ""
    key = OPTION_PHRASES.get(option.key)
    if key is None:
        key = "attack" if option.target is not None else "play"
    return words.phrase(PHRASES[key]).format(who=who, target=target, card=card)


register_figures(GAME_ID, GameFigures(table=table, describe=describe))
