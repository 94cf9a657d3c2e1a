"""From a spec to the plain data the rulebook templates read, in one locale.

The templates get no spec model, only dicts, lists, strings and ints (the
sandbox should have nothing live to poke at). Everything a rulebook counts is
computed here from the spec, so changing a ``copies`` or a ``deal`` changes the
printed component list and setup table.

Spec text is LocalText; its placeholders are resolved here:

* ``{numbers.NAME}`` becomes the spec's number, formatted for the locale by Babel;
* ``{effect:ID}`` becomes the name of the card that carries that effect;
* ``{{`` and ``}}`` are literal braces;
* any other ``{token}`` is an inline icon, shown for now as a short bracketed
  word: the spec's ``strings[token]`` in the locale when it has one, else the
  token with ``-``/``_`` read as spaces.

Prose is split into blocks: paragraphs at blank lines, and a paragraph whose
lines all start with ``- `` or ``* `` becomes a bullet list.
"""

from __future__ import annotations

import re
from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal

from cardgen.rulebook.i18n import N_
from cardgen.spec.models import Card, Deck, Spec, TextSection
from cardgen.spec.references import REFERENCE, component_pieces, resolve_reference

Prose = list[dict[str, Any]]
"""Blocks of prose: ``{"kind": "p", "text": str}`` or ``{"kind": "ul", "items": [str]}``."""

TOKEN = re.compile(r"\{\{|\}\}|\{([^{}\s]+)\}")
BULLET = re.compile(r"^\s*[-*]\s+")

COMPONENT_KINDS: dict[str, str] = {"tile": N_("Tile"), "marker": N_("Marker"), "token": N_("Token")}
"""What a component is, as the component list names it."""
UNTYPED_CARDS = N_("Other cards")
"""The group of special cards that have no card type."""


class TextResolver:
    """Resolves LocalText and its placeholders for one spec and locale."""

    def __init__(self, spec: Spec, locale: str) -> None:
        self.spec = spec
        self.locale = locale
        self.fallback = spec.locales[0] if spec.locales else "en"
        self.effect_cards: dict[str, Card] = {}
        self.effect_carriers: dict[str, list[Card]] = {}
        """Every card carrying each effect, in spec order: ``{effect:ID}`` names them all ("Hook or Zigzag")."""
        for deck in spec.decks:
            for card in deck.cards:
                if card.effect and card.effect not in self.effect_cards:
                    self.effect_cards[card.effect] = card
                if card.effect:
                    self.effect_carriers.setdefault(card.effect, []).append(card)

    def local(self, text: dict[str, str] | None) -> str:
        """The text in this locale (the spec's first locale when it lacks this one), placeholders left in."""
        if not text:
            return ""
        return text.get(self.locale) or text.get(self.fallback) or next(iter(text.values()), "")

    def number(self, value: int) -> str:
        """An int formatted for the locale (``12.345`` in pt_BR)."""
        return format_decimal(value, locale=self.locale)

    def resolve(self, raw: str, players: int | None = None) -> str:
        """Substitute every placeholder in ``raw`` (``players``: the setup whose notes these are)."""

        def replace(match: re.Match[str]) -> str:
            token = match.group(0)
            if token == "{{":
                return "{"
            if token == "}}":
                return "}"
            reference = REFERENCE.fullmatch(token)
            if reference is not None:
                kind, name, effect = reference.groups()
                if effect is not None:
                    carriers = self.effect_carriers.get(effect, [])
                    if not carriers:
                        return f"[{effect}?]"
                    names = [self.local(card.name) for card in carriers]
                    return names[0] if len(names) == 1 else format_list(names, style="or", locale=self.locale)
                value = resolve_reference(self.spec, kind, name, players).value
                return self.number(value) if value is not None else f"[{kind}.{name}?]"
            return self.icon_word(match.group(1))

        return TOKEN.sub(replace, raw)

    def icon_word(self, name: str) -> str:
        """The bracketed word that stands in for the inline icon ``{name}``."""
        label = self.spec.strings.get(name)
        word = self.local(label) if label else name.replace("_", " ").replace("-", " ")
        return f"[{word}]"

    def text(self, text: dict[str, str] | None) -> str:
        """LocalText in this locale with placeholders resolved, on one line."""
        return " ".join(self.resolve(self.local(text)).split())

    def prose(self, text: dict[str, str] | None, players: int | None = None) -> Prose:
        """LocalText as blocks of paragraphs and bullet lists (``players``: the setup whose notes these are)."""
        resolved = self.resolve(self.local(text), players).replace("\r\n", "\n")
        blocks: Prose = []
        for chunk in re.split(r"\n\s*\n", resolved):
            lines = [line for line in chunk.split("\n") if line.strip()]
            run: list[str] = []
            in_list = False
            for line in lines + [""]:
                is_item = bool(line) and bool(BULLET.match(line))
                if run and (not line or is_item != in_list):
                    if in_list:
                        blocks.append({"kind": "ul", "items": [" ".join(BULLET.sub("", item).split()) for item in run]})
                    else:
                        blocks.append({"kind": "p", "text": " ".join(" ".join(run).split())})
                    run = []
                if line:
                    in_list = is_item
                    run.append(line)
        return blocks


def deck_total(deck: Deck) -> int:
    """How many cards the deck holds (copies counted)."""
    return sum(card.copies for card in deck.cards)


def deck_type_counts(deck: Deck) -> list[tuple[str | None, int]]:
    """Cards per card type, in the deck's type order; cards with no (or an unknown) type last, as None."""
    known = [t.id for t in deck.card_types]
    counts: dict[str | None, int] = {t: 0 for t in known}
    for card in deck.cards:
        key = card.type if card.type in counts else None
        counts[key] = counts.get(key, 0) + card.copies
    return [(key, count) for key, count in counts.items() if count]


def component_total(spec: Spec, component_id: str) -> int:
    """How many pieces of a component are printed: per palette entry and per player (at most players) multiplied out."""
    pieces = component_pieces(spec, component_id)
    assert pieces is not None, component_id
    return pieces[2]


ATTACHED_SECTIONS = ("overview", "components", "setup", "turn", "scoring", "end")
"""Ids of ``rules_text.extra`` sections that are printed inside the rulebook's own section of that name
(their prose only, without their title) instead of as separate chapters."""
STEP_NUMBER = re.compile(r"^\s*(?:\d+|[IVX]+)\s*[.):]\s+")


def _sections(resolver: TextResolver, sections: list[TextSection], numbered: bool = False) -> list[dict[str, Any]]:
    """Titled sections; with ``numbered``, a number the spec already wrote in a title ("1. Roll") is dropped,
    since the template numbers the steps itself."""
    out = []
    for section in sections:
        title = resolver.text(section.title)
        if numbered:
            title = STEP_NUMBER.sub("", title) or title
        out.append({"id": section.id, "title": title, "text": resolver.prose(section.text)})
    return out


def _readable(identifier: str) -> str:
    """An id shown to players when the spec gives no label: separators as spaces, first letter capital."""
    words = identifier.replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


def _html_lang(locale: str) -> str:
    return locale.replace("_", "-")


def _rules_summary(spec: Spec, locale: str, translation: Any) -> dict[str, Any] | None:
    """The text generated from the spec's rules data (:func:`cardgen.rulebook.rules_summary.rules_summary`); None
    without rules data, whose generator (and the rules-data models it reads) is then never imported."""
    if spec.rules_data is None:
        return None
    from cardgen.rulebook.rules_summary import rules_summary

    return rules_summary(spec, locale, translation)


def build_context(spec: Spec, locale: str, pictures: set[str] | None = None, gettext: Any = None, translation: Any = None) -> dict[str, Any]:
    """Everything the rulebook templates need for ``spec`` in ``locale``, as plain data.

    ``pictures`` names the decks that have a card picture to show; ``gettext``
    translates the Python-side messages (identity when None); ``translation``
    (gettext translations, the identity when None) phrases the rules generated
    from the spec's rules data.
    """
    tr = gettext or (lambda message: message)
    if translation is None:
        from gettext import NullTranslations

        translation = NullTranslations()
    r = TextResolver(spec, locale)
    pictures = pictures or set()
    palettes = {p.id: p for p in spec.palettes}

    decks = []
    for deck in spec.decks:
        type_names = {t.id: r.text(t.name) for t in deck.card_types}
        decks.append(
            {
                "id": deck.id,
                "name": r.text(deck.name),
                "description": r.prose(deck.description),
                "total": deck_total(deck),
                "double_sided": deck.double_sided,
                "types": [
                    {"name": type_names[key] if key else tr(UNTYPED_CARDS), "count": count}
                    for key, count in deck_type_counts(deck)
                    if len(deck.card_types) > 0
                ],
                "distinct": len(deck.cards),
                "picture": deck.id in pictures,
            }
        )

    components = []
    for component in spec.components:
        palette = palettes.get(component.palette) if component.palette else None
        components.append(
            {
                "id": component.id,
                "name": r.text(component.name),
                "kind": tr(COMPONENT_KINDS[component.kind]),
                "count": component.count,
                "per_player": component.per_player,
                "player_mark": component.player_mark,
                "palette": (
                    {"name": r.text(palette.name), "entries": [r.text(e.name) for e in palette.entries], "size": len(palette.entries)}
                    if palette
                    else None
                ),
                "total": component_total(spec, component.id),
                "max_players": spec.players.max,
            }
        )

    dice = [{"id": d.id, "name": r.text(d.name), "count": d.count, "sides": d.sides} for d in spec.dice]

    setup = _setup_table(spec, r)

    special = []
    for deck in spec.decks:
        with_text = [c for c in deck.cards if c.effect or c.text]
        if not with_text:
            continue
        groups = []
        type_ids = [t.id for t in deck.card_types]
        for type_def in deck.card_types:
            cards = [c for c in with_text if c.type == type_def.id]
            if cards:
                groups.append({"type": r.text(type_def.name), "description": r.text(type_def.description), "cards": [_card(r, c) for c in cards]})
        loose = [c for c in with_text if c.type not in type_ids]
        if loose:
            groups.append({"type": tr(UNTYPED_CARDS) if groups else "", "description": "", "cards": [_card(r, c) for c in loose]})
        special.append({"deck": r.text(deck.name), "groups": groups})

    credits = spec.credits
    licence = spec.licence
    return {
        "lang": locale,
        "html_lang": _html_lang(locale),
        "game": {
            "id": spec.id,
            "title": r.text(spec.title),
            "tagline": r.text(spec.tagline),
            "version": spec.version,
            "designers": list(credits.designers),
            "designers_text": format_list(list(credits.designers), locale=locale),
            "publisher": credits.publisher or "",
            "players_min": spec.players.min,
            "players_max": spec.players.max,
            "time_min": spec.play_time_minutes.min,
            "time_max": spec.play_time_minutes.max,
            "min_age": spec.min_age,
        },
        "overview": r.prose(spec.rules_text.overview),
        "goal": r.prose(spec.rules_text.goal),
        "decks": decks,
        "components": components,
        "dice": dice,
        "setup": setup,
        "setup_sections": _sections(r, spec.rules_text.setup),
        "turn": _sections(r, spec.rules_text.turn, numbered=True),
        "rules_summary": _rules_summary(spec, locale, translation),
        "special_cards": special,
        "scoring": _sections(r, spec.rules_text.scoring),
        "end": r.prose(spec.rules_text.end),
        "tiebreakers": _sections(r, spec.rules_text.tiebreakers),
        "solo": r.prose(spec.rules_text.solo),
        "extra": _sections(r, [x for x in spec.rules_text.extra if x.id not in ATTACHED_SECTIONS]),
        "attached": {
            name: _sections(r, [x for x in spec.rules_text.extra if x.id == name]) for name in ATTACHED_SECTIONS
        },
        "clarifications": [
            {"number": c.number, "text": r.prose(c.text)} for c in sorted(spec.clarifications, key=lambda c: c.number)
        ],
        "credits": {
            "designers_text": format_list(list(credits.designers), locale=locale),
            "designer_count": len(credits.designers),
            "publisher": credits.publisher or "",
            "source": r.text(credits.source) if isinstance(credits.source, dict) else credits.source,
            "source_url": credits.source_url or "",
            "adaptation": r.prose(credits.adaptation),
        },
        "licence": {
            "name": r.text(licence.name) if isinstance(licence.name, dict) else licence.name,
            "url": licence.url or "",
            "attribution": r.text(licence.attribution),
            "note": r.prose(licence.note),
            "redistribution": licence.redistribution,
        },
    }


def _card(r: TextResolver, card: Card) -> dict[str, Any]:
    return {"id": card.id, "name": r.text(card.name), "copies": card.copies, "text": r.prose(card.text), "effect": card.effect or ""}


def _setup_table(spec: Spec, r: TextResolver) -> dict[str, Any]:
    """The setup table: one column per player count, one row per thing dealt or laid out."""
    setups = sorted(spec.setups, key=lambda s: s.players)
    deck_names = {d.id: r.text(d.name) for d in spec.decks}
    component_names = {c.id: r.text(c.name) for c in spec.components}
    rows: list[dict[str, Any]] = []

    def ordered(keys: set[str], order: list[str]) -> list[str]:
        return [k for k in order if k in keys] + sorted(keys - set(order))

    deck_order = [d.id for d in spec.decks]
    dealt = ordered({k for s in setups for k in s.deal}, deck_order)
    for deck_id in dealt:
        rows.append({"kind": "deal", "name": deck_names.get(deck_id, deck_id), "values": [s.deal.get(deck_id) for s in setups]})
    shown = ordered({k for s in setups for k in s.display}, deck_order)
    for deck_id in shown:
        two_sided = any(d.double_sided for d in spec.decks if d.id == deck_id)
        rows.append({"kind": "display", "name": deck_names.get(deck_id, deck_id), "values": [s.display.get(deck_id) for s in setups], "double_sided": two_sided})
    grid_names = ordered({k for s in setups for k in s.grids}, [])
    for grid_name in grid_names:
        label = spec.strings.get(grid_name)
        values: list[dict[str, int] | None] = []
        deck_name = ""
        for s in setups:
            grid = s.grids.get(grid_name)
            if grid is None:
                values.append(None)
                continue
            deck_name = deck_names.get(grid.deck, grid.deck)
            values.append({"columns": grid.columns, "rows": grid.rows, "cards": grid.columns * grid.rows})
        rows.append(
            {
                "kind": "grid",
                "name": r.text(label) if label else _readable(grid_name),
                "deck": deck_name,
                "values": values,
            }
        )
    component_order = [c.id for c in spec.components]
    # What each player gets: every per-player component (its count, once per palette entry), then
    # what a setup hands out from a shared supply.
    for component in spec.components:
        pieces_each = component_pieces(spec, component.id)
        if component.per_player and pieces_each is not None:
            rows.append({"kind": "pieces", "name": component_names[component.id], "values": [pieces_each[1] for _ in setups]})
    pieces = ordered({k for s in setups for k in s.pieces}, component_order)
    for component_id in pieces:
        rows.append(
            {"kind": "pieces", "name": component_names.get(component_id, component_id), "values": [s.pieces.get(component_id) for s in setups]}
        )
    notes = [{"players": s.players, "text": r.prose(s.notes, s.players)} for s in setups if s.notes]
    return {
        "columns": [s.players for s in setups],
        "rows": rows,
        "notes": notes,
        "decks": len(spec.decks),
        "pieces": any(row["kind"] == "pieces" for row in rows),
    }
