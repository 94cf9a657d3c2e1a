"""The ``cardgen`` command line: a thin typer app.

Each ``cardgen/cli/cmd_*.py`` module defines ``register(app)`` and adds its
commands; this module only builds the app, finds those modules, and maps errors
to exit codes: 0 clean, 1 findings of severity error, 2 usage or input errors.
A user's mistake never prints a traceback unless ``--debug`` is given.
"""

from __future__ import annotations

import copy
import gc
import importlib
import os
import pkgutil
import sys
from typing import Annotated, NoReturn

import typer
from typer.main import get_command_name

from cardgen.cli.errors import os_error_line, usage_line
from cardgen.findings import InputError

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_INPUT = 2
INTERRUPTED = "interrupted; nothing half-written was left in place"

app = typer.Typer(
    name="cardgen",
    help="Turn a card game kept as data into print sheets, bilingual rulebooks and a solvability report.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_state = {"debug": False}


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show a full traceback when something goes wrong.")] = False,
) -> None:
    """cardgen: specs in, print-and-play release out."""
    _state["debug"] = debug


def debug_enabled() -> bool:
    """Whether ``--debug`` was given."""
    return _state["debug"]


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """Print one error line to stderr and exit with ``code``."""
    typer.echo(message, err=True)
    raise typer.Exit(code)


def _register_commands() -> None:
    from cardgen import cli

    for module in sorted(pkgutil.iter_modules(cli.__path__), key=lambda m: m.name):
        if module.name.startswith("cmd_"):
            importlib.import_module(f"cardgen.cli.{module.name}").register(app)


_register_commands()


def app_for(args: list[str]) -> typer.Typer:
    """The app that runs ``args``: when they name a command (or command group), an app holding that one alone.

    Typer turns every registered command into a click command, inspecting each one's parameters, before it
    runs any (about 25 ms for cardgen's twenty-two); a run needs only the one it names. The narrowed app keeps the
    root's options, callback and settings, so the command's parsing, help and errors are the same. Anything
    else (no command, an option first, a name no command has) runs the whole app, which lists the commands or
    says which name is unknown.
    """
    if not args or args[0].startswith("-"):
        return app
    name = args[0]
    commands = [c for c in app.registered_commands if (c.name or get_command_name(getattr(c.callback, "__name__", ""))) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if len(commands) + len(groups) != 1:
        return app
    narrow = copy.copy(app)
    narrow.registered_commands = commands
    narrow.registered_groups = groups
    return narrow


GC_THRESHOLDS = (50_000, 50, 100)
"""Collector thresholds for a command-line run (Python's default is 700, 10, 10); see :func:`main`.

A run imports a few hundred modules and builds many short-lived objects
(schemas, scenes, PDF operators) that hold no reference cycles worth chasing;
with the default, the cyclic collector scans the growing heap hundreds of
times, about a tenth of a one-card rebuild. Memory still gets collected, in
bigger batches: a build's peak grows by about 1 MB.
"""


PYDANTIC_PLUGINS_SWITCH = "PYDANTIC_DISABLE_PLUGINS"
"""Set to ``__all__`` for the command line's process unless the user set it: cardgen's models are its own
business, and looking for pydantic plugins means reading every installed distribution's entry points
(about a twentieth of a small build). A user who wants plugins to see cardgen's validation sets it empty."""


def main() -> None:
    """Entry point of the console script."""
    gc.set_threshold(*GC_THRESHOLDS)
    os.environ.setdefault(PYDANTIC_PLUGINS_SWITCH, "__all__")
    try:
        _run()
    finally:
        # The command is done and every file it wrote is closed. Leave the heap to the
        # operating system: otherwise the interpreter's exit runs full collections over
        # every object a build made (about a tenth of a second after a rebuild).
        gc.freeze()


def _run() -> None:
    """Run the app, mapping errors to one line and an exit code."""
    debug = "--debug" in sys.argv[1:]
    words = sys.argv[1:]
    while words[:1] == ["--debug"]:  # (the root's one option, given before the command)
        words = words[1:]
    try:
        code = app_for(words)(standalone_mode=False)
    except typer.TyperException as error:  # click's usage errors: one line, not a framed box
        if debug:
            raise
        typer.echo(usage_line(error), err=True)
        sys.exit(getattr(error, "exit_code", EXIT_INPUT))
    except typer.Abort:
        typer.echo(INTERRUPTED, err=True)
        sys.exit(130)
    except SystemExit as stop:
        if stop.code == 130:  # typer turns Ctrl-C into a silent exit 130; say what happened
            typer.echo(INTERRUPTED, err=True)
        raise
    except InputError as error:
        if debug:
            raise
        typer.echo(error.render(), err=True)
        sys.exit(EXIT_INPUT)
    except KeyboardInterrupt:
        typer.echo(INTERRUPTED, err=True)
        sys.exit(130)
    except OSError as error:  # the file system refused (a full or read-only disk, a file where a folder goes): the user's to fix
        if debug:
            raise
        typer.echo(os_error_line(error), err=True)
        sys.exit(EXIT_INPUT)
    except Exception as error:  # a bug in cardgen, not the user's mistake
        if debug:
            raise
        typer.echo(f"internal error: {type(error).__name__}: {error} (run with --debug for the traceback)", err=True)
        sys.exit(3)
    if isinstance(code, int) and code:  # typer.Exit(code) comes back as the return value outside standalone mode
        if code == 130:
            typer.echo(INTERRUPTED, err=True)
        sys.exit(code)

