"""Colour that carries play must be readable without colour: where two entries of a palette look alike in
greyscale or to a colour-blind player, their symbols carry the difference, so the symbol has to be printed,
legibly, on every face that shows the colour.

This reads the finished scenes (what is actually drawn), not the layouts. The faces where an entry carries
play are those made for it: a card whose data names the entry in a field of that palette, and a piece printed
per entry (a style's tile) or per seat (a player's marker). Each such face that shows the entry's colour must
also carry a text holding the entry's symbol at :data:`MIN_SYMBOL_PT` or larger, unless the entry has a motif
(a drawn pattern that tells it apart on its own).
"""

from __future__ import annotations

from typing import Iterable, Iterator

from cardgen.findings import Finding, Severity
from cardgen.render.faces import Face
from cardgen.render.scene import Group, Primitive, Text
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Palette, Spec

MIN_SYMBOL_PT = 6.0
"""The smallest symbol a player can read at arm's length (the project's minimum type size)."""

CODES = {
    "CG213": "A face shows a palette colour that is hard to tell from another (greyscale or colour-blind views) without printing that entry's symbol legibly, so colour alone carries play there.",
}


def _walk(children: Iterable[Primitive], scale: float = 1.0) -> Iterator[tuple[Primitive, float]]:
    for child in children:
        if isinstance(child, Group):
            factor = scale
            if child.transform is not None:
                factor *= min(abs(child.transform.scale[0]), abs(child.transform.scale[1]))
            yield from _walk(child.children, factor)
        else:
            yield child, scale


def _colours_and_symbols(face: Face) -> tuple[set[str], list[tuple[str, float]]]:
    fills: set[str] = set()
    texts: list[tuple[str, float]] = []
    for primitive, scale in _walk(face.scene.children):
        fill = getattr(primitive, "fill", None)
        if isinstance(fill, str):
            fills.add(fill.lower())
        if isinstance(primitive, Text):
            texts.append((primitive.text, primitive.size_pt * scale))
    return fills, texts


def _entries_on_face(spec: Spec, face: Face, palette: Palette) -> set[str]:
    """The entries of ``palette`` a face is made for: named in its card's data, or the entry/seat of a piece."""
    names: set[str] = set()
    entry_ids = {e.id for e in palette.entries}
    deck = next((d for d in spec.decks if d.id == face.group), None)
    if deck is not None and face.card is not None:
        card = next((c for c in deck.cards if c.id == face.card), None)
        if card is not None:
            data = card.faces[face.face_index].data if card.faces and face.face_index < len(card.faces) else card.data
            for name, field in deck.fields.items():
                if field.palette == palette.id:
                    value = data.get(name)
                    flat = value if isinstance(value, list) else [value]
                    names |= {v for item in flat for v in (item if isinstance(item, list) else [item]) if isinstance(v, str)}
    component = next((c for c in spec.components if c.id == face.group), None)
    if component is not None and (component.palette == palette.id or (component.player_mark and spec.seats == palette.id)):
        names |= {part for part in face.key.split("-") if part in entry_ids}
    return names & entry_ids


def symbol_findings(
    loaded: LoadedSpec, faces: list[Face], p_index: int, palette: Palette, confused: list[tuple[int, int]], locale: str = ""
) -> Iterator[Finding]:
    """CG213 on each face made for a confusable entry that shows its colour without its symbol at a legible size."""
    assert loaded.spec is not None
    spec = loaded.spec
    at_risk = {i for pair in confused for i in pair if not palette.entries[i].motif}
    for i in sorted(at_risk):
        entry = palette.entries[i]
        colour = entry.colour.lower()
        bare: list[str] = []
        for face in faces:
            if entry.id not in _entries_on_face(spec, face, palette):
                continue
            fills, texts = _colours_and_symbols(face)
            if colour not in fills:
                continue
            symbol = entry.symbol_in(locale).strip()
            if not any(symbol and symbol in text and size >= MIN_SYMBOL_PT for text, size in texts):
                bare.append(face.key)
        if bare:
            shown = ", ".join(bare[:5]) + (f" and {len(bare) - 5} more" if len(bare) > 5 else "")
            yield loaded.place_finding(
                "CG213", Severity.ERROR, ("palettes", p_index, "entries", i),
                f"{entry.id!r} ({entry.colour}) is hard to tell from another entry without colour, and {len(bare)} face(s) show it without its symbol {entry.symbol!r} at {MIN_SYMBOL_PT:g} pt or more: {shown}",
                "print the entry's symbol wherever its colour carries play, give it a motif, or pick colours that differ in lightness",
            )
