"""Ceratopsians mutants: a card pairing two skulls that share a colour, a draft longer than the deck."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.catalogue import validate_folder

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
    # the markers of that face, drawn from its old colours, are now stray too (drawn_from)
    assert {f.code for f in errors(result.findings)} == {"CG109", "CG117"}, rendered(result.findings)


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


def test_more_drafts_than_cards_is_refused_statically(tmp_path: Path) -> None:
    """Nine drafts each need 18 cards after the 3 in the boneyard, but the deck holds 18. The rules' contract
    states the bound, so `validate --no-sim` refuses it at the number's own line (CG171)."""
    folder = copy_spec("ceratopsians", tmp_path)
    edit_yaml(folder, lambda data: data["numbers"].__setitem__("drafts_per_player", 9))
    result = static(folder)
    found = errors(result.findings, "CG171")
    assert [f.path for f in found] == ["numbers.drafts_per_player"], rendered(result.findings)
    assert "18 cards" in found[0].message and "allow 16" in found[0].message
    assert "drafts_per_player: 9" in line_of(found[0])


def test_a_third_seat_is_refused(tmp_path: Path) -> None:
    """The rules seat two players: a 3-player setup is refused at validation, never simulated (CG173)."""
    folder = copy_spec("ceratopsians", tmp_path)

    def third_seat(data: Any) -> None:
        data["players"]["max"] = 3
        data["setups"].append({"players": 3, "display": {"skulls": 3}})

    edit_yaml(folder, third_seat)
    result = static(folder)
    assert sorted(f.path for f in errors(result.findings, "CG173")) == ["players.max", "setups[1].players"], rendered(result.findings)
