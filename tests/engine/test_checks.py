"""The simulation checks: each deliberately broken toy is caught with the right code."""

from __future__ import annotations

import multiprocessing

import pytest
from pathlib import Path

from cardgen.engine import parallel
from cardgen.engine.checks import CHECK_CODES, default_playouts, quick_checks, run_checks
from cardgen.findings import Severity
from cardgen.spec.load import LoadedSpec


def _codes(report) -> dict[str, list]:  # type: ignore[no-untyped-def]
    out: dict[str, list] = {}
    for f in report.findings:
        out.setdefault(f.code, []).append(f)
    return out


def test_codes_are_documented_and_in_range() -> None:
    assert all(code.startswith("CG5") and len(code) == 5 for code in CHECK_CODES)
    assert all(text.strip() for text in CHECK_CODES.values())


def test_sound_toy_has_no_errors(toy: LoadedSpec) -> None:
    report = run_checks(toy, playouts=120, jobs=1, skill_games=4, mcts_budget=16)
    assert not report.has_errors(), report.render_text()
    assert [c.players for c in report.counts] == [1, 2, 3]
    for count in report.counts:
        m = count.metrics
        assert m is not None and m.completion == 1.0 and m.timeouts == 0
        assert m.duration_max <= 32  # two actions per turn, 16 turns
        assert m.branching_max <= 4  # three slots and pass
        assert set(m.coverage) == {f"card:{c}" for c in ("one", "two", "three", "four", "five", "wild")}
        assert len(count.skill) == 3
    assert report.longest_game[0] == 32


def test_unusable_card_is_unreachable(variant) -> None:  # type: ignore[no-untyped-def]
    loaded = variant(cursed=True)
    report = run_checks(loaded, playouts=40, jobs=1, skill_games=0)
    found = _codes(report)["CG505"]
    assert len(found) == 1
    finding = found[0]
    assert finding.severity is Severity.ERROR
    assert "card:cursed" in finding.message
    assert finding.path == "decks[0].cards[6]"
    text = (loaded.folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert "id: cursed" in text[finding.line - 1]
    assert report.has_errors()


def test_dead_end_is_caught_with_seed_and_replay(variant, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    loaded = variant({"test_dead_end_turn": 3})
    report = run_checks(loaded, playouts=10, jobs=1, players=[2], skill_games=0, replays_dir=tmp_path / "replays")
    found = _codes(report)["CG503"]
    assert len(found) == 1 and found[0].severity is Severity.ERROR
    assert "10 of 10 playouts" in found[0].message and "seed 0" in found[0].message
    assert "cardgen play toy --players 2 --agents random,random --seed 0" in found[0].message
    assert report.replays and Path(report.replays[0]).is_file()
    assert report.replays[0] in found[0].message
    assert found[0].path == "setups[1]"


def test_endless_game_times_out(variant) -> None:  # type: ignore[no-untyped-def]
    loaded = variant({"test_never_ends": 1})
    report = run_checks(loaded, playouts=8, jobs=1, players=[1], skill_games=0)
    found = _codes(report)["CG504"]
    assert len(found) == 1 and "bound of 32 actions" in found[0].message
    m = report.counts[0].metrics
    assert m is not None and m.timeouts == 8 and m.completion == 0.0
    assert m.duration_max == 32  # stopped exactly at the bound


def test_results_do_not_depend_on_jobs(toy: LoadedSpec, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(parallel, "INLINE_SECONDS", 0.0)  # send work to the pool at once
    monkeypatch.setattr(parallel, "cpu_sample", lambda: None)  # whatever the machine's load: start the worker
    def strip(report) -> dict:  # type: ignore[no-untyped-def]
        data = report.as_json()
        data.pop("seconds")
        return data

    one = run_checks(toy, playouts=90, jobs=1, players=[2, 3], skill_games=4, mcts_budget=8)
    two = run_checks(toy, playouts=90, jobs=2, players=[2, 3], skill_games=4, mcts_budget=8)
    assert strip(one) == strip(two)


def samples(*ticks: tuple[int, int]):  # type: ignore[no-untyped-def]
    """A stand-in for the machine's processor time: each call gives the next (idle, total) sample."""
    given = iter(ticks)
    return lambda: next(given, ticks[-1])


@pytest.mark.parametrize(
    ("idle", "started"),
    [
        (0, 0),  # every processor busy (this run's own included): a second process would gain nothing
        (45, 1),  # about one of the two processors idle: one worker
        (100, 1),  # both idle: still at most jobs - 1 workers
    ],
)
def test_workers_start_only_on_idle_processors(toy: LoadedSpec, monkeypatch, idle: int, started: int) -> None:  # type: ignore[no-untyped-def]
    """``--jobs 2`` on a busy machine plays alone (no slower than ``--jobs 1``), on an idle one with a worker;
    the results are the same either way."""
    assert toy.spec is not None
    monkeypatch.setattr(parallel, "INLINE_SECONDS", 0.0)
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(parallel, "cpu_sample", samples((0, 0), (idle, 100)))
    tasks = [parallel.Task(2, ("random", "random"), seed) for seed in range(40)]
    with parallel.Runner(toy.spec, toy.folder, jobs=2) as runner:
        got = runner.run(tasks)
        assert runner.workers_started == started
    with parallel.Runner(toy.spec, toy.folder, jobs=1) as alone:
        expected = alone.run(tasks)
    assert [r.actions for r in got] == [r.actions for r in expected]


def test_idle_processors_from_two_samples() -> None:
    assert parallel.idle_processors((100, 1000), (190, 1100), 2) == pytest.approx(1.8)
    assert parallel.idle_processors((100, 1000), (100, 1000), 2) is None  # no time passed: not known
    assert parallel.idle_processors(None, (1, 2), 2) is None
    assert parallel.workers_to_start(None, 3) == 3  # not known (no /proc/stat): every allowed worker
    assert parallel.workers_to_start(0.4, 3) == 0
    assert parallel.workers_to_start(1.6, 3) == 2
    assert parallel.workers_to_start(7.0, 3) == 3
    sample = parallel.cpu_sample()
    if Path("/proc/stat").is_file():
        assert sample is not None and 0 <= sample[0] <= sample[1]


def test_worker_process_rebuilds_the_game(toy: LoadedSpec) -> None:
    assert toy.spec is not None
    tasks = [parallel.Task(2, ("random", "greedy"), seed) for seed in range(6)]
    with parallel.Runner(toy.spec, toy.folder, jobs=1) as alone:
        expected = alone.run(tasks)
    payload = (str(toy.folder.resolve()), tuple(parallel.rules_modules("toy")), tasks)
    assert payload[1], "the toy's registering module must be passed to workers"
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        got = pool.apply(parallel._run_chunk, (payload,))
    assert [r.actions for r in got] == [r.actions for r in expected]
    assert [r.scores for r in got] == [r.scores for r in expected]


def test_default_playouts_reach_the_interval(toy: LoadedSpec) -> None:
    assert default_playouts(toy) == 381  # Wilson, p = 0.5, half-width 0.05


def test_quick_checks_are_quick_and_clean(toy: LoadedSpec) -> None:
    report = quick_checks(toy)
    assert not report.has_errors()
    assert all(c.metrics is not None and c.metrics.playouts == 200 for c in report.counts)
    assert all(not c.skill for c in report.counts)


def test_quick_checks_give_one_verdict(variant) -> None:  # type: ignore[no-untyped-def]
    """The quick check is sized in playouts, not seconds: the same spec gives the same findings every time,
    and a card the rules prove unusable is an error however few games were played."""
    loaded = variant(cursed=True)
    first = quick_checks(loaded)
    second = quick_checks(loaded)
    assert [f.render() for f in first.findings] == [f.render() for f in second.findings]
    cursed = _codes(first)["CG505"]
    assert [f.severity for f in cursed] == [Severity.ERROR]
    assert "needs 99" in cursed[0].message


def test_unused_without_proof_is_a_warning_with_its_evidence(variant) -> None:  # type: ignore[no-untyped-def]
    """With so few playouts that some card is not drawn, and no proof, the finding is a warning naming the games."""
    loaded = variant()
    report = run_checks(loaded, playouts=1, jobs=1, skill_games=0, search_unused=False)
    unused = _codes(report).get("CG505", [])
    assert unused, "one playout per player count leaves some pebble untaken"
    assert all(f.severity is Severity.WARNING for f in unused)
    assert all("not proved unusable" in f.message and "1 with" in f.message for f in unused)


def test_targeted_search_finds_what_random_play_missed(variant) -> None:  # type: ignore[no-untyped-def]
    loaded = variant()
    report = run_checks(loaded, playouts=1, jobs=1, skill_games=0, search_unused=True)
    assert "CG505" not in _codes(report), [f.render() for f in report.findings]


def test_unregistered_rules_are_reported(tmp_path: Path) -> None:
    from .conftest import load_ok, toy_variant

    folder = toy_variant(tmp_path / "other")
    path = folder / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("rules: toy", "rules: no-such-rules"), encoding="utf-8")
    report = run_checks(load_ok(folder), playouts=5, jobs=1)
    assert [f.code for f in report.findings] == ["CG501"]
