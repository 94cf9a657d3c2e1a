"""Ceramus mutants: a Shape card no Mural can hold, a Ceramas pattern no Mural can show, an empty hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import card, copy_spec, edit_yaml, engine, errors, line_of, rendered, static

PLAYOUTS = 200
"""Per player count; the shipped spec reaches every usage key well within this (see test_controls)."""


def test_unplaceable_shape_survives_static_validation(tmp_path: Path) -> None:
    """A nine-square bar is a valid polyomino, so the static layer has nothing to say: only play can tell."""
    folder = copy_spec("ceramus", tmp_path)
    edit_yaml(folder, lambda data: card(data, "shapes", "s07")["data"].__setitem__("cells", [[x, 0] for x in range(9)]))
    result = static(folder)
    assert not result.has_errors, rendered(result.findings)
    assert result.loaded is not None and result.loaded.spec is not None
    shapes = next(d for d in result.loaded.spec.decks if d.id == "shapes")
    assert shapes.cards[6].data["cells"] == [[x, 0] for x in range(9)]


def test_unplaceable_shape_is_unreachable(tmp_path: Path) -> None:
    """s07 becomes a 9 by 1 bar: wider than every Mural (4, 8, 8 and 8 cells) and needing 8 tiles of one
    style where a player owns 4, mirrored or not. It can never be built at any player count."""
    folder = copy_spec("ceramus", tmp_path)
    edit_yaml(folder, lambda data: card(data, "shapes", "s07")["data"].__setitem__("cells", [[x, 0] for x in range(9)]))
    result = static(folder)
    assert result.loaded is not None
    report = engine(result.loaded, PLAYOUTS)
    unreachable = errors(report.findings, "CG505")
    named = [f for f in unreachable if f.path == "decks[1].cards[6]" and "s07" in f.message]
    assert named, rendered(report.findings)
    assert "id: s07" in line_of(named[0])
    # only the broken card is flagged: every other shape can still be built
    others = [f for f in unreachable if f.path.startswith("decks[1].") and f.path != "decks[1].cards[6]"]
    assert not others, rendered(others)


def test_pattern_no_mural_can_show_is_unreachable(tmp_path: Path) -> None:
    """c1 asks for five different styles in a row; there are only four, so no build ever forms it."""
    folder = copy_spec("ceramus", tmp_path)
    edit_yaml(folder, lambda data: card(data, "ceramas", "c1")["data"].__setitem__("pattern", ["ABCDE"]))
    result = static(folder)
    assert not result.has_errors, rendered(result.findings)  # a well-formed pattern: the static layer cannot know
    assert result.loaded is not None
    report = engine(result.loaded, PLAYOUTS)
    unreachable = errors(report.findings, "CG505")
    keys = sorted(f.message.split(" ")[0] for f in unreachable)
    # c1 is the only card granting add_tile, so that card effect goes unused with it; nothing else is touched
    assert keys == ["effect:add_tile", "pattern:c1"], rendered(report.findings)
    for finding in unreachable:
        assert finding.path == "decks[2].cards[0]"
        assert "id: c1" in line_of(finding)
    pattern = next(f for f in unreachable if f.message.startswith("pattern:c1"))
    assert "can never be used with 1, 2, 3, 4 players" in pattern.message and "5 different styles and there are 4" in pattern.message
    assert report.has_errors()
    assert {f.code for f in errors(report.findings)} == {"CG505"}


def test_empty_hands_are_refused_before_play(tmp_path: Path) -> None:
    """Dealing no Shape cards would end the game before anyone acts. The rules deal 1 or more, so each
    setup's deal is refused statically at its own line (CG171), never simulated."""
    folder = copy_spec("ceramus", tmp_path)

    def no_hands(data: Any) -> None:
        for setup in data["setups"]:
            setup["deal"]["shapes"] = 0

    edit_yaml(folder, no_hands)
    result = static(folder)
    found = errors(result.findings, "CG171")
    assert sorted(f.path for f in found) == [f"setups[{i}].deal.shapes" for i in range(4)], rendered(result.findings)
    assert all("shapes: 0" in line_of(f) for f in found)
