"""Static cross-checks of a spec: what the schema alone cannot see.

Each check is a small named function that yields findings with a stable code.
They read only the validated models; none of them knows any particular game.
"""

from __future__ import annotations

import re
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from types import UnionType
from typing import Any, Iterable, Iterator, Union, get_args, get_origin

from pydantic import BaseModel

from cardgen.findings import Finding, Severity
from cardgen.spec.load import LoadedSpec, size_of
from cardgen.spec.strings import all_strings, control_character, parsed_fields
from cardgen.spec.models import LOCAL_TEXT, MAX_PLAYERS, Card, Deck, FieldDef, Spec, in_locale
from cardgen.spec.references import REFERENCE, REFERENCE_KINDS, component_pieces, effect_names, resolve_reference
from cardgen.spec.source import PathKey
from cardgen.validate.registry import check, register_codes

ERROR, WARNING = Severity.ERROR, Severity.WARNING

register_codes(
    {
        "CG001": "A file cannot be read as YAML or CSV at all (exit code 2).",
        "CG002": "A required key is missing.",
        "CG003": "An unknown key (a typo, or a key the spec language does not have).",
        "CG004": "A value has the wrong type or is out of range.",
        "CG005": "A note: the schema refused part of the spec, so the cross-checks ran on the top-level keys that parsed; a check that reads a refused key waits for the fix.",
        "CG010": "A file named by the spec lies outside the spec folder.",
        "CG011": "A file named by the spec does not exist.",
        "CG101": "Two things of the same kind share an id.",
        "CG102": "A reference names something the spec does not define.",
        "CG103": "A card value is not an entry of the palette its field names.",
        "CG104": "A card's data does not match its deck's field declarations.",
        "CG105": "A count the source rulebook states differs from the spec's components.",
        "CG106": "A setup needs more cards or pieces than exist.",
        "CG107": "A supported player count has no setup, or a setup's player count is unsupported.",
        "CG108": "A two-sided card does not have exactly two faces, or a one-sided card has faces.",
        "CG109": "A two-sided card's faces are not complementary (face_disjoint).",
        "CG110": "A two-sided card's faces are not mirrored (face_mirror).",
        "CG111": "A polyomino is not an edge-connected set of distinct cells.",
        "CG112": "A pattern's rows are uneven or hold characters other than letters and '.'.",
        "CG113": "A dice total maps to no card or to more than one (dice_partition).",
        "CG114": "A list that must hold distinct values repeats one (all_distinct).",
        "CG115": "A set's stated size differs from the number of cards in it (set_sizes).",
        "CG116": "Two cards share a value that must be unique (unique_values).",
        "CG117": "A card or face shows a value its own source field does not list (drawn_from), e.g. a marker of a colour not its own.",
        "CG118": "A field does not follow the field it must grow or shrink with (monotone).",
        "CG120": "A text is missing a locale the game declares.",
        "CG121": "A text gives a locale the game does not declare.",
        "CG122": "A string of the spec (a text, a name, a version, a URL) holds a control character other than a line break or tab, which no card or rulebook can print.",
        "CG130": "The licence does not allow redistribution (or none is stated): check before publishing.",
        "CG131": "The credit line is empty.",
        "CG140": "Text refers to a number the spec does not define (or one that changes with the player count).",
        "CG141": "Text refers to an effect no card defines.",
        "CG144": "A palette id is a reserved reference word (numbers, deck, component, setup, players, palette, dice).",
        "CG145": "A fact is stated twice: a setup hands out a per-player component whose count already says what each player gets.",
        "CG143": "Clarifications are not numbered 1, 2, 3... without gaps.",
        "CG150": "A range's minimum is above its maximum.",
        "CG160": "The spec names a rules module that is not registered.",
    }
)



def _finding(loaded: LoadedSpec, code: str, path: PathKey, message: str, hint: str = "", severity: Severity = ERROR) -> Finding:
    return loaded.place_finding(code, severity, path, message, hint)


def _spec(loaded: LoadedSpec) -> Spec:
    assert loaded.spec is not None
    return loaded.spec


def _duplicates(loaded: LoadedSpec, items: list[Any], key: str, base: PathKey, what: str) -> Iterator[Finding]:
    seen: dict[Any, int] = {}
    for index, item in enumerate(items):
        value = getattr(item, key)
        if value in seen:
            yield _finding(loaded, "CG101", base + (index, key), f"{what} {value!r} is defined twice (first at item {seen[value]})", "give each a unique id")
        else:
            seen[value] = index


@check("unique-ids", "static")
def unique_ids(loaded: LoadedSpec) -> Iterator[Finding]:
    """No two decks, cards of a deck, palettes, entries, components, dice or clarifications share an id."""
    spec = _spec(loaded)
    yield from _duplicates(loaded, spec.decks, "id", ("decks",), "deck")
    yield from _duplicates(loaded, spec.palettes, "id", ("palettes",), "palette")
    yield from _duplicates(loaded, spec.components, "id", ("components",), "component")
    yield from _duplicates(loaded, spec.dice, "id", ("dice",), "dice")
    yield from _duplicates(loaded, spec.setups, "players", ("setups",), "setup for player count")
    yield from _duplicates(loaded, spec.clarifications, "number", ("clarifications",), "clarification number")
    for p_index, palette in enumerate(spec.palettes):
        yield from _duplicates(loaded, palette.entries, "id", ("palettes", p_index, "entries"), "palette entry")
        yield from _duplicates(loaded, palette.entries, "symbol", ("palettes", p_index, "entries"), "palette symbol")
    for d_index, deck in enumerate(spec.decks):
        yield from _duplicates(loaded, deck.cards, "id", ("decks", d_index, "cards"), "card")
        yield from _duplicates(loaded, deck.card_types, "id", ("decks", d_index, "card_types"), "card type")


@check("references", "static")
def references(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every deck, component, palette, card type, dice and card named anywhere exists."""
    spec = _spec(loaded)
    decks = {d.id for d in spec.decks}
    components = {c.id for c in spec.components}
    palettes = {p.id for p in spec.palettes}
    dice = {d.id for d in spec.dice}
    if spec.seats is not None and spec.seats not in palettes:
        yield _finding(loaded, "CG102", ("seats",), f"seat palette {spec.seats!r} is not defined", "name one of the palettes")
    for s_index, setup in enumerate(spec.setups):
        base: PathKey = ("setups", s_index)
        for deck_id in list(setup.deal) + list(setup.display):
            if deck_id not in decks:
                part = "deal" if deck_id in setup.deal else "display"
                yield _finding(loaded, "CG102", base + (part, deck_id), f"no deck {deck_id!r}", f"decks are: {', '.join(sorted(decks))}")
        for name, grid in setup.grids.items():
            if grid.deck not in decks:
                yield _finding(loaded, "CG102", base + ("grids", name, "deck"), f"no deck {grid.deck!r}", f"decks are: {', '.join(sorted(decks))}")
        for comp in setup.pieces:
            if comp not in components:
                yield _finding(loaded, "CG102", base + ("pieces", comp), f"no component {comp!r}", f"components are: {', '.join(sorted(components)) or 'none'}")
    for c_index, component in enumerate(spec.components):
        if component.palette is not None and component.palette not in palettes:
            yield _finding(loaded, "CG102", ("components", c_index, "palette"), f"palette {component.palette!r} is not defined")
        if component.player_mark and spec.seats is None:
            yield _finding(loaded, "CG102", ("components", c_index, "player_mark"), "pieces carry a player mark but the spec names no `seats` palette", "add `seats: <palette id>`")
    for stated_index, stated in enumerate(spec.stated_counts):
        deck_id, _, type_id = stated.of.partition("/")
        deck = next((d for d in spec.decks if d.id == deck_id), None)
        known = deck is not None if type_id or deck_id not in components else True
        if type_id and deck is not None and type_id not in {t.id for t in deck.card_types} | {c.id for c in deck.cards}:
            known = False
        if not known and deck_id not in components:
            yield _finding(loaded, "CG102", ("stated_counts", stated_index, "of"), f"{stated.of!r} names no deck, deck/type or component")
    for d_index, deck in enumerate(spec.decks):
        types = {t.id for t in deck.card_types}
        for f_name, field in deck.fields.items():
            fpath: PathKey = ("decks", d_index, "fields", f_name)
            if field.type in {"palette", "palette_list", "palette_grid"} and field.palette not in palettes:
                yield _finding(loaded, "CG102", fpath + ("palette",), f"field {f_name!r} needs a defined palette (got {field.palette!r})")
            if field.type == "id" and field.ref_deck not in decks:
                yield _finding(loaded, "CG102", fpath + ("ref_deck",), f"field {f_name!r} needs a defined ref_deck (got {field.ref_deck!r})")
        for k_index, constraint in enumerate(deck.constraints):
            cpath: PathKey = ("decks", d_index, "constraints", k_index)
            fields = [getattr(constraint, name) for name in ("field", "set_field", "size_field", "source", "by") if hasattr(constraint, name)]
            fields += list(getattr(constraint, "fields", []))
            for name in fields:
                if name not in deck.fields:
                    yield _finding(loaded, "CG102", cpath, f"constraint {constraint.kind} names field {name!r}, which the deck does not declare")
            if getattr(constraint, "dice", None) is not None and getattr(constraint, "dice") not in dice:
                yield _finding(loaded, "CG102", cpath + ("dice",), f"no dice {getattr(constraint, 'dice')!r}")
        for c_index, card in enumerate(deck.cards):
            if card.type is not None and card.type not in types:
                yield _finding(loaded, "CG102", ("decks", d_index, "cards", c_index, "type"), f"card type {card.type!r} is not one of the deck's card_types", f"types are: {', '.join(sorted(types)) or 'none'}")


def _check_value(field: FieldDef, value: Any, palettes: dict[str, set[str]], card_ids: dict[str, set[str]]) -> str | None:
    """Why ``value`` does not fit ``field``, or None when it does."""
    kind = field.type
    entries = palettes.get(field.palette or "", set())

    def is_int_list(v: Any) -> bool:
        return isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)

    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"expected a whole number, got {value!r}"
        if field.min is not None and value < field.min:
            return f"{value} is below the minimum {field.min}"
        if field.max is not None and value > field.max:
            return f"{value} is above the maximum {field.max}"
    elif kind == "bool":
        if not isinstance(value, bool):
            return f"expected true or false, got {value!r}"
    elif kind == "text":
        if not isinstance(value, str):
            return f"expected text, got {value!r}"
    elif kind == "localised":
        if not isinstance(value, dict):
            return f"expected text in every locale (a mapping), got {value!r}"
    elif kind == "palette":
        if not isinstance(value, str) or value not in entries:
            return f"{value!r} is not an entry of palette {field.palette!r} ({', '.join(sorted(entries))})"
    elif kind == "palette_list":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"expected a list of palette entries, got {value!r}"
        bad = [v for v in value if v not in entries]
        if bad:
            return f"{', '.join(map(repr, bad))} not in palette {field.palette!r}"
    elif kind == "palette_grid":
        if not isinstance(value, list) or not all(isinstance(row, list) for row in value) or not value:
            return f"expected rows of palette entries, got {value!r}"
        if not all(isinstance(v, str) for row in value for v in row):
            return f"expected rows of palette entries, got {value!r}"
        if len({len(row) for row in value}) != 1:
            return "rows have different lengths"
        bad = [v for row in value for v in row if v not in entries]
        if bad:
            return f"{', '.join(map(repr, bad))} not in palette {field.palette!r}"
    elif kind == "int_list":
        if not is_int_list(value):
            return f"expected a list of whole numbers, got {value!r}"
    elif kind == "id":
        if not isinstance(value, str) or value not in card_ids.get(field.ref_deck or "", set()):
            return f"{value!r} is not a card of deck {field.ref_deck!r}"
    elif kind == "polyomino":
        if not isinstance(value, list) or not value or not all(is_int_list(c) and len(c) == 2 for c in value):
            return f"expected a list of [column, row] cells, got {value!r}"
    elif kind == "pattern":
        if not isinstance(value, list) or not value or not all(isinstance(r, str) for r in value):
            return f"expected a list of rows (strings), got {value!r}"
    return None


def _card_data_sets(deck: Deck, card: Card) -> list[tuple[PathKey, dict[str, Any]]]:
    if deck.double_sided and card.faces:
        return [(("faces", i, "data"), face.data) for i, face in enumerate(card.faces)]
    return [(("data",), card.data)]


def card_data_well_typed(spec: Spec) -> bool:
    """Whether every card's data matches its deck's field declarations (what CG103/CG104 report otherwise).

    Checks that compute over card values (a rules module's cross-checks) run only then: on a value of the
    wrong type they would compute nonsense or fail, and the card-data findings already name the value.
    """
    palettes = {p.id: {e.id for e in p.entries} for p in spec.palettes}
    card_ids = {d.id: {c.id for c in d.cards} for d in spec.decks}
    for deck in spec.decks:
        for card in deck.cards:
            if deck.double_sided != bool(card.faces) or (card.faces is not None and len(card.faces) != 2):
                return False
            for _, data in _card_data_sets(deck, card):
                for name, value in data.items():
                    field = deck.fields.get(name)
                    if field is None or _check_value(field, value, palettes, card_ids):
                        return False
                if any(field.required and name not in data for name, field in deck.fields.items()):
                    return False
    return True


@check("card-data", "static")
def card_data(loaded: LoadedSpec) -> Iterator[Finding]:
    """Each card gives every required field of its deck, no undeclared field, and values of the right type."""
    spec = _spec(loaded)
    palettes = {p.id: {e.id for e in p.entries} for p in spec.palettes}
    card_ids = {d.id: {c.id for c in d.cards} for d in spec.decks}
    for d_index, deck in enumerate(spec.decks):
        for c_index, card in enumerate(deck.cards):
            cbase: PathKey = ("decks", d_index, "cards", c_index)
            if deck.double_sided and (card.faces is None or len(card.faces) != 2):
                yield _finding(loaded, "CG108", cbase, f"card {card.id!r} of a two-sided deck needs exactly two faces", "list both faces under `faces`")
                continue
            if not deck.double_sided and card.faces:
                yield _finding(loaded, "CG108", cbase + ("faces",), f"card {card.id!r} has faces but its deck is not double_sided", "set `double_sided: true` on the deck or use `data`")
                continue
            for sub, data in _card_data_sets(deck, card):
                for name, value in data.items():
                    field = deck.fields.get(name)
                    if field is None:
                        yield _finding(loaded, "CG104", cbase + sub + (name,), f"card {card.id!r} gives field {name!r}, which the deck does not declare", f"declared fields: {', '.join(sorted(deck.fields)) or 'none'}")
                        continue
                    problem = _check_value(field, value, palettes, card_ids)
                    if problem:
                        code = "CG103" if field.type.startswith("palette") and "not" in problem and "palette" in problem else "CG104"
                        yield _finding(loaded, code, cbase + sub + (name,), f"card {card.id!r}, field {name!r}: {problem}")
                for name, field in deck.fields.items():
                    if field.required and name not in data:
                        yield _finding(loaded, "CG104", cbase + sub, f"card {card.id!r} lacks required field {name!r}", f"add `{name}:` ({field.description})")


def _connected(cells: list[tuple[int, int]]) -> bool:
    remaining = set(cells)
    stack = [cells[0]]
    remaining.discard(cells[0])
    while stack:
        x, y = stack.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in remaining:
                remaining.discard(n)
                stack.append(n)
    return not remaining


@check("shapes", "static")
def shapes(loaded: LoadedSpec) -> Iterator[Finding]:
    """Polyominoes are edge-connected sets of distinct, non-negative cells; patterns are even grids."""
    spec = _spec(loaded)
    for d_index, deck in enumerate(spec.decks):
        for c_index, card in enumerate(deck.cards):
            for sub, data in _card_data_sets(deck, card):
                for name, value in data.items():
                    field = deck.fields.get(name)
                    if field is None:
                        continue
                    path: PathKey = ("decks", d_index, "cards", c_index) + sub + (name,)
                    if field.type == "polyomino" and isinstance(value, list) and value and all(isinstance(c, list) and len(c) == 2 for c in value):
                        cells = [(int(c[0]), int(c[1])) for c in value]
                        if len(set(cells)) != len(cells):
                            yield _finding(loaded, "CG111", path, f"cells repeat in {value}", "list each cell once")
                        elif any(x < 0 or y < 0 for x, y in cells):
                            yield _finding(loaded, "CG111", path, f"cells must be non-negative (got {value})")
                        elif not _connected(cells):
                            yield _finding(loaded, "CG111", path, f"cells must be edge-connected (got {value})", "every cell must touch another by an edge")
                    if field.type == "pattern" and isinstance(value, list) and all(isinstance(r, str) for r in value) and value:
                        if len({len(r) for r in value}) != 1:
                            yield _finding(loaded, "CG112", path, f"pattern rows have different lengths ({value})")
                        elif not all(re.fullmatch(r"[A-Z.]+", r) for r in value):
                            yield _finding(loaded, "CG112", path, f"pattern rows may hold only capital letters and '.' ({value})")
                        elif all(ch == "." for r in value for ch in r):
                            yield _finding(loaded, "CG112", path, "pattern has no required cell")


def _copies_by_value(deck: Deck, field: str) -> Counter[Any]:
    counts: Counter[Any] = Counter()
    for card in deck.cards:
        value = card.data.get(field)
        if value is not None:
            counts[repr(value)] += card.copies
    return counts


@check("deck-constraints", "static")
def deck_constraints(loaded: LoadedSpec) -> Iterator[Finding]:
    """The cross-card rules each deck declares: dice partitions, two-sided pairings, distinct lists, set sizes."""
    spec = _spec(loaded)
    dice = {d.id: d for d in spec.dice}
    for d_index, deck in enumerate(spec.decks):
        for k_index, constraint in enumerate(deck.constraints):
            cpath: PathKey = ("decks", d_index, "constraints", k_index)
            if constraint.kind == "dice_partition":
                die = dice.get(constraint.dice)
                if die is None:
                    continue
                owners: dict[int, list[str]] = {}
                for card in deck.cards:
                    totals = card.data.get(constraint.field)
                    if isinstance(totals, list):
                        for total in totals:
                            if isinstance(total, int):
                                owners.setdefault(total, []).append(card.id)
                # n dice of s sides roll every total from n to n*s (enumerating the rolls would be s**n steps)
                possible = list(range(die.count, die.count * die.sides + 1))
                unmapped = [total for total in possible if total not in owners]
                if len(unmapped) > 3:  # one line for many gaps, not one per total
                    shown = ", ".join(map(str, unmapped[:8])) + (f" ... ({len(unmapped)} totals)" if len(unmapped) > 8 else "")
                    yield _finding(loaded, "CG113", cpath, f"dice totals {shown} of {die.count}d{die.sides} map to no card", "give every total exactly one card")
                for total in possible:
                    holders = owners.get(total, [])
                    if len(holders) != 1 and (holders or len(unmapped) <= 3):
                        what = "no card" if not holders else f"{len(holders)} cards ({', '.join(holders)})"
                        yield _finding(loaded, "CG113", cpath, f"dice total {total} of {die.count}d{die.sides} maps to {what}", "give every total exactly one card")
                for total, holders in sorted(owners.items()):
                    if total not in possible:
                        yield _finding(loaded, "CG113", cpath, f"card {holders[0]!r} lists total {total}, which {die.count}d{die.sides} cannot roll")
            elif constraint.kind in {"face_disjoint", "face_mirror"}:
                for c_index, card in enumerate(deck.cards):
                    if not card.faces or len(card.faces) != 2:
                        continue
                    first, second = (f.data.get(constraint.field) for f in card.faces)
                    path: PathKey = ("decks", d_index, "cards", c_index, "faces")
                    if constraint.kind == "face_disjoint":
                        if isinstance(first, list) and isinstance(second, list) and set(map(str, first)) & set(map(str, second)):
                            yield _finding(loaded, "CG109", path, f"card {card.id!r}: faces share {sorted(set(map(str, first)) & set(map(str, second)))}; they must show complementary skulls", "pair faces whose values are disjoint")
                    else:
                        pairs = dict(constraint.pairs)
                        pairs.update({v: k for k, v in constraint.pairs.items()})
                        if isinstance(first, str) and pairs.get(first) != second:
                            yield _finding(loaded, "CG110", path, f"card {card.id!r}: face 2 shows {second!r}, but the mirror of {first!r} is {pairs.get(first)!r}")
            elif constraint.kind == "all_distinct":
                for c_index, card in enumerate(deck.cards):
                    value = card.data.get(constraint.field)
                    flat = [v for row in value for v in (row if isinstance(row, list) else [row])] if isinstance(value, list) else []
                    if len(set(map(str, flat))) != len(flat):
                        yield _finding(loaded, "CG114", ("decks", d_index, "cards", c_index, "data", constraint.field), f"card {card.id!r}: {constraint.field} repeats a value ({value})")
            elif constraint.kind == "set_sizes":
                members: Counter[str] = Counter()
                stated: dict[str, tuple[int, int]] = {}
                for c_index, card in enumerate(deck.cards):
                    set_id, size = card.data.get(constraint.set_field), card.data.get(constraint.size_field)
                    if isinstance(set_id, str) and isinstance(size, int):
                        members[set_id] += card.copies
                        stated.setdefault(set_id, (size, c_index))
                for set_id, (size, c_index) in sorted(stated.items()):
                    if members[set_id] != size:
                        yield _finding(loaded, "CG115", ("decks", d_index, "cards", c_index, "data", constraint.size_field), f"set {set_id!r} says it has {size} cards but the deck holds {members[set_id]}", "fix the set size or the copies")
            elif constraint.kind == "unique_values":
                seen: dict[str, str] = {}
                for c_index, card in enumerate(deck.cards):
                    key = repr(card.data.get(constraint.field))
                    if key in seen:
                        yield _finding(loaded, "CG116", ("decks", d_index, "cards", c_index, "data", constraint.field), f"card {card.id!r} repeats the {constraint.field} of card {seen[key]!r}")
                    else:
                        seen[key] = card.id


def _values(value: Any) -> list[Any]:
    """A field value as a flat list (a palette value, a list, or rows of a grid)."""
    if isinstance(value, list):
        return [v for item in value for v in (item if isinstance(item, list) else [item])]
    return [] if value is None else [value]


@check("general-constraints", "static")
def general_constraints(loaded: LoadedSpec) -> Iterator[Finding]:
    """The general constraint kinds: values drawn from another field, and fields monotone in another."""
    spec = _spec(loaded)
    for d_index, deck in enumerate(spec.decks):
        for constraint in deck.constraints:
            if constraint.kind == "drawn_from":
                for c_index, card in enumerate(deck.cards):
                    for sub, data in _card_data_sets(deck, card):
                        allowed = {v for v in _values(data.get(constraint.source)) if isinstance(v, (str, int))}
                        for name in constraint.fields:
                            stray = [v for v in _values(data.get(name)) if isinstance(v, (str, int)) and v not in allowed]
                            if stray:
                                yield _finding(
                                    loaded, "CG117", ("decks", d_index, "cards", c_index) + sub + (name,),
                                    f"card {card.id!r} shows {name} {stray}, which its {constraint.source} {sorted(allowed, key=str)} does not list",
                                    f"use only values of {constraint.source}",
                                )
            elif constraint.kind == "monotone":
                points = []
                for c_index, card in enumerate(deck.cards):
                    x, y = card.data.get(constraint.by), card.data.get(constraint.field)
                    if isinstance(x, int) and isinstance(y, int) and not isinstance(x, bool) and not isinstance(y, bool):
                        points.append((x, y, c_index, card.id))
                sign = 1 if constraint.direction == "increasing" else -1
                for x, y, c_index, card_id in points:
                    for x2, y2, _, other in points:
                        if x2 < x and (sign * (y - y2) < 0 or (constraint.strict and y == y2)):
                            yield _finding(
                                loaded, "CG118", ("decks", d_index, "cards", c_index, "data", constraint.field),
                                f"card {card_id!r} has {constraint.field} {y} at {constraint.by} {x}, but {other!r} has {y2} at {constraint.by} {x2}: "
                                f"{constraint.field} must {'grow' if sign > 0 else 'shrink'}{' strictly' if constraint.strict else ''} with {constraint.by}",
                            )
                            break


def deck_total(deck: Deck) -> int:
    """How many physical cards a deck holds."""
    return sum(card.copies for card in deck.cards)


def component_total(spec: Spec, component_id: str) -> int | None:
    """How many physical pieces of a component exist (for the most players)."""
    pieces = component_pieces(spec, component_id)
    return None if pieces is None else pieces[2]


@check("counts", "static")
def counts(loaded: LoadedSpec) -> Iterator[Finding]:
    """Counts stated by the source rulebook equal the spec's own totals."""
    spec = _spec(loaded)
    for s_index, stated in enumerate(spec.stated_counts):
        deck_id, _, type_id = stated.of.partition("/")
        deck = next((d for d in spec.decks if d.id == deck_id), None)
        actual: int | None
        if deck is not None and type_id and type_id not in {t.id for t in deck.card_types}:
            actual = sum(c.copies for c in deck.cards if c.id == type_id)
        elif deck is not None:
            actual = sum(c.copies for c in deck.cards if not type_id or c.type == type_id)
        else:
            actual = component_total(spec, deck_id)
        if actual is not None and actual != stated.count:
            yield _finding(loaded, "CG105", ("stated_counts", s_index, "count"), f"{stated.where} states {stated.count} for {stated.of!r}, but the spec has {actual}", "fix the copies or the stated count")


@check("setups", "static")
def setups(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every supported player count has a setup, and every setup can be dealt from what exists."""
    spec = _spec(loaded)
    if spec.players.min > spec.players.max:
        yield _finding(loaded, "CG150", ("players",), f"players.min {spec.players.min} is above players.max {spec.players.max}")
    if spec.play_time_minutes.min > spec.play_time_minutes.max:
        yield _finding(loaded, "CG150", ("play_time_minutes",), "play_time_minutes.min is above its max")
    covered = {s.players for s in spec.setups}
    if spec.players.max > MAX_PLAYERS:
        yield _finding(loaded, "CG150", ("players", "max"), f"players.max {spec.players.max} is above the {MAX_PLAYERS} players a setup can serve", f"supported player counts lie between 1 and {MAX_PLAYERS}")
    for count in range(spec.players.min, min(spec.players.max, MAX_PLAYERS) + 1):
        if count not in covered:
            yield _finding(loaded, "CG107", ("setups",), f"no setup for {count} players", "add a setups entry for it")
    decks = {d.id: d for d in spec.decks}
    components = {c.id: c for c in spec.components}
    for s_index, setup in enumerate(spec.setups):
        base: PathKey = ("setups", s_index)
        if not spec.players.min <= setup.players <= spec.players.max:
            yield _finding(loaded, "CG107", base + ("players",), f"setup for {setup.players} players, but the game supports {spec.players.min}-{spec.players.max}")
        needed: Counter[str] = Counter()
        for deck_id, per_player in setup.deal.items():
            needed[deck_id] += per_player * setup.players
        for grid in setup.grids.values():
            needed[grid.deck] += grid.columns * grid.rows
        for deck_id, count in setup.display.items():
            needed[deck_id] += count
        for deck_id, need in sorted(needed.items()):
            deck = decks.get(deck_id)
            if deck is not None and need > deck_total(deck):
                yield _finding(loaded, "CG106", base, f"{setup.players} players need {need} cards of deck {deck_id!r}, which holds {deck_total(deck)}", "deal fewer cards or add copies")
        for comp_id, per_player in setup.pieces.items():
            component = components.get(comp_id)
            if component is not None and component.per_player:
                yield _finding(
                    loaded, "CG145", base + ("pieces", comp_id),
                    f"{comp_id!r} is a per-player component, so its `count` already says what each player gets; "
                    f"this setup states it a second time ({per_player})",
                    "delete this entry: the setup table prints the component's count; use `pieces` only for a shared supply",
                )
            elif component is not None and not component.per_player and per_player * setup.players > component.count:
                yield _finding(loaded, "CG106", base + ("pieces", comp_id), f"{setup.players} players need {per_player * setup.players} of {comp_id!r}, but {component.count} exist")


def _is_local_text(info: Any) -> bool:
    """Whether a model field is declared as LocalText (or LocalText | None)."""
    if LOCAL_TEXT in info.metadata:
        return True
    if get_origin(info.annotation) not in (Union, UnionType):
        return False
    return any(LOCAL_TEXT in getattr(arg, "__metadata__", ()) for arg in get_args(info.annotation))


def _walk_local_texts(model: BaseModel, path: PathKey) -> Iterator[tuple[PathKey, dict[str, str]]]:
    """Every LocalText inside ``model`` with its path (card data of localised fields included)."""
    for name, info, value in parsed_fields(model):
        here = path + (name,)
        if isinstance(value, dict) and _is_local_text(info):
            yield here, value
        elif isinstance(value, BaseModel):
            yield from _walk_local_texts(value, here)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    yield from _walk_local_texts(item, here + (index,))
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, BaseModel):
                    yield from _walk_local_texts(item, here + (key,))
                elif isinstance(item, dict) and name == "strings":
                    yield here + (key,), item


def _localised_data(spec: Spec) -> Iterator[tuple[PathKey, dict[str, str]]]:
    for d_index, deck in enumerate(spec.decks):
        localised = {n for n, f in deck.fields.items() if f.type == "localised"}
        for c_index, card in enumerate(deck.cards):
            for sub, data in _card_data_sets(deck, card):
                for name in localised:
                    value = data.get(name)
                    if isinstance(value, dict):
                        yield ("decks", d_index, "cards", c_index) + sub + (name,), value


_WALKED: ContextVar[dict[int, tuple[Spec, list[tuple[PathKey, dict[str, str]]]]] | None] = ContextVar("_WALKED", default=None)
"""Inside :func:`texts_walked_once`: each spec's texts by ``id`` (the spec held too, so an id is never reused)."""


@contextmanager
def texts_walked_once() -> Iterator[None]:
    """Within the block, :func:`all_texts` walks each spec once and gives every later caller the same list.

    A validation run asks for a spec's texts from several checks (locales, references, prose, parity),
    and each walk visits every card of every deck: a run over one loaded spec, which no check changes,
    walks it once instead.
    """
    token = _WALKED.set({})
    try:
        yield
    finally:
        _WALKED.reset(token)


def all_texts(spec: Spec) -> Iterator[tuple[PathKey, dict[str, str]]]:
    """Every localised text of a spec, with its path (walked once per spec inside :func:`texts_walked_once`)."""
    walked = _WALKED.get()
    if walked is None:
        yield from _walk_local_texts(spec, ())
        yield from _localised_data(spec)
        return
    entry = walked.get(id(spec))
    if entry is None or entry[0] is not spec:
        entry = walked[id(spec)] = (spec, [*_walk_local_texts(spec, ()), *_localised_data(spec)])
    yield from entry[1]


@check("locales", "static")
def locales(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every localised text is given in every declared locale, and only in those."""
    spec = _spec(loaded)
    declared = list(spec.locales)
    for path, text in all_texts(spec):
        missing = [loc for loc in declared if not text.get(loc, "").strip()]
        if missing:
            yield _finding(loaded, "CG120", path, f"text lacks locale {', '.join(missing)}", f"add `{missing[0]}:` with the translation")
        extra = [loc for loc in text if loc not in declared]
        if extra:
            yield _finding(loaded, "CG121", path + (extra[0],), f"locale {extra[0]!r} is not one of the game's locales ({', '.join(declared)})")
    for p_index, palette in enumerate(spec.palettes):
        for e_index, entry in enumerate(palette.entries):
            for loc in entry.symbols:
                if loc not in declared:
                    yield _finding(loaded, "CG121", ("palettes", p_index, "entries", e_index, "symbols", loc), f"symbol locale {loc!r} is not one of the game's locales ({', '.join(declared)})")


@check("licence", "static")
def licence(loaded: LoadedSpec) -> Iterator[Finding]:
    """Licence and attribution are present; a licence that does not allow redistribution warns."""
    spec = _spec(loaded)
    if spec.licence.redistribution in {"not-allowed", "unknown"}:
        reason = "does not allow" if spec.licence.redistribution == "not-allowed" else "does not state whether it allows"
        yield _finding(
            loaded,
            "CG130",
            ("licence", "redistribution"),
            f"the licence ({in_locale(spec.licence.name, spec.locales[0])}) {reason} redistribution: print for private play only, and ask the rights holders before sharing or selling",
            "get written permission before publishing",
            WARNING,
        )
    if not any(text.strip() for text in spec.licence.attribution.values()):
        yield _finding(loaded, "CG131", ("licence", "attribution"), "the credit line is empty", "credit the original designers and licence")


@check("text-references", "static")
def text_references(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every ``{numbers.X}``, ``{deck.X}``, ``{component.X}``, ``{setup...}``, ``{players...}`` and
    ``{effect:X}`` in a text stands for something the spec defines (see :mod:`cardgen.spec.references`)."""
    spec = _spec(loaded)
    effects = effect_names(spec)
    for path, text in all_texts(spec):
        players = _setup_players(spec, path)
        reported: set[str] = set()
        for value in text.values():
            for match in REFERENCE.finditer(value):
                token = match.group(0)
                if token in reported:
                    continue
                kind, name, effect = match.groups()
                if effect is not None:
                    if effect not in effects:
                        reported.add(token)
                        yield _finding(loaded, "CG141", path, f"text refers to {token}, but no card has effect {effect!r}", "define the effect on a card or resolve it in a clarification")
                    continue
                resolved = resolve_reference(spec, kind, name, players)
                if resolved.value is None:
                    reported.add(token)
                    hint = f"defined numbers: {', '.join(sorted(spec.numbers)) or 'none'}" if kind == "numbers" else "see docs/spec.md, 'References in text'"
                    yield _finding(loaded, "CG140", path, f"text refers to {token}, which stands for no number: {resolved.problem}", hint)
    for p_index, palette in enumerate(spec.palettes):
        if palette.id in REFERENCE_KINDS:
            yield _finding(loaded, "CG144", ("palettes", p_index, "id"), f"palette id {palette.id!r} is reserved for references like {{{palette.id}.NAME}}", "rename the palette")


def _setup_players(spec: Spec, path: PathKey) -> int | None:
    """The player count of the setup whose notes ``path`` points into (None elsewhere)."""
    if len(path) >= 2 and path[0] == "setups" and isinstance(path[1], int) and path[1] < len(spec.setups):
        return spec.setups[path[1]].players
    return None


@check("clarification-numbers", "static")
def clarification_numbers(loaded: LoadedSpec) -> Iterator[Finding]:
    """Clarifications are numbered 1, 2, 3... in order."""
    spec = _spec(loaded)
    numbers = [c.number for c in spec.clarifications]
    if numbers and numbers != list(range(1, len(numbers) + 1)) and len(set(numbers)) == len(numbers):
        yield _finding(loaded, "CG143", ("clarifications",), f"clarifications are numbered {numbers}; number them 1 to {len(numbers)} in order", severity=WARNING)


@check("rules-module", "static")
def rules_module(loaded: LoadedSpec) -> Iterator[Finding]:
    """A spec that names a rules module names a registered one."""
    spec = _spec(loaded)
    if spec.rules_module is None:
        return  # nothing to look up (no rules, or rules as data): the engine and the game packages stay unloaded
    from cardgen.engine.core import registered_rules, rules_registered

    if not rules_registered(spec.rules_module):
        from cardgen.games import package_errors

        broken = "; ".join(f"game package {name} failed to import: {error}" for name, error in sorted(package_errors().items()))
        hint = f"known: {', '.join(registered_rules()) or 'none'}; or remove `rules` to skip simulation"
        yield _finding(loaded, "CG160", ("rules",), f"no rules module {spec.rules_module!r} is registered" + (f" ({broken})" if broken else ""), hint)


def sizes_of_spec(spec: Spec) -> Iterable[tuple[str, float, float]]:
    """(deck id, width, height) of every deck, presets resolved (used by reports)."""
    for deck in spec.decks:
        size = size_of(deck.size)
        yield deck.id, size.width, size.height


@check("text-characters", "static")
def text_characters(loaded: LoadedSpec) -> Iterator[Finding]:
    """No string of the spec holds a control character (they break SVG, PDF and the rulebook's markup).

    Every string is checked, not only the texts printed on cards: a version,
    a designer's name or a URL reaches the rulebook and the PDF metadata too.
    """
    spec = _spec(loaded)
    for path, value in all_strings(spec):
        found = control_character(value)
        if found:
            yield _finding(loaded, "CG122", path, f"text holds the control character U+{ord(found.group()):04X} at position {found.start()}", "delete it; use a plain line break or space")
