"""The command line is declared in typer's current style: every parameter an ``Annotated`` type, no typer call as a default."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _typer_calls_as_defaults(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            if isinstance(default, ast.Call) and isinstance(default.func, ast.Attribute) and default.func.attr in ("Option", "Argument"):
                found.append(f"{path.name}:{default.lineno} ({node.name})")
    return found


def test_no_command_takes_a_typer_call_as_a_default() -> None:
    modules = sorted((ROOT / "cardgen" / "cli").glob("*.py"))
    assert len(modules) > 5
    found = [where for path in modules for where in _typer_calls_as_defaults(path)]
    assert not found, found


def test_the_check_sees_the_old_style(tmp_path: Path) -> None:
    old = tmp_path / "old.py"
    old.write_text('import typer\n\ndef cmd(game: str = typer.Argument(..., help="x")) -> None:\n    pass\n', encoding="utf-8")
    assert _typer_calls_as_defaults(old) == ["old.py:3 (cmd)"]
