"""References from prose to the spec's own facts: one fact, one place.

Rules prose, card text and setup notes never repeat a count the spec already
holds; they name it, and every reader (the card renderer, the rulebook, the
validator) resolves the name through :func:`resolve_reference`:

* ``{numbers.NAME}``: a number the rules read;
* ``{deck.ID}``: the cards in a deck, copies counted; ``{deck.ID/TYPE}``: those of one card type;
  ``{deck.ID/CARD}``: the copies of one card;
* ``{component.ID}``: the pieces of a component in the box; ``{component.ID.count}``: its ``count`` as
  written; ``{component.ID.per_player}``: what each player gets (``count`` times the palette's entries);
* ``{setup.deal.DECK}``, ``{setup.display.DECK}``, ``{setup.pieces.COMPONENT}``,
  ``{setup.grid.NAME}`` (cards in the grid): inside a setup's notes, that setup's value; anywhere
  else, the value every setup shares (a value that changes with the player count cannot be one
  number in the prose, and is reported);
* ``{players.min}``, ``{players.max}``: the supported player counts;
* ``{palette.ID}``: the entries of a palette (styles, colours); ``{dice.ID.count}``, ``{dice.ID.sides}``;
* ``{effect:ID}``: the name of the card carrying an effect (a name, not a number).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardgen.spec.models import Spec

REFERENCE_KINDS = ("numbers", "deck", "component", "setup", "players", "palette", "dice")
"""The words that start a numeric reference; no palette may use them as its id (its icons would clash)."""

REFERENCE = re.compile(r"\{(numbers|deck|component|setup|players|palette|dice)\.([A-Za-z0-9_\-./]+)\}|\{effect:([A-Za-z0-9_\-]+)\}")
"""A numeric reference (groups 1 and 2: kind, name) or an effect reference (group 3)."""


@dataclass(frozen=True)
class Resolved:
    """What a reference stands for: a number, or the reason it stands for none."""

    value: int | None
    problem: str = ""


def _deck_count(spec: Spec, name: str) -> Resolved:
    deck_id, _, part = name.partition("/")
    deck = next((d for d in spec.decks if d.id == deck_id), None)
    if deck is None:
        return Resolved(None, f"no deck {deck_id!r}")
    if not part:
        return Resolved(sum(c.copies for c in deck.cards))
    if any(t.id == part for t in deck.card_types):
        return Resolved(sum(c.copies for c in deck.cards if c.type == part))
    card = next((c for c in deck.cards if c.id == part), None)
    if card is not None:
        return Resolved(card.copies)
    return Resolved(None, f"deck {deck_id!r} has no card type or card {part!r}")


def component_pieces(spec: Spec, component_id: str) -> tuple[int, int, int] | None:
    """(count as written, pieces each player gets or 0, pieces in the box) of a component; None if unknown."""
    component = next((c for c in spec.components if c.id == component_id), None)
    if component is None:
        return None
    entries = 1
    if component.palette:
        palette = next((p for p in spec.palettes if p.id == component.palette), None)
        entries = len(palette.entries) if palette else 1
    per_player = component.count * entries if component.per_player else 0
    total = component.count * entries * (spec.players.max if component.per_player else 1)
    return component.count, per_player, total


def _component_count(spec: Spec, name: str) -> Resolved:
    component_id, _, attribute = name.partition(".")
    pieces = component_pieces(spec, component_id)
    if pieces is None:
        return Resolved(None, f"no component {component_id!r}")
    count, per_player, total = pieces
    if attribute == "":
        return Resolved(total)
    if attribute == "count":
        return Resolved(count)
    if attribute == "per_player":
        if not per_player:
            return Resolved(None, f"component {component_id!r} is not given per player")
        return Resolved(per_player)
    return Resolved(None, f"components have no {attribute!r} (use .count or .per_player)")


def _setup_value(spec: Spec, name: str, players: int | None) -> Resolved:
    part, _, key = name.partition(".")
    if part not in {"deal", "display", "pieces", "grid"} or not key:
        return Resolved(None, "setup references are setup.deal.DECK, setup.display.DECK, setup.pieces.COMPONENT or setup.grid.NAME")
    values: dict[int, int | None] = {}
    for setup in spec.setups:
        if part == "grid":
            grid = setup.grids.get(key)
            values[setup.players] = grid.columns * grid.rows if grid else None
        else:
            values[setup.players] = getattr(setup, part).get(key)
    if players is not None:
        value = values.get(players)
        return Resolved(value) if value is not None else Resolved(None, f"the setup for {players} players gives no {part} {key!r}")
    present = {v for v in values.values()}
    if not values or present == {None}:
        return Resolved(None, f"no setup gives a {part} {key!r}")
    if len(present) > 1:
        shown = ", ".join(f"{v if v is not None else 'none'} for {p}" for p, v in sorted(values.items()))
        return Resolved(None, f"the {part} {key!r} changes with the player count ({shown}); name it in each setup's notes or in the setup table")
    return Resolved(present.pop())


def resolve_reference(spec: Spec, kind: str, name: str, players: int | None = None) -> Resolved:
    """The number ``{kind.name}`` stands for in ``spec`` (``players``: inside that setup's notes)."""
    if kind == "numbers":
        value = spec.numbers.get(name)
        return Resolved(value) if value is not None else Resolved(None, f"`numbers` defines no {name!r}")
    if kind == "deck":
        return _deck_count(spec, name)
    if kind == "component":
        return _component_count(spec, name)
    if kind == "setup":
        return _setup_value(spec, name, players)
    if kind == "palette":
        palette = next((p for p in spec.palettes if p.id == name), None)
        return Resolved(len(palette.entries)) if palette else Resolved(None, f"no palette {name!r}")
    if kind == "dice":
        dice_id, _, attribute = name.partition(".")
        dice = next((d for d in spec.dice if d.id == dice_id), None)
        if dice is None:
            return Resolved(None, f"no dice {dice_id!r}")
        if attribute not in {"count", "sides"}:
            return Resolved(None, "dice references are dice.ID.count and dice.ID.sides")
        return Resolved(getattr(dice, attribute))
    if kind == "players":
        if name in {"min", "max"}:
            return Resolved(getattr(spec.players, name))
        return Resolved(None, "players references are players.min and players.max")
    return Resolved(None, f"unknown reference kind {kind!r}")


def effect_names(spec: Spec) -> dict[str, str]:
    """Every effect id with the id of the first card carrying it."""
    out: dict[str, str] = {}
    for deck in spec.decks:
        for card in deck.cards:
            if card.effect and card.effect not in out:
                out[card.effect] = card.id
    return out
