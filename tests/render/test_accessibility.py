"""CG213: where two palette colours look alike without colour, each face made for such an entry must print
the entry's symbol legibly. Faces are taken from Ceratopsians (whose marker faces name their colours) with
their scenes replaced, so the check is seen on exactly what is drawn."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from cardgen.render.accessibility import MIN_SYMBOL_PT, symbol_findings
from cardgen.render.checks import confusable_pairs
from cardgen.render.faces import card_faces
from cardgen.render.scene import Rect, Scene, Text
from cardgen.spec.load import load_spec

SPEC = Path(__file__).resolve().parents[2] / "specs" / "ceratopsians"


def _setup():  # type: ignore[no-untyped-def]
    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    palette = next(p for p in loaded.spec.palettes if p.id == "colours")
    green = next(i for i, e in enumerate(palette.entries) if e.id == "green")
    blue = next(i for i, e in enumerate(palette.entries) if e.id == "blue")
    entries = list(palette.entries)
    entries[green] = entries[green].model_copy(update={"colour": entries[blue].colour})
    confusable = palette.model_copy(update={"entries": entries})
    face = next(f for f in card_faces(loaded) if f.card == "lf-gb" and f.face_index == 0)
    return loaded, confusable, face, green


def _with(face, *children):  # type: ignore[no-untyped-def]
    return dataclasses.replace(face, scene=Scene(face.scene.width_mm, face.scene.height_mm, tuple(children)))


def test_colour_without_its_symbol_is_an_error() -> None:
    loaded, palette, face, green = _setup()
    assert confusable_pairs(palette), "green and blue now share a colour"
    colour = palette.entries[green].colour
    bare = _with(face, Rect(1, 1, 5, 5, fill=colour))
    found = list(symbol_findings(loaded, [bare], 0, palette, confusable_pairs(palette)))
    assert [f.code for f in found] and all(f.code == "CG213" for f in found)
    assert any("'green'" in f.message for f in found)


def test_symbol_too_small_is_an_error_and_a_legible_one_passes() -> None:
    loaded, palette, face, green = _setup()
    colour = palette.entries[green].colour
    symbols = [e.symbol for e in palette.entries]
    tiny = _with(face, Rect(1, 1, 5, 5, fill=colour), *(Text(2, 2, s, size_pt=MIN_SYMBOL_PT - 2) for s in symbols))
    legible = _with(face, Rect(1, 1, 5, 5, fill=colour), *(Text(2, 2, s, size_pt=MIN_SYMBOL_PT + 1) for s in symbols))
    assert list(symbol_findings(loaded, [tiny], 0, palette, confusable_pairs(palette)))
    assert not list(symbol_findings(loaded, [legible], 0, palette, confusable_pairs(palette)))


def test_faces_not_made_for_the_entry_are_not_judged() -> None:
    loaded, palette, face, green = _setup()
    colour = palette.entries[green].colour
    back = dataclasses.replace(_with(face, Rect(1, 1, 5, 5, fill=colour)), card=None, key="skulls-back")
    assert not list(symbol_findings(loaded, [back], 0, palette, confusable_pairs(palette)))
