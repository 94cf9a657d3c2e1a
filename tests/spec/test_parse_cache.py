"""The YAML parse cache: a reused parse equals a fresh one (values and places), and nothing doubtful is reused."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import cardgen.spec.parse_cache as parse_cache
import cardgen.spec.yaml_load as yaml_load
from cardgen.spec.source import SourceMap
from cardgen.cache import ArtefactCache, seal_artefact, unseal_artefact
from cardgen.findings import InputError
from cardgen.render.layouts import DeckLayout, FaceLayout, _load_layout
from cardgen.spec.load import load_spec
from cardgen.spec.parse_cache import parse_cache_scope
from cardgen.spec.yaml_load import load_yaml

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MINIMAL = FIXTURES / "valid" / "minimal"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files ruamel actually parses (the names they are shown with), in order."""
    seen: list[str] = []
    real = yaml_load._parse_yaml

    def counting(text: str, shown: str, max_nodes: int, max_depth: int) -> tuple[Any, SourceMap]:
        seen.append(shown)
        return real(text, shown, max_nodes, max_depth)

    monkeypatch.setattr(yaml_load, "_parse_yaml", counting)
    return seen


def _entries(cache_dir: Path) -> dict[str, bytes]:
    return {p.name: _payload(p) for p in sorted(cache_dir.iterdir())} if cache_dir.is_dir() else {}


def _payload(path: Path) -> bytes:
    """The entry stored in ``path``, inside the artefact cache's own seal."""
    payload = unseal_artefact(path.read_bytes())
    assert payload is not None
    return payload


def test_a_reused_parse_equals_a_fresh_one(tmp_path: Path, parses: list[str]) -> None:
    cache = ArtefactCache(tmp_path / "cache")
    fresh = load_yaml(MINIMAL / "game.yaml", "game.yaml")
    first = load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=cache)
    second = load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    assert parses == ["game.yaml", "game.yaml"]  # the uncached load and the first cached one; the second is reused
    assert first == fresh and second == fresh
    assert second[1].places and list(second[1].places) == list(fresh[1].places)
    assert list(_entries(tmp_path / "cache")) == list(cache.used)


def test_reused_places_name_the_file_as_shown_now(tmp_path: Path, parses: list[str]) -> None:
    """The same bytes under another name (another folder, another working directory) point at the new name."""
    load_yaml(MINIMAL / "game.yaml", "one/game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    data, smap = load_yaml(MINIMAL / "game.yaml", "two/game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    assert parses == ["one/game.yaml"]
    assert smap == load_yaml(MINIMAL / "game.yaml", "two/game.yaml")[1]
    assert {place.file for place in smap.places.values()} == {"two/game.yaml"}


def test_findings_from_a_reused_parse_point_at_the_same_place(tmp_path: Path, parses: list[str]) -> None:
    broken = FIXTURES / "broken" / "key-unknown"
    fresh = load_spec(broken)
    assert fresh.findings
    cold = load_spec(broken, cache=ArtefactCache(tmp_path / "cache"))
    warm = load_spec(broken, cache=ArtefactCache(tmp_path / "cache"))
    assert len(parses) == 2  # uncached, cold; the warm load reused the parse
    assert [f.render() for f in warm.findings] == [f.render() for f in cold.findings] == [f.render() for f in fresh.findings]
    assert all(f.line > 0 for f in warm.findings)


def test_changed_bytes_or_limits_are_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    spec = tmp_path / "game.yaml"
    shutil.copy(MINIMAL / "game.yaml", spec)
    load_yaml(spec, "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    spec.write_text(spec.read_text(encoding="utf-8").replace("Shape cards", "Shape cards II"), encoding="utf-8")
    data, _ = load_yaml(spec, "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    assert data["decks"][0]["name"]["en"] == "Shape cards II"
    load_yaml(spec, "game.yaml", max_depth=30, cache=ArtefactCache(tmp_path / "cache"))
    assert len(parses) == 3


@pytest.mark.parametrize(
    "damage",
    [
        lambda entry: entry[: len(entry) // 2],  # truncated
        lambda entry: b"",
        lambda entry: b"\x80\x04garbage",  # not an entry at all (e.g. a pickle)
        lambda entry: entry.replace(b'"Shape cards"', b'"Shape cardz"'),  # altered after its digest was taken
        lambda entry: parse_cache.seal_entry(yaml_load.YAML_ENTRY, b'{"data": {}, "places": [[["id"], "one", 1]]}'),  # well sealed, malformed
        lambda entry: parse_cache.seal_entry(yaml_load.YAML_ENTRY, b"[1, 2"),
        lambda entry: parse_cache.seal_entry("catalog-findings-1", entry.partition(b"\n")[2]),  # another kind's header
    ],
)
def test_a_damaged_entry_is_a_miss(tmp_path: Path, parses: list[str], damage: Any) -> None:
    fresh = load_yaml(MINIMAL / "game.yaml", "game.yaml")
    load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    (entry,) = (tmp_path / "cache").iterdir()
    entry.write_bytes(seal_artefact(damage(_payload(entry))))  # damaged inside a well-sealed file: the entry's own seal refuses it
    assert load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=ArtefactCache(tmp_path / "cache")) == fresh
    assert len(parses) == 3  # fresh, cold, and again after the damage
    assert load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=ArtefactCache(tmp_path / "cache")) == fresh
    assert len(parses) == 3  # the damaged entry was replaced by a good one


def test_a_file_that_fails_is_never_cached(tmp_path: Path, parses: list[str]) -> None:
    bad = tmp_path / "game.yaml"
    bad.write_text("id: x\ntitle: {en: X\nlocales: [en]\n", encoding="utf-8")
    places = []
    for _ in range(2):
        with pytest.raises(InputError) as caught:
            load_yaml(bad, "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
        places.append((caught.value.file, caught.value.line, caught.value.column, caught.value.message))
    assert places[0] == places[1] and places[0][1] > 0
    assert len(parses) == 2
    assert _entries(tmp_path / "cache") == {}


def test_entries_are_json_not_pickles(tmp_path: Path) -> None:
    load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    (entry,) = _entries(tmp_path / "cache").values()
    header, _, payload = entry.partition(b"\n")
    assert header.startswith(b"cardgen:yaml-parse-1:")
    assert set(json.loads(payload)) == {"data", "places"}


def test_entries_others_could_have_written_are_not_trusted(tmp_path: Path, parses: list[str]) -> None:
    """An entry file anyone else may write, or a link, is never read back."""
    load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    (entry,) = (tmp_path / "cache").iterdir()
    os.chmod(entry, 0o666)
    load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    assert len(parses) == 2
    assert entry.stat().st_mode & 0o777 == 0o644  # rewritten, by this user only
    elsewhere = tmp_path / "elsewhere"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    load_yaml(MINIMAL / "game.yaml", "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    assert len(parses) == 3


def test_layout_files_use_the_build_scope_cache(tmp_path: Path, parses: list[str]) -> None:
    """Layout files are read deep in the renderer: they use the cache a build puts in scope, places and problems alike."""
    layout = tmp_path / "layout.yaml"
    layout.write_text("front:\n  background: '#ffffff'\n  frame: {width_mm: -1}\n", encoding="utf-8")
    default = DeckLayout(front=FaceLayout())
    fresh = _load_layout(layout, default)
    assert fresh.problems
    with parse_cache_scope(ArtefactCache(tmp_path / "cache")):
        cold = _load_layout(layout, default)
    with parse_cache_scope(ArtefactCache(tmp_path / "cache")):
        warm = _load_layout(layout, default)
    assert len(parses) == 2
    assert warm == cold == fresh
    assert warm.source is not None and warm.source.place(warm.problems[0][1]).line == 3
    assert parse_cache.active_parse_cache() is None
