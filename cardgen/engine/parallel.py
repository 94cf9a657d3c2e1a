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
import multiprocessing
import multiprocessing.pool
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from cardgen.engine import core
from cardgen.engine.agents import make_agent
from cardgen.engine.core import Game
from cardgen.progress import ProgressHook
from cardgen.engine.playout import PlayoutResult, play_game
from cardgen.spec.models import Spec


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


INLINE_SECONDS = 1.0
"""How long a run works in this process before handing the remaining tasks to worker processes."""

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
    folder, modules, tasks = payload
    out = []
    for task in tasks:
        game = _worker_game(folder, modules, task.players)
        agents = [make_agent(name, game) for name in task.agents]
        out.append(play_game(game, agents, task.seed))
    return out


class Runner:
    """Runs playout tasks for one spec, inline (jobs=1) or in a spawn pool.

    Use as a context manager so the pool is closed at the end.
    """

    def __init__(self, spec: Spec, folder: Path, jobs: int | None = None) -> None:
        self.spec = spec
        self.folder = str(folder.resolve())
        self.jobs = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
        self.modules = tuple(rules_modules(spec.rules)) if spec.rules else ()
        self._games: dict[int, Game] = {}
        self._pool: multiprocessing.pool.Pool | None = None

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
        """Stop the worker processes, if any were started."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def _play(self, task: Task) -> PlayoutResult:
        game = self.game(task.players)
        return play_game(game, [make_agent(name, game) for name in task.agents], task.seed)

    def run(self, tasks: Sequence[Task], deadline: float | None = None, progress: ProgressHook | None = None) -> list[PlayoutResult]:
        """Run ``tasks``; results in task order.

        With ``deadline`` (a ``time.monotonic()`` value) everything runs in this
        process and stops early, returning only the tasks finished in time.
        Otherwise tasks run here for the first ``INLINE_SECONDS`` (starting a
        worker costs about a second, more than a small check takes); what is
        left is shared: this process works through the chunks from the front
        while ``jobs - 1`` worker processes take chunks from the back. When the
        two meet, this process also plays any chunk a worker has not returned
        yet, so it never waits on a worker that is still starting. Every
        result depends only on its task, so who played it does not matter.
        """
        out: list[PlayoutResult] = []
        started = time.monotonic()
        index = 0
        while index < len(tasks):
            now = time.monotonic()
            if deadline is not None and now > deadline:
                return out
            if deadline is None and self.jobs > 1 and now - started > INLINE_SECONDS and len(tasks) - index >= 4:
                break
            out.append(self._play(tasks[index]))
            index += 1
            if progress is not None:
                progress.advance(1)
        rest = list(tasks[index:])
        if not rest:
            return out
        return out + self._shared(rest, progress)

    def _shared(self, tasks: list[Task], progress: ProgressHook | None = None) -> list[PlayoutResult]:
        if self._pool is None:
            self._pool = multiprocessing.get_context("spawn").Pool(self.jobs - 1)
        size = max(1, min(32, len(tasks) // (self.jobs * 8)))
        chunks = [tasks[i : i + size] for i in range(0, len(tasks), size)]
        done: list[list[PlayoutResult] | None] = [None] * len(chunks)
        pending: dict[int, multiprocessing.pool.AsyncResult[list[PlayoutResult]]] = {}
        front, back = 0, len(chunks)
        outstanding = 2 * (self.jobs - 1)

        workers_alive = False

        def collect() -> None:
            nonlocal workers_alive
            for i in [i for i, job in pending.items() if job.ready()]:
                done[i] = pending.pop(i).get()
                workers_alive = True
                if progress is not None:
                    progress.advance(len(chunks[i]))

        while front < back or pending:
            collect()
            while len(pending) < outstanding and back > front:
                back -= 1
                pending[back] = self._pool.apply_async(_run_chunk, ((self.folder, self.modules, chunks[back]),))
            if front < back:
                done[front] = [self._play(task) for task in chunks[front]]
                if progress is not None:
                    progress.advance(len(chunks[front]))
                front += 1
            elif pending:
                # Nothing left at the front. Once workers have answered, wait for
                # them; while they are still starting, play their chunk here.
                i = min(pending)
                job = pending.pop(i)
                done[i] = job.get() if workers_alive else [self._play(task) for task in chunks[i]]
                if progress is not None:
                    progress.advance(len(chunks[i]))
        return [result for part in done for result in part or []]
