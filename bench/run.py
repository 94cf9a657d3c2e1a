"""Every cardgen benchmark in one command: one table, and bench/results.json.

Run from anywhere (``cardgen bench`` runs this file)::

    python bench/run.py [--quick] [--reps 3] [--only build,svg,...] [--out bench/results.json]

The figures time what a user waits for. The whole-job rows (``bench_job.py``)
build ``bench/job`` (54 distinct poker cards) as a whole process, cold, every
artefact and the print sheets alone (``--only print``), against
``bench/job_floor.py``, a bare reportlab script doing the whole print job
(reading the YAML and CSV, wrapping text, laying out 3x3 with crop marks,
writing the PDF) from the same card data; the three run interleaved. The
deck-size rows build the same job at 54, 540 and 5,400 distinct cards (time
and peak memory). Other whole commands (a cold ``cardgen build`` of every
game, ``cardgen validate``, a rebuild after editing one card, ``cardgen check``
with 1 and 2 workers) run ``python -m cardgen`` in a fresh process and read
that child's own CPU time and peak memory (``os.wait4``). The rebuild is also
measured inside a warm process that built the game before the edit (what
``cardgen watch`` does on a save). Playout rates are taken on the path
``cardgen check`` takes, the end-of-game conservation check included.

The "last step only" rows time only the final writing: cardgen's SVG and PDF
writers against floors fed cardgen's own finished drawings (text already
wrapped and placed, colours parsed, repeated faces already shared):
``bench/render_floor.py`` (raw reportlab canvas calls) and
``bench/svg_floor.py`` (bare svgwrite; plain string building of the same
elements is timed too). They show the writers' own overhead, not the job.

Each figure is measured after a warm-up run (not counted) over several
repetitions and reported as median, min and max, beside its target. The
machine may be shared: every whole-process run records the 1-minute load
average read before and after it, and a figure with a run on a busy machine
is marked BUSY (unreliable) in the table and ``"reliable": false`` in the JSON
(rules in ``bench_common.py``). Comparisons between processes are interleaved
and use wall time; in-process ratios use CPU time.

Figure groups (for ``--only``): job, decks, startup, build, memory (with build), svg,
pdf, rebuild, validate, playouts (every shipped game, data or module), interpreter (each data game against
the hand-written engine it replaced, side by side: ``bench/references.py``), copies, check, solve. Nothing here ever fails a
test: the exit code is 0 whether or not targets are met (2 only for bad
arguments).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
for entry in (str(ROOT), str(BENCH)):
    if entry not in sys.path:
        sys.path.insert(0, entry)

GROUPS = ("job", "decks", "startup", "build", "svg", "pdf", "rebuild", "validate", "playouts", "interpreter", "copies", "check", "solve")
PLAYOUT_TARGETS: dict[str, tuple[float, int | None]] = {
    "ceratopsians": (5000.0, None),
    "mausoleum-guardians": (1000.0, None),
    "keramikos": (1000.0, None),
    "ceramus": (200.0, 4),
}
"""Random playouts per second by game: (target, the one player count it applies to, or None for every count)."""
INTERPRETER_TARGET = 0.5
"""A data game's random playouts per CPU second over those of the hand-written engine it replaced (issue 14)."""
SOLVE_TARGETS = {"ceramus": 1.0, "ceratopsians": 1.0}
"""Exact solve, median seconds per deal."""
REBUILD_GAME = "keramikos"
"""The game copied, built, edited (one card's text) and rebuilt for the rebuild figure: the one with most cards."""


from bench_common import Figure, Load, ProcessRun, Settings, interleaved, measured, repeat, run_cardgen  # noqa: E402
from bench_job import measure_deck_sizes, measure_job, measure_startup  # noqa: E402


# --------------------------------------------------------------------------- whole-process runs
def measure_cold_build(settings: Settings, figures: list[Figure]) -> None:
    """A cold ``cardgen build`` (fresh process, empty output folder, so no build cache), all games, every artefact."""
    build = Figure("cold `cardgen build`, all games, every artefact (wall)", "s", 5.0, "lower")
    memory = Figure("peak memory of a full build (max RSS)", "MB", 300.0, "lower")
    work = Path(tempfile.mkdtemp(prefix="cardgen-bench-build-"))
    try:

        def once() -> tuple[ProcessRun, Load]:
            out = work / "out"
            shutil.rmtree(out, ignore_errors=True)
            return measured(lambda: run_cardgen(["build", "--out", str(out), "--quiet"]))

        measured_runs = repeat(settings, once)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    runs = [run for run, _ in measured_runs]
    build.loads = memory.loads = [load for _, load in measured_runs]
    build.samples = [r.wall for r in runs]
    build.cpu = [r.cpu for r in runs]
    memory.samples = [r.max_rss_mb for r in runs]
    if any(r.code for r in runs):
        build.error = f"exit code {runs[-1].code}: {runs[-1].output[-300:]}"
    build.note = f"CPU median {statistics.median(build.cpu):.2f} s; {build.load_note()}"
    figures += [build, memory]


def measure_validate(settings: Settings, figures: list[Figure]) -> None:
    """Default ``cardgen validate`` (with its quick simulation) over every game, whole process."""
    figure = Figure("default `cardgen validate`, all games, quick sim (wall)", "s", 30.0, "lower")
    measured_runs = repeat(settings, lambda: measured(lambda: run_cardgen(["validate"])))
    runs = [run for run, _ in measured_runs]
    figure.loads = [load for _, load in measured_runs]
    figure.samples = [r.wall for r in runs]
    figure.cpu = [r.cpu for r in runs]
    figure.note = f"CPU median {statistics.median(figure.cpu):.2f} s; {figure.load_note()}"
    if any(r.code not in (0, 1) for r in runs):
        figure.error = f"exit code {runs[-1].code}: {runs[-1].output[-300:]}"
    figures.append(figure)


def edit_one_card(folder: Path) -> str:
    """Change the English name of the first card of the first deck, in whichever file of the copied spec holds it."""
    from cardgen.spec.load import load_spec

    loaded = load_spec(folder)
    assert loaded.spec is not None
    card = loaded.spec.decks[0].cards[0]
    name = card.name.get("en") if isinstance(card.name, dict) else None
    if not name:
        raise RuntimeError("the first card has no English name to edit")
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in (".yaml", ".yml", ".csv", ".tsv"):
            text = path.read_text(encoding="utf-8")
            if name in text:
                path.write_text(text.replace(name, name + " II", 1), encoding="utf-8")
                return f"{card.id}: {name!r} -> {name + ' II'!r} in {path.name}"
    raise RuntimeError(f"could not find {name!r} in the spec's files")


def measure_rebuild(settings: Settings, figures: list[Figure]) -> None:
    """Copy one spec, build it, edit one card's text, rebuild it: as a fresh process and inside a warm one.

    The whole-process figure is ``cardgen build`` run again after the edit (the
    artefact cache warm, the interpreter cold: start-up and imports count). The
    in-process figure is what ``cardgen watch`` does on a save: the same process
    built the game before the edit, so modules, fonts, templates and catalogs
    are loaded, and only the build itself (validation included) is timed.
    """
    whole = Figure(f"rebuild after editing one card's text ({REBUILD_GAME}, whole process, wall)", "s", 0.6, "lower")
    warm = Figure(f"rebuild after editing one card's text ({REBUILD_GAME}, in a warm process like `watch`, wall)", "s", 0.3, "lower")
    warm_one = Figure(f"rebuild after editing one card's text ({REBUILD_GAME}, warm, in one process: `watch --jobs 1`, wall)", "s", None, "lower")
    work = Path(tempfile.mkdtemp(prefix="cardgen-bench-rebuild-"))
    runs: list[ProcessRun] = []
    edit = ""
    try:
        for index in range(settings.warmup + settings.reps):
            spec = work / f"spec{index}" / REBUILD_GAME
            out = work / f"out{index}"
            shutil.copytree(ROOT / "specs" / REBUILD_GAME, spec)
            first = run_cardgen(["build", str(spec), "--out", str(out), "--quiet"])
            if first.code:
                whole.error = f"first build failed: {first.output[-300:]}"
                break
            edit = edit_one_card(spec)
            run, load = measured(lambda: run_cardgen(["build", str(spec), "--out", str(out), "--quiet"]))
            if run.code:
                whole.error = f"rebuild failed: {run.output[-300:]}"
                break
            if index >= settings.warmup:
                runs.append(run)
                whole.loads.append(load)
        if not whole.error:
            _rebuild_in_process(settings, (warm, warm_one), work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    whole.samples = [r.wall for r in runs]
    whole.cpu = [r.cpu for r in runs]
    whole.note = edit
    if runs:
        whole.note += f"; CPU median {statistics.median(whole.cpu):.2f} s; {whole.load_note()}"
    figures += [whole, warm, warm_one]


def _rebuild_in_process(settings: Settings, figures: tuple[Figure, Figure], work: Path) -> None:
    """The in-process rebuild: build (untimed, warms the process), edit one card, build again (timed); with the
    rulebooks' line breaks kept between builds, as ``cardgen watch`` keeps them. Each round times the rebuild
    with watch's default (a worker on an idle processor) and, on another copy, in one process (``--jobs 1``)."""
    from cardgen.rulebook.line_breaks import keep_line_breaks

    with keep_line_breaks():
        _rebuild_rounds(settings, figures, work)


def _rebuild_rounds(settings: Settings, figures: tuple[Figure, Figure], work: Path) -> None:
    from cardgen.artefacts import BuildOptions
    from cardgen.build import build_game
    from cardgen.publish import build_lock

    for index in range(1 + settings.reps):  # the first round only warms the process
        for figure, options in zip(figures, (BuildOptions(jobs=None), BuildOptions(jobs=1))):
            spec = work / f"warm-spec{index}-{options.jobs}" / REBUILD_GAME
            out = work / f"warm-out{index}-{options.jobs}"
            shutil.copytree(ROOT / "specs" / REBUILD_GAME, spec)
            with build_lock(out):
                first = build_game(spec, out, options)
            if first.failed:
                figure.error = "first in-process build failed"
                return
            edit_one_card(spec)
            before = measured(lambda: None)[1]
            workers = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu, wall = time.process_time(), time.perf_counter()
            with build_lock(out):
                again = build_game(spec, out, options)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            done = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu += (done.ru_utime - workers.ru_utime) + (done.ru_stime - workers.ru_stime)  # the workers' share
            after = measured(lambda: None)[1]
            load = Load(before.before, after.after, before.others_before, after.others_after)
            if again.failed:
                figure.error = "in-process rebuild failed"
                return
            if index:
                figure.samples.append(wall)
                figure.cpu.append(cpu)
                figure.loads.append(load)
    for figure in figures:
        figure.note = f"CPU median {statistics.median(figure.cpu):.2f} s (workers included); {figure.load_note()}"


# --------------------------------------------------------------------------- rendering against the floors
def real_scenes() -> tuple[list[Any], list[Any]]:
    """(every print-sheet page of the four games on A4 and Letter, every distinct card face), built once."""
    from cardgen.render.faces import card_faces
    from cardgen.render.produce import card_locale, footer_for, print_items
    from cardgen.render.sheets import builtin_sheet_template, impose
    from cardgen.spec.load import all_spec_folders, load_spec

    pages: list[Any] = []
    faces: list[Any] = []
    for folder in all_spec_folders(ROOT / "specs"):
        loaded = load_spec(folder)
        if loaded.spec is None:
            continue
        locale = card_locale(loaded.spec, None)
        game_faces = card_faces(loaded, locale)
        faces += [face.scene for face in game_faces]
        items, _ = print_items(game_faces)
        for paper in ("a4", "letter"):
            pages += impose(items, builtin_sheet_template(paper), footer_for(loaded.spec, locale)).pages
    return pages, faces


def _cpu_wall(function: Callable[[], Any]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    function()
    return time.process_time() - cpu, time.perf_counter() - wall


def measure_pdf(settings: Settings, figures: list[Figure], pages: list[Any]) -> None:
    """cardgen's PDF backend on the real sheet pages vs raw reportlab writing the same PDF.

    Both define each card face printed more than once as one Form XObject and
    place it by reference, so the floor gets the scenes' shared faces marked
    (untimed) and the check below confirms the two write the same bytes. The
    floor drawing every copy in full is timed too, for information.
    """
    import render_floor
    import scene_flat

    from cardgen.render.pdf_backend import write_pdf
    from cardgen.render.scene import Group
    from reportlab.lib.rl_accel import fp_str

    flat = scene_flat.flatten(pages)
    shared = [
        [
            (child.shared.key, (child.shared.bounds.x, child.shared.bounds.y, child.shared.bounds.right, child.shared.bounds.bottom))
            if isinstance(child, Group) and child.shared is not None
            else None
            for child in page.children
        ]
        for page in pages
    ]
    with_forms = render_floor.share_forms(flat, shared)
    forms = sum(1 for ops in with_forms for op in ops if op[0] == "form")
    same_bytes = write_pdf(pages) == render_floor.draw_flat(with_forms)
    ratio = Figure("last step only: PDF writing of finished sheet scenes vs bare reportlab fed the same finished drawing (CPU ratio)", "x", 1.5, "lower")
    absolute = Figure("last step only: PDF writing of the sheets, all games, A4 + Letter (cardgen, CPU)", "s", None, "lower")

    def once() -> tuple[float, float, float, float, float]:
        ours, ours_wall = _cpu_wall(lambda: write_pdf(pages))
        floor, floor_wall = _cpu_wall(lambda: render_floor.draw_flat(with_forms))
        every_copy, _ = _cpu_wall(lambda: render_floor.draw_flat(flat))
        return ours, floor, ours_wall, floor_wall, every_copy

    results = repeat(settings, once)
    accelerator = "rl_accel (C)" if fp_str.__module__ == "_rl_accel" else "none (pure-Python fallbacks)"
    ratio.samples = [r[0] / r[1] for r in results]
    ratio.note = (
        f"{len(pages)} pages, {scene_flat.count_ops(flat)} primitives placed; repeated faces drawn once as {forms} Form XObjects"
        f" by both cardgen and the floor (same bytes: {'yes' if same_bytes else 'NO'});"
        f" floor CPU median {statistics.median(r[1] for r in results):.3f} s"
        f" (drawing every copy in full instead: {statistics.median(r[4] for r in results):.3f} s);"
        f" reportlab accelerator: {accelerator}"
    )
    absolute.samples = [r[0] for r in results]
    absolute.note = f"wall median {statistics.median(r[2] for r in results):.3f} s"
    figures += [ratio, absolute]


def measure_svg(settings: Settings, figures: list[Figure], faces: list[Any]) -> None:
    """cardgen's SVG writer on every real card face vs a bare svgwrite script writing the same elements.

    The string-building writer of the same elements is timed too, for information
    (it shows what svgwrite itself costs); it has no target.
    """
    import scene_flat
    import svg_floor

    from cardgen.render.svg_backend import write_svg

    flat = scene_flat.flatten(faces)
    same = sum(write_svg(scene) == svg_floor.write_flat(ops) for scene, ops in zip(faces, flat))
    ratio = Figure("last step only: SVG writing of finished faces vs bare svgwrite fed the same finished drawing (CPU ratio)", "x", 2.0, "lower")
    strings = Figure("last step only: SVG writing of finished faces vs plain string building of the same elements (CPU ratio, information)", "x", None, "lower")
    absolute = Figure("last step only: SVG writing, every face of every game (cardgen, CPU)", "s", None, "lower")

    def once() -> tuple[float, float, float]:
        ours, _ = _cpu_wall(lambda: [write_svg(scene) for scene in faces])
        floor, _ = _cpu_wall(lambda: [svg_floor.write_flat(ops) for ops in flat])
        plain, _ = _cpu_wall(lambda: [svg_floor.write_flat_strings(ops) for ops in flat])
        return ours, floor, plain

    results = repeat(settings, once)
    ratio.samples = [a / b for a, b, _ in results]
    ratio.note = (
        f"{len(faces)} faces, {scene_flat.count_ops(flat)} primitives, {same}/{len(faces)} byte-identical to the floor's;"
        f" floor CPU median {statistics.median(b for _, b, _ in results) * 1000:.1f} ms"
    )
    strings.samples = [a / c for a, _, c in results]
    strings.note = f"string writer CPU median {statistics.median(c for _, _, c in results) * 1000:.1f} ms"
    absolute.samples = [a for a, _, _ in results]
    figures += [ratio, strings, absolute]


# --------------------------------------------------------------------------- engine
def engine_specs() -> list[Any]:
    """Loaded specs of every game the engine plays: rules as data, or a registered rules module."""
    from cardgen.engine.core import registered_rules
    from cardgen.spec.load import all_spec_folders, load_spec

    known = set(registered_rules())
    out = []
    for folder in all_spec_folders(ROOT / "specs"):
        loaded = load_spec(folder)
        if loaded.spec is not None and (loaded.spec.rules_data is not None or loaded.spec.rules_module in known):
            out.append(loaded)
    return out


def measure_playouts(settings: Settings, figures: list[Figure]) -> None:
    """Uniformly random playouts per second, one core, per game and player count, on the path ``cardgen check`` takes.

    Each playout goes through ``play_game`` with the end-of-game conservation
    check on, as ``cardgen check`` runs it (bench_engine's measure).
    """
    import bench_engine

    for loaded in engine_specs():
        spec = loaded.spec
        target, only = PLAYOUT_TARGETS.get(spec.id, (None, None))
        for players in range(spec.players.min, spec.players.max + 1):
            applies = target is not None and (only is None or only == players)
            figure = Figure(f"random playouts/s with the conservation check, as `check` runs them, {spec.id} {players}p (CPU)", "games/s", target if applies else None, "higher")
            results = repeat(settings, lambda: bench_engine.playouts_per_second(loaded, players, settings.playout_seconds))
            figure.samples = [rate for rate, _ in results]
            figure.note = f"mean length {statistics.median(length for _, length in results):.0f} actions"
            figures.append(figure)


def measure_interpreter(settings: Settings, figures: list[Figure]) -> None:
    """Each shipped data game against the hand-written engine it replaced (``bench/references.py``), side by side.

    Both play uniformly random games through ``play_game`` with the conservation check (the path ``cardgen
    check`` takes) from the same seeds, in interleaved rounds of ``playout_seconds`` CPU seconds each; the figure
    is the ratio of their playouts per CPU second, one sample per round, with both rates in the note.
    """
    import bench_engine
    from references import REFERENCE_ENGINES

    from cardgen.engine.core import make_game

    for loaded in engine_specs():
        spec = loaded.spec
        reference = REFERENCE_ENGINES.get(spec.id)
        if spec.rules_data is None or reference is None:
            continue
        for players in range(spec.players.min, spec.players.max + 1):
            games = {"data": make_game(spec, players), "reference": reference(spec, players)}

            def rate_of(game: Any) -> Callable[[], float]:
                return lambda: bench_engine.game_playout_rate(game, settings.playout_seconds).cpu

            rounds = interleaved(settings, {name: rate_of(game) for name, game in games.items()})
            figure = Figure(f"data engine / hand-written engine, random playouts/s as `check` runs them, {spec.id} {players}p (CPU)", "x", INTERPRETER_TARGET, "higher")
            figure.samples = [data / ref for (data, _), (ref, _) in zip(rounds["data"], rounds["reference"])]
            figure.loads = [load for outcomes in rounds.values() for _, load in outcomes]
            rates = {name: statistics.median(rate for rate, _ in outcomes) for name, outcomes in rounds.items()}
            figure.note = f"data {rates['data']:,.0f} against hand-written {rates['reference']:,.0f} playouts per CPU s (medians of {settings.reps} interleaved rounds); {figure.load_note()}"
            figures.append(figure)


def measure_copies(settings: Settings, figures: list[Figure]) -> None:
    """State copies per second (``clone()`` and ``fingerprint()`` of each), one core, over the positions of random games.

    What searches, greedy agents and solvers spend on copying positions: the
    positions of eight random games per game and player count are copied
    and fingerprinted in turn for about ``playout_seconds`` of CPU time.
    """
    import random

    from cardgen.engine.core import make_game

    for loaded in engine_specs():
        spec = loaded.spec
        players = spec.players.min
        game = make_game(spec, players)
        positions = []
        for seed in range(8):
            rng = random.Random(seed)
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                positions.append(state.clone())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])

        def once(positions: list = positions) -> float:
            done, start = 0, time.process_time()
            while True:
                for state in positions:
                    state.clone()
                    state.fingerprint()
                done += len(positions)
                spent = time.process_time() - start
                if spent >= settings.playout_seconds:
                    return done / spent

        figure = Figure(f"state copies/s (clone + fingerprint), {spec.id} {players}p (CPU)", "copies/s", None, "higher")
        figure.samples = repeat(settings, once)
        figure.note = f"{len(positions)} positions of 8 random games"
        figures.append(figure)


def measure_check(settings: Settings, figures: list[Figure]) -> None:
    """``cardgen check`` with 1 and 2 workers, interleaved repeated runs, the load read before and after each.

    The full figure is what a designer runs: ``cardgen check GAME`` with its
    default playouts and skill ladder, as a whole process, per game ``--jobs 1``
    and ``--jobs 2`` alternating which goes first, ``reps`` rounds (no
    warm-up: a round takes minutes). Each round's speed-up is the sum over the
    games of the ``--jobs 1`` wall times over the sum of the ``--jobs 2`` ones;
    the figure is the median. ``--quick`` times a small in-process check
    instead, the same way, only to show the measurement works. On a quiet
    machine the target is 1.8x; a figure taken on a busy one is marked
    unreliable and judged against 1.0 (``--jobs 2`` no slower).
    """
    import bench_engine

    specs = engine_specs()
    rounds = Settings(**{**vars(settings), "warmup": 0 if settings.check_full else settings.warmup})
    one = [0.0] * rounds.reps
    two = [0.0] * rounds.reps
    loads: list[Load] = []
    parts = []
    for loaded in specs:
        assert loaded.spec is not None
        game = loaded.spec.id
        if settings.check_full:
            def whole(jobs: int, game: str = game) -> float:
                run = run_cardgen(["check", game, "--quiet", "--format", "json", "--jobs", str(jobs)])
                return run.wall

            contenders: dict[str, Callable[[], float]] = {"1": lambda: whole(1), "2": lambda: whole(2)}
        else:
            def quick(jobs: int, loaded: Any = loaded) -> float:
                return bench_engine.check_seconds(loaded, settings.check_playouts, settings.check_skill_games, jobs)

            contenders = {"1": lambda: quick(1), "2": lambda: quick(2)}
        kept = interleaved(rounds, contenders)
        for index, ((a, load_a), (b, load_b)) in enumerate(zip(kept["1"], kept["2"])):
            one[index] += a
            two[index] += b
            loads += [load_a, load_b]
        parts.append(f"{game} {statistics.median(a for a, _ in kept['1']):.1f}/{statistics.median(b for b, _ in kept['2']):.1f} s")
    figure = Figure("`cardgen check --jobs 2` vs `--jobs 1`, interleaved runs (wall speed-up)", "x", 1.8, "higher")
    figure.samples = [a / b for a, b in zip(one, two) if b > 0]
    figure.loads = loads
    if figure.reliable is False:
        figure.target = 1.0  # on a busy machine: no slower than one worker
    what = "default `cardgen check` per game, whole process" if settings.check_full else (
        f"quick: {settings.check_playouts} playouts per player count, {settings.check_skill_games} skill games, in process"
    )
    figure.note = f"{what}; {rounds.reps} interleaved round(s); median jobs1/jobs2 wall: {', '.join(parts)}; {figure.load_note()}"
    if figure.reliable is False:
        figure.note += "; target lowered to 1.0 (no slower than one worker) because the machine was busy"
    figures.append(figure)


def measure_solve(settings: Settings, figures: list[Figure]) -> None:
    """Exact solve time per deal for every game with a registered solver (one sample per deal, after a warm-up deal)."""
    from cardgen.engine.core import make_game, solver_for

    for loaded in engine_specs():
        spec = loaded.spec
        solver = solver_for(spec.rules)
        if solver is None:
            continue
        players = spec.players.min
        game = make_game(spec, players)
        figure = Figure(f"exact solve per deal, {spec.id} {players}p (median)", "s", SOLVE_TARGETS.get(spec.id), "lower")
        if settings.warmup:
            solver(game, 10_000)
        proved = 0
        for seed in range(settings.deals):
            cpu, wall = time.process_time(), time.perf_counter()
            solution = solver(game, seed)
            figure.samples.append(time.perf_counter() - wall)
            figure.cpu.append(time.process_time() - cpu)
            proved += bool(getattr(solution, "proved", False))
        figure.note = f"{proved}/{settings.deals} deals proved; CPU median {statistics.median(figure.cpu):.3f} s"
        figures.append(figure)


# --------------------------------------------------------------------------- report
def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3f}" if value < 1 else f"{value:.2f}"


def table(figures: list[Figure]) -> str:
    """The one table: figure, median, min, max, the median CPU seconds where measured, target, met."""
    header = ("figure", "unit", "median", "min", "max", "CPU s", "target", "met", "load")
    rows = []
    for f in figures:
        target = "-" if f.target is None else ("≤ " if f.better == "lower" else "≥ ") + _fmt(f.target)
        met = "error" if f.error else {True: "yes", False: "NO", None: "-"}[f.met]
        cpu = _fmt(statistics.median(f.cpu)) if f.cpu else "-"
        load = {True: "quiet", False: "BUSY", None: "-"}[f.reliable]
        rows.append((f.name, f.unit, _fmt(f.median), _fmt(min(f.samples) if f.samples else None), _fmt(max(f.samples) if f.samples else None), cpu, target, met, load))
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    lines = ["  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in [header] + rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = [f"  {f.name}: {f.note}" for f in figures if f.note]
    errors = [f"  {f.name}: {f.error}" for f in figures if f.error]
    text = "\n".join(lines)
    if notes:
        text += "\n\nnotes:\n" + "\n".join(notes)
    if errors:
        text += "\n\nerrors:\n" + "\n".join(errors)
    return text


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the chosen benchmarks, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="One repetition, no warm-up, short engine runs (checks that everything runs).")
    parser.add_argument("--reps", type=int, default=None, help="Repetitions per figure (default 3; 1 with --quick).")
    parser.add_argument("--only", default="", help=f"Comma-separated groups to run: {', '.join(GROUPS)} (default: all).")
    parser.add_argument("--out", type=Path, default=BENCH / "results.json", help="Where to write the JSON results.")
    args = parser.parse_args(argv)
    chosen = [g for g in args.only.split(",") if g] or list(GROUPS)
    unknown = [g for g in chosen if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    reps = args.reps or (1 if args.quick else 3)
    settings = Settings(
        reps=reps,
        warmup=0 if args.quick else 1,
        playout_seconds=0.3 if args.quick else 2.0,
        check_playouts=10 if args.quick else 100,
        check_skill_games=2 if args.quick else 4,
        check_full=not args.quick,
        deals=2 if args.quick else 7,
        deck_sizes=(54, 540) if args.quick else (54, 540, 5400),
    )
    figures: list[Figure] = []
    started = time.perf_counter()

    def guarded(group: str, run: Callable[[], None]) -> None:
        if group not in chosen:
            return
        print(f"measuring {group} ...", file=sys.stderr, flush=True)
        try:
            run()
        except Exception as error:  # a benchmark that cannot run is reported, never fatal
            figures.append(Figure(f"{group}", "", None, "lower", error=f"{type(error).__name__}: {error}"))

    guarded("job", lambda: measure_job(settings, figures))
    guarded("decks", lambda: measure_deck_sizes(settings, figures))
    guarded("startup", lambda: measure_startup(settings, figures))
    guarded("build", lambda: measure_cold_build(settings, figures))
    if "svg" in chosen or "pdf" in chosen:
        pages, faces = real_scenes()
        guarded("svg", lambda: measure_svg(settings, figures, faces))
        guarded("pdf", lambda: measure_pdf(settings, figures, pages))
    guarded("rebuild", lambda: measure_rebuild(settings, figures))
    guarded("validate", lambda: measure_validate(settings, figures))
    guarded("playouts", lambda: measure_playouts(settings, figures))
    guarded("interpreter", lambda: measure_interpreter(settings, figures))
    guarded("copies", lambda: measure_copies(settings, figures))
    guarded("check", lambda: measure_check(settings, figures))
    guarded("solve", lambda: measure_solve(settings, figures))

    print(table(figures))
    try:
        load = os.getloadavg()
    except OSError:
        load = (0.0, 0.0, 0.0)
    record = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in load],
        "quick": args.quick,
        "reps": settings.reps,
        "warmup": settings.warmup,
        "elapsed_s": round(time.perf_counter() - started, 2),
        "figures": [f.as_json() for f in figures],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nload average {load[0]:.2f} on {os.cpu_count()} CPUs; results written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
