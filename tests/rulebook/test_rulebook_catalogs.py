"""The gettext catalogs: the real one is complete; broken ones are reported with file and line."""

from __future__ import annotations

import gettext
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from cardgen.rulebook.checks import catalog_findings, check_all_catalogs, placeholders, pot_findings, spec_catalog_findings
from cardgen.rulebook.i18n import compile_locale, extract_catalog, po_path, read_catalog, translations, update_locale, write_pot
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder

from external_tools import need

from .conftest import CATALOGS, LANTERN

REAL_PO = po_path("pt_BR")


def codes_and_lines(path: Path, expected: Catalog | None = None) -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in catalog_findings(path, "pt_BR", expected))


def test_the_real_catalogs_are_complete_and_up_to_date() -> None:
    assert [f.render() for f in check_all_catalogs()] == []


def test_the_pot_matches_the_templates() -> None:
    assert pot_findings() == []


def test_broken_catalog_reports_each_problem_at_its_line() -> None:
    findings = catalog_findings(CATALOGS / "broken.po", "pt_BR")
    assert sorted((f.code, f.line) for f in findings) == [
        ("CG302", 13),  # "Components" has no translation
        ("CG302", 38),  # a plural form of "%(num)s die" is empty
        ("CG303", 18),  # "Setup" is fuzzy
        ("CG304", 23),  # %(autores) instead of %(designers)
        ("CG304", 28),  # plural form 1 lost %(num)s
        ("CG304", 34),  # {num} instead of {n}
    ]
    assert all(f.file.endswith("tests/rulebook/fixtures/catalogs/broken.po") for f in findings)
    mismatch = next(f for f in findings if f.line == 23)
    assert "%(autores)" in mismatch.message and "%(designers)" in mismatch.message
    assert mismatch.render().startswith("tests/rulebook/fixtures/catalogs/broken.po:23:1: CG304 error")


def test_clean_fixture_has_no_findings() -> None:
    assert catalog_findings(CATALOGS / "clean.po", "pt_BR") == []


def test_stale_and_missing_messages_against_a_fresh_extraction() -> None:
    expected = Catalog(locale="pt_BR")
    expected.add("Overview", locations=[("templates/rulebook/rulebook.xhtml.j2", 1)])
    expected.add("A brand new heading", locations=[("templates/rulebook/rulebook.xhtml.j2", 99)])
    expected.add(("%(num)s card", "%(num)s cards"), locations=[("templates/rulebook/rulebook.xhtml.j2", 5)])
    findings = catalog_findings(CATALOGS / "clean.po", "pt_BR", expected)
    assert sorted((f.code, f.line) for f in findings) == [("CG305", 0), ("CG306", 20)]
    missing = next(f for f in findings if f.code == "CG305")
    assert "templates/rulebook/rulebook.xhtml.j2:99" in missing.message


def test_a_new_template_message_makes_the_catalog_out_of_date(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "extra.xhtml.j2").write_text("<p>{{ _('Overview') }}</p>\n<p>{% trans %}Roll the dice again{% endtrans %}</p>\n", encoding="utf-8")
    fresh = extract_catalog(templates, tmp_path / "no-python")
    assert {m.id for m in fresh if m.id} == {"Overview", "Roll the dice again"}
    findings = catalog_findings(REAL_PO, "pt_BR", fresh)
    assert ("CG305", "msgid 'Roll the dice again'") in {(f.code, f.path) for f in findings}


def test_placeholder_parsing() -> None:
    assert placeholders("%(num)s of %(num)s, {n} and %d, 100%%") == {"%(num)": 2, "{n}": 1, "%d": 1}
    assert placeholders("{{ literal }} braces") == {}


def test_msgfmt_accepts_the_real_catalog_and_rejects_the_broken_one(tmp_path: Path) -> None:
    msgfmt = need("msgfmt")
    good = subprocess.run([msgfmt, "--check", "-o", str(tmp_path / "x.mo"), str(REAL_PO)], capture_output=True, text=True)
    assert good.returncode == 0, good.stderr
    bad = subprocess.run([msgfmt, "--check", "-o", str(tmp_path / "y.mo"), str(CATALOGS / "broken.po")], capture_output=True, text=True)
    assert bad.returncode != 0


def test_compile_and_runtime_translations_agree(tmp_path: Path) -> None:
    mo = compile_locale("pt_BR", out_dir=tmp_path)
    assert mo == tmp_path / "pt_BR" / "LC_MESSAGES" / "cardgen.mo"
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    runtime = translations("pt_BR")
    for message in ("Contents", "Components", "Page %(page)s"):
        assert compiled.gettext(message) == runtime.gettext(message) != message
    assert runtime.ngettext("%(num)s card", "%(num)s cards", 1) == "%(num)s carta"
    assert runtime.ngettext("%(num)s card", "%(num)s cards", 2) == "%(num)s cartas"


def test_extract_and_update_into_a_fresh_folder(tmp_path: Path) -> None:
    pot, changed = write_pot(tmp_path)
    assert changed and pot.is_file()
    assert write_pot(tmp_path)[1] is False  # nothing new: the file is left alone
    po, created = update_locale("de", tmp_path)
    assert created and po == tmp_path / "de" / "LC_MESSAGES" / "cardgen.po"
    catalog = read_catalog(po, "de")
    assert len([m for m in catalog if m.id]) == len([m for m in read_catalog(pot) if m.id])
    findings = catalog_findings(po, "de")
    assert findings and {f.code for f in findings} == {"CG302"}


def test_validate_runs_the_i18n_checks_cleanly_on_the_fixture() -> None:
    result = validate_folder(LANTERN, ["static", "i18n"])
    assert [f.render() for f in result.findings] == []


def test_a_declared_locale_without_catalog_is_reported() -> None:
    loaded = load_spec(LANTERN)
    assert loaded.spec is not None
    loaded.spec = loaded.spec.model_copy(update={"locales": ["en", "xx_YY"]})
    findings = list(spec_catalog_findings(loaded))
    assert [(f.code, f.path) for f in findings] == [("CG301", "locales[1]")]
    assert findings[0].file.endswith("lantern-market/game.yaml") and findings[0].line > 0


def test_brazilian_portuguese_counts_zero_in_the_plural() -> None:
    """"0 pontos", "0 cartas": zero takes the plural in Brazilian Portuguese, one alone the singular (docs/decisions.md)."""
    from cardgen.rulebook.i18n import translations

    pt = translations("pt_BR")
    said = {n: pt.ngettext("%(player)s: %(num)s point", "%(player)s: %(num)s points", n) % {"player": "J1", "num": n} for n in (0, 1, 2)}
    assert said == {0: "J1: 0 pontos", 1: "J1: 1 ponto", 2: "J1: 2 pontos"}
