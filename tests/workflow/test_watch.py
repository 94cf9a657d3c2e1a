"""`cardgen watch`: change detection as a unit, the settle-then-rebuild loop with a fake clock, one real cycle."""

from __future__ import annotations

import os
from pathlib import Path

from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.scaffold import create_game
from cardgen.scaffold.watch import Snapshot, WatchState, changed_files, ignored, poll_once, snapshot, watch_loop


def _touch(path: Path, text: str, mtime_ns: int) -> None:
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(mtime_ns, mtime_ns))


def test_snapshot_and_changes(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    (spec / "layouts").mkdir(parents=True)
    _touch(spec / "game.yaml", "id: x\n", 1_000_000_000)
    _touch(spec / "cards.csv", "id\na\n", 1_000_000_000)
    _touch(spec / "layouts" / "cards.yaml", "front: {}\n", 1_000_000_000)
    _touch(spec / ".game.yaml.swp", "scratch", 1_000_000_000)
    _touch(spec / "cards.csv~", "backup", 1_000_000_000)
    (spec / "output").mkdir()
    _touch(spec / "output" / "built.pdf", "pdf", 1_000_000_000)
    first = snapshot([spec], exclude=[spec / "output"])
    assert sorted(Path(p).relative_to(spec).as_posix() for p in first) == ["cards.csv", "game.yaml", "layouts/cards.yaml"]
    assert first[str(spec / "cards.csv")] == (1_000_000_000, 5)
    assert changed_files(first, snapshot([spec], exclude=[spec / "output"])) == []

    _touch(spec / "game.yaml", "id: x\n", 2_000_000_000)  # same size, newer time
    _touch(spec / "cards.csv", "id\nab\n", 1_000_000_000)  # same time, new size
    (spec / "layouts" / "cards.yaml").unlink()  # removed
    _touch(spec / "layouts" / "extra.yaml", "front: {}\n", 1_000_000_000)  # added
    _touch(spec / "output" / "built.pdf", "pdf again", 3_000_000_000)  # excluded
    _touch(spec / ".game.yaml.swp", "scratch again", 3_000_000_000)  # ignored
    second = snapshot([spec], exclude=[spec / "output"])
    assert [Path(p).relative_to(spec).as_posix() for p in changed_files(first, second)] == [
        "cards.csv",
        "game.yaml",
        "layouts/cards.yaml",
        "layouts/extra.yaml",
    ]


def test_ignored_names() -> None:
    assert all(ignored(n) for n in [".git", ".game.yaml.swp", "cards.csv~", "#game.yaml#", "~$cards.xlsx", "__pycache__"])
    assert not any(ignored(n) for n in ["game.yaml", "cards.csv", "cards.xlsx", "layouts"])


def test_poll_waits_for_changes_to_settle() -> None:
    snaps: list[Snapshot] = [{"a": (1, 1)}, {"a": (2, 1)}, {"a": (3, 2), "b": (1, 1)}, {"a": (3, 2), "b": (1, 1)}, {"a": (3, 2), "b": (1, 1)}]
    state = WatchState(last=snaps[0])
    feed = iter(snaps[1:])
    results = [poll_once(state, lambda: next(feed)) for _ in range(4)]
    # a change, another change (still saving), quiet: rebuild for both files once; quiet again: nothing
    assert results == [None, None, ["a", "b"], None]


def test_loop_rebuilds_once_per_settled_change_and_stops_after_max_cycles(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    spec.mkdir()
    game = spec / "game.yaml"
    _touch(game, "v1\n", 1_000_000_000)
    rebuilt: list[list[str]] = []
    cycle = {"n": 0}

    def fake_sleep(seconds: float) -> None:
        assert seconds == 0.25
        cycle["n"] += 1
        if cycle["n"] == 2:
            _touch(game, "v2 longer\n", 2_000_000_000)
        if cycle["n"] == 6:
            _touch(game, "v3\n", 3_000_000_000)

    state = watch_loop(lambda: snapshot([spec]), rebuilt.append, 0.25, max_cycles=8, sleep=fake_sleep)
    assert state.cycles == 8 and state.rebuilds == 2
    assert rebuilt == [[str(game)], [str(game)]]


def test_watch_command_builds_then_polls(tmp_path: Path) -> None:
    folder = create_game("watched", tmp_path / "specs")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["watch", str(folder), "--out", str(out), "--interval", "0.1", "--max-cycles", "1", "--paper", "a4", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "watched: " in result.output and "file(s) written to" in result.output
    assert "watching " in result.output and "Ctrl-C" in result.output
    assert (out / "watched" / "watched-print-a4.pdf").is_file()
    assert not (out / ".cardgen-build.lock").exists()


def test_watch_unknown_game_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["watch", str(tmp_path / "nope"), "--max-cycles", "0"])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "no game with id" in result.stderr
