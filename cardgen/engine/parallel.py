"""Running many playouts, in this process or in a pool of worker processes.

A task is (player count, agent names per seat, seed). Results come back in
task order and each depends only on its own task, so the number of workers
never changes an answer. Workers are started with the ``spawn`` method and
rebuild the game from the spec folder: they load the spec, import the module
that registered its rules (so games registered outside ``cardgen.games``, like
the test suite's toy, work too) and cache the Game per player count.
"""

from __future__ import annotations

import importlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from cardgen.engine import core
from cardgen.engine.agents import make_agent
from cardgen.engine.core import Game
from cardgen.limits import MAX_JOBS
from cardgen.processors import CpuSample, cpu_sample, idle_processors, workers_to_start
from cardgen.progress import ProgressHook
from cardgen.engine.playout import PlayoutResult, play_game
from cardgen.spec.models import Spec

if TYPE_CHECKING:
    import multiprocessing.process
    import multiprocessing.queues
    from multiprocessing.sharedctypes import Synchronized

# multiprocessing and queue are imported by Runner._shared, the only code that
# starts workers: a run that stays in this process (`cardgen validate`'s quick
# simulation, jobs=1) never loads them.


@dataclass(frozen=True)
class Task:
    """One playout to run."""

    players: int
    agents: tuple[str, ...]
    seed: int


def rules_modules(rules_id: str) -> list[str]:
    """The modules a fresh process must import so ``rules_id`` is registered."""
    core.registered_rules()
    factory = core._REGISTRY.get(rules_id)
    module = getattr(factory, "__module__", None)
    return [module] if module and not module.startswith("cardgen.") else []


INLINE_SECONDS = 0.25
"""How long a run works in this process alone before starting worker processes (a check shorter than
this never pays for them; a worker needs about half a second to start and import the engine)."""

CHUNK_SECONDS = 0.05
"""The play time a chunk of uniformly random playouts aims at: long enough that claiming a chunk and
sending its results back cost little, short enough that every process finishes within one chunk."""

MAX_CHUNK = 256
"""The most tasks in one chunk."""

PROBE_SECONDS = 1.0
"""How often a shared run looks again for idle processors to start one more worker on."""

LATE_START_CHUNKS = 16
"""A worker is started after the first look only while at least this many chunks are unclaimed (about a
second of random playouts or a few planner games): a later one would spend more starting than it plays."""

_WORKER_CACHE: dict[tuple[str, int], Game] = {}
_WORKER_SPECS: dict[str, Spec] = {}


def _worker_game(folder: str, modules: tuple[str, ...], players: int) -> Game:
    key = (folder, players)
    game = _WORKER_CACHE.get(key)
    if game is None:
        from cardgen.spec.load import load_spec

        spec = _WORKER_SPECS.get(folder)
        if spec is None:
            for name in modules:
                importlib.import_module(name)
            loaded = load_spec(Path(folder))
            if loaded.spec is None:
                raise RuntimeError(f"the spec in {folder} no longer loads in a worker process")
            spec = _WORKER_SPECS[folder] = loaded.spec
        game = _WORKER_CACHE[key] = core.make_game(spec, players)
    return game


def _run_chunk(payload: tuple[str, tuple[str, ...], list[Task]]) -> list[PlayoutResult]:
    """Play ``tasks`` in a worker: ``payload`` is (spec folder, modules to import, tasks)."""
    folder, modules, tasks = payload
    out = []
    for task in tasks:
        game = _worker_game(folder, modules, task.players)
        agents = [make_agent(name, game) for name in task.agents]
        out.append(play_game(game, agents, task.seed))
    return out


def _claim(counter: "Synchronized[int]", total: int) -> int:
    """The next unclaimed chunk index, or -1 when every chunk is taken."""
    with counter.get_lock():
        index = counter.value
        if index >= total:
            return -1
        counter.value = index + 1
    return index


def _worker_loop(
    folder: str,
    modules: tuple[str, ...],
    setup: "multiprocessing.queues.Queue[tuple[Spec, list[Task], list[tuple[int, int]]]]",
    counter: "Synchronized[int]",
    results: "multiprocessing.queues.Queue[tuple[int, list[PlayoutResult] | None, str]]",
) -> None:
    """A worker process: claim chunks from the shared counter until none is left, sending back each chunk's results.

    The spec, the tasks and the chunks come through ``setup`` rather than as
    arguments: the process's arguments are written to it before it has
    started, which would hold the main process up while the worker boots.
    """
    spec, tasks, chunks = setup.get()
    _WORKER_SPECS.setdefault(folder, spec)
    for name in modules:
        importlib.import_module(name)
    while True:
        index = _claim(counter, len(chunks))
        if index < 0:
            return
        start, end = chunks[index]
        try:
            out = _run_chunk((folder, modules, tasks[start:end]))
        except Exception as error:  # the main process plays the chunk itself
            results.put((index, None, f"{type(error).__name__}: {error}"))
            return
        results.put((index, out, ""))


def plan_chunks(tasks: Sequence[Task], cheap_size: int) -> list[tuple[int, int]]:
    """Split ``tasks`` into (start, end) index ranges, in the order they should be claimed.

    A task with any agent other than ``random`` (a planner or a greedy
    player, many times the cost of a random playout) is a chunk of its own,
    and those chunks come first, the heaviest first (see :func:`task_weight`),
    so the expensive work is spread over every process early and the run
    ends on short chunks of random playouts.
    Those are ``cheap_size`` tasks each, shrinking to one near the end so
    every process runs out of work at about the same time.
    """
    heavy: list[tuple[int, int]] = []
    cheap_runs: list[tuple[int, int]] = []
    run_start = -1
    for i, task in enumerate(tasks):
        if all(name == "random" for name in task.agents):
            if run_start < 0:
                run_start = i
            continue
        if run_start >= 0:
            cheap_runs.append((run_start, i))
            run_start = -1
        heavy.append((i, i + 1))
    if run_start >= 0:
        cheap_runs.append((run_start, len(tasks)))
    cheap: list[tuple[int, int]] = []
    left = sum(end - start for start, end in cheap_runs)
    size = max(1, cheap_size)
    for start, end in cheap_runs:
        i = start
        while i < end:
            # Guided sizes: never more than an eighth of what is left, so the tail is fine-grained.
            step = max(1, min(size, left // 8, end - i))
            cheap.append((i, i + step))
            i += step
            left -= step
    heavy.sort(key=lambda chunk: -task_weight(tasks[chunk[0]]))  # longest first (stable: ties keep task order)
    return heavy + cheap


def task_weight(task: Task) -> float:
    """A rough relative cost of a task, to start the longest ones first.

    A planner ``name:N`` costs about N random playouts per decision; a greedy
    seat a few; a random seat next to nothing. Only the order matters.
    """
    weight = 0.0
    for spec in task.agents:
        name, _, param = spec.partition(":")
        if name == "random":
            continue
        budget = int(param) if param.isdigit() else 0
        weight += budget if budget and name != "greedy" else 2.0
    return weight


class Runner:
    """Runs playout tasks for one spec, inline (jobs=1) or shared with spawned worker processes.

    Use as a context manager so the workers are stopped at the end.
    """

    def __init__(self, spec: Spec, folder: Path, jobs: int | None = None) -> None:
        self.spec = spec
        self.folder = str(folder.resolve())
        self.jobs = min(max(1, jobs if jobs is not None else (os.cpu_count() or 1)), MAX_JOBS)
        self.modules = tuple(rules_modules(spec.rules_module)) if spec.rules_module else ()
        self._games: dict[int, Game] = {}
        self._workers: list[multiprocessing.process.BaseProcess] = []
        self.workers_started = 0
        """How many worker processes this runner has started (none while processors stood busy)."""

    def game(self, players: int) -> Game:
        """The game at ``players`` in this process (built once)."""
        game = self._games.get(players)
        if game is None:
            game = self._games[players] = core.make_game(self.spec, players)
        return game

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker processes, if any are still running."""
        started = [worker for worker in self._workers if worker.pid is not None]
        for worker in started:
            if worker.is_alive():
                worker.terminate()
        for worker in started:
            worker.join()
        self._workers = []

    def _play(self, task: Task) -> PlayoutResult:
        game = self.game(task.players)
        return play_game(game, [make_agent(name, game) for name in task.agents], task.seed)

    def run(self, tasks: Sequence[Task], deadline: float | None = None, progress: ProgressHook | None = None) -> list[PlayoutResult]:
        """Run ``tasks``; results in task order.

        With ``deadline`` (a ``time.monotonic()`` value) everything runs in this
        process and stops early, returning only the tasks finished in time.
        Otherwise tasks run here for the first ``INLINE_SECONDS`` (so a small
        check never starts a worker); what is left is cut into chunks (see
        :func:`plan_chunks`) that this process and ``jobs - 1`` spawned
        workers claim one at a time from a shared counter, so no chunk is ever
        played twice and nobody waits while work is left. Every result
        depends only on its task, so who played it does not matter.
        """
        out: list[PlayoutResult] = []
        sample = cpu_sample() if deadline is None and self.jobs > 1 else None
        started = time.monotonic()
        cheap_played = 0
        cheap_seconds = 0.0
        index = 0
        while index < len(tasks):
            now = time.monotonic()
            if deadline is not None and now > deadline:
                return out
            if deadline is None and self.jobs > 1 and now - started >= INLINE_SECONDS and len(tasks) - index >= 2:
                break
            task = tasks[index]
            out.append(self._play(task))
            if all(name == "random" for name in task.agents):
                cheap_played += 1
                cheap_seconds += time.monotonic() - now
            index += 1
            if progress is not None:
                progress.advance(1)
        rest = list(tasks[index:])
        if not rest:
            return out
        per_task = cheap_seconds / cheap_played if cheap_played else 0.0
        cheap_size = MAX_CHUNK if per_task <= 0 else max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / per_task)))
        processors = os.cpu_count() or 1
        return out + self._shared(rest, cheap_size, progress, sample, processors)

    def _shared(
        self,
        tasks: list[Task],
        cheap_size: int,
        progress: ProgressHook | None = None,
        sample: CpuSample | None = None,
        processors: int = 1,
    ) -> list[PlayoutResult]:
        """Play ``tasks`` in chunks claimed by this process and by workers started on idle processors.

        ``sample`` is the machine's processor time when the run began: the workers started at once are as
        many as processors stood idle since (:func:`workers_to_start`, at most ``jobs - 1``); every
        ``PROBE_SECONDS`` the run looks again and starts one more while processors stand idle and enough
        work is left. A worker claims chunks from the shared counter like this process, so who plays what
        never changes a result.
        """
        import multiprocessing
        import queue

        chunks = plan_chunks(tasks, cheap_size)
        done: list[list[PlayoutResult] | None] = [None] * len(chunks)
        context = multiprocessing.get_context("spawn")
        counter = context.Value("i", 0)
        results: multiprocessing.queues.Queue[tuple[int, list[PlayoutResult] | None, str]] = context.Queue()
        setup: multiprocessing.queues.Queue[tuple[Spec, list[Task], list[tuple[int, int]]]] = context.Queue()

        def start_workers(count: int) -> None:
            for _ in range(count):
                worker = context.Process(target=_worker_loop, args=(self.folder, self.modules, setup, counter, results), daemon=True)
                self._workers.append(worker)
                self.workers_started += 1
                worker.start()
                setup.put((self.spec, tasks, chunks))  # written by the queue's own thread while this process plays

        now_sample = cpu_sample()
        start_workers(workers_to_start(idle_processors(sample, now_sample, processors), self.jobs - 1))
        sample, looked = now_sample, time.monotonic()
        failed: list[int] = []
        missing = len(chunks)

        def receive(item: tuple[int, list[PlayoutResult] | None, str]) -> None:
            nonlocal missing
            index, played, error = item
            if played is None:
                failed.append(index)
                return
            done[index] = played
            missing -= 1
            if progress is not None:
                progress.advance(len(played))

        def play_here(index: int) -> None:
            nonlocal missing
            start, end = chunks[index]
            done[index] = [self._play(task) for task in tasks[start:end]]
            missing -= 1
            if progress is not None:
                progress.advance(end - start)

        def drain() -> None:
            while True:
                try:
                    receive(results.get_nowait())
                except queue.Empty:
                    return

        try:
            while True:
                index = _claim(counter, len(chunks))
                if index < 0:
                    break
                play_here(index)
                drain()
                allowed = self.jobs - 1 - len(self._workers)
                if allowed and time.monotonic() - looked >= PROBE_SECONDS:
                    now_sample = cpu_sample()
                    if len(chunks) - counter.value >= LATE_START_CHUNKS:
                        start_workers(min(1, workers_to_start(idle_processors(sample, now_sample, processors), allowed)))
                    sample, looked = now_sample, time.monotonic()
            # Every chunk is claimed: wait for the workers' last ones.
            while missing:
                while failed:
                    play_here(failed.pop())
                if not missing:
                    break
                try:
                    receive(results.get(timeout=0.2))
                    continue
                except queue.Empty:
                    pass
                if not any(worker.is_alive() for worker in self._workers):
                    drain()
                    # A worker that died without answering: play what it had claimed here.
                    for index, part in enumerate(done):
                        if part is None and index not in failed:
                            play_here(index)
                    failed.clear()
        finally:
            self.close()
            results.close()
            setup.close()
        in_task_order = sorted(range(len(chunks)), key=lambda i: chunks[i][0])
        return [result for i in in_task_order for result in done[i] or []]
