"""Compiled rulebook templates kept for later processes: cardgen's own in this user's store, a spec's own (and,
without a user store, cardgen's too) in a build's cache; reused, never stale, still sandboxed and escaped."""

from __future__ import annotations

from pathlib import Path
import os
from collections.abc import Iterator
from typing import Any

import jinja2
import pytest

import cardgen.rulebook.environment as environment
from cardgen.cache import ArtefactCache, seal_artefact, unseal_artefact, user_store, user_store_scope
from cardgen.rulebook.build import RulebookError, make_rulebook
from cardgen.rulebook.environment import MAIN_TEMPLATE, get_template, make_environment
from cardgen.spec.load import load_spec

from .conftest import LANTERN


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The templates Jinja compiles from source; the in-process store starts empty, as in a new process."""
    seen: list[str] = []
    real = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: Any, name: str | None = None, filename: str | None = None, *args: Any, **kwargs: Any) -> Any:
        seen.append(name or "<string>")
        return real(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    monkeypatch.setattr(environment, "_COMPILED", environment._CompiledTemplates())
    return seen


@pytest.fixture
def compiles(compiled: list[str]) -> Iterator[list[str]]:
    """:func:`compiled`, without a user store: the tests of a build's cache (cardgen's templates are kept there too)."""
    with user_store_scope(False):
        yield compiled


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


def _user_entries() -> list[str]:
    store = user_store(environment.USER_TEMPLATE_STORE)
    assert store is not None and store.folder is not None
    return sorted(p.name for p in store.folder.iterdir())


def test_cardgens_own_templates_come_from_the_user_store_in_a_new_output_folder(
    tmp_path: Path, compiled: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build into a new output folder (a cold build) compiles none of cardgen's own templates a former process compiled."""
    spec = load_spec(LANTERN).spec
    assert spec is not None
    first = make_rulebook(spec, "pt_BR", LANTERN, cache=ArtefactCache(tmp_path / "out1"))
    assert sorted(compiled) == ["macros.xhtml.j2", MAIN_TEMPLATE] and len(_user_entries()) == 2
    assert not (tmp_path / "out1").exists()  # cardgen's own templates are not the build's to keep
    _new_process(monkeypatch)
    again = make_rulebook(spec, "pt_BR", LANTERN, cache=ArtefactCache(tmp_path / "out2"))
    _new_process(monkeypatch)
    validate_like = make_rulebook(spec, "en", LANTERN)  # no build cache at all (``cardgen validate``)
    assert len(compiled) == 2 and again.markdown == first.markdown
    assert validate_like.markdown == make_rulebook(spec, "en", LANTERN, cache=ArtefactCache(tmp_path / "out3")).markdown
    with user_store_scope(False):  # ``cardgen build --no-cache``: compiled afresh
        _new_process(monkeypatch)
        make_rulebook(spec, "en", LANTERN)
    assert len(compiled) == 4


def test_the_user_store_never_serves_code_of_another_source(tmp_path: Path, compiled: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """An edited bundled template (a checkout being worked on) is compiled again: the source's checksum is in the key."""
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    (bundled / MAIN_TEMPLATE).write_text("<rulebook><p>one {{ text }}</p></rulebook>", encoding="utf-8")
    monkeypatch.setattr(environment, "TEMPLATES_DIR", bundled)
    assert get_template(make_environment("en", [bundled])).render(text="x") == "<rulebook><p>one x</p></rulebook>"
    (bundled / MAIN_TEMPLATE).write_text("<rulebook><p>two {{ text }}</p></rulebook>", encoding="utf-8")
    _new_process(monkeypatch)
    assert get_template(make_environment("en", [bundled])).render(text="x") == "<rulebook><p>two x</p></rulebook>"
    assert compiled == [MAIN_TEMPLATE, MAIN_TEMPLATE] and len(_user_entries()) == 2


def test_the_user_store_is_trusted_only_when_private(tmp_path: Path, compiled: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries others may write, damaged entries and a store folder others may write are never read."""
    spec = load_spec(LANTERN).spec
    assert spec is not None
    expected = make_rulebook(spec, "en", LANTERN).markdown
    store = user_store(environment.USER_TEMPLATE_STORE)
    assert store is not None and store.folder is not None
    assert os.stat(store.folder).st_mode & 0o777 == 0o700 and os.stat(store.folder.parent).st_mode & 0o777 == 0o700
    entries = sorted(store.folder.iterdir())
    os.chmod(entries[0], 0o666)  # anyone may write it: not read
    data = unseal_artefact(entries[1].read_bytes())
    assert data is not None
    entries[1].write_bytes(seal_artefact(data[:-7]))  # damaged inside a well-sealed file
    _new_process(monkeypatch)
    assert make_rulebook(spec, "en", LANTERN).markdown == expected and len(compiled) == 4
    shared = tmp_path / "shared"
    (shared / "cardgen" / environment.USER_TEMPLATE_STORE).mkdir(parents=True)
    os.chmod(shared / "cardgen", 0o777)  # a store anybody could fill is no store
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
    assert user_store(environment.USER_TEMPLATE_STORE) is None
    _new_process(monkeypatch)
    assert make_rulebook(spec, "en", LANTERN).markdown == expected and len(compiled) == 6
    assert not list((shared / "cardgen" / environment.USER_TEMPLATE_STORE).iterdir())
