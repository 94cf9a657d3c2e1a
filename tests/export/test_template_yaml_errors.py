"""A broken print-shop profile or sheet template is refused with its file, line and column, as a spec would be."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.export.profiles import load_profile
from cardgen.findings import InputError
from cardgen.render.sheets import load_sheet_template


def test_a_profile_with_a_syntax_error_names_its_line(tmp_path: Path) -> None:
    (tmp_path / "shop.yaml").write_text("name: shop\nformat: pdf\nbleed_mm: [3\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_profile("shop", tmp_path)
    assert caught.value.file.endswith("shop.yaml") and caught.value.line >= 3


def test_a_sheet_template_with_a_duplicate_key_names_the_second_one(tmp_path: Path) -> None:
    path = tmp_path / "a5.yaml"
    path.write_text("name: a5\npaper: {width_mm: 148, height_mm: 210}\nname: again\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_sheet_template(path)
    assert "duplicate key" in caught.value.message and caught.value.line == 3
