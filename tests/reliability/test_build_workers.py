"""A build that runs its parts in forked workers writes what a build in one process writes, and fails as one.

The worker count is forced (``workers_for`` patched) so these tests start a
worker whatever the machine's load; the load rule itself is tested with
:func:`cardgen.processors.workers_to_start` in tests/engine/test_checks.py.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

import cardgen.artefacts as artefacts_module
import cardgen.build as build_module
from cardgen import build_parts
from cardgen.artefacts import BuildContext, BuildOptions
from cardgen.build import build_game
from cardgen.build_parts import PartCrash, PartPool
from cardgen.findings import InputError

from .conftest import MINIMAL, ROOT, copy_spec

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin", reason="no workers are forked on this system: every part runs in the build process")


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (the cache left out), by relative path."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and ".cache" not in path.relative_to(folder).parts
    }


@pytest.fixture
def one_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every build with ``jobs`` above 1 starts one worker, whatever the machine's load."""
    monkeypatch.setattr(build_module, "workers_for", lambda jobs, since: 0 if jobs == 1 else 1)


def wait_for(files: list[Path], jobs: int | None, seconds: float = 120.0) -> None:
    """In a build with a worker, wait (a bounded time) until ``files`` exist."""
    import time

    deadline = time.monotonic() + seconds
    while jobs != 1 and not all(f.exists() for f in files) and time.monotonic() < deadline:
        time.sleep(0.01)


def pids_producer(context: BuildContext) -> list[Path]:
    """Hands off three parts, each writing the process id it ran in and adding a note and a print guide."""

    def part(number: int) -> None:
        def run(own: BuildContext) -> None:
            (own.staging / f"part{number}.txt").write_text(str(os.getpid()), encoding="ascii")
            own.notes.append(f"part {number}")
            own.print_guides[f"guide{number}"] = [str(number)]

        context.hand_off(lambda own: run(own))

    for number in range(3):
        part(number)
    context.notes.append("pids: handed off")
    return []


def waiting_producer(context: BuildContext) -> list[Path]:
    """Registered apart: runs while the parts before it are in a worker, and waits (a bounded time) until they
    have written their files, so the test knows the worker took them all."""
    wait_for([context.staging / f"part{n}.txt" for n in range(3)], context.options.jobs)
    return []


def reader_producer(context: BuildContext) -> list[Path]:
    """Runs after the others: records which files and guides it saw."""
    seen = sorted(p.name for p in context.staging.iterdir())
    (context.staging / "seen.txt").write_text("\n".join(seen + sorted(context.print_guides)), encoding="ascii")
    return []


def test_parts_run_in_a_worker_and_everything_they_leave_comes_back_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_worker: None) -> None:
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"a-pids": pids_producer, "b-wait": waiting_producer, "z-reader": reader_producer})
    monkeypatch.setattr(artefacts_module, "_APART", {"b-wait"})
    spec = copy_spec(MINIMAL, tmp_path / "spec")
    result = build_game(spec, tmp_path / "out", BuildOptions(jobs=2, cache=False))
    assert not result.failed, result.findings
    folder = tmp_path / "out" / result.game
    pids = {int((folder / f"part{n}.txt").read_text(encoding="ascii")) for n in range(3)}
    assert len(pids) == 1 and os.getpid() not in pids  # one worker took the three parts while b-wait ran here
    assert result.notes == ["pids: handed off", "part 0", "part 1", "part 2"]  # hand-off order, not finishing order
    seen = (folder / "seen.txt").read_text(encoding="ascii").split("\n")
    assert seen == ["part0.txt", "part1.txt", "part2.txt", "guide0", "guide1", "guide2"]


def test_one_process_runs_the_same_parts_where_they_are_handed_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_worker: None) -> None:
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"a-pids": pids_producer, "z-reader": reader_producer})
    result = build_game(copy_spec(MINIMAL, tmp_path / "spec"), tmp_path / "out", BuildOptions(jobs=1, cache=False))
    folder = tmp_path / "out" / result.game
    assert {int((folder / f"part{n}.txt").read_text(encoding="ascii")) for n in range(3)} == {os.getpid()}
    assert result.notes == ["pids: handed off", "part 0", "part 1", "part 2"]


@pytest.mark.parametrize("game", ["keramikos", "mausoleum-guardians"])
def test_a_real_build_writes_the_same_bytes_with_a_worker(game: str, tmp_path: Path, one_worker: None) -> None:
    """Every artefact (faces, sheets, bleed PDF, rulebooks, gallery) and every note, byte for byte."""
    one = build_game(ROOT / "specs" / game, tmp_path / "one", BuildOptions(papers=("a4",), jobs=1))
    two = build_game(ROOT / "specs" / game, tmp_path / "two", BuildOptions(papers=("a4",), jobs=2))
    assert not one.failed and not two.failed
    assert one.notes == two.notes and one.findings == two.findings
    first, second = tree(tmp_path / "one"), tree(tmp_path / "two")
    assert len(first) > 10 and first == second
    cache = tmp_path / "two" / ".cache" / two.game
    entries = sorted(p.name for p in cache.iterdir())
    again = build_game(ROOT / "specs" / game, tmp_path / "two", BuildOptions(papers=("a4",), jobs=2))
    assert tree(tmp_path / "two") == second
    assert sorted(p.name for p in cache.iterdir()) == entries  # what the worker read and wrote was kept by the prune
    assert again.notes == two.notes


def failing_in_part(error: BaseException) -> dict[str, object]:
    """Producers: the first hands off a part that writes half a file and raises ``error``, then a harmless one;
    the second (apart) waits until the failing part has started in a worker."""

    def producer(context: BuildContext) -> list[Path]:
        def boom(own: BuildContext) -> None:
            (own.staging / "half.pdf").write_bytes(b"%PDF-1.4 half")
            raise error

        context.hand_off(boom)
        context.hand_off(lambda own: (own.staging / "fine.txt").write_text("fine", encoding="ascii"))
        return []

    def follower(context: BuildContext) -> list[Path]:
        wait_for([context.staging / "half.pdf"], context.options.jobs)
        return []

    return {"a-fails": producer, "b-wait": follower}


def previous_output(tmp_path: Path, spec: Path) -> dict[str, bytes]:
    result = build_game(spec, tmp_path / "out", BuildOptions(jobs=1, cache=False))
    assert not result.failed
    return tree(tmp_path / "out")


def test_a_users_error_in_a_worker_comes_back_as_itself_and_nothing_is_published(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_worker: None) -> None:
    spec = copy_spec(MINIMAL, tmp_path / "spec")
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"a-ok": lambda context: []})
    before = previous_output(tmp_path, spec)
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", failing_in_part(InputError("no such font", "fonts.yaml", 3, 1)))
    monkeypatch.setattr(artefacts_module, "_APART", {"b-wait"})
    with pytest.raises(InputError) as raised:
        build_game(spec, tmp_path / "out", BuildOptions(jobs=2, cache=False))
    assert (raised.value.file, raised.value.line, raised.value.message) == ("fonts.yaml", 3, "no such font")
    assert "raised in a build worker" in "".join(getattr(raised.value, "__notes__", []))
    assert tree(tmp_path / "out") == before
    assert [p.name for p in (tmp_path / "out").iterdir() if p.name.startswith(".staging")] == []


class Unsendable(Exception):
    """An exception whose copy would not come back from pickling (its constructor takes two arguments)."""

    def __init__(self, what: str, where: int) -> None:
        super().__init__(f"{what} at {where}")


def test_a_bug_in_a_worker_comes_back_as_a_crash_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_worker: None) -> None:
    spec = copy_spec(MINIMAL, tmp_path / "spec")
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", failing_in_part(Unsendable("renderer broke", 7)))
    monkeypatch.setattr(artefacts_module, "_APART", {"b-wait"})
    with pytest.raises(PartCrash, match="Unsendable: renderer broke at 7") as raised:
        build_game(spec, tmp_path / "out", BuildOptions(jobs=2, cache=False))
    assert "\n" not in str(raised.value)  # the command line prints it as one line; the worker's traceback is a note
    assert "Traceback" in "".join(getattr(raised.value, "__notes__", []))
    assert not (tmp_path / "out" / "minimal").exists()


def test_a_worker_that_dies_is_a_crash_not_a_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_worker: None) -> None:
    spec = copy_spec(MINIMAL, tmp_path / "spec")
    main_pid = os.getpid()

    def die_in_worker(own: BuildContext) -> None:
        if os.getpid() != main_pid:
            (own.staging / "claimed").write_text("", encoding="ascii")
            os.kill(os.getpid(), signal.SIGKILL)

    def producer(context: BuildContext) -> list[Path]:
        context.hand_off(die_in_worker)
        context.hand_off(lambda own: None)
        return []

    def follower(context: BuildContext) -> list[Path]:
        wait_for([context.staging / "claimed"], context.options.jobs)
        return []

    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"a-dies": producer, "b-wait": follower})
    monkeypatch.setattr(artefacts_module, "_APART", {"b-wait"})
    with pytest.raises(PartCrash, match="killed by signal 9"):
        build_game(spec, tmp_path / "out", BuildOptions(jobs=2, cache=False))
    assert not (tmp_path / "out" / "minimal").exists()


def test_the_build_process_failing_waits_for_its_worker_and_leaves_none_behind(tmp_path: Path) -> None:
    """An error in a part the build process runs while a worker runs an earlier part: the worker is waited for
    (its part, handed off first, could fail too and would then be the build's error) and reaped, the error raised."""
    pool = PartPool(1)
    context = BuildContext(None, tmp_path, BuildOptions(jobs=2))  # type: ignore[arg-type]

    def sleeper(own: BuildContext) -> None:
        (tmp_path / "sleeping").write_text(str(os.getpid()), encoding="ascii")
        __import__("time").sleep(0.5)

    def fails(own: BuildContext) -> None:
        raise ValueError("here")

    pool.hand_off(context, 0, sleeper)
    pool.start()  # the worker takes it
    wait_for([tmp_path / "sleeping"], 2)
    pool.hand_off(context, 0, fails)  # the worker is busy: the build process takes it when it settles
    with pytest.raises(ValueError, match="here"):
        pool.settle()
    worker = int((tmp_path / "sleeping").read_text(encoding="ascii"))
    assert worker != os.getpid()
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)  # no worker left behind, not even a zombie (a zombie still takes a signal)


def test_no_worker_is_forked_while_another_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build_parts, "workers_to_start", lambda idle, allowed: allowed)
    assert build_parts.workers_for(2, None) == 1
    assert build_parts.workers_for(1, None) == 0
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert build_parts.workers_for(2, None) == 0
    finally:
        stop.set()
        other.join()


def late_failing_part(context: BuildContext) -> list[Path]:
    """Hands off a part that fails late (it starts in a worker, with one allowed, once this producer returns)."""

    def late(own: BuildContext) -> None:
        (own.staging / "late-started").write_text("", encoding="ascii")
        __import__("time").sleep(0.5)
        raise InputError("the first part's error", "first.yaml", 1, 1)

    context.hand_off(late)
    return []


def second_failing_part(context: BuildContext) -> list[Path]:
    """Registered apart: once the late part has started in the worker, hands off a part that fails at once
    (the build process takes it when the build settles, while the worker still runs the late one)."""
    wait_for([context.staging / "late-started"], context.options.jobs)
    context.hand_off(lambda own: (_ for _ in ()).throw(InputError("the second part's error", "second.yaml", 2, 1)))
    return []


def failing_apart_producer(context: BuildContext) -> list[Path]:
    """Registered apart: once the late part has started in the worker, fails at once."""
    wait_for([context.staging / "late-started"], context.options.jobs)
    raise InputError("the apart producer's error", "apart.yaml", 3, 1)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(
    "second",
    [
        pytest.param(second_failing_part, id="a later part fails"),  # taken by the build process while the worker runs the first
        pytest.param(failing_apart_producer, id="a later apart producer fails"),  # it runs while the worker runs the part
    ],
)
def test_the_first_error_in_hand_off_order_is_the_builds_whatever_ran_where(
    jobs: int, second: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_worker: None
) -> None:
    """In one process the first part fails before anything after it runs; with a worker, what comes after runs
    (and fails at once) while the first part still runs: the first part's error is still the build's."""
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"a-fails": late_failing_part, "b-second": second})
    monkeypatch.setattr(artefacts_module, "_APART", {"b-second"})
    with pytest.raises(InputError) as raised:
        build_game(copy_spec(MINIMAL, tmp_path / "spec"), tmp_path / "out", BuildOptions(jobs=jobs, cache=False))
    assert raised.value.message == "the first part's error"
    assert [p.name for p in (tmp_path / "out").iterdir() if p.name.startswith(".staging")] == []


def test_a_worker_that_cannot_start_leaves_its_parts_to_the_build_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_worker: None) -> None:
    """fork refused (too many processes, no memory for one more): the build runs the parts itself, as with one process."""
    import errno

    def refuse() -> int:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    def three_parts(context: BuildContext) -> list[Path]:
        def part(number: int) -> None:
            def run(own: BuildContext) -> None:
                (own.staging / f"part{number}.txt").write_text(str(os.getpid()), encoding="ascii")
                own.notes.append(f"part {number}")

            context.hand_off(run)

        for number in range(3):
            part(number)
        context.notes.append("pids: handed off")
        return []

    monkeypatch.setattr(build_parts.os, "fork", refuse)
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"a-pids": three_parts})
    result = build_game(copy_spec(MINIMAL, tmp_path / "spec"), tmp_path / "out", BuildOptions(jobs=2, cache=False))
    assert not result.failed, result.findings
    folder = tmp_path / "out" / result.game
    assert {int((folder / f"part{n}.txt").read_text(encoding="ascii")) for n in range(3)} == {os.getpid()}
    assert result.notes == ["pids: handed off", "part 0", "part 1", "part 2"]


def test_ctrl_c_as_a_worker_is_forked_leaves_no_worker_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C reaching the build process just as fork returns (before it has noted its new worker): the worker
    is still killed and reaped, and does not go on writing into a staging folder the build removes."""
    real_fork = os.fork
    forked: list[int] = []

    def fork_then_interrupted() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
            os.kill(os.getpid(), signal.SIGINT)  # (as a Ctrl-C at this very moment: its handler runs at once)
        return pid

    monkeypatch.setattr(build_parts.os, "fork", fork_then_interrupted)
    pool = PartPool(1)
    context = BuildContext(None, tmp_path, BuildOptions(jobs=2))  # type: ignore[arg-type]

    def slow_part(own: BuildContext) -> None:
        __import__("time").sleep(3)
        (tmp_path / "written-after-the-interrupt").write_text("", encoding="ascii")

    pool.hand_off(context, 0, slow_part)
    with pytest.raises(KeyboardInterrupt):
        pool.start()
    pool.stop()
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # reaped already (a worker left running or a zombie would still be our child)
    assert not (tmp_path / "written-after-the-interrupt").exists()


def test_parts_taken_late_after_the_apart_producer_write_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_worker: None) -> None:
    """No worker ever free: every card part waits and runs in the build process after the rulebook producer (registered
    apart) has run, the other order from one process. Whatever that producer changes, the cards' files must not show it."""
    monkeypatch.setattr(PartPool, "_workers_free", lambda self: 0)
    one = build_game(ROOT / "specs" / "no-thanks", tmp_path / "one", BuildOptions(jobs=1))
    late = build_game(ROOT / "specs" / "no-thanks", tmp_path / "late", BuildOptions(jobs=2))
    assert not one.failed and not late.failed
    assert one.notes == late.notes and one.findings == late.findings
    first = tree(tmp_path / "one")
    assert len(first) > 10 and first == tree(tmp_path / "late")


def test_workers_are_waited_for_in_a_process_with_many_files_open(tmp_path: Path) -> None:
    """A process holding more than a thousand descriptors (a tool embedding cardgen): a worker's pipe numbered
    past select()'s limit (FD_SETSIZE) is still waited for."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("this system allows too few open files to go past select()'s limit")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200) if hard == resource.RLIM_INFINITY else min(hard, max(soft, 1200)), hard))
    held: list[int] = []
    try:
        while len(held) < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        pool = PartPool(1)
        context = BuildContext(None, tmp_path, BuildOptions(jobs=2))  # type: ignore[arg-type]
        pool.hand_off(context, 0, lambda own: (own.staging / "done.txt").write_text(str(os.getpid()), encoding="ascii"))
        pool.start()
        wait_for([tmp_path / "done.txt"], 2)  # (taken by the worker: the build process waits for it below)
        pool.settle()
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert int((tmp_path / "done.txt").read_text(encoding="ascii")) != os.getpid()


def test_forking_a_worker_leaves_what_the_caller_froze_frozen(tmp_path: Path) -> None:
    """A program that froze its objects (``gc.freeze``, as before forking its own workers) finds them frozen after a build."""
    import gc

    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        pool = PartPool(1)
        context = BuildContext(None, tmp_path, BuildOptions(jobs=2))  # type: ignore[arg-type]
        pool.hand_off(context, 0, lambda own: (own.staging / "done.txt").write_text(str(os.getpid()), encoding="ascii"))
        pool.start()  # a worker is forked for it
        pool.settle()
        assert gc.get_freeze_count() >= frozen
        assert (tmp_path / "done.txt").exists()
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("redraw_thread", [False, True])
def test_the_build_progress_bar_starts_no_thread_so_workers_may_fork(redraw_thread: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cardgen build`'s bar redraws when it moves: a drawing thread of rich's would keep every build in one process."""
    from cardgen.progress import TerminalProgress

    monkeypatch.setenv("FORCE_COLOR", "1")  # (rich then draws the bar whatever standard error is)
    before = threading.active_count()
    with TerminalProgress("building", redraw_thread=redraw_thread) as progress:
        assert progress.shown
        progress.start(2)
        progress.advance(1)
        assert (threading.active_count() > before) is redraw_thread
        assert build_parts.forking_possible() is (not redraw_thread and before == 1 and sys.platform != "darwin")
