"""Where variant jobs run: one small interface, two implementations, no home-made cluster.

An :class:`Executor` takes a function and a list of jobs and yields
``(index, result)`` pairs as jobs finish, in whatever order they finish; the
caller puts them back in order. Nothing a job computes depends on where or
when it ran (see :mod:`cardgen.sweep.work`), so the executor and its number of
workers change only the speed.

* :class:`LocalExecutor`: this machine's processes (``concurrent.futures``
  with ``spawn``); one job runs in this process.
* :class:`DaskExecutor`: a Dask distributed cluster reached through its
  scheduler (``tcp://HOST:PORT``), or, without one, a ``LocalCluster`` of
  worker processes on this machine (how the tests run it).

Dask is imported only when a Dask executor is made.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator, Protocol, Sequence, TypeVar

from cardgen.findings import InputError

J = TypeVar("J")
R = TypeVar("R")

EXECUTORS = ("local", "dask")
"""The ``--executor`` choices."""


class Executor(Protocol):
    """Runs jobs somewhere and reports each result as it arrives."""

    name: str
    workers: int
    """How many jobs run at once (for the report and the bench)."""

    def run(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        """Yield (index in ``jobs``, ``fn(job)``) as jobs finish; stopping the iteration cancels what is left."""
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


class LocalExecutor:
    """Jobs in processes on this machine: ``jobs`` spawned workers, or this process alone when 1."""

    name = "local"

    def __init__(self, jobs: int | None = None) -> None:
        self.workers = max(1, jobs if jobs is not None else (os.cpu_count() or 1))

    def run(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        """Run ``jobs``; with one worker, in order in this process."""
        if self.workers == 1 or len(jobs) <= 1:
            for index, job in enumerate(jobs):
                yield index, fn(job)
            return
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

        pool = ProcessPoolExecutor(max_workers=min(self.workers, len(jobs)), mp_context=multiprocessing.get_context("spawn"))
        pending: dict[Future[R], int] = {}
        try:
            pending = {pool.submit(fn, job): index for index, job in enumerate(jobs)}
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: pending[f]):
                    index = pending.pop(future)
                    yield index, future.result()
        finally:
            if pending:  # stopped early (interrupted, or the caller stopped asking): do not wait for running checks
                workers = list(getattr(pool, "_processes", {}).values())
                pool.shutdown(wait=False, cancel_futures=True)
                for process in workers:
                    process.terminate()
            else:
                pool.shutdown(wait=True)

    def close(self) -> None:
        """Nothing stays running between runs."""


class DaskExecutor:
    """Jobs on a Dask distributed cluster (``scheduler`` address) or a LocalCluster of ``workers`` processes.

    Each job goes to the scheduler as its own task (the spec's bytes and the
    variant's numbers, a few tens of kB) and comes back as a small record.
    Workers need cardgen installed at the same version (see docs/cluster.md).
    """

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None) -> None:
        try:
            import logging

            from distributed import Client, LocalCluster
        except ImportError as error:  # pragma: no cover - distributed is a dependency
            raise InputError(f"--executor dask needs the 'distributed' package: {error}") from error
        self._cluster: Any = None
        if scheduler is None:
            count = max(1, workers if workers is not None else (os.cpu_count() or 1))
            self._cluster = LocalCluster(
                n_workers=count, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR,
            )
            self._client: Any = Client(self._cluster)
        else:
            try:
                self._client = Client(scheduler, timeout="20s")
            except (OSError, TimeoutError) as error:
                raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from error
        self.workers = max(1, sum(w.get("nthreads", 1) for w in self._client.scheduler_info()["workers"].values()))

    def run(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        """Submit every job (pure=False: a job is never merged with another) and yield results as they come."""
        from distributed import as_completed

        futures = [self._client.submit(fn, job, pure=False) for job in jobs]
        index_of = {future.key: index for index, future in enumerate(futures)}
        try:
            for future in as_completed(futures):
                yield index_of[future.key], future.result()
        finally:
            for future in futures:
                if not future.done():
                    future.cancel()

    def close(self) -> None:
        """Close the client, and the LocalCluster if this executor started it."""
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(name: str, *, jobs: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor named by ``--executor`` (``jobs``: local processes, or LocalCluster workers for dask)."""
    if name == "local":
        if scheduler is not None:
            raise InputError("--scheduler is for --executor dask")
        return LocalExecutor(jobs)
    if name == "dask":
        return DaskExecutor(scheduler, jobs)
    raise InputError(f"--executor must be one of {', '.join(EXECUTORS)}, not {name!r}")
