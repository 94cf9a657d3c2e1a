"""A type error in a spec no longer hides the cross-checks of the parts that did parse.

``min_age: eight`` once hid a stated count that disagreed with the deck (CG105)
and a text naming an effect no card has (CG141): the schema refused the spec and
nothing else ran. Now the cross-checks run on the spec without the top-level key
that holds the refused value; a check that reads that key waits for the fix, so
nothing is reported from a guess (the control at the end).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.findings import Severity
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder

ROOT = Path(__file__).resolve().parents[2]

WRONG_COUNT = ("  - of: dig-sites\n    count: 7\n", "  - of: dig-sites\n    count: 9\n")
"""A stated count the deck does not have (CG105)."""
UNKNOWN_EFFECT = ("{effect:reroll}", "{effect:rerol}")
"""A text naming an effect no card defines (CG141), in every locale."""


def _keramikos(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    folder = tmp_path / "keramikos"
    shutil.copytree(ROOT / "specs" / "keramikos", folder)
    spec = folder / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    spec.write_text(text, encoding="utf-8")
    return folder


def _codes(folder: Path) -> list[str]:
    return [f.code for f in validate_folder(folder, kinds=("static",)).findings]


def test_the_control_the_two_cross_check_findings_without_a_type_error(tmp_path: Path) -> None:
    codes = _codes(_keramikos(tmp_path, WRONG_COUNT, UNKNOWN_EFFECT))
    assert "CG105" in codes and "CG141" in codes and "CG004" not in codes and "CG005" not in codes


TYPE_ERRORS = {
    "min_age: eight (the issue's example)": ("min_age: 8\n", "min_age: eight\n", "min_age"),
    "a word inside a required mapping": ("play_time_minutes: {min: 20, max: 40}", "play_time_minutes: {min: twenty, max: 40}", "play_time_minutes"),
    "a version written as a number": ('version: "0.1.0 (rules from the Gearlock Games web page)"', "version: 0.1", "version"),
}


@pytest.mark.parametrize("case", sorted(TYPE_ERRORS))
def test_a_type_error_leaves_the_other_cross_checks_reported(tmp_path: Path, case: str) -> None:
    old, new, key = TYPE_ERRORS[case]
    folder = _keramikos(tmp_path, WRONG_COUNT, UNKNOWN_EFFECT, (old, new))
    result = validate_folder(folder, kinds=("static",))
    codes = [f.code for f in result.findings]
    assert "CG105" in codes and "CG141" in codes, [f.render() for f in result.findings]
    assert codes.count("CG004") + codes.count("CG003") >= 1
    (note,) = [f for f in result.findings if f.code == "CG005"]
    assert note.severity is Severity.INFO and key in note.message
    assert result.has_errors  # the schema error still refuses the spec


def test_the_loader_still_refuses_the_spec(tmp_path: Path) -> None:
    """Only the validator's cross-checks read the salvaged part; a build or a check sees no spec, as before."""
    loaded = load_spec(_keramikos(tmp_path, ("min_age: 8\n", "min_age: eight\n")))
    assert loaded.spec is None and loaded.salvaged is not None and loaded.left_out == ("min_age",)
    with pytest.raises(AttributeError):
        _ = loaded.salvaged.min_age


def test_a_check_that_reads_a_refused_part_reports_nothing_from_a_guess(tmp_path: Path) -> None:
    """A card's copies written as a word refuses the decks: the count and effect checks, which read the decks, wait.

    (Given a default or an empty list in its place, the deck would have seemed
    to lack cards, and CG105 would have been reported against a correct count.)
    """
    bad_card = ("      - id: reroll\n        type: special\n        copies: 2\n", "      - id: reroll\n        type: special\n        copies: two\n")
    folder = _keramikos(tmp_path, UNKNOWN_EFFECT, bad_card)
    result = validate_folder(folder, kinds=("static",))
    codes = [f.code for f in result.findings]
    assert "CG004" in codes and "CG105" not in codes and "CG141" not in codes, [f.render() for f in result.findings]
    (note,) = [f for f in result.findings if f.code == "CG005"]
    assert "decks" in note.message and "wait" in note.message


def test_an_unreadable_top_gives_no_salvage(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "game.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(Exception):
        load_spec(folder)
