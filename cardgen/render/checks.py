"""Render checks (kind "render", codes CG200-CG299): does every card face print well?

Each face is laid out once per locale (cached, see :mod:`cardgen.render.faces`)
and the checks read the text reports and the layouts:

* text that overflows its box, characters the font cannot draw, unknown
  ``{icon}`` tokens, text set below the minimum printable size;
* layout elements outside the safe zone, and faces whose art does not reach
  the bleed edge;
* per printed face, read off what each element drew: text printed below the
  minimum size (credit lines and every other small print included), and ink
  of an element that carries play outside the safe zone (an ``art`` element
  may run into the bleed, but its letters and numbers may not);
* layout files that cannot be used or name unknown widgets;
* palettes: every pair of entries must stay distinguishable under simulated
  protanopia, deuteranopia and tritanopia (Machado et al. 2009) and in
  greyscale, by CIEDE2000; entries must also differ by symbol or motif so the
  game can be played without colour at all.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from cardgen.findings import Finding, Severity
from cardgen.render.colour import VISIONS, delta_e2000, simulate
from cardgen.render.extent import Bounds
from cardgen.render.faces import Face, FaceSet, face_set
from cardgen.render.fonts import DEFAULT_FONT, missing_glyphs
from cardgen.render.layouts import ResolvedLayout
from cardgen.render.motifs import has_motif
from cardgen.render.scene import Box, Rect
from cardgen.spec.load import LoadedSpec, size_of
from cardgen.spec.models import Palette
from cardgen.render.accessibility import CODES as ACCESSIBILITY_CODES
from cardgen.render.accessibility import symbol_findings
from cardgen.validate.registry import register_check, register_codes

ERROR, WARNING = Severity.ERROR, Severity.WARNING

MIN_DELTA_E = 10.0
"""CIEDE2000 difference below which two palette colours count as hard to tell apart."""

register_codes(ACCESSIBILITY_CODES)
register_codes(
    {
        "CG201": "Text does not fit its box on a card face, even at the smallest allowed size.",
        "CG202": "Text uses characters the bundled font cannot draw.",
        "CG203": "Text is set below the minimum printable size (6 pt unless the layout says otherwise).",
        "CG204": "A layout element lies outside the card's safe zone.",
        "CG205": "A face's background does not reach the bleed edge (a white rim may show after cutting).",
        "CG206": "Text names an {icon} that is not registered.",
        "CG207": "A layout file cannot be read, does not match the layout schema, or gives a widget parameters it cannot draw (a number out of its range; the element is not drawn).",
        "CG208": "A layout element names a widget that is not registered.",
        "CG215": "The spec's `package:` names no installed game package (none registers layouts or figures under it), or stands beside a rules module or a named mechanic of another package, whose own package the spec takes.",
        "CG214": "A layout element gives its widget a parameter the widget does not take (a misspelt name), or a value of the wrong kind (text for a number, a word outside its choices, an unknown font, motif or glyph); the element is not drawn.",
        "CG212": "Cards with different effects look alike but for their words: give each effect its own glyph.",
        "CG209": "On a printed face, an element that carries play (or the text of an art element) reaches outside the safe zone.",
        "CG210": "Two palette colours are hard to tell apart for some viewers (colour-blind or greyscale), though symbols tell them apart.",
        "CG211": "Palette entries cannot be told apart without colour: their symbols and motifs do not differ.",
    }
)


def _face_finding(loaded: LoadedSpec, face: Face, report_source: tuple[str | int, ...], code: str, severity: Severity, message: str, hint: str) -> Finding:
    path = report_source or face.source
    return loaded.place_finding(code, severity, path, message, hint)


def _text_findings(loaded: LoadedSpec, faces: FaceSet, locale: str, seen: set[tuple[str, str, str]]) -> Iterator[Finding]:
    for face in faces.faces:
        for report in face.reports:
            where = f"{face.label}, {report.element}, {report.what} [{locale}]"
            overflow = report.overflow
            if not overflow.fits:
                key = ("CG201", face.key + report.element + report.what, locale)
                if key not in seen:
                    seen.add(key)
                    detail = f"{overflow.mm_over:.1f} mm ({overflow.lines_over} line(s)) too tall" if overflow.mm_over > 0 or overflow.lines_over else "a word is wider than the box"
                    if overflow.overwide_words:
                        detail += f"; too wide: {', '.join(overflow.overwide_words[:3])}"
                    yield _face_finding(loaded, face, report.source, "CG201", ERROR, f"{where}: text overflows its box by {detail} at {report.size_pt:g} pt", "shorten the text, or give the element a bigger box in the layout")
            if overflow.missing_glyphs:
                chars = "".join(sorted(overflow.missing_glyphs))
                key = ("CG202", chars + report.what, face.group)
                if key not in seen:
                    seen.add(key)
                    codes = ", ".join(f"U+{ord(c):04X}" for c in sorted(overflow.missing_glyphs))
                    yield _face_finding(loaded, face, report.source, "CG202", ERROR, f"{where}: the font has no glyph for {chars!r} ({codes})", "use other characters, or a font that has them")
            if overflow.unknown_icons:
                key = ("CG206", ",".join(sorted(overflow.unknown_icons)), face.key)
                if key not in seen:
                    seen.add(key)
                    names = ", ".join("{" + n + "}" for n in sorted(overflow.unknown_icons))
                    yield _face_finding(loaded, face, report.source, "CG206", ERROR, f"{where}: unknown icon(s) {names}", "use a registered icon (tile, arrow, star, heart, d1...) or write {{ }} for literal braces")


def _layout_findings(loaded: LoadedSpec, faces: FaceSet) -> Iterator[Finding]:
    spec = loaded.spec
    assert spec is not None
    for problem in faces.problems:
        yield Finding(problem.file, problem.line, problem.column, problem.code, ERROR, ".".join(str(p) for p in problem.path), problem.message, "see templates/layouts/README.md")
    groups = {d.id: size_of(d.size) for d in spec.decks} | {c.id: size_of(c.size) for c in spec.components}
    for name, resolved in sorted(faces.layouts.items()):
        size = groups[name]
        yield from _layout_geometry(loaded, name, resolved, size.width, size.height, size.safe)


def _layout_geometry(loaded: LoadedSpec, name: str, resolved: ResolvedLayout, w: float, h: float, safe: float) -> Iterator[Finding]:
    layout = resolved.layout
    file = resolved.file or f"(default layout of {name})"
    for side, face_layout in (("front", layout.front), ("back", layout.back)):
        if face_layout is None:
            continue
        for index, element in enumerate(face_layout.elements):
            path = (side, "elements", index)
            place = resolved.source.place(path + ("box",)) if resolved.source else None
            line, column = (place.line, place.column) if place else (0, 0)
            size = element.params.get("size")
            min_size = element.params.get("min_size")
            for label, value in (("size", size), ("min_size", min_size)):
                if isinstance(value, (int, float)) and not isinstance(value, bool) and value < layout.min_text_pt:
                    yield Finding(file, line, column, "CG203", ERROR, ".".join(map(str, path)), f"{name}: {element.widget} text {label} {value} pt is below the printable minimum of {layout.min_text_pt:g} pt", f"set {layout.min_text_pt:g} pt or more")
            if element.art:
                continue
            x, y, bw, bh = element.box
            eps = 1e-6
            outside = []
            if x < safe - eps:
                outside.append(f"left by {safe - x:.1f} mm")
            if y < safe - eps:
                outside.append(f"top by {safe - y:.1f} mm")
            if x + bw > w - safe + eps:
                outside.append(f"right by {x + bw - (w - safe):.1f} mm")
            if y + bh > h - safe + eps:
                outside.append(f"bottom by {y + bh - (h - safe):.1f} mm")
            if outside:
                yield Finding(file, line, column, "CG204", WARNING, ".".join(map(str, path)), f"{name}: {element.widget} box {list(element.box)} leaves the {safe:g} mm safe zone ({', '.join(outside)})", "move it inside, or mark it `art: true` if it is art meant to run to the edge")


def _element_place(resolved: ResolvedLayout, name: str, path: tuple[str | int, ...]) -> tuple[str, int, int]:
    """(file, line, column) of a layout element's box."""
    place = resolved.source.place(path + ("box",)) if resolved.source else None
    return resolved.file or f"(default layout of {name})", place.line if place else 0, place.column if place else 0


def _outside(ink: Bounds, safe: Box) -> list[tuple[str, float]]:
    """The sides where ``ink`` leaves ``safe``, with how far (mm)."""
    eps = 1e-6
    sides = (("left", safe.x - ink.left), ("top", safe.y - ink.top), ("right", ink.right - safe.right), ("bottom", ink.bottom - safe.bottom))
    return [(side, over) for side, over in sides if over > eps]


def print_safety_findings(loaded: LoadedSpec, faces: FaceSet, locale: str, seen: set[tuple[str, str, str]]) -> Iterator[Finding]:
    """Per printed face, from what each element drew: type below the minimum (CG203) and ink outside the safe zone (CG209).

    Each element of each deck is reported once, naming how many faces it hits
    and the worst of them.
    """
    small: dict[tuple[str, tuple[str | int, ...]], list[tuple[float, Face, str]]] = {}
    unsafe: dict[tuple[str, tuple[str | int, ...]], list[tuple[float, Face, str, str]]] = {}
    for face in faces.faces:
        resolved = faces.layouts.get(face.group)
        if resolved is None:
            continue
        minimum = resolved.layout.min_text_pt
        b, size = face.size.bleed, face.size
        safe = Box(b + size.safe, b + size.safe, size.width - 2 * size.safe, size.height - 2 * size.safe)
        for ink in face.elements:
            if ink.smallest_pt is not None and ink.smallest_pt < minimum - 1e-6:
                small.setdefault((face.group, ink.path), []).append((ink.smallest_pt, face, ink.where))
            measured = ink.text if ink.art else ink.ink
            if measured is None:
                continue
            sides = _outside(measured, safe)
            if sides:
                worst = max(over for _, over in sides)
                detail = ", ".join(f"{side} by {over:.1f} mm" for side, over in sides)
                unsafe.setdefault((face.group, ink.path), []).append((worst, face, ink.where, detail))
    for (group, path), hits in small.items():
        resolved = faces.layouts[group]
        file, line, column = _element_place(resolved, group, path)
        key = ("CG203-drawn", group + ".".join(map(str, path)), locale)
        if key in seen:
            continue
        seen.add(key)
        size_pt, face, where = min(hits, key=lambda hit: hit[0])
        yield Finding(file, line, column, "CG203", ERROR, ".".join(map(str, path)), f"{group}: {where} prints text at {size_pt:g} pt on {len(hits)} face(s) (smallest on {face.label}) [{locale}], below the minimum of {resolved.layout.min_text_pt:g} pt", "give the text a bigger size or box, or shorten it")
    for (group, path), found in unsafe.items():
        resolved = faces.layouts[group]
        file, line, column = _element_place(resolved, group, path)
        key = ("CG209", group + ".".join(map(str, path)), locale)
        if key in seen:
            continue
        seen.add(key)
        _, face, where, detail = max(found, key=lambda hit: hit[0])
        safe_mm = face.size.safe
        yield Finding(file, line, column, "CG209", ERROR, ".".join(map(str, path)), f"{group}: {where} draws outside the {safe_mm:g} mm safe zone on {len(found)} face(s), worst on {face.label} ({detail})", "move it inside the safe zone (a cut 1-2 mm off would take it), or shrink it")


def look_alike_findings(loaded: LoadedSpec, faces: FaceSet) -> Iterator[Finding]:
    """Cards of one deck with different effects whose faces differ only in their text (CG212, a warning).

    A player tells cards apart across the table by their pictures; two effects
    drawn alike need reading. Each pair of effects is reported once.
    """
    spec = loaded.spec
    assert spec is not None
    for d_index, deck in enumerate(spec.decks):
        cards = {card.id: card for card in deck.cards}
        looks: dict[tuple[tuple[object, ...], ...], dict[str, Face]] = {}
        for face in faces.faces:
            card = cards.get(face.card or "") if face.group == deck.id and face.kind == "front" else None
            if card is None or card.effect is None:
                continue
            signature = tuple((ink.path, ink.look) for ink in face.elements)
            looks.setdefault(signature, {}).setdefault(card.effect, face)
        for by_effect in looks.values():
            if len(by_effect) < 2:
                continue
            effects = sorted(by_effect)
            names = ", ".join(f"{by_effect[e].label} ({e})" for e in effects)
            yield loaded.place_finding("CG212", WARNING, ("decks", d_index, "cards"), f"deck {deck.id!r}: {len(effects)} effects are drawn alike and differ only in their words: {names}", "map each effect to its own glyph in the layout (e.g. `glyphs: {effect: name}`, see cardgen/render/glyphs.py)")


def _bleed_findings(loaded: LoadedSpec, faces: FaceSet) -> Iterator[Finding]:
    reported: set[str] = set()
    for face in faces.faces:
        if face.size.bleed <= 0 or face.group in reported:
            continue
        scene = face.scene
        first = scene.children[0] if scene.children else None
        covers = isinstance(first, Rect) and first.fill is not None and first.x <= 1e-6 and first.y <= 1e-6 and first.w >= scene.width_mm - 1e-6 and first.h >= scene.height_mm - 1e-6
        if not covers:
            reported.add(face.group)
            yield loaded.place_finding("CG205", WARNING, face.source, f"{face.label}: the face's background does not reach the {face.size.bleed:g} mm bleed edge", "give the layout a background colour (it fills the bleed)")


def symbol_usable(symbol: str) -> bool:
    """A symbol can stand in for colour when it has visible characters the font can draw."""
    return bool(symbol.strip()) and not missing_glyphs(symbol, DEFAULT_FONT)


def confusable_pairs(palette: Palette) -> list[tuple[int, int]]:
    """Index pairs of entries whose colours are closer than MIN_DELTA_E in greyscale or a colour-blind view."""
    labs = {v: [simulate(e.colour, v) for e in palette.entries] for v in VISIONS}
    return [
        (i, j)
        for i, j in combinations(range(len(palette.entries)), 2)
        if any(delta_e2000(labs[v][i], labs[v][j]) < MIN_DELTA_E for v in VISIONS)
    ]


def palette_findings(loaded: LoadedSpec, p_index: int, palette: Palette, locales: list[str] | None = None) -> Iterator[Finding]:
    """Colour distinguishability (CVD + greyscale, CIEDE2000) and colour-free distinguishability of one palette.

    The symbols are checked as printed in each of ``locales`` (an entry's
    ``symbols`` replace its ``symbol`` in that card language).
    """
    entries = palette.entries
    if len(entries) < 2:
        return
    base = ("palettes", p_index)
    without_colour: list[tuple[str, str]] = []
    for locale in locales or [""]:
        keys = []
        for entry in entries:
            printed = entry.symbol_in(locale)
            symbol = printed.strip().casefold() if symbol_usable(printed) else None
            motif = entry.motif if entry.motif and has_motif(entry.motif) else None
            keys.append((symbol, motif))
        for (i, a), (j, b) in combinations(enumerate(keys), 2):
            same_symbol = a[0] is None or b[0] is None or a[0] == b[0]
            same_motif = a[1] is None or b[1] is None or a[1] == b[1]
            pair = (entries[i].id, entries[j].id)
            if same_symbol and same_motif and pair not in without_colour:
                without_colour.append(pair)
    if without_colour:
        pairs = ", ".join(f"{x}/{y}" for x, y in without_colour)
        yield loaded.place_finding("CG211", ERROR, base + ("entries",), f"palette {palette.id!r}: entries {pairs} can only be told apart by colour (their symbols are blank, undrawable or equal in some card language, and no distinct motif is set)", "give every entry a distinct visible symbol (a letter) or motif, in every card language")
    labs = {v: [simulate(e.colour, v) for e in entries] for v in VISIONS}
    confused: list[str] = []
    for i, j in confusable_pairs(palette):
        views = [v for v in VISIONS if delta_e2000(labs[v][i], labs[v][j]) < MIN_DELTA_E]
        worst = min(delta_e2000(labs[v][i], labs[v][j]) for v in views)
        confused.append(f"{entries[i].id}/{entries[j].id} ({', '.join(views)}; ΔE00 {worst:.1f})")
    if confused and not without_colour:
        yield loaded.place_finding("CG210", WARNING, base + ("entries",), f"palette {palette.id!r}: colours hard to tell apart: {'; '.join(confused)}; the symbols still tell them apart", f"pick colours that differ more in lightness (ΔE00 >= {MIN_DELTA_E:g} under every view), or accept that players rely on the symbols")


def render_checks(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every render check over every locale of the spec."""
    spec = loaded.spec
    if spec is None:
        return
    seen: set[tuple[str, str, str]] = set()
    first: FaceSet | None = None
    for locale in spec.locales:
        faces = face_set(loaded, locale)
        if first is None:
            first = faces
        yield from _text_findings(loaded, faces, locale, seen)
        yield from print_safety_findings(loaded, faces, locale, seen)
    assert first is not None
    yield from _layout_findings(loaded, first)
    yield from _bleed_findings(loaded, first)
    yield from look_alike_findings(loaded, first)
    for p_index, palette in enumerate(spec.palettes):
        colour_only = list(palette_findings(loaded, p_index, palette, list(spec.locales)))
        yield from colour_only
        if not any(f.code == "CG211" for f in colour_only):  # with no usable symbols, CG211 already says it all
            yield from symbol_findings(loaded, first.faces, p_index, palette, confusable_pairs(palette), spec.locales[0])


def _run(loaded: LoadedSpec) -> list[Finding]:
    return list(render_checks(loaded))


register_check("render-faces", "render", _run)


def _package(loaded: LoadedSpec) -> list[Finding]:
    """The game package a spec names must exist, and may not contradict its rules module (CG215)."""
    from cardgen.render.layouts import package_problem

    problem = package_problem(loaded.spec) if loaded.spec is not None else None
    if problem is None:
        return []
    return [loaded.place_finding("CG215", ERROR, ("package",), problem, "name a package cardgen or an installed game provides, or remove `package:`")]


register_check("game-package", "render", _package)
