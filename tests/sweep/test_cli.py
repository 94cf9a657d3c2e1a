"""`cardgen sweep` and `cardgen tune` through typer's CliRunner: output, files and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.findings import InputError

from .conftest import TOY


def run(*args: str) -> tuple[int, str]:
    """Invoke the app in this process (so the toy is registered), mapping InputError to 2 as main() does."""
    result = CliRunner().invoke(app, list(args))
    if isinstance(result.exception, InputError):
        return 2, result.output + result.exception.render()
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


SMALL = ("--players", "2", "--playouts", "12", "--skill-games", "1", "--mcts-budget", "4", "--jobs", "1", "--quiet")


def test_sweep_prints_a_table_and_writes_its_files(tmp_path: Path) -> None:
    code, out = run("sweep", str(TOY), "--vary", "numbers.wild_points=2..3", "--vary", "numbers.max_turns=12", *SMALL, "--out", str(tmp_path))
    assert code == 0, out
    assert out.splitlines()[0].split()[:3] == ["wild_points", "max_turns", "players"]
    assert "P1 " in out and "skill gradient" in out and "2 variants on local (1 worker(s))" in out
    results = tmp_path / "toy" / "sweep" / "results.jsonl"
    assert len(results.read_text(encoding="utf-8").splitlines()) == 3
    page = (tmp_path / "toy" / "report" / "sweep.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 3 and "Every variant" in page  # three charts for wild_points; max_turns takes one value
    data = json.loads((tmp_path / "toy" / "report" / "sweep.json").read_text(encoding="utf-8"))
    assert [v["variant"] for v in data["variants"]] == [{"max_turns": 12, "wild_points": 2}, {"max_turns": 12, "wild_points": 3}]


def test_sweep_json_and_resume(tmp_path: Path) -> None:
    args = ("sweep", str(TOY), "--vary", "numbers.wild_points=2..3", *SMALL, "--out", str(tmp_path), "--format", "json")
    code, out = run(*args)
    assert code == 0
    first = json.loads(out)
    code, out = run(*args, "--resume")
    assert code == 0 and json.loads(out) == first


def test_sweep_exits_1_when_a_variant_is_refused_or_broken(tmp_path: Path) -> None:
    code, out = run("sweep", str(TOY), "--vary", "numbers.test_never_ends=0..1", "--players", "1", "--playouts", "3", "--skill-games", "0", "--jobs", "1", "--quiet", "--out", str(tmp_path))
    assert code == 1
    assert "CG504" in out


def test_sweep_bad_options_exit_2(tmp_path: Path) -> None:
    assert run("sweep", str(TOY), "--vary", "wild_points=1..2", "--out", str(tmp_path))[0] == 2
    code, out = run("sweep", str(TOY), "--vary", "numbers.hand_size=1..2", "--out", str(tmp_path))
    assert code == 2 and "game.yaml" in out and "hand_size" in out
    assert run("sweep", str(TOY), "--vary", "numbers.wild_points=1", "--agents", "genius", "--out", str(tmp_path))[0] == 2
    assert run("sweep", str(TOY), "--vary", "numbers.wild_points=1", "--executor", "slurm", "--out", str(tmp_path))[0] == 2
    assert not (tmp_path / "toy").exists()  # nothing written for a refused command line


def test_tune_prints_the_best_values_and_a_patch(tmp_path: Path) -> None:
    code, out = run(
        "tune", str(TOY), "--vary", "numbers.first_seat_bonus=0..12:12", "--objective", "balance", "--trials", "3", "--batch", "3",
        "--players", "2", "--playouts", "100", "--jobs", "1", "--quiet", "--out", str(tmp_path),
    )
    assert code == 0, out
    assert "best: first_seat_bonus=0" in out and "the spec as written: first_seat_bonus=0" in out
    assert "no patch" in out
    code, out = run(
        "tune", str(TOY), "--vary", "numbers.wild_points=5..6", "--objective", "length:1..2", "--trials", "2", "--batch", "2",
        "--players", "2", "--playouts", "10", "--jobs", "1", "--quiet", "--out", str(tmp_path), "--format", "json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["objective"] == "length:1..2" and len(data["trials"]) == 2


def test_the_balance_report_links_the_sweep_page_when_there_is_one(tmp_path: Path) -> None:
    code, _ = run("sweep", str(TOY), "--vary", "numbers.wild_points=2..3", *SMALL, "--out", str(tmp_path))
    assert code == 0
    code, out = run("report", str(TOY), "--playouts", "10", "--skill-games", "0", "--solve-deals", "0", "--jobs", "1", "--quiet", "--out", str(tmp_path))
    assert code == 0, out
    index = (tmp_path / "toy" / "report" / "index.html").read_text(encoding="utf-8")
    assert '<a href="sweep.html">sweep.html</a>' in index
    other = tmp_path / "other"
    code, _ = run("report", str(TOY), "--playouts", "10", "--skill-games", "0", "--solve-deals", "0", "--jobs", "1", "--quiet", "--out", str(other))
    assert code == 0 and "sweep.html" not in (other / "toy" / "report" / "index.html").read_text(encoding="utf-8")


def test_a_player_count_the_game_lacks_exits_2(tmp_path: Path) -> None:
    code, out = run("sweep", str(TOY), "--vary", "numbers.wild_points=2", "--players", "9", "--out", str(tmp_path))
    assert code == 2 and "1 to 3 players" in out
