"""Data read correctly: CSV card sheets by RFC 4180, and identifiers matched whole (no trailing line break).

The corpus is cells a spreadsheet writes when a card text holds quotes, the
delimiter or a line break, and identifiers with a line break after them (a
check anchored with ``$`` lets one through).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from cardgen.findings import InputError
from cardgen.render.scene import Rect
from cardgen.scaffold import check_game_id
from cardgen.spec.models import Colour, Identifier, LocaleCode
from cardgen.spec.sheets import read_csv_rows

QUOTED_CELLS = {
    "doubled quotes": ('id,text.en\ncup,"A ""deep"" cup"\n', 'A "deep" cup'),
    "doubled quotes and the delimiter": ('id,text.en\ncup,"A ""deep"", wide cup"\n', 'A "deep", wide cup'),
    "only a quote": ('id,text.en\ncup,""""\n', '"'),
    "quotes and a line break": ('id,text.en\ncup,"Say ""hi""\nthen go"\n', 'Say "hi"\nthen go'),
    "semicolons": ('id;text.en\ncup;"A ""deep""; cup"\n', 'A "deep"; cup'),
    "tabs": ('id\ttext.en\ncup\t"A ""deep""\tcup"\n', 'A "deep"\tcup'),
    "bars": ('id|text.en\ncup|"A ""deep"" | cup"\n', 'A "deep" | cup'),
    "quoted header": ('"id","text.en"\ncup,"A ""deep"" cup"\n', 'A "deep" cup'),
}


@pytest.mark.parametrize("case", sorted(QUOTED_CELLS))
def test_csv_quotes_follow_rfc_4180(tmp_path: Path, case: str) -> None:
    text, expected = QUOTED_CELLS[case]
    path = tmp_path / "cards.csv"
    path.write_text(text, encoding="utf-8")
    rows = read_csv_rows(path, "cards.csv")
    assert rows[1] == ["cup", expected]


def test_a_quote_left_open_is_refused_with_its_place(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text('id,text.en\ncup,"A deep cup\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_csv_rows(path, "cards.csv")
    assert caught.value.file == "cards.csv" and caught.value.line >= 2


class _Ids(BaseModel):
    identifier: Identifier | None = None
    locale: LocaleCode | None = None
    colour: Colour | None = None


@pytest.mark.parametrize(("field", "value"), [("identifier", "cup"), ("locale", "pt_BR"), ("colour", "#a0b1c2")])
@pytest.mark.parametrize("tail", ["\n", "\r\n", " "])
def test_spec_patterns_refuse_a_trailing_line_break(field: str, value: str, tail: str) -> None:
    _Ids(**{field: value})
    with pytest.raises(ValidationError):
        _Ids(**{field: value + tail})


@pytest.mark.parametrize("name", ["cup\n", "cup\r\n", "cup\n\n"])
def test_game_ids_refuse_a_trailing_line_break(name: str) -> None:
    check_game_id("cup")
    with pytest.raises(InputError):
        check_game_id(name)


def test_scene_colours_refuse_a_trailing_line_break() -> None:
    Rect(0, 0, 1, 1, fill="#ffffff")
    with pytest.raises(ValueError):
        Rect(0, 0, 1, 1, fill="#ffffff\n")
