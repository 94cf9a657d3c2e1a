"""Variants: the --vary options, the grid, and a variant's game.yaml, loaded like a hand-edited spec."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from cardgen.findings import InputError
from cardgen.spec.load import load_spec
from cardgen.sweep.variants import (
    Vary,
    apply_overrides,
    canonical,
    parse_vary,
    parse_varies,
    read_source,
    spec_patch,
    variant_grid,
    write_variant,
)

from .conftest import TOY


def test_parse_vary_reads_ranges_steps_and_single_values() -> None:
    assert parse_vary("numbers.hand_size=3..7") == Vary("hand_size", 3, 7, 1)
    assert parse_vary("numbers.bonus=-2..6:4").values == [-2, 2, 6]
    assert parse_vary(" numbers.x=5 ").values == [5]


@pytest.mark.parametrize(
    "text, words",
    [
        ("hand_size=3..7", "expected numbers.NAME"),
        ("numbers.hand_size=7..3", "below LOW"),
        ("numbers.hand_size=1..3:0", "STEP"),
        ("numbers.hand_size=1.5..3", "expected numbers.NAME"),
    ],
)
def test_parse_vary_refuses_bad_options(text: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        parse_vary(text)


def test_a_number_varied_twice_or_none_is_refused() -> None:
    with pytest.raises(InputError, match="more than once"):
        parse_varies(["numbers.a=1..2", "numbers.a=3"])
    with pytest.raises(InputError, match="at least one"):
        parse_varies([])


def test_the_grid_has_every_combination_in_a_fixed_order() -> None:
    grid = variant_grid([Vary("b", 1, 2), Vary("a", 0, 4, 2)])
    assert len(grid) == 6
    assert grid[0] == (("a", 0), ("b", 1)) and grid[1] == (("a", 2), ("b", 1)) and grid[-1] == (("a", 4), ("b", 2))
    assert len(set(grid)) == 6
    with pytest.raises(InputError, match="variants"):
        variant_grid([Vary("a", 0, 999), Vary("b", 0, 999)])


def test_a_variant_changes_one_scalar_and_loads_with_the_new_value(tmp_path: Path) -> None:
    source = read_source(TOY)
    assert source.numbers()["first_seat_bonus"] == 0
    text = apply_overrides(source, canonical({"first_seat_bonus": 7, "wild_points": 12}))
    changed = [line for line in difflib.ndiff(source.text.splitlines(), text.splitlines()) if line[:1] in "+-"]
    assert sorted(changed) == sorted(["-   wild_points: 4", "+   wild_points: 12", "-   first_seat_bonus: 0", "+   first_seat_bonus: 7"])
    folder = write_variant(source, canonical({"first_seat_bonus": 7}), tmp_path)
    assert folder.name == TOY.name
    loaded = load_spec(folder)
    assert loaded.spec is not None and loaded.spec.numbers["first_seat_bonus"] == 7
    assert (TOY / "game.yaml").read_text(encoding="utf-8") == source.text  # the spec itself is never edited


def test_a_number_the_spec_lacks_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no number 'hand_size'.*first_seat_bonus"):
        apply_overrides(read_source(TOY), canonical({"hand_size": 3}))


def test_numbers_written_in_flow_style_are_rewritten_too(tmp_path: Path) -> None:
    text = (TOY / "game.yaml").read_text(encoding="utf-8")
    start = text.index("numbers:\n")
    end = text.index("stated_counts:")
    flow = "numbers: {die_sides: 6, max_turns: 16, wild_points: 4, first_seat_bonus: 0, test_dead_end_turn: 0, test_never_ends: 0}\n"
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "game.yaml").write_text(text[:start] + flow + text[end:], encoding="utf-8")
    source = read_source(tmp_path / "toy")
    rewritten = apply_overrides(source, canonical({"max_turns": 123}))
    assert "max_turns: 123, wild_points: 4" in rewritten


def test_the_patch_turns_the_spec_into_the_variant() -> None:
    source = read_source(TOY)
    patch = spec_patch(source, canonical({"wild_points": 9}))
    lines = patch.splitlines()
    assert lines[0] == f"--- {source.shown}" and lines[1] == f"+++ {source.shown}"
    assert [l for l in lines[2:] if l[:1] in "+-"] == ["-  wild_points: 4", "+  wild_points: 9"]
    assert spec_patch(source, canonical({"wild_points": 4})) == ""


def test_the_digest_covers_every_file(tmp_path: Path) -> None:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "game.yaml").write_bytes((TOY / "game.yaml").read_bytes())
    first = read_source(folder).digest
    (folder / "cards.csv").write_text("id\n", encoding="utf-8")
    assert read_source(folder).digest != first


def test_a_link_out_of_the_spec_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "game.yaml").write_bytes((TOY / "game.yaml").read_bytes())
    outside = tmp_path / "secret.csv"
    outside.write_text("id\n", encoding="utf-8")
    (folder / "cards.csv").symlink_to(outside)
    with pytest.raises(InputError, match="link leading out"):
        read_source(folder)
