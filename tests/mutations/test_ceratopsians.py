"""Ceratopsians mutants: a card pairing two skulls that share a colour, a draft longer than the deck."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.validate.runner import validate_folder

from .helpers import card, copy_spec, edit_yaml, engine, errors, line_of, rendered, static


def _clash(folder: Path) -> None:
    """cf-ry's back becomes the Yellow-Blue Center Frill: its faces now share yellow."""

    def change(data: Any) -> None:
        back = card(data, "skulls", "cf-ry")["faces"][1]["data"]
        back["colours"] = ["yellow", "blue"]

    edit_yaml(folder, change)


def test_non_complementary_faces_are_cg109(tmp_path: Path) -> None:
    folder = copy_spec("ceratopsians", tmp_path)
    _clash(folder)
    result = static(folder)
    found = errors(result.findings, "CG109")
    assert len(found) == 1, rendered(result.findings)
    finding = found[0]
    assert finding.path == "decks[0].cards[0].faces"
    assert "'cf-ry'" in finding.message and "['yellow']" in finding.message
    assert "faces:" in line_of(finding)
    # the mutation breaks nothing else the static layer checks
    assert {f.code for f in errors(result.findings)} == {"CG109"}, rendered(result.findings)


def test_validate_stops_before_simulating_a_non_complementary_deck(tmp_path: Path) -> None:
    """The static error is the answer: validate does not go on to simulate a spec it knows is unsound."""
    folder = copy_spec("ceratopsians", tmp_path)
    _clash(folder)
    result = validate_folder(folder, kinds=("static", "sim"))
    assert "CG109" in {f.code for f in errors(result.findings)}
    assert not [f for f in result.findings if f.code.startswith("CG5")], rendered(result.findings)


def test_engine_plays_a_non_complementary_deck_without_error(tmp_path: Path) -> None:
    """What the engine says: nothing. Every position still gets its parts (now two Yellow-Blue Center
    Frills and no Green-Blue one), so the game stays playable and every card is still drafted; the
    pairing is a printing rule, which is the static layer's to enforce (CG109)."""
    folder = copy_spec("ceratopsians", tmp_path)
    _clash(folder)
    result = static(folder)
    assert result.loaded is not None
    report = engine(result.loaded, 200)
    assert not errors(report.findings), rendered(report.findings)
    m = report.counts[0].metrics
    assert m is not None and m.completion == 1.0 and m.errors == 0 and m.dead_ends == 0


def test_more_drafts_than_cards_cannot_be_set_up(tmp_path: Path) -> None:
    """Nine drafts each need 18 cards after the 3 in the boneyard, but the deck holds 18: CG502, not a crash."""
    folder = copy_spec("ceratopsians", tmp_path)
    edit_yaml(folder, lambda data: data["numbers"].__setitem__("drafts_per_player", 9))
    result = static(folder)
    assert not result.has_errors  # numbers are the rules' to read; the static layer cannot judge them
    assert result.loaded is not None
    report = engine(result.loaded, 10)
    found = errors(report.findings, "CG502")
    assert len(found) == 1, rendered(report.findings)
    assert found[0].path == "setups[0]"
    assert "2 player(s)" in found[0].message and "drafts" in found[0].message
    assert {f.code for f in errors(report.findings)} == {"CG502"}
