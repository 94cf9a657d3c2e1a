"""The spec language documents itself: schema file and docs/spec.md are current, every field is described."""

from __future__ import annotations

from pathlib import Path

from cardgen.spec.schema import _models, schema_text, spec_reference_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_every_field_of_every_model_has_a_description() -> None:
    undocumented = [f"{m.__name__}.{name}" for m in _models() for name, info in m.model_fields.items() if not (info.description or "").strip()]
    assert undocumented == []


def test_every_model_has_a_docstring() -> None:
    assert [m.__name__ for m in _models() if not (m.__doc__ or "").strip()] == []


def test_schema_file_in_repo_is_current() -> None:
    kept = (ROOT / "schema" / "cardgen-spec.schema.json").read_text(encoding="utf-8")
    assert kept == schema_text(), "run: cardgen schema --out schema/cardgen-spec.schema.json"


def test_docs_reference_is_current() -> None:
    kept = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert kept.rstrip("\n") == spec_reference_markdown().rstrip("\n"), "run: cardgen schema --markdown --out docs/spec.md"


def test_schema_has_no_prefix_items() -> None:
    # YAML editors mishandle tuple schemas; the spec language uses lists and small models instead.
    assert "prefixItems" not in schema_text()


def test_every_shipped_yaml_points_at_the_schema() -> None:
    files = sorted((ROOT / "specs").glob("*/*.yaml"))
    for path in files:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        target = (path.parent / first.split("$schema=", 1)[1]).resolve()
        assert target == (ROOT / "schema" / "cardgen-spec.schema.json").resolve(), path
