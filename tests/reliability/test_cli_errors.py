"""Every command, given a game that does not exist, says so in one line (exit 2) and shows no traceback.

The commands are discovered from the typer app, so commands added later are
covered without editing this file. ``--debug`` turns the one line back into a
full traceback for bug reports.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import typer.main

from cardgen.cli.app import app

from .conftest import ROOT, one_line
from .test_build_safety import run_cli

MISSING = "no-such-game-xyz"
SKIPPED = {("new",)}
"""Commands not given a missing game: ``new`` creates a spec under that name."""


def _commands(command: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], list[str]]]:
    if hasattr(command, "commands"):
        for name, sub in sorted(command.commands.items()):
            yield from _commands(sub, prefix + (name,))
        return
    arguments = [p.name for p in command.params if p.param_type_name == "argument"]
    if arguments and prefix not in SKIPPED:
        yield prefix, arguments


COMMANDS = list(_commands(typer.main.get_command(app)))


def _args(path: tuple[str, ...], arguments: list[str]) -> list[str]:
    """The command line: the missing game for game arguments, a missing file for file arguments."""
    values = []
    for name in arguments:
        if name in {"game", "games"}:
            values.append(MISSING)
        elif name == "file":
            values.append(f"{MISSING}.json")
        else:
            values.append("default")
    return [*path, *values]


class _Timeout(Exception):
    pass


def _alarm(_signum: int, _frame: Any) -> None:
    raise _Timeout


def test_discovers_the_commands() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"validate", "build"} <= names


@pytest.mark.parametrize(("path", "arguments"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_missing_game_is_one_line_exit_2(path: tuple[str, ...], arguments: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(30)  # a command waiting for input or watching files must not hang the suite
    try:
        code, stdout, stderr = run_cli(_args(path, arguments))
    except _Timeout:
        pytest.fail(f"`cardgen {' '.join(path)} {MISSING}` did not return within 30 s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert code == 2, (code, stdout, stderr)
    assert "Traceback" not in stdout + stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert one_line(lines[0]) and "error" in lines[0].lower()
    if set(arguments) <= {"game", "games", "file"}:
        assert MISSING in lines[0]  # the line names what was not found


def test_debug_shows_the_traceback() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    plain = subprocess.run([sys.executable, "-m", "cardgen", "validate", MISSING], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert plain.returncode == 2
    assert plain.stderr.strip() == f"{MISSING}: error: no game with id {MISSING!r} under specs/ and no such folder"
    debug = subprocess.run([sys.executable, "-m", "cardgen", "--debug", "validate", MISSING], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert debug.returncode != 0
    assert "Traceback (most recent call last)" in debug.stderr
    assert "InputError" in debug.stderr


def test_unreadable_files_are_one_line_each(tmp_path: Path) -> None:
    """validate lists every unreadable spec, one line each, and exits 2."""
    folders = []
    for name, raw in {"empty": b"", "binary": b"\x00\x01\x02", "latin1": "id: ol\xe1\n".encode("latin-1"), "syntax": b"a: [\n"}.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "game.yaml").write_bytes(raw)
        folders.append(str(folder))
    code, stdout, stderr = run_cli(["validate", "--no-sim", *folders])
    assert code == 2
    lines = [line for line in stdout.splitlines() if " CG001 " in line]
    assert len(lines) == 4, stdout
    assert "Traceback" not in stdout + stderr
    assert any("not UTF-8 text (byte 0xe1 at offset 6)" in line for line in lines)
