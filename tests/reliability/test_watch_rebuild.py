"""Rebuilds in one process, as ``cardgen watch`` makes them (issue 17): every file is the one a cold build writes.

One process builds a game, then after each edit of one kind of input (a card's name in either language, a rule
number, a setup entry, the prose, the title) rebuilds it into the same folder with everything a rebuild reuses:
the artefact cache, the worked turn's moves kept under their text-free key, the rulebooks' kept line breaks,
the interpreter's compiled code. Beside it, a second folder is rebuilt as a new process would, its lines read
from the build's cache only. Each rebuild's files must be byte for byte those of a build of the same edited
spec into a new folder with no cache and no kept lines, and must differ from the files before the edit where
the edit shows. What is checked is the files, never how long anything takes.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from cardgen.artefacts import BuildOptions
from cardgen.build import build_game, build_lock
from cardgen.rulebook.line_breaks import forget_line_breaks, keep_line_breaks, line_break_counts

ROOT = Path(__file__).resolve().parents[2]
GAME = "no-thanks"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and ".cache" not in p.parts}


def _build(spec: Path, out: Path, cache: bool) -> dict[str, bytes]:
    with build_lock(out):
        result = build_game(spec, out, BuildOptions(cache=cache))
    assert not result.failed, [f.render() for f in result.findings]
    return _files(out / GAME)


def _yaml(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / "game.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")

    return edit


def _card_name(column: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        sheet = folder / "cards.csv"
        with sheet.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        rows[0][column] += " Again"
        with sheet.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)

    return edit


EDITS: list[tuple[str, Callable[[Path], None], tuple[str, ...]]] = [
    ("a card's English name", _card_name("name.en"), ("cards/", "-print-a4.pdf", "-rules-en.pdf")),
    ("a card's Portuguese name", _card_name("name.pt_BR"), ("-rules-pt_BR.pdf",)),
    ("a rule number", _yaml(lambda d: d["numbers"].update(removed=d["numbers"]["removed"] - 1)), ("-rules-en.md", "-rules-en.pdf")),
    ("a setup entry", _yaml(lambda d: d["setups"][0]["pieces"].update(chips=d["setups"][0]["pieces"]["chips"] - 1)), ("-setup-3.svg", "-rules-en.pdf")),
    ("the prose", _yaml(lambda d: d["rules_text"]["overview"].update(en=d["rules_text"]["overview"]["en"] + " Have fun.")), ("-rules-en.md", "-rules-en.pdf")),
    ("the title", _yaml(lambda d: d["title"].update(en="Rather Not Today")), ("-print-a4.pdf", "-rules-en.pdf", "index.html")),
]


def test_each_rebuild_writes_what_a_cold_build_writes(tmp_path: Path) -> None:
    spec = tmp_path / "specs" / GAME
    shutil.copytree(ROOT / "specs" / GAME, spec)
    out, again = tmp_path / "out", tmp_path / "again"
    _build(spec, again, cache=True)  # (built by a one-shot build: its rebuilds read lines from the cache only)
    with keep_line_breaks():
        before = _build(spec, out, cache=True)
        for index, (what, edit, shown) in enumerate(EDITS):
            edit(spec)
            kept = line_break_counts()["hits"]
            with keep_line_breaks():
                rebuilt = _build(spec, out, cache=True)
            assert line_break_counts()["hits"] > kept, f"after editing {what}, the rebuild reused kept lines"
            forget_line_breaks()  # as a new process: the lines kept in the build's cache only
            kept = line_break_counts()["hits"]
            with keep_line_breaks(False):
                anew = _build(spec, again, cache=True)
            assert line_break_counts()["hits"] > kept, f"after editing {what}, a new process's rebuild read kept lines from the cache"
            with keep_line_breaks(False):
                cold = _build(spec, tmp_path / f"cold{index}", cache=False)
            assert sorted(rebuilt) == sorted(cold) == sorted(anew), what
            different = [name for name in cold if rebuilt[name] != cold[name] or anew[name] != cold[name]]
            assert not different, f"after editing {what}, a rebuild wrote {different} unlike a cold build"
            changed = [name for name in rebuilt if before.get(name) != rebuilt[name]]
            for part in shown:
                assert any(part in name for name in changed), f"editing {what} changed {part!r}: {changed}"
            before = rebuilt


def test_watch_builds_with_kept_lines_and_a_one_shot_build_without(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from cardgen.cli.app import app  # (before the command's module, which the app imports)
    import cardgen.cli.cmd_workflow as workflow
    from cardgen.rulebook import line_breaks

    seen: list[bool] = []
    real = workflow.build_once

    def watched(*args: Any) -> Any:
        seen.append(line_breaks._enabled[0])
        return real(*args)

    monkeypatch.setattr(workflow, "build_once", watched)
    spec = tmp_path / "specs" / GAME
    shutil.copytree(ROOT / "specs" / GAME, spec)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["watch", str(spec), "--out", str(out), "--interval", "0.1", "--max-cycles", "1", "--paper", "a4", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert seen == [True], "watch's builds keep their rulebooks' lines"
    assert not line_breaks._enabled[0], "and only while it runs"
    forget_line_breaks()
    _build(spec, tmp_path / "once", cache=True)
    assert not line_breaks._memo, "a one-shot build keeps no lines in the process (only in its cache)"
    before = line_break_counts()
    _build(spec, tmp_path / "uncached", cache=False)
    assert line_break_counts() == before, "and a build without a cache none at all"
