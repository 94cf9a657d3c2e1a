"""Shared fixtures for the engine tests: the toy game and its deliberately broken variants."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from cardgen.spec.load import LoadedSpec, load_spec

from . import toy_rules  # noqa: F401  (registers the toy rules module)

TOY = Path(__file__).resolve().parents[1] / "fixtures" / "toy"

CURSED_CARD = """      - id: cursed
        name: {en: Cursed Pebble, pt_BR: Pedrinha Amaldiçoada}
        effect: cursed
        data: {value: 2}
"""


def toy_variant(folder: Path, numbers: dict[str, int] | None = None, cursed: bool = False) -> Path:
    """Write a copy of the toy spec into ``folder`` with some numbers changed and maybe a card no one can take."""
    text = (TOY / "game.yaml").read_text(encoding="utf-8")
    for name, value in (numbers or {}).items():
        lines = text.splitlines()
        hits = [i for i, line in enumerate(lines) if line.startswith(f"  {name}:")]
        assert hits, name
        lines[hits[0]] = f"  {name}: {value}"
        text = "\n".join(lines) + "\n"
    if cursed:
        anchor = "setups:\n"
        text = text.replace(anchor, CURSED_CARD + anchor)
        text = text.replace("count: 12,", "count: 13,")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def load_ok(folder: Path) -> LoadedSpec:
    """Load a spec folder and insist it loaded cleanly."""
    loaded = load_spec(folder)
    assert loaded.spec is not None, loaded.findings
    assert not loaded.findings, loaded.findings
    return loaded


@pytest.fixture
def toy() -> LoadedSpec:
    """The toy spec as written."""
    return load_ok(TOY)


@pytest.fixture
def variant(tmp_path: Path) -> Callable[..., LoadedSpec]:
    """Build and load a toy variant in a temporary folder."""

    def make(numbers: dict[str, int] | None = None, cursed: bool = False, name: str = "toy") -> LoadedSpec:
        return load_ok(toy_variant(tmp_path / name, numbers, cursed))

    return make
