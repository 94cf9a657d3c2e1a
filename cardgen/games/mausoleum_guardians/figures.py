"""Mausoleum Guardians in the rulebook's pictures: the table read off a state, and its actions said in words.

Registered on import; the rulebook imports this module through its figure discovery.
"""

from __future__ import annotations

from cardgen.engine.core import Action, State
from cardgen.games.mausoleum_guardians.rules import (
    CONTRACT,
    DEFEND,
    DIG_PICK,
    DISCARD,
    GIVE_PICK,
    INVADE_PICK,
    PASS,
    PLAY,
    QUAKE_PICK,
    TAKE_CHANCE,
    MausoleumState,
)
from cardgen.render.figures import GameFigures, Mark, TableView, Words, Zone, register_figures


def _deck_id(state: MausoleumState) -> str:
    return next(d.id for d in state.g.spec.decks if d.id in CONTRACT.decks)


def _marks(state: MausoleumState, zone: list[int], seat: int) -> tuple[Mark, ...]:
    g = state.g
    base = seat * g.kinds
    return tuple(Mark(card=g.card_ids[k]) for k in range(g.kinds) for _ in range(zone[base + k]))


def table(state: State) -> TableView:
    """The draw pile, the discard pile, and each seat's hand, area, character row and waiting Protections."""
    assert isinstance(state, MausoleumState)
    g = state.g
    deck = _deck_id(state)
    zones = [Zone("pile", deck, len(state.pile) - state.top)]
    discarded = sum(state.discard)
    if discarded:
        zones.append(Zone("discard", deck, discarded))
    for seat in range(g.num_players):
        zones.append(Zone("hand", deck, state.hsize[seat], seat))
        for zone in (state.area, state.chars, state.shields):
            marks = _marks(state, zone, seat)
            if marks:
                zones.append(Zone("collection", deck, len(marks), seat, marks))
    return TableView(g.num_players, tuple(zones))


PHRASES: dict[str, dict[str, str]] = {
    "pass": {"en": "{who} passes", "pt_BR": "{who} passa"},
    "play": {"en": "{who} plays {card}", "pt_BR": "{who} joga {card}"},
    "attack": {"en": "{who} plays {card} against {target}", "pt_BR": "{who} joga {card} contra {target}"},
    "let": {"en": "{target} lets the {card} through", "pt_BR": "{target} deixa passar a carta {card}"},
    "answer": {"en": "{target} answers with {card}", "pt_BR": "{target} responde com {card}"},
    "discard": {"en": "{who} discards {card} down to the hand limit", "pt_BR": "{who} descarta {card} até o limite da mão"},
    "quake": {"en": "{target} discards {card} from their area", "pt_BR": "{target} descarta {card} da sua área"},
    "invade": {"en": "{who} takes {card} from the area of {target}", "pt_BR": "{who} pega {card} da área de {target}"},
    "dig": {"en": "{who} takes {card} from the discard pile", "pt_BR": "{who} pega {card} da pilha de descarte"},
    "give": {"en": "{who} chooses {card} to give to {target}", "pt_BR": "{who} escolhe {card} para dar a {target}"},
    "take": {"en": "{who} takes {card} at random from the hand of {target}", "pt_BR": "{who} pega {card} ao acaso da mão de {target}"},
}
PICKS = {DISCARD: "discard", QUAKE_PICK: "quake", INVADE_PICK: "invade", DIG_PICK: "dig", GIVE_PICK: "give", TAKE_CHANCE: "take"}


def describe(state: State, action: Action, words: Words) -> str:
    """``action`` in ``words``' language, from the position before it (as ``action_to_string`` says it)."""
    assert isinstance(state, MausoleumState)
    g = state.g
    deck = _deck_id(state)

    def name(kind: int) -> str:
        return words.card(deck, g.card_ids[kind], -1)

    who, target = words.seat(state.cur), words.seat(state.target) if state.target >= 0 else ""
    if state.phase == PLAY:
        if action == PASS:
            return words.phrase(PHRASES["pass"]).format(who=who)
        if action < g.target_base:
            return words.phrase(PHRASES["play"]).format(who=who, card=name(action - g.play_base))
        kind, seat = divmod(action - g.target_base, g.max_seats)
        return words.phrase(PHRASES["attack"]).format(who=who, card=name(kind), target=words.seat(seat))
    if state.phase == DEFEND:
        if action == PASS:
            return words.phrase(PHRASES["let"]).format(target=target, card=name(state.pending))
        return words.phrase(PHRASES["answer"]).format(target=target, card=name(action - g.pick_base))
    key = PICKS.get(state.phase)
    kind = action - g.pick_base
    if key is None or not 0 <= kind < g.kinds:
        return state.action_to_string(action)
    return words.phrase(PHRASES[key]).format(who=who, target=target, card=name(kind))


register_figures("mausoleum-guardians", GameFigures(table=table, describe=describe))
