"""Rulebook pictures for games written as rules data: the table read off an interpreter state.

A data game has no figure module of its own, and needs none: its zones say what
they are (shared or per seat, who sees them, whether they are piles), so one
reading serves every such game. A hidden shared pile is a face-down draw pile,
a zone that shows only its top is a discard pile, other public shared zones are
face-up rows; a seat's zone seen by its owner only is a hand, a public one the
cards the seat keeps face up. A counter named like one of the spec's components
(chips) is that component's pieces, before a seat or in the middle. Actions are
said with the option's name in the figure's language (``name:`` in the rules data) and the spec's card and palette
names.
"""

from __future__ import annotations

from cardgen.engine.core import Action, State
from cardgen.engine.interpreter import DataState
from cardgen.render.figures import GameFigures, Mark, TableView, Words, Zone, ZoneKind

CHOOSES = {"en": "{who} chooses {value}", "pt_BR": "{who} escolhe {value}"}
ACTS = {"en": "{who}: {option}", "pt_BR": "{who}: {option}"}
ACTS_CARD = {"en": "{who}: {option}, {card}", "pt_BR": "{who}: {option}, {card}"}
AIMED = {"en": "{action}, at {target}", "pt_BR": "{action}, contra {target}"}
ROLLS = {"en": "{who} rolls {dice}: {total}", "pt_BR": "{who} rola {dice}: {total}"}
TAKES = {"en": "{who} takes at random: {card}", "pt_BR": "{who} tira ao acaso: {card}"}


def _kind(per_seat: bool, visibility: str, ordered: bool) -> ZoneKind:
    if per_seat:
        return "hand" if visibility in ("owner", "hidden") else "collection"
    if visibility == "hidden":
        return "pile"
    if visibility == "top":
        return "discard"
    return "row"


def table(state: State) -> TableView:
    """Every zone of the rules data, with its cards counted (and named where they lie face up)."""
    assert isinstance(state, DataState)
    game = state.g
    rules = game.rules
    deck_of = {design: deck for deck, designs in game.deck_designs.items() for design in designs}
    default_deck = next(iter(game.deck_designs), "")
    zones: list[Zone] = []
    for name, spec_zone in rules.zones.items():
        kind = _kind(spec_zone.per_seat, spec_zone.visibility, spec_zone.ordered)
        for seat in range(game.num_players) if spec_zone.per_seat else (None,):
            cards = state.z[game.slot(name, seat or 0)]
            if not cards and seat is None and kind != "pile":
                continue  # an empty shared row says nothing; a seat's empty zone shows where its cards will go
            source = deck_of.get(cards[-1], default_deck) if cards else default_deck
            shown = cards if kind in ("row", "collection") else cards[-1:] if kind == "discard" else []
            marks = tuple(Mark(card=game.card_ids[d]) for d in shown)
            zones.append(Zone(kind, source, len(cards), seat, marks))
    components = {component.id for component in game.spec.components}
    for name, counter in rules.counters.items():
        if name not in components:
            continue  # a tally of the rules, not pieces on the table
        index = game.tables.counter_index[name]
        for seat in range(game.num_players) if counter.per_seat else (None,):
            value = state.c[index + (seat or 0)]
            if value or seat is not None:
                zones.append(Zone("pieces", name, value, seat))
    return TableView(game.num_players, tuple(zones))


def describe(state: State, action: Action, words: Words) -> str:
    """``action`` with the option's name in ``words``' language and the spec's names for its card or value."""
    assert isinstance(state, DataState)
    game = state.g
    who = words.seat(state.deciding_seat())
    index, parameter = divmod(action, game.width)
    if index >= game.chance_base:
        chance = game.chances[index - game.chance_base]
        if chance.kind == "roll":
            die = next(d for d in game.spec.dice if d.id == chance.name)
            return words.phrase(ROLLS).format(who=who, dice=words.phrase(die.name), total=words.number(parameter))
        deck = next(d for d, designs in game.deck_designs.items() if parameter in designs)
        return words.phrase(TAKES).format(who=who, card=words.card(deck, game.card_ids[parameter], -1))
    if index >= game.choice_base:
        var = index - game.choice_base
        value = game.variable_values[var][parameter]
        field = game.rules.variables[list(game.rules.variables)[var]].values
        palette = next((definition.palette for deck in game.spec.decks for name, definition in deck.fields.items() if name == field and definition.palette), None)
        shown = words.entry(palette, str(value)) if palette else str(value)
        return words.phrase(CHOOSES).format(who=who, value=shown)
    option = game.options[index]
    spec_option = next(o for step in game.rules.turn for o in step.options if f"{step.id}.{o.id}" == option.key)
    name = words.phrase(spec_option.name) if spec_option.name else spec_option.id.replace("_", " ")
    target = -1
    if option.target is not None:
        target, parameter = divmod(parameter, game.card_width)
    if not option.chooses_card:
        said = words.phrase(ACTS).format(who=who, option=name)
    else:
        deck = next(d for d, designs in game.deck_designs.items() if parameter in designs)
        said = words.phrase(ACTS_CARD).format(who=who, option=name, card=words.card(deck, game.card_ids[parameter], -1))
    return words.phrase(AIMED).format(action=said, target=words.seat(target)) if target >= 0 else said


DATA_FIGURES = GameFigures(table=table, describe=describe)
"""The figures of every game written as rules data."""
