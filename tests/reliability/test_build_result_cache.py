"""A build reuses, across processes, the YAML parses, the catalog check and the compiled templates of unchanged inputs
(the last two, which read only cardgen's own files, from this user's store).

Each build here starts "as a new process": the in-process caches (layouts,
faces, compiled templates, catalog findings) are emptied first, so only the
cache under ``<out>/.cache/`` can spare the work. What the tests count is the
work done (ruamel parses, catalog checks, Jinja compilations), never time.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import jinja2
import pytest

import cardgen.render.faces as faces
import cardgen.render.layouts as layouts
import cardgen.rulebook.checks as checks
import cardgen.rulebook.environment as environment
import cardgen.spec.yaml_load as yaml_load
from cardgen.artefacts import BuildOptions
from cardgen.build import GameBuild, build_game
from cardgen.cache import CACHE_DIR, seal_artefact, unseal_artefact, user_store
from cardgen.catalogue import validate_folder

from .conftest import MINIMAL, copy_spec

LAYOUT = """\
front:
  background: "#fbf8f1"
  frame: {colour: "#3a3a3a", width_mm: 0.4, inset_mm: 2.0}
  elements:
    - {widget: title, box: [4, 4, 55, 7], params: {size: 9}}
    - {widget: text, box: [4, 14, 55, 60], params: {size: 8}}
back:
  background: "#3a3a3a"
"""


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts of the work done: "yaml" (files parsed by ruamel), "catalog" (catalogs checked), "compile" (templates compiled)."""
    counts: Counter[str] = Counter()
    parse, check, compile_ = yaml_load._parse_yaml, checks.catalog_findings, jinja2.Environment.compile

    def parsing(*args: Any) -> Any:
        counts["yaml"] += 1
        return parse(*args)

    def checking(*args: Any) -> Any:
        counts["catalog"] += 1
        return check(*args)

    def compiling(self: jinja2.Environment, *args: Any, **kwargs: Any) -> Any:
        counts["compile"] += 1
        return compile_(self, *args, **kwargs)

    monkeypatch.setattr(yaml_load, "_parse_yaml", parsing)
    monkeypatch.setattr(checks, "catalog_findings", checking)
    monkeypatch.setattr(jinja2.Environment, "compile", compiling)
    return counts


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    """The minimal spec with a layout file of its own (read deep inside the renderer)."""
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "shapes.yaml").write_text(LAYOUT, encoding="utf-8")
    return folder


def new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what this process computed, as a new ``cardgen build`` process would not have it."""
    monkeypatch.setattr(layouts, "_FILE_CACHE", {})
    monkeypatch.setattr(faces, "_CACHE", {})
    monkeypatch.setattr(environment, "_COMPILED", environment._CompiledTemplates())
    checks._cached_catalog_findings.cache_clear()
    checks._fresh_extraction.cache_clear()
    checks._sources_digest.cache_clear()


def build(spec: Path, out: Path, monkeypatch: pytest.MonkeyPatch, cache: bool = True) -> GameBuild:
    new_process(monkeypatch)
    result = build_game(spec, out, BuildOptions(papers=("a4",), cache=cache))
    assert not result.failed, [f.render() for f in result.findings]
    return result


def published(out: Path) -> dict[str, str]:
    return {
        str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and CACHE_DIR not in p.relative_to(out).parts
    }


def entries(out: Path) -> dict[str, bytes]:
    folder = out / CACHE_DIR / "minimal"
    found = {}
    for path in sorted(folder.iterdir()):
        payload = unseal_artefact(path.read_bytes())
        assert payload is not None, f"{path.name}: its digest does not match"
        found[path.name] = payload
    return found


def user_templates() -> list[str]:
    """The entries of this user's store of compiled templates (private to each test: see conftest.py)."""
    return user_entries(environment.USER_TEMPLATE_STORE)


def user_entries(kind: str) -> list[str]:
    """The entries of this user's store of ``kind``."""
    store = user_store(kind)
    assert store is not None and store.folder is not None
    return sorted(path.name for path in store.folder.iterdir())


def kinds(out: Path) -> Counter[str]:
    """The cache entries by kind (the header of the sealed ones; artefacts count as "artefact")."""
    found: Counter[str] = Counter()
    for data in entries(out).values():
        found[data.split(b":", 2)[1].decode() if data.startswith(b"cardgen:") else "artefact"] += 1
    return found


@pytest.fixture
def cold(spec: Path, tmp_path: Path, work: Counter[str], monkeypatch: pytest.MonkeyPatch) -> Iterator[GameBuild]:
    """A first build into ``tmp_path/out``, its work counted, then the counts reset."""
    result = build(spec, tmp_path / "out", monkeypatch)
    assert work["yaml"] == 3  # game.yaml, layouts/shapes.yaml and the A4 sheet template
    assert work["catalog"] == 1  # pt_BR
    assert work["compile"] == 2  # rulebook.xhtml.j2 and macros.xhtml.j2
    kinds_found = kinds(tmp_path / "out")
    assert kinds_found["yaml-parse-1"] == 3
    assert kinds_found["jinja-code-1"] == 0 and len(user_templates()) == 2  # cardgen's own templates: in the user's store
    assert kinds_found["catalog-findings-1"] == 0 and len(user_entries(checks.CATALOG_STORE)) == 1  # so is the check of its own catalog
    work.clear()
    yield result


def test_a_second_build_reuses_the_parses_checks_and_templates(
    cold: GameBuild, spec: Path, tmp_path: Path, work: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    first_files, first_entries = published(out), entries(out)
    warm = build(spec, out, monkeypatch)
    assert +work == Counter()  # nothing parsed, checked or compiled again
    assert [f.render() for f in warm.findings] == [f.render() for f in cold.findings]  # same findings, same places
    assert any(f.line > 0 and f.file.endswith("game.yaml") for f in warm.findings)
    assert published(out) == first_files
    assert entries(out) == first_entries  # everything used, so nothing pruned; nothing new


def test_edited_files_are_read_again_and_the_rest_reused(
    cold: GameBuild, spec: Path, tmp_path: Path, work: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    game = spec / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("Shape cards", "Shape cards II"), encoding="utf-8")
    build(spec, out, monkeypatch)
    assert +work == Counter({"yaml": 1})  # game.yaml only: the layout, catalog and templates are unchanged
    assert kinds(out)["yaml-parse-1"] == 3  # the old parse of game.yaml was pruned
    layout = spec / "layouts" / "shapes.yaml"
    layout.write_text(LAYOUT.replace("size: 9", "size: 10"), encoding="utf-8")
    build(spec, out, monkeypatch)
    assert +work == Counter({"yaml": 2})
    built = published(out)
    build(spec, tmp_path / "fresh", monkeypatch, cache=False)
    assert published(tmp_path / "fresh") == built


def test_damaged_entries_are_ignored(cold: GameBuild, spec: Path, tmp_path: Path, work: Counter[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    first = published(out)
    for path in (out / CACHE_DIR / "minimal").iterdir():
        data = unseal_artefact(path.read_bytes())
        if data is not None and data.startswith(b"cardgen:"):  # damaged inside a well-sealed file: the inner seal refuses it
            path.write_bytes(seal_artefact(data[: len(data) // 2]))
    warm = build(spec, out, monkeypatch)
    assert +work == Counter({"yaml": 3})  # (the templates' code and the catalog's findings are in the user's store, untouched)
    assert [f.render() for f in warm.findings] == [f.render() for f in cold.findings]
    assert published(out) == first


def test_without_cache_nothing_is_kept_or_reused(cold: GameBuild, spec: Path, tmp_path: Path, work: Counter[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    first = published(out)
    for _ in range(2):
        build(spec, tmp_path / "plain", monkeypatch, cache=False)
        assert +work == Counter({"yaml": 3, "catalog": 1, "compile": 2})
        work.clear()
    assert not (tmp_path / "plain" / CACHE_DIR).exists()
    assert published(tmp_path / "plain") == first
    build(spec, out, monkeypatch, cache=False)  # --no-cache on a folder that has a cache: not used, not pruned
    assert +work == Counter({"yaml": 3, "catalog": 1, "compile": 2})
    assert kinds(out)["yaml-parse-1"] == 3


def test_validate_without_an_output_folder_keeps_no_cache(spec: Path, tmp_path: Path, work: Counter[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(2):
        new_process(monkeypatch)
        result = validate_folder(spec, ["static", "render", "i18n"])
        assert not result.has_errors and result.loaded is not None and result.loaded.cache is None
    assert work["yaml"] == 4 and work["catalog"] == 1  # (cardgen's own catalog: its findings are kept in the user's store)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec"]
    assert not list(spec.rglob(CACHE_DIR))


def test_a_spec_that_fails_to_parse_is_reported_every_time(spec: Path, tmp_path: Path, work: Counter[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from cardgen.findings import InputError

    game = spec / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("players: {min: 1, max: 2}", "players: {min: 1, max: 2"), encoding="utf-8")
    places = []
    for _ in range(2):
        new_process(monkeypatch)
        with pytest.raises(InputError) as caught:
            build_game(spec, tmp_path / "out", BuildOptions(papers=("a4",)))
        places.append((caught.value.file, caught.value.line, caught.value.column))
    assert places[0] == places[1] and places[0][0].endswith("game.yaml") and places[0][1] > 0
    assert work["yaml"] == 2
    assert not (tmp_path / "out" / CACHE_DIR).exists()


def test_the_code_fingerprint_covers_every_file_but_compiled_bytecode(tmp_path: Path) -> None:
    from cardgen.cache import _fingerprint_files

    root = tmp_path / "pkg"
    (root / "sub" / "__pycache__").mkdir(parents=True)
    (root / "__pycache__").mkdir()
    for name in ("a.py", "sub/b.j2", "sub/font.ttf", "sub/__pycache__/b.pyc", "__pycache__/a.pyc"):
        (root / name).write_text(name, encoding="utf-8")
    assert _fingerprint_files(root) == ["pkg/a.py", "pkg/sub/b.j2", "pkg/sub/font.ttf"]
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "c.py").write_text("c", encoding="utf-8")
    (root / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (root / "d.py").symlink_to(tmp_path / "elsewhere" / "c.py")
    walked = sorted(os.path.relpath(os.path.join(folder, name), tmp_path) for folder, _, files in os.walk(root) if "__pycache__" not in folder for name in files)
    assert _fingerprint_files(root) == walked == ["pkg/a.py", "pkg/d.py", "pkg/sub/b.j2", "pkg/sub/font.ttf"]  # (as os.walk: a linked folder is not entered)
    package = Path(build_game.__code__.co_filename).parent
    expected = sorted(str(p.relative_to(package.parent)) for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    assert _fingerprint_files(package) == expected


def test_the_library_versions_read_from_folder_names_are_importlib_metadata_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fingerprint's library versions (read from the metadata folders' names) agree with importlib.metadata's, for every
    distribution installed, and for both kinds of metadata folder and a name spelled another way."""
    import importlib.metadata as metadata
    import sys

    from cardgen.cache import _distribution_key, installed_versions

    found = installed_versions()
    for distribution in metadata.distributions():
        assert found[_distribution_key(distribution.metadata["Name"])] == distribution.version, distribution.metadata["Name"]
    for folder in ("Some.Lib-1.2.3.dist-info", "old_lib-0.4-py3.11.egg-info", "later-9.dist-info", "not_metadata-1.0.data"):
        (tmp_path / folder).mkdir()
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(tmp_path), str(tmp_path / "later")])
    (tmp_path / "later").mkdir()
    (tmp_path / "later" / "some_lib-7.0.dist-info").mkdir()
    assert installed_versions() == {"some_lib": "1.2.3", "old_lib": "0.4", "later": "9"}


def test_a_cache_opened_before_the_game_is_known(tmp_path: Path) -> None:
    """Before bind(), lookups search every game's folder and entries wait; bind() writes them into the game's folder."""
    from cardgen.cache import ArtefactCache

    root = tmp_path / CACHE_DIR
    ArtefactCache(root / "old-name").put("a" * 64, b"parsed before the game was renamed")
    cache = ArtefactCache.unbound(root)
    assert cache.get("a" * 64) == b"parsed before the game was renamed"
    assert cache.get("b" * 64) is None
    cache.put("b" * 64, b"new")
    assert cache.get("b" * 64) == b"new"
    assert sorted(p.name for p in root.iterdir()) == ["old-name"]  # nothing written yet
    cache.bind("minimal")
    assert {p.name: unseal_artefact(p.read_bytes()) for p in (root / "minimal").iterdir()} == {"a" * 64: b"parsed before the game was renamed", "b" * 64: b"new"}
    cache.prune()
    assert sorted(p.name for p in (root / "minimal").iterdir()) == ["a" * 64, "b" * 64]
    ArtefactCache.unbound(root).put("c" * 64, b"never bound: never written")
    assert not list(root.rglob("c" * 64))
    os.mkfifo(root / "minimal" / ("d" * 64))
    assert ArtefactCache(root / "minimal").get("d" * 64) is None  # not a regular file (and opening it does not block)
