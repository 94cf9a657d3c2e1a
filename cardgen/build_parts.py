"""Running the independent parts of a build in forked worker processes, on processors that stand idle.

A build's producers (:mod:`cardgen.artefacts`) hand the pieces of their work
that nothing later in them reads (a rulebook, the bleed PDF, one paper's print
sheets...) to the build's :class:`PartPool`, through
:meth:`cardgen.artefacts.BuildContext.hand_off`. With no worker allowed, each
part runs at once, where it is handed off, exactly as if the producer had
called it. With workers allowed, the parts a producer handed off form a batch
once it returns, and a worker forked for the batch takes them one at a time
from a shared pipe while the build process runs the next producer; parts
still waiting when a later producer (or the end of the build) needs them form
a batch the build process takes from too.

A part writes its files into the staging folder, which both processes share.
What else it leaves behind (notes, findings, print guides, the cache entries it
read or wrote) comes back to the build process through a pipe and is merged in
the order the parts were handed off, so the answer never depends on the number
of workers or which part finished first. An exception in a worker is raised
again in the build process, of the same type when it survives the trip
(``InputError`` still exits 2), else as :class:`PartCrash` (a bug: exit 3).

Forking needs ``os.fork`` (POSIX, not macOS) and a process with one thread: a
forked copy of a threaded process may inherit a lock some other thread held.
Where either is missing, parts run in the build process, one after another.
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import sys
import threading
import traceback
from dataclasses import dataclass, field, replace
from typing import Callable

from cardgen.artefacts import BuildContext
from cardgen.findings import Finding
from cardgen.processors import CpuSample, cpu_sample, idle_processors, usable_processors, workers_to_start

Part = Callable[[BuildContext], object]
"""A piece of a producer's work: writes files under ``context.staging``; may add notes, findings, print guides."""


class PartCrash(RuntimeError):
    """A part failed in a worker process with an exception that could not be sent back as it was."""


def forking_possible() -> bool:
    """Whether this process may fork workers: the system can, safely, and no other thread is running.

    Not on macOS, where system libraries may start threads of their own (Python's
    multiprocessing stopped forking there for that reason)."""
    return hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1


def workers_for(jobs: int | None, since: CpuSample | None) -> int:
    """How many worker processes a build with ``jobs`` processes at most starts (the build process is one).

    ``None`` means every processor this process may use. A worker starts only on
    a processor that stood idle since ``since`` (a sample taken when the build
    began; see :func:`cardgen.processors.workers_to_start`).
    """
    allowed = (jobs if jobs is not None else usable_processors()) - 1
    if allowed <= 0 or not forking_possible():
        return 0
    return workers_to_start(idle_processors(since, cpu_sample(), os.cpu_count() or 1), allowed)


@dataclass
class _Outcome:
    """What a part run in a worker leaves behind, sent back to the build process."""

    notes: list[str]
    findings: list[Finding]
    print_guides: dict[str, list[str]]
    cache_used: set[str] = field(default_factory=set)
    cache_hits: int = 0
    cache_misses: int = 0
    error: BaseException | None = None


@dataclass
class _Handed:
    """One handed-off part: its own context (own notes and findings), whether it ran, what it raised."""

    owner: int
    run: Part
    context: BuildContext
    batch: "_Batch | None" = None
    done: bool = False
    error: BaseException | None = None


QUEUE_LIMIT = 4096
"""The most parts one batch holds (their numbers fill a pipe, whose buffer holds 64 KiB)."""


class PartPool:
    """The parts of one build: run at once, or shared between the build process and forked workers.

    ``workers`` is how many forked processes may run parts beside the build
    process at the same time (0: every part runs where it is handed off). When a
    producer has handed off its parts (:meth:`start`) and a worker may start,
    they form a batch that new workers take, while the build process goes on
    with its producers. When a producer needs the parts before it
    (:meth:`settle`), the parts still waiting form a batch that the build
    process takes parts from too, with new workers while fewer than
    ``workers`` run. Within a batch, the parts' numbers go into a pipe that
    its processes take them from one at a time, so a long part and several
    short ones share the processors well whatever their order.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers if forking_possible() else 0
        self._parts: list[_Handed] = []
        self._batches: list[_Batch] = []

    def hand_off(self, context: BuildContext, owner: int, run: Part) -> None:
        """Queue ``run`` with a context of its own (``owner``: the position of the producer it belongs to)."""
        part = _Handed(owner, run, replace(context, notes=[], findings=[], parts=None))  # (its own hand-offs run where it runs)
        self._parts.append(part)
        if self.workers <= 0:
            part.done = True
            run(part.context)

    def start(self) -> None:
        """Start the parts waiting in workers, if any may start now: the build process goes on meanwhile.

        The build calls it when a producer has handed off all its parts, so they
        form one batch its workers take them from one after another.
        """
        if self.workers <= 0:
            return
        try:
            waiting = sum(part.batch is None and not part.done for part in self._parts)
            free = self._workers_free() if waiting else 0
            if free > 0:
                self._batch(workers=min(free, waiting))
        except BaseException:
            self.stop()
            raise

    def contexts_of(self, owner: int) -> list[BuildContext]:
        """The contexts of the parts handed off for producer ``owner``, in the order they were handed off."""
        return [part.context for part in self._parts if part.owner == owner]

    def settle(self, before: int | None = None) -> None:
        """Finish every part whose producer sorts before position ``before`` (every part when None).

        Raises the first error of the parts finished, in hand-off order, as one
        process running them one after another would: a part that fails stops
        the taking of parts (those not yet taken are left), and the parts already
        running elsewhere are waited for, since one handed off earlier may fail too.
        On an interruption or a worker's crash the workers still running are killed,
        and nothing of theirs is kept.
        """
        chosen = [part for part in self._parts if before is None or part.owner < before]
        try:
            if any(part.batch is None and not part.done for part in chosen):
                self._batch(workers=min(self._workers_free(), sum(p.batch is None and not p.done for p in self._parts) - 1))
            needed = [b for b in self._batches if any(part.batch is b for part in chosen)]
            failed = False
            for batch in needed:  # first every part nobody has taken, here; only then wait for the workers
                if failed:
                    batch.leave_the_rest()  # (handed off after a part that failed: one process would not have run them)
                    continue
                while True:
                    if batch.running() == 0 and sum(not part.done for part in batch.parts) >= 2 and self._workers_free() > 0:
                        batch.fork()  # (a worker of another batch has finished: it shares this one's remaining parts)
                    taken = batch.take_one_here()
                    if taken is None:
                        break
                    if not taken:
                        failed = True
                        break
            for batch in needed:
                batch.wait()
                self._batches.remove(batch)
        except BaseException:
            self.stop()
            raise
        failed_parts = {id(part): part for part in chosen if part.error is not None}  # (by identity: parts are dataclasses)
        failed_parts.update((id(part), part) for batch in needed for part in batch.parts if part.error is not None)
        if failed_parts:
            handed = {id(part): position for position, part in enumerate(self._parts)}
            first = min(failed_parts.values(), key=lambda part: handed[id(part)])
            error, first.error = first.error, None
            assert error is not None
            raise error

    def stop(self) -> None:
        """Kill and reap every worker still running (the build is abandoned)."""
        for batch in self._batches:
            batch.stop()
        self._batches.clear()

    def _workers_free(self) -> int:
        """How many more workers may start now (finished ones are reaped first)."""
        for batch in self._batches:
            batch.reap_finished()
        return self.workers - sum(batch.running() for batch in self._batches)

    def _batch(self, workers: int) -> None:
        """Make the waiting parts a batch and start ``workers`` workers on it."""
        waiting = [part for part in self._parts if part.batch is None and not part.done]
        for start in range(0, len(waiting), QUEUE_LIMIT):
            batch = _Batch(waiting[start:start + QUEUE_LIMIT])
            self._batches.append(batch)
            for _ in range(max(0, workers) if start == 0 else 0):  # (a batch past the pipe's size: this process alone)
                if not batch.fork():
                    break


class _Batch:
    """Parts shared, through a pipe of their numbers, between this process and the workers forked for them."""

    def __init__(self, parts: list[_Handed]) -> None:
        self.parts = parts
        for part in parts:
            part.batch = self
        self._queue, feed = os.pipe()
        try:
            os.write(feed, b"".join(index.to_bytes(4, "little") for index in range(len(parts))))
        finally:
            os.close(feed)
        self._children: dict[int, int] = {}  # result pipe -> pid

    def running(self) -> int:
        """How many of this batch's workers have not been reaped yet."""
        return len(self._children)

    def take_one_here(self) -> bool | None:
        """Run here the next part nobody has taken: True when it ran, False when it failed, None when every
        part is taken.

        A part's error is kept with it (the caller raises the first in hand-off
        order once the workers are done), and the parts nobody has taken then
        are left untaken, as in a worker.
        """
        index = self._claim()
        if index is None:
            return None
        part = self.parts[index]
        part.done = True
        try:
            part.run(part.context)
        except Exception as error:
            part.error = error
            self.leave_the_rest()
            return False
        return True

    def leave_the_rest(self) -> None:
        """Take every part nobody has taken yet, without running it (a part failed: the build is abandoned)."""
        while self._claim() is not None:
            pass

    def wait(self) -> None:
        """Wait for this batch's workers and merge what their parts left."""
        while self._children:
            for pipe in _readable(list(self._children), None):
                self._finish(pipe)
        os.close(self._queue)
        self._queue = -1

    def reap_finished(self) -> None:
        """Merge what the workers that have finished (or are sending their report) left, without waiting."""
        if self._children:
            for pipe in _readable(list(self._children), 0):
                self._finish(pipe)

    def stop(self) -> None:
        """Kill and reap this batch's workers; keep nothing of theirs."""
        for pipe, pid in list(self._children.items()):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            _reap(pipe, pid)
        self._children.clear()
        if self._queue >= 0:
            os.close(self._queue)
            self._queue = -1

    def _claim(self) -> int | None:
        """The number of the next part nobody has taken, or None when every part is taken."""
        data = os.read(self._queue, 4)
        return int.from_bytes(data, "little") if len(data) == 4 else None

    def fork(self) -> bool:
        """Start a worker taking this batch's parts; False when the system refused one (too many processes, too
        little memory): the parts are then this process's to take, as with one process."""
        try:
            read_end, write_end = os.pipe()
        except OSError:
            return False
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        # The worker's collections leave the inherited objects alone, so their pages stay shared; what a caller froze
        # itself stays frozen (unfreezing would thaw it too, so nothing is frozen here then: its pages are its own affair).
        freeze = gc.get_freeze_count() == 0
        if freeze:
            gc.freeze()
        # Ctrl-C waits until the new worker is noted (so the build's stop kills it) and the worker ignores it.
        blocked = _block_interrupts()
        try:
            pid = os.fork()
        except BaseException as error:
            if freeze:
                gc.unfreeze()
            os.close(read_end)
            os.close(write_end)
            _restore_interrupts(blocked)
            if isinstance(error, OSError):
                return False
            raise
        if pid == 0:  # the worker: run parts, send what they left, and leave without unwinding the build's frames
            status = 0
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the build process, which stops its workers
                _restore_interrupts(blocked)
                os.close(read_end)
                _work(self.parts, self._claim, write_end)
            except BaseException:
                status = 70
            finally:
                os._exit(status)
        try:
            self._children[read_end] = pid
            if freeze:
                gc.unfreeze()
            os.close(write_end)
        finally:
            _restore_interrupts(blocked)  # (a Ctrl-C that came meanwhile is raised here)
        return True

    def _finish(self, pipe: int) -> None:
        chunks = []
        while chunk := os.read(pipe, 1 << 20):
            chunks.append(chunk)
        status = _reap(pipe, self._children.pop(pipe))
        try:
            outcomes = pickle.loads(b"".join(chunks)) if chunks else None
        except Exception as error:  # (a worker cut short mid-write)
            outcomes = None
            status = f"{status}; its report could not be read ({type(error).__name__})"
        if not isinstance(outcomes, list):
            raise PartCrash(f"a build worker stopped without reporting ({status})")
        for index, outcome in outcomes:
            part = self.parts[index]
            part.done = True
            context = part.context
            context.notes.extend(outcome.notes)
            context.findings.extend(outcome.findings)
            context.print_guides.update(outcome.print_guides)
            if context.cache is not None:
                context.cache.used |= outcome.cache_used
                context.cache.hits += outcome.cache_hits
                context.cache.misses += outcome.cache_misses
            part.error = outcome.error


def _readable(pipes: list[int], timeout: float | None) -> list[int]:
    """Which of ``pipes`` have something to read (or are closed), waiting at most ``timeout`` seconds (None: until one has).

    ``poll`` where the system has it: ``select`` refuses descriptors numbered past
    ``FD_SETSIZE`` (1024), which a process embedding cardgen with many files open reaches.
    """
    if not hasattr(select, "poll"):
        return select.select(pipes, [], [], timeout)[0]
    poller = select.poll()
    for pipe in pipes:
        poller.register(pipe, select.POLLIN)
    return [pipe for pipe, _ in poller.poll(None if timeout is None else int(timeout * 1000))]


def _reap(pipe: int, pid: int) -> str:
    """Close a worker's result pipe and wait for it; how it ended."""
    try:
        os.close(pipe)
    except OSError:
        pass
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return "already reaped"
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _block_interrupts() -> set[int | signal.Signals] | None:
    """Hold Ctrl-C (SIGINT) back from this thread; the signals blocked before, to restore (None: cannot block here)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _restore_interrupts(blocked: set[int | signal.Signals] | None) -> None:
    """Undo :func:`_block_interrupts` (a Ctrl-C held back meanwhile is delivered now)."""
    if blocked is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _work(parts: list[_Handed], claim: Callable[[], int | None], write_end: int) -> None:
    """In a forked worker: run the parts it claims until none is left (or one fails), then send their outcomes."""
    outcomes: list[tuple[int, _Outcome]] = []
    while (index := claim()) is not None:
        outcome = _run_in_worker(parts[index])
        outcomes.append((index, outcome))
        if outcome.error is not None:  # the build fails: leave the parts nobody has taken (see _Batch.take_one_here)
            while claim() is not None:
                pass
            break
    try:
        payload = pickle.dumps(outcomes, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as unpicklable:
        crash = PartCrash(f"a build part's outcome could not be sent back: {unpicklable}")
        payload = pickle.dumps([(index, _Outcome([], [], {}, error=crash)) for index, _ in outcomes], protocol=pickle.HIGHEST_PROTOCOL)
    with os.fdopen(write_end, "wb") as pipe:
        pipe.write(payload)


def _run_in_worker(part: _Handed) -> _Outcome:
    """In a forked worker: run ``part``; what it left in its context (and the cache), and what it raised."""
    context = part.context
    cache = context.cache
    guides_before = dict(context.print_guides)
    used_before = set(cache.used) if cache is not None else set()
    hits_before, misses_before = (cache.hits, cache.misses) if cache is not None else (0, 0)
    error: BaseException | None = None
    try:
        part.run(context)
    except BaseException as raised:
        error = _portable(raised)
    return _Outcome(
        context.notes,
        context.findings,
        {name: guide for name, guide in context.print_guides.items() if guides_before.get(name) != guide},
        (cache.used - used_before) if cache is not None else set(),
        (cache.hits - hits_before) if cache is not None else 0,
        (cache.misses - misses_before) if cache is not None else 0,
        error,
    )


def _portable(error: BaseException) -> BaseException:
    """``error``, if it comes back from pickling as the same type and message, else a :class:`PartCrash` naming it."""
    where = "".join(traceback.format_exception(error)).rstrip()
    try:
        copy = pickle.loads(pickle.dumps(error, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:
        copy = None
    if type(copy) is not type(error) or str(copy) != str(error):
        crash = PartCrash(f"{type(error).__name__}: {error} (in a build worker)")  # (one line, as the error itself prints)
        crash.add_note(f"(raised in a build worker)\n{where}")
        return crash
    copy.__cause__ = None
    if hasattr(copy, "add_note"):
        copy.add_note(f"(raised in a build worker)\n{where}")
    return copy
