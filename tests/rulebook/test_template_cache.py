"""Compiled rulebook templates kept in a build's cache: reused by a later process, still sandboxed and escaped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import pytest

import cardgen.rulebook.environment as environment
from cardgen.cache import ArtefactCache, seal_artefact, unseal_artefact
from cardgen.rulebook.build import RulebookError, make_rulebook
from cardgen.rulebook.environment import MAIN_TEMPLATE, get_template, make_environment
from cardgen.spec.load import load_spec

from .conftest import LANTERN


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The templates Jinja compiles from source; the in-process store starts empty, as in a new process."""
    seen: list[str] = []
    real = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: Any, name: str | None = None, filename: str | None = None, *args: Any, **kwargs: Any) -> Any:
        seen.append(name or "<string>")
        return real(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    monkeypatch.setattr(environment, "_COMPILED", environment._CompiledTemplates())
    return seen


def _new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(environment, "_COMPILED", environment._CompiledTemplates())


def test_a_later_process_reuses_the_compiled_templates(tmp_path: Path, compiles: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    spec = load_spec(LANTERN).spec
    assert spec is not None
    fresh = make_rulebook(spec, "pt_BR", LANTERN)
    assert sorted(compiles) == ["macros.xhtml.j2", MAIN_TEMPLATE]
    _new_process(monkeypatch)
    cold = make_rulebook(spec, "pt_BR", LANTERN, cache=ArtefactCache(tmp_path / "cache"))
    assert len(compiles) == 4
    entries = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assert len(entries) == 2
    _new_process(monkeypatch)
    cache = ArtefactCache(tmp_path / "cache")
    warm_en = make_rulebook(spec, "en", LANTERN, cache=cache)
    warm = make_rulebook(spec, "pt_BR", LANTERN, cache=cache)
    assert len(compiles) == 4  # nothing compiled: both templates came from the cache
    assert warm.markdown == cold.markdown == fresh.markdown
    assert warm_en.markdown == make_rulebook(spec, "en", LANTERN).markdown
    assert sorted(cache.used) == entries  # marked used, so the build's prune keeps them


def test_in_process_reuse_still_marks_the_entries_used(tmp_path: Path, compiles: list[str]) -> None:
    """A warm process (``cardgen watch``) compiles once, yet each build's cache keeps (or gets) the entries."""
    spec = load_spec(LANTERN).spec
    assert spec is not None
    make_rulebook(spec, "en", LANTERN)
    first = ArtefactCache(tmp_path / "cache")
    make_rulebook(spec, "en", LANTERN, cache=first)
    assert len(compiles) == 2
    assert len(first.used) == 2 and len(list((tmp_path / "cache").iterdir())) == 2


def test_a_damaged_entry_is_compiled_again(tmp_path: Path, compiles: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    spec = load_spec(LANTERN).spec
    assert spec is not None
    expected = make_rulebook(spec, "en", LANTERN, cache=ArtefactCache(tmp_path / "cache")).markdown
    for entry in (tmp_path / "cache").iterdir():
        data = unseal_artefact(entry.read_bytes())
        assert data is not None
        entry.write_bytes(seal_artefact(data[: len(data) - 7]))  # damaged inside a well-sealed file
    _new_process(monkeypatch)
    assert make_rulebook(spec, "en", LANTERN, cache=ArtefactCache(tmp_path / "cache")).markdown == expected
    assert len(compiles) == 4


def test_cached_code_stays_sandboxed_and_escaped(tmp_path: Path, compiles: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "lantern-market"
    folder.mkdir()
    (folder / "game.yaml").write_text((LANTERN / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "templates" / "rulebook").mkdir(parents=True)
    (folder / "templates" / "rulebook" / MAIN_TEMPLATE).write_text("<rulebook><p>{{ game.__class__.__mro__ }}</p></rulebook>", encoding="utf-8")
    spec = load_spec(folder).spec
    assert spec is not None
    for _ in range(2):
        _new_process(monkeypatch)
        with pytest.raises(RulebookError, match="SecurityError"):
            make_rulebook(spec, "en", folder, cache=ArtefactCache(tmp_path / "cache"))
    assert compiles == [MAIN_TEMPLATE]  # the second refusal ran the cached code

    (folder / "templates" / "rulebook" / MAIN_TEMPLATE).write_text("<rulebook><p>{{ text }}</p></rulebook>", encoding="utf-8")
    for _ in range(2):
        _new_process(monkeypatch)
        env = make_environment("en", [folder / "templates" / "rulebook"], cache=ArtefactCache(tmp_path / "cache"))
        assert isinstance(env, jinja2.sandbox.ImmutableSandboxedEnvironment) and env.autoescape is True
        assert get_template(env).render(text="<b>&</b>") == "<rulebook><p>&lt;b&gt;&amp;&lt;/b&gt;</p></rulebook>"
    assert compiles == [MAIN_TEMPLATE, MAIN_TEMPLATE]  # the edited template was compiled once, then reused
