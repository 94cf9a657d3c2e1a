"""A command imports what its run needs and nothing else.

Start-up is part of every `cardgen build`: a fresh process importing modules it
never uses pays for them on each rebuild. These tests run the real entry point
in a fresh interpreter (the test process has imported everything long ago)
and check, through ``sys.modules``, that modules a run does not need stay
unloaded. They assert what is loaded, never how long anything takes.
"""

from __future__ import annotations

import io
import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardgen import progress as progress_module
from cardgen.progress import TerminalProgress
from cli_modules import fresh_env, run_cli_modules

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = ROOT / "tests" / "fixtures" / "valid" / "minimal"


# Import the given modules only (no command runs), then print the loaded modules as JSON.
IMPORTER = textwrap.dedent(
    """
    import importlib, json, sys
    for name in sys.argv[1:]:
        importlib.import_module(name)
    print(json.dumps(sorted(sys.modules)))
    """
)

NEVER_IN_A_QUIET_BUILD = (
    "rich",  # the progress bar: nothing is drawn with --quiet
    "cardgen.engine.parallel",  # the worker pool, the simulation and its metrics: a build does not simulate
    "cardgen.engine.checks",
    "cardgen.engine.quick",
    "cardgen.engine.balance",
    "cardgen.engine.playout",
    "cardgen.engine.replay",
    "multiprocessing",
    "cardgen.report",  # other commands' machinery
    "cardgen.export.preview",
    "cardgen.export.tts",
    "cardgen.export.profiles",
    "cardgen.export.raster",
    "cardgen.scaffold",
    "pypdfium2",
    "svgwrite",  # the face SVGs are written with the standard library's ElementTree
    "urllib.request",  # (xml.sax.saxutils brings it, with http.client and ssl: the rulebook escapes with html.escape)
    "ssl",
)


def _loaded_by(module: str, modules: list[str]) -> list[str]:
    """``module`` and its submodules among ``modules``."""
    return [name for name in modules if name == module or name.startswith(module + ".")]


def _import_only(*modules: str) -> list[str]:
    """Every module loaded by a fresh interpreter that imports ``modules``."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORTER, *modules],
        cwd=ROOT, env=fresh_env(), capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_a_quiet_build_loads_no_progress_bar_engine_or_exporter(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, modules = run_cli_modules(tmp_path, "build", str(MINIMAL), "--out", str(out), "--quiet")
    assert code == 0
    # It really built: the producers ran and wrote the game's files.
    assert {"cardgen.build", "cardgen.render.produce", "cardgen.rulebook.produce"} <= set(modules)
    assert any((out / "minimal").iterdir())
    unexpected = {name: _loaded_by(name, modules) for name in NEVER_IN_A_QUIET_BUILD}
    assert {name: found for name, found in unexpected.items() if found} == {}


def test_building_a_spec_without_rules_loads_no_engine_or_figures(tmp_path: Path) -> None:
    """A rulebook without rules has no figures drawn from the engine: neither the engine nor the figure machinery is loaded."""
    out = tmp_path / "out"
    code, modules = run_cli_modules(tmp_path, "build", str(MINIMAL), "--out", str(out), "--quiet")
    assert code == 0 and any(p.suffix == ".pdf" and "-rules-" in p.name for p in (out / "minimal").iterdir())  # rulebooks were typeset
    unused = ("cardgen.engine", "cardgen.games", "cardgen.rulebook.figures", "cardgen.render.figures", "cardgen.render.table_figure")
    assert {name: _loaded_by(name, modules) for name in unused if _loaded_by(name, modules)} == {}


def test_a_rebuild_from_the_cache_loads_no_catalog_machinery(tmp_path: Path) -> None:
    """The second build of an unchanged spec takes the compiled catalogs and the catalog check's findings from its cache."""
    out = tmp_path / "out"
    first, _ = run_cli_modules(tmp_path, "build", str(MINIMAL), "--out", str(out), "--quiet")
    code, modules = run_cli_modules(tmp_path, "build", str(MINIMAL), "--out", str(out), "--quiet")
    assert first == 0 and code == 0
    assert "cardgen.rulebook.checks" in modules  # the catalog check still ran, from the cache
    assert _loaded_by("babel.messages", modules) == []


def test_the_command_line_alone_loads_no_command_s_dependencies() -> None:
    """Registering every command (what `cardgen --help` and each command pay first) imports none of their machinery."""
    modules = _import_only("cardgen.cli.app")
    heavy = (
        "rich", "statistics", "pydantic", "ruamel", "yaml", "reportlab", "svgwrite", "jinja2", "babel", "PIL",
        "cardgen.build", "cardgen.spec", "cardgen.validate", "cardgen.render", "cardgen.rulebook",
        "cardgen.engine", "cardgen.games", "cardgen.export", "cardgen.report", "cardgen.scaffold", "cardgen.progress",
    )
    assert {name: _loaded_by(name, modules) for name in heavy if _loaded_by(name, modules)} == {}


def test_the_quick_simulation_does_not_load_the_worker_pool_or_replays() -> None:
    """`cardgen validate` plays its quick playouts in-process: multiprocessing and replay files are not needed."""
    modules = _import_only("cardgen.engine.quick", "cardgen.engine.checks")
    assert "cardgen.engine.checks" in modules  # what the quick simulation does need
    assert _loaded_by("multiprocessing", modules) == []
    assert _loaded_by("cardgen.engine.replay", modules) == []
    assert _loaded_by("rich", modules) == []


def test_registering_the_quick_simulation_loads_no_engine() -> None:
    """The check and its finding codes are registered without the simulation, which a spec without rules never runs."""
    modules = _import_only("cardgen.engine.quick")
    assert "cardgen.engine.codes" in modules
    assert [name for name in ("cardgen.engine.checks", "cardgen.engine.core", "cardgen.games") if _loaded_by(name, modules)] == []


def test_help_loads_none_of_the_commands_machinery(tmp_path: Path) -> None:
    code, modules = run_cli_modules(tmp_path, "--help")
    assert code == 0
    heavy = ("pydantic", "yaml", "reportlab", "svgwrite", "jinja2", "babel", "cardgen.spec", "cardgen.render", "cardgen.rulebook", "cardgen.engine")
    assert {name: _loaded_by(name, modules) for name in heavy if _loaded_by(name, modules)} == {}


def test_validating_a_small_spec_loads_no_page_layout_svg_writer_engine_or_game(tmp_path: Path) -> None:
    """`cardgen validate` renders the rulebook's text (a check) but typesets no page, writes no SVG, and simulates a spec without rules not at all."""
    code, modules = run_cli_modules(tmp_path, "validate", str(MINIMAL))
    assert code in (0, 1)
    assert "cardgen.rulebook.build" in modules and "cardgen.render.faces" in modules  # it did render text and faces
    unused = ("reportlab.platypus", "svgwrite", "cardgen.rulebook.pdf", "cardgen.render.svg_backend", "cardgen.render.sheets", "cardgen.engine.checks", "cardgen.games", "multiprocessing")
    assert {name: _loaded_by(name, modules) for name in unused if _loaded_by(name, modules)} == {}


def test_a_print_only_build_loads_no_rulebook_or_svg_machinery(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, modules = run_cli_modules(tmp_path, "build", str(MINIMAL), "--out", str(out), "--only", "print", "--quiet")
    assert code == 0
    assert sorted(p.name for p in (out / "minimal").iterdir()) == sorted(
        f"minimal-{kind}-{paper}{suffix}" for paper in ("a4", "letter") for kind, suffix in (("print", ".pdf"), ("print", ".layout.json"), ("duplex-test", ".pdf"))
    )
    # The how-to-print page writes lengths as the card language does (0,5 mm in Portuguese) with Babel's number
    # formats; Babel's catalog machinery (messages, support) belongs to the rulebook and stays unloaded.
    # Nor does the cache's fingerprint read library versions with importlib.metadata's e-mail parser (folder names tell them).
    unused = ("reportlab.platypus", "jinja2", "babel.messages", "babel.support", "svgwrite", "cardgen.rulebook.build", "cardgen.rulebook.pdf", "cardgen.render.svg_backend", "cardgen.games", "email.parser")
    assert {name: _loaded_by(name, modules) for name in unused if _loaded_by(name, modules)} == {}


def test_the_bench_s_stack_floors_import_only_what_a_build_of_the_bench_job_loads(tmp_path: Path) -> None:
    """bench/job_floor.py --import-stack imports, before doing the floor's job, the libraries cardgen loads for that build:
    never one cardgen does not load (the stack floor would overstate what the stack costs)."""
    spec = importlib.util.spec_from_file_location("job_floor", ROOT / "bench" / "job_floor.py")
    assert spec and spec.loader
    floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floor)
    for stack, extra in (("print", ("--only", "print")), ("all", ())):
        out = tmp_path / stack
        code, modules = run_cli_modules(tmp_path, "build", str(ROOT / "bench" / "job"), "--out", str(out), "--paper", "a4", "--quiet", *extra)
        assert code == 0
        assert [name for name in floor.STACKS[stack] if name not in modules] == [], stack


def test_a_spec_without_rules_data_loads_no_rules_data_models(tmp_path: Path) -> None:
    """The rules-data models (and the checks and rulebook text made from them) load only for a spec holding rules data:
    a build and a validation of a spec without rules import none of them. (No shipped game names a rules module any
    more; the toy fixture's module registers only inside the test process.)"""
    rules_data = ("cardgen.spec.rules_data", "cardgen.spec.rules_check", "cardgen.rulebook.rules_summary")
    for args in (
        ("build", str(MINIMAL), "--out", str(tmp_path / "out"), "--quiet"),
        ("validate", str(MINIMAL)),
    ):
        code, modules = run_cli_modules(tmp_path, *args)
        assert code in (0, 1), args
        assert "cardgen.spec.models" in modules and "cardgen.validate.rules_data" in modules  # the spec was read and its checks ran
        assert {name for name in rules_data if name in modules} == set(), args
    code, modules = run_cli_modules(tmp_path, "validate", str(ROOT / "specs" / "no-thanks"), "--no-sim")
    assert code in (0, 1) and set(rules_data) <= set(modules)  # a spec holding rules data does load them


def test_a_cold_build_after_a_first_one_takes_number_words_from_the_user_store(tmp_path: Path) -> None:
    """Spelled-out numbers (num2words) are kept in this user's store: a build into a new output folder imports no num2words;
    ``--no-cache`` takes nothing from the store and makes them afresh."""
    first, before = run_cli_modules(tmp_path, "build", str(MINIMAL), "--out", str(tmp_path / "one"), "--quiet")
    cold, modules = run_cli_modules(tmp_path, "build", str(MINIMAL), "--out", str(tmp_path / "two"), "--quiet")
    plain, afresh = run_cli_modules(tmp_path, "build", str(MINIMAL), "--out", str(tmp_path / "three"), "--quiet", "--no-cache")
    assert first == cold == plain == 0
    assert "cardgen.validate.prose" in modules and _loaded_by("num2words", modules) == []  # the check ran, from the store
    assert "num2words" in before and "num2words" in afresh
    assert _store_files("number-words") and _store_files("templates")


def test_importing_the_render_models_builds_no_validation_schema() -> None:
    """Widget parameters, layouts, sheet templates and print-shop profiles build their pydantic schemas when first
    used (``defer_build``), not when imported: a deck uses a few widgets of the dozens registered."""
    script = textwrap.dedent(
        """
        import json
        import pydantic
        import cardgen.render.widgets, cardgen.render.layouts, cardgen.render.sheets, cardgen.export.profiles
        def every(cls):
            for sub in cls.__subclasses__():
                yield sub
                yield from every(sub)
        models = {m.__module__ + "." + m.__qualname__: m.__pydantic_complete__ for m in every(pydantic.BaseModel) if m.__module__.startswith(("cardgen.render", "cardgen.games", "cardgen.export"))}
        print(json.dumps(models))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=fresh_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    models: dict[str, bool] = json.loads(done.stdout)
    assert any(name.startswith("cardgen.render.standard_widgets.") for name in models)  # the widgets' models were seen
    assert {name for name, built in models.items() if built} == set()


def _store_files(kind: str) -> list[str]:
    """The entries of this test's user store of ``kind`` (the root conftest.py gives every test its own)."""
    folder = Path(os.environ["XDG_CACHE_HOME"]) / "cardgen" / kind
    return sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []


class _Stream(io.StringIO):
    """A text stream that says whether it is a terminal."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@pytest.fixture
def plain_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No environment variable forcing rich to treat the stream as a terminal."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    return monkeypatch


def test_a_quiet_progress_or_one_off_a_terminal_sets_up_no_bar(plain_env: pytest.MonkeyPatch) -> None:
    plain_env.setattr(sys, "stderr", _Stream(tty=True))
    assert not TerminalProgress("x", quiet=True).shown
    plain_env.setattr(sys, "stderr", _Stream(tty=False))
    assert not TerminalProgress("x").shown
    with TerminalProgress("x") as bar:  # the hook still takes every call
        bar.start(3)
        bar.advance(2)


def test_a_terminal_still_gets_the_bar(plain_env: pytest.MonkeyPatch) -> None:
    plain_env.setattr(sys, "stderr", _Stream(tty=True))
    assert TerminalProgress("x").shown
    plain_env.setattr(sys, "stderr", _Stream(tty=False))
    for name, value in (("FORCE_COLOR", "1"), ("TTY_COMPATIBLE", "1")):
        plain_env.setenv(name, value)
        assert not progress_module.stderr_surely_not_a_terminal()
        assert TerminalProgress("x").shown  # rich decides, as before
        plain_env.delenv(name)


def test_the_command_line_leaves_pydantic_plugins_out_unless_the_user_asks(tmp_path: Path) -> None:
    """The command line sets PYDANTIC_DISABLE_PLUGINS for its process (so pydantic reads no distribution's entry points),
    but a value the user set, even empty, stands."""
    probe = "import os, sys; from cardgen.cli.app import main; sys.argv = ['cardgen', '--help']\ntry:\n    main()\nexcept SystemExit:\n    pass\nprint(repr(os.environ.get('PYDANTIC_DISABLE_PLUGINS')))"
    for given, expected in ((None, "'__all__'"), ("", "''"), ("logfire", "'logfire'")):
        env = fresh_env()
        env.pop("PYDANTIC_DISABLE_PLUGINS", None)
        if given is not None:
            env["PYDANTIC_DISABLE_PLUGINS"] = given
        done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert done.stdout.strip().splitlines()[-1] == expected, done.stderr


def test_the_command_line_collects_garbage_in_big_batches() -> None:
    """A run sets the collector's thresholds and freezes the heap when done (with Python's defaults, collecting took about a fifth of a rebuild)."""
    probe = textwrap.dedent(
        """
        import gc, sys
        from cardgen.cli.app import GC_THRESHOLDS, main
        sys.argv = ["cardgen", "--help"]
        try:
            main()
        except SystemExit:
            pass
        print(gc.get_threshold() == GC_THRESHOLDS, GC_THRESHOLDS[0] > 700, gc.get_freeze_count() > 0)
        """
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=fresh_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-3:] == ["True", "True", "True"]  # and the heap is frozen for the exit


def test_the_cross_checks_alone_load_no_face_or_rulebook_checks() -> None:
    """A validation of the static cross-checks only (what each variant of `cardgen sweep` runs) imports neither the face checks
    (the render layer's widgets, layouts and fonts) nor the rulebook checks (the catalogs' machinery), and finds what it finds
    with every check module loaded."""
    probe = textwrap.dedent(
        """
        import json, sys
        from pathlib import Path
        from cardgen.catalogue import validate_folder
        found = validate_folder(Path(sys.argv[1]), ["static"]).findings
        print(json.dumps({"modules": sorted(sys.modules), "findings": sorted(f.code for f in found)}))
        """
    )
    folder = ROOT / "specs" / "keramikos"
    done = subprocess.run([sys.executable, "-c", probe, str(folder)], cwd=ROOT, env=fresh_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    unused = ("cardgen.render.checks", "cardgen.render.faces", "cardgen.render.widgets", "cardgen.rulebook", "cardgen.engine.quick")
    assert {name: _loaded_by(name, answer["modules"]) for name in unused if _loaded_by(name, answer["modules"])} == {}
    from cardgen.catalogue import load_check_modules, validate_folder

    load_check_modules()  # (this process: every check module registered)
    assert answer["findings"] == sorted(f.code for f in validate_folder(folder, ["static"]).findings)


def test_a_check_module_imported_for_one_kind_registers_checks_of_that_kind_only() -> None:
    """The catalogue imports a module of MODULE_KINDS only when its kind runs, so that module must register no other kind."""
    from cardgen.catalogue import CHECK_MODULES, MODULE_KINDS, load_check_modules
    from cardgen.validate.registry import registered_checks

    load_check_modules()
    checks = list(registered_checks(["static", "render", "i18n", "sim"]))
    assert {check.run.__module__ for check in checks} <= set(CHECK_MODULES)  # (every check is told by the module defining it)
    for module, kind in MODULE_KINDS.items():
        kinds = {check.kind for check in checks if check.run.__module__ == module}
        assert kinds == {kind}, module
