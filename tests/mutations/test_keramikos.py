"""Keramikos mutants: a pottery set needing more pieces than exist, players with no markers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.engine.checks import place_of_key
from cardgen.spec.load import load_spec

from .helpers import SPECS, copy_spec, edit_csv_row, edit_yaml, engine, errors, line_of, rendered, static

PLAYOUTS = 200


def _oversized_set(tmp_path: Path) -> Path:
    """Skyphos says a set has 4 pieces; the sheet prints 3. Stealing only moves pieces, and the
    Complete card scores a set without ever holding a 4th piece, so no collection reaches 4."""
    folder = copy_spec("keramikos", tmp_path)
    edit_csv_row(folder / "pottery.csv", "skyphos", set_size="4")
    return folder


def test_set_larger_than_its_cards_is_cg115(tmp_path: Path) -> None:
    folder = _oversized_set(tmp_path)
    result = static(folder)
    found = errors(result.findings, "CG115")
    assert len(found) == 1, rendered(result.findings)
    finding = found[0]
    assert "'skyphos'" in finding.message and "4 cards" in finding.message and "holds 3" in finding.message
    assert finding.path.endswith(".data.set_size")
    assert finding.file.endswith("pottery.csv") and line_of(finding).startswith("skyphos,")
    assert {f.code for f in errors(result.findings)} == {"CG115"}, rendered(result.findings)


def test_set_larger_than_its_cards_is_never_completed(tmp_path: Path) -> None:
    folder = _oversized_set(tmp_path)
    result = static(folder)
    assert result.loaded is not None
    report = engine(result.loaded, PLAYOUTS)
    unreachable = errors(report.findings, "CG505")
    assert [f.message.split(" ")[0] for f in unreachable] == ["set:skyphos"], rendered(report.findings)
    finding = unreachable[0]
    assert finding.file.endswith("pottery.csv") and line_of(finding).startswith("skyphos,")
    assert {f.code for f in errors(report.findings)} == {"CG505"}, rendered(report.findings)


def _no_markers(tmp_path: Path) -> Path:
    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, lambda data: data["numbers"].__setitem__("markers_per_player", 0))
    return folder


def test_no_markers_is_reported_not_crashed_or_hung(tmp_path: Path) -> None:
    """With no markers nobody can ever mark a site. The check must still finish and report an error
    at every player count (the setup is refused: see the test below for the code)."""
    folder = _no_markers(tmp_path)
    result = static(folder)
    assert result.loaded is not None
    report = engine(result.loaded, 20)
    assert report.has_errors()
    for count in report.counts:
        m = count.metrics
        assert m is None or m.completed == 0, count.players
    per_count = {n for f in errors(report.findings) for n in (2, 3, 4) if f"{n} player(s)" in f.message}
    assert per_count == {2, 3, 4}, rendered(report.findings)


def test_no_markers_is_an_impossible_setup_or_a_dead_end(tmp_path: Path) -> None:
    folder = _no_markers(tmp_path)
    result = static(folder)
    assert result.loaded is not None
    report = engine(result.loaded, 20)
    assert "CG506" not in {f.code for f in report.findings}, rendered(report.findings)
    for n, where in ((2, "setups[0]"), (3, "setups[1]"), (4, "setups[2]")):
        hits = [f for f in errors(report.findings) if f.code in {"CG502", "CG503"} and f.path == where and f"{n} player(s)" in f.message]
        assert hits, (n, rendered(report.findings))


def test_usage_key_of_a_card_sharing_its_deck_id_points_at_the_card() -> None:
    loaded = load_spec(SPECS / "keramikos")
    assert loaded.spec is not None
    excavation = loaded.spec.decks[1]
    assert excavation.id == "excavation" and excavation.cards[3].id == "excavation"
    assert place_of_key(loaded, "card:excavation") == ("decks", 1, "cards", 3)
