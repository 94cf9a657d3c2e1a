"""The catalog check's findings kept in this user's store, or without it in a build's cache: reused while the
catalog and sources are unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

import cardgen.rulebook.checks as checks
from cardgen.cache import ArtefactCache, seal_artefact, unseal_artefact, user_store, user_store_scope
from cardgen.findings import Finding
from cardgen.rulebook.i18n import po_path
from cardgen.spec.load import LoadedSpec, load_spec

from .conftest import LANTERN


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[str]]:
    """The catalogs actually checked, with no user store (a build's cache keeps the findings); the pt_BR catalog
    is a copy under tmp_path that a test may edit."""
    with user_store_scope(False):
        yield _counted(monkeypatch, tmp_path)


@pytest.fixture
def checked_stored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """The catalogs actually checked, with this user's store (each test has its own: see the top conftest.py)."""
    return _counted(monkeypatch, tmp_path)


def _counted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    seen: list[str] = []
    real = checks.catalog_findings

    def counting(path: Path, locale: str, expected: Any = None) -> list[Finding]:
        seen.append(locale)
        return real(path, locale, expected)

    copy = tmp_path / "locales" / "pt_BR" / "LC_MESSAGES" / "cardgen.po"
    copy.parent.mkdir(parents=True)
    shutil.copy(po_path("pt_BR"), copy)
    monkeypatch.setattr(checks, "catalog_findings", counting)
    monkeypatch.setattr(checks, "po_path", lambda locale: tmp_path / "locales" / locale / "LC_MESSAGES" / "cardgen.po")
    return seen


def _loaded(cache_dir: Path) -> LoadedSpec:
    loaded = load_spec(LANTERN, cache=ArtefactCache(cache_dir))
    assert loaded.spec is not None
    return loaded


def test_unchanged_catalog_reuses_the_findings(tmp_path: Path, checked: list[str]) -> None:
    cold = list(checks.spec_catalog_findings(_loaded(tmp_path / "cache")))
    warm_loaded = _loaded(tmp_path / "cache")
    warm = list(checks.spec_catalog_findings(warm_loaded))
    assert checked == ["pt_BR"]
    assert warm == cold
    assert isinstance(warm_loaded.cache, ArtefactCache) and len(warm_loaded.cache.used) == 2  # the parse of game.yaml and the findings


def test_a_changed_catalog_is_checked_again(tmp_path: Path, checked: list[str]) -> None:
    assert list(checks.spec_catalog_findings(_loaded(tmp_path / "cache"))) == []
    catalog = tmp_path / "locales" / "pt_BR" / "LC_MESSAGES" / "cardgen.po"
    text = catalog.read_text(encoding="utf-8")
    assert 'msgstr "Sumário"' in text
    catalog.write_text(text.replace('msgstr "Sumário"', 'msgstr ""'), encoding="utf-8")
    findings = list(checks.spec_catalog_findings(_loaded(tmp_path / "cache")))
    assert [(f.code, f.path) for f in findings] == [("CG302", "msgid 'Contents'")]
    assert findings[0].file.endswith("pt_BR/LC_MESSAGES/cardgen.po") and findings[0].line > 0
    assert list(checks.spec_catalog_findings(_loaded(tmp_path / "cache"))) == findings
    assert checked == ["pt_BR", "pt_BR"]


def test_findings_match_the_uncached_check_and_survive_a_round_trip(tmp_path: Path, checked: list[str]) -> None:
    catalog = tmp_path / "locales" / "pt_BR" / "LC_MESSAGES" / "cardgen.po"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace('msgstr "Sumário"', 'msgstr "Sumário %(x)s"'), encoding="utf-8")
    uncached = list(checks.spec_catalog_findings(load_spec(LANTERN)))
    assert uncached and uncached[0].code == "CG304"
    assert list(checks.spec_catalog_findings(_loaded(tmp_path / "cache"))) == uncached
    assert list(checks.spec_catalog_findings(_loaded(tmp_path / "cache"))) == uncached
    assert checked == ["pt_BR", "pt_BR"]


def test_a_damaged_entry_is_checked_again(tmp_path: Path, checked: list[str]) -> None:
    cold = list(checks.spec_catalog_findings(_loaded(tmp_path / "cache")))
    for entry in (tmp_path / "cache").iterdir():
        payload = unseal_artefact(entry.read_bytes())
        if payload is not None and payload.startswith(b"cardgen:catalog-findings-1:"):
            entry.write_bytes(seal_artefact(payload + b"[]"))  # damaged inside a well-sealed file
    assert list(checks.spec_catalog_findings(_loaded(tmp_path / "cache"))) == cold
    assert checked == ["pt_BR", "pt_BR"]


def test_the_user_store_keeps_the_findings_for_any_output_folder_and_validate(tmp_path: Path, checked_stored: list[str]) -> None:
    """The check reads only cardgen's own files: a build into another output folder, or a validation with no build
    cache at all, reuses what an earlier process found; the build's cache is left alone."""
    first = list(checks.spec_catalog_findings(load_spec(LANTERN)))
    store = user_store(checks.CATALOG_STORE)
    assert store is not None and store.folder is not None and len(list(store.folder.iterdir())) == 1
    elsewhere = _loaded(tmp_path / "other-out" / "cache")
    assert list(checks.spec_catalog_findings(elsewhere)) == first
    assert list(checks.spec_catalog_findings(load_spec(LANTERN))) == first
    assert checked_stored == ["pt_BR"]
    assert isinstance(elsewhere.cache, ArtefactCache) and len(elsewhere.cache.used) == 1  # the parse of game.yaml only
    catalog = tmp_path / "locales" / "pt_BR" / "LC_MESSAGES" / "cardgen.po"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace('msgstr "Sumário"', 'msgstr ""'), encoding="utf-8")
    assert [f.code for f in checks.spec_catalog_findings(load_spec(LANTERN))] == ["CG302"]
    assert checked_stored == ["pt_BR", "pt_BR"]
