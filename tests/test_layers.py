"""Imports point down the layers: every ``import`` of cardgen's code, at any depth of a module (function-level
imports included) and every module named by a string (``importlib.import_module("cardgen....")``), goes to a
layer at or below the importing module's own.

The few edges that still point up are named in ``UPWARD`` with the reason they exist; a new upward edge fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "cardgen"

LAYERS: dict[str, int] = {
    # the base: no cardgen imports above it
    "findings": 0, "limits": 0, "processors": 0, "resources": 0, "links": 0, "fsmove": 0, "progress": 0, "cache": 0, "publish": 0, "data": 0,
    "spec": 1,
    "validate": 2, "artefacts": 2,
    "engine": 3,
    "render": 4,
    "games": 5,
    "rulebook": 6,
    "export": 7, "report": 7, "scaffold": 7, "catalogue": 7,
    "sweep": 8,
    "build": 9, "build_parts": 9,
    "api": 10, "__init__": 10,
    "cli": 11, "__main__": 12,
}
"""Each top-level module or package of cardgen and its layer (a module may import its own layer and those below)."""

UPWARD: dict[tuple[str, str], str] = {
    ("validate", "engine"): "the contract and rules-module checks ask the rules registry what a rules module reads",
    ("validate", "games"): "the rules-module check reports a game package that failed to import",
    ("engine", "games"): "game discovery: the rules registry imports every game package (plugins)",
    ("render", "games"): "widget discovery: the widget registry imports each game package's widgets (plugins)",
}
"""Known upward edges (importer layer, imported layer) -> why. Shrink this; never grow it without a reason."""


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> set[str]:
    """Every cardgen module ``path`` imports, at any depth, or names in a string."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "cardgen":
                found.update(f"cardgen.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if text.startswith("cardgen.") and all(part.isidentifier() for part in text.split(".")):
                found.add(text)
    return {name for name in found if name.startswith("cardgen.")}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_every_top_level_module_has_a_layer() -> None:
    names = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir() if (p.suffix == ".py" or (p / "__init__.py").exists())}
    assert names - set(LAYERS) == set()


def test_imports_point_down() -> None:
    upward: dict[tuple[str, str], list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        own = _top(module)
        for name in _imports(path):
            target = _top(name)
            if target not in LAYERS or own not in LAYERS:
                continue
            if LAYERS[target] > LAYERS[own]:
                upward.setdefault((own, target), []).append(f"{module} -> {name}")
    unexplained = {edge: where for edge, where in upward.items() if edge not in UPWARD}
    assert unexplained == {}, "imports that point up the layers"
    stale = set(UPWARD) - set(upward)
    assert stale == set(), f"UPWARD names edges that no longer exist; remove them: {sorted(stale)}"


def test_the_spec_layer_has_no_import_cycle() -> None:
    """Inside ``cardgen.spec`` no two modules import each other, directly or round a loop (function-level imports count)."""
    folder = PACKAGE / "spec"
    graph = {_module_name(path): {name for name in _imports(path) if name.startswith("cardgen.spec.")} for path in folder.glob("*.py")}
    done: set[str] = set()

    def visit(module: str, trail: tuple[str, ...]) -> None:
        assert module not in trail, f"import cycle: {' -> '.join(trail[trail.index(module):] + (module,))}"
        if module in done:
            return
        for name in sorted(graph.get(module, ())):
            visit(name, trail + (module,))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())
