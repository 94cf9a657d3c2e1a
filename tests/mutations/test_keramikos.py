"""Keramikos mutants (its rules are data): a pottery set needing more pieces than exist, players with no markers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardgen.engine.checks import place_of_key
from cardgen.engine.core import make_game
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder

from .helpers import SPECS, copy_spec, edit_csv_row, edit_yaml, engine, errors, line_of, rendered, static

PLAYOUTS = 200


def _oversized_set(tmp_path: Path) -> Path:
    """Skyphos says a set has 4 pieces; the sheet prints 3. Stealing only moves pieces, so no collection
    reaches 4 (only a Complete card could finish the set, see the engine test below)."""
    folder = copy_spec("keramikos", tmp_path)
    edit_csv_row(folder / "pottery.csv", "skyphos", set_size="4")
    return folder


def _without_complete(data: Any) -> None:
    cards = data["decks"][1]["cards"]
    cards[:] = [card for card in cards if card["id"] != "complete"]


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


def test_set_larger_than_its_cards_is_cg115_without_a_complete_card_too(tmp_path: Path) -> None:
    """Without a Complete card (which completes any started set, clar. 16) the set can never be completed; the
    spec is refused before play by the same one finding at the set's row (the rules data prove no set unusable
    in play: a set is the scoring's, not a usage key)."""
    folder = _oversized_set(tmp_path)
    edit_yaml(folder, _without_complete)
    result = static(folder)
    found = errors(result.findings, "CG115")
    assert len(found) == 1 and line_of(found[0]).startswith("skyphos,"), rendered(result.findings)
    assert {f.code for f in errors(result.findings)} == {"CG115", "CG141"}, rendered(result.findings)  # and the clarifications lose {effect:complete}


def test_no_markers_is_refused_where_the_count_is_written(tmp_path: Path) -> None:
    """Each player's markers are the marker component's count (one place). With none, nobody could ever
    mark a site: the count is refused at load, at its own line, before anything is simulated."""
    folder = copy_spec("keramikos", tmp_path)

    def no_markers(data: Any) -> None:
        data["components"][0]["count"] = 0

    edit_yaml(folder, no_markers)
    result = validate_folder(folder, kinds=("static",))
    found = [f for f in errors(result.findings) if f.path == "components[0].count"]
    assert found, rendered(result.findings)
    assert "count:" in line_of(found[0])


def test_a_second_marker_count_in_the_setup_is_refused(tmp_path: Path) -> None:
    """The setup may not restate what each player gets of a per-player component (CG145)."""
    folder = copy_spec("keramikos", tmp_path)

    def restate(data: Any) -> None:
        data["setups"][0]["pieces"] = {"marker": 9}

    edit_yaml(folder, restate)
    result = static(folder)
    found = errors(result.findings, "CG145")
    assert [f.path for f in found] == ["setups[0].pieces.marker"], rendered(result.findings)


def test_usage_key_of_a_card_sharing_its_deck_id_points_at_the_card() -> None:
    loaded = load_spec(SPECS / "keramikos")
    assert loaded.spec is not None
    excavation = loaded.spec.decks[1]
    assert excavation.id == "excavation" and excavation.cards[3].id == "excavation"
    assert place_of_key(loaded, "card:excavation") == ("decks", 1, "cards", 3)
