"""The engine commands through typer's CliRunner: output and exit codes 0, 1 and 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.findings import InputError

from .conftest import TOY, toy_variant

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str]:
    """Invoke the app in this process (so the toy is registered), mapping InputError to 2 as main() does."""
    result = CliRunner().invoke(app, list(args))
    if isinstance(result.exception, InputError):
        return 2, result.output + result.exception.render()
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_check_clean_toy_exits_0() -> None:
    code, out = run("check", str(TOY), "--playouts", "30", "--jobs", "1", "--skill-games", "2", "--mcts-budget", "4")
    assert code == 0, out
    assert "toy, 2 player(s): 30 random playouts, 30 completed" in out
    assert "AdvantageP1" in out and "0 error(s)" in out


def test_check_json_format(tmp_path: Path) -> None:
    code, out = run("check", str(TOY), "--players", "2", "--playouts", "20", "--jobs", "1", "--skill-games", "0", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "toy" and data["counts"][0]["players"] == 2
    assert data["counts"][0]["metrics"]["playouts"] == 20


def test_check_broken_toy_exits_1(tmp_path: Path) -> None:
    folder = toy_variant(tmp_path / "toy", {"test_never_ends": 1})
    code, out = run("check", str(folder), "--players", "1", "--playouts", "3", "--jobs", "1", "--skill-games", "0")
    assert code == 1
    assert "CG504" in out


def test_check_bad_input_exits_2(tmp_path: Path) -> None:
    assert run("check", str(tmp_path / "missing"))[0] == 2
    assert run("check", str(TOY), "--players", "9")[0] == 2
    assert run("check", str(TOY), "--format", "yaml")[0] == 2


def test_unknown_game_exits_2_through_main() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "check", "no-such-game-here"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "no-such-game-here" in done.stderr and "Traceback" not in done.stderr


def test_spec_with_errors_is_refused_with_exit_1(tmp_path: Path) -> None:
    folder = toy_variant(tmp_path / "toy")
    path = folder / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("min_age: 6", "min_age: \"six\""), encoding="utf-8")
    code, out = run("check", str(folder), "--playouts", "3")
    assert code == 1
    assert "CG004" in out and "min_age" in out


def test_play_then_replay(tmp_path: Path) -> None:
    out_file = tmp_path / "game.jsonl"
    code, out = run("play", str(TOY), "--players", "2", "--agents", "greedy,random", "--seed", "3", "--replay-out", str(out_file))
    assert code == 0, out
    assert out.splitlines()[0] == "toy, 2 player(s), seed 3, agents greedy, random"
    assert out_file.is_file()
    code, again = run("replay", str(out_file), "--spec", str(TOY))
    assert code == 0, again
    assert again.splitlines() == out.splitlines()[:-1]  # the same game, without the "replay written" line


def test_play_rejects_bad_agents() -> None:
    assert run("play", str(TOY), "--players", "2", "--agents", "random,genius")[0] == 2
    assert run("play", str(TOY), "--players", "2", "--agents", "random,random,random")[0] == 2


def test_replay_of_a_tampered_log_exits_1(tmp_path: Path) -> None:
    out_file = tmp_path / "game.jsonl"
    assert run("play", str(TOY), "--players", "1", "--seed", "1", "--replay-out", str(out_file))[0] == 0
    lines = out_file.read_text(encoding="utf-8").splitlines()
    step = json.loads(lines[2])
    step["action"] = 77
    lines[2] = json.dumps(step)
    out_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = run("replay", str(out_file), "--spec", str(TOY))
    assert code == 1 and "not legal" in out
    assert run("replay", str(tmp_path / "none.jsonl"), "--spec", str(TOY))[0] == 2


def test_solve_deterministic_toy(tmp_path: Path) -> None:
    folder = toy_variant(tmp_path / "toy", {"die_sides": 0, "max_turns": 6})
    code, out = run("solve", str(folder), "--seed", "4")
    assert code == 0, out
    assert "proved optimal" in out and "verified: replaying the line reaches" in out
    code, out = run("solve", str(folder), "--seed", "0", "--deals", "3")
    assert code == 0, out
    assert "3 deals: mean" in out and "distribution:" in out


def test_solve_refuses_what_the_solver_cannot_do() -> None:
    code, out = run("solve", str(TOY), "--seed", "0")  # the toy solver needs the die-less variant
    assert code == 2 and "cannot solve" in out
