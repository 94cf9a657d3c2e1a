"""Loading specs: YAML and CSV card lists give equal models, places are exact, paths stay confined."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from cardgen.findings import InputError
from cardgen.spec.load import confined_path, load_spec
from cardgen.spec.models import Spec

MINIMAL = Path(__file__).resolve().parents[1] / "fixtures" / "valid" / "minimal"


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "minimal"
    shutil.copytree(MINIMAL, target)
    return target


def test_minimal_loads() -> None:
    loaded = load_spec(MINIMAL)
    assert loaded.findings == []
    assert loaded.spec is not None
    assert [d.id for d in loaded.spec.decks] == ["shapes", "sites", "pots", "bones"]


def test_cards_from_csv_equal_cards_from_yaml(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    yaml_cards = (
        "    cards:\n"
        "      - {id: low, name: {en: Low, pt_BR: Baixo}, type: site, effect: dig, text: {en: \"Dig {numbers.depth} deep.\", pt_BR: \"Cave {numbers.depth} de fundo.\"}, data: {totals: [2, 4], level: 1}}\n"
        "      - {id: mid, name: {en: Middle, pt_BR: Meio}, type: site, data: {totals: [3], level: 2}}\n"
    )
    assert yaml_cards in text
    (folder / "game.yaml").write_text(text.replace(yaml_cards, "    cards_file: sites.csv\n"), encoding="utf-8")
    (folder / "sites.csv").write_text(
        "id;name.en;name.pt_BR;type;effect;text.en;text.pt_BR;totals;level\n"
        'low;Low;Baixo;site;dig;"Dig {numbers.depth} deep.";"Cave {numbers.depth} de fundo.";"[2, 4]";1\n'
        "mid;Middle;Meio;site;;;;[3];2\n",
        encoding="utf-8",
    )
    from_csv = load_spec(folder)
    assert from_csv.findings == []
    from_yaml = load_spec(MINIMAL).spec
    assert from_csv.spec is not None and from_yaml is not None
    assert from_csv.spec.decks[1].cards_file == "sites.csv"
    assert from_csv.spec.model_copy(update={"decks": [d.model_copy(update={"cards_file": None}) for d in from_csv.spec.decks]}) == from_yaml
    place = from_csv.source.place(("decks", 1, "cards", 1, "data", "level"))
    assert place.file.endswith("sites.csv") and (place.line, place.column) == (3, 9)


def test_csv_with_commas_inside_quotes(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "    cards:\n      - {id: amphora, name: {en: Amphora, pt_BR: Ânfora}, copies: 2, data: {set: amphora, set_size: 2}}\n",
        "    cards_file: pots.csv\n",
    )
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "pots.csv").write_text('id,copies,name.en,name.pt_BR,set,set_size\namphora,2,"Amphora, large","Ânfora, grande",amphora,2\n', encoding="utf-8")
    loaded = load_spec(folder)
    assert loaded.spec is not None
    assert loaded.spec.decks[2].cards[0].name["en"] == "Amphora, large"


def test_csv_row_with_wrong_cell_count_names_row(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "    cards:\n      - {id: amphora, name: {en: Amphora, pt_BR: Ânfora}, copies: 2, data: {set: amphora, set_size: 2}}\n",
        "    cards_file: pots.csv\n",
    )
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "pots.csv").write_text("id,copies,name.en\namphora,2\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_spec(folder)
    assert caught.value.file.endswith("pots.csv") and caught.value.line == 2


def test_schema_error_points_at_line_and_column() -> None:
    loaded = load_spec(MINIMAL.parent.parent / "broken" / "copies-absurd")
    (finding,) = loaded.findings
    assert finding.code == "CG004" and finding.path.endswith("copies")
    assert finding.line > 0 and finding.column > 0


def test_round_trip_yaml_model_yaml(tmp_path: Path) -> None:
    original = load_spec(MINIMAL).spec
    assert original is not None
    folder = tmp_path / "again"
    folder.mkdir()
    yaml = YAML()
    with (folder / "game.yaml").open("w", encoding="utf-8") as handle:
        yaml.dump(original.model_dump(mode="json", exclude_defaults=True), handle)
    again = load_spec(folder)
    assert again.findings == []
    assert again.spec == original
    assert Spec.model_validate_json(original.model_dump_json()) == original


@pytest.mark.parametrize("name", ["/etc/passwd", "../x.csv", "a/../../x.csv", "C:\\x.csv", ""])
def test_paths_leaving_the_folder_are_refused(tmp_path: Path, name: str) -> None:
    assert confined_path(tmp_path, name) is None


def test_symlink_leaving_the_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.csv"
    outside.write_text("id\n", encoding="utf-8")
    inside = tmp_path / "spec"
    inside.mkdir()
    os.symlink(outside, inside / "cards.csv")
    assert confined_path(inside, "cards.csv") is None
    (inside / "real.csv").write_text("id\n", encoding="utf-8")
    assert confined_path(inside, "real.csv") == (inside / "real.csv").resolve()


def test_sheet_cells_of_text_fields_stay_the_text_written() -> None:
    """A rank printed as 10 or a code 007 is text when the deck declares the field as text (CSV and spreadsheet cells alike)."""
    from cardgen.spec.sheets import cards_from_rows

    rows: list[list[object]] = [["id", "label", "points", "code"], ["ten", "10", "10", "007"], ["jack", 11.0, 11.0, True]]
    cards, _ = cards_from_rows(rows, "cards.csv", text_fields=frozenset({"label", "code"}))
    assert [c["data"] for c in cards] == [{"label": "10", "points": 10, "code": "007"}, {"label": "11", "points": 11, "code": "true"}]
    loaded = load_spec(Path(__file__).resolve().parents[2] / "specs" / "crazy-eights")
    assert loaded.spec is not None
    labels = {card.data["label"] for card in loaded.spec.decks[0].cards}
    assert labels == {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}


def test_a_preset_size_is_the_size_validation_makes() -> None:
    """size_of makes a named preset's size without validating it; it is the validated model field for field."""
    from cardgen.spec.load import size_of
    from cardgen.spec.models import SIZE_PRESETS, CardSize

    for name, (width, height) in SIZE_PRESETS.items():
        made, validated = size_of(name), CardSize(width=width, height=height)  # type: ignore[arg-type]
        assert made == validated and hash(made) == hash(validated) and repr(made) == repr(validated), name
        assert made.model_fields_set == validated.model_fields_set and made.model_dump_json() == validated.model_dump_json(), name


def test_the_default_balance_thresholds_are_the_validated_defaults() -> None:
    """A spec without ``balance`` gets the thresholds made from the model's defaults, the same as validated ones."""
    from cardgen.spec.models import BalanceThresholds

    spec = load_spec(MINIMAL).spec
    assert spec is not None and "balance" not in spec.model_fields_set
    validated = BalanceThresholds.model_validate({})
    assert spec.balance == validated and repr(spec.balance) == repr(validated) and spec.balance.model_fields_set == validated.model_fields_set
    assert spec.balance.model_dump_json() == validated.model_dump_json()
