"""Shared helpers for the sweep tests: the toy game (registered here) and small settings."""

from __future__ import annotations

from pathlib import Path

from engine import toy_rules  # noqa: F401  (registers the toy rules module, as the engine tests do)

TOY = Path(__file__).resolve().parents[1] / "fixtures" / "toy"
MAUSOLEUM = Path(__file__).resolve().parents[2] / "specs" / "mausoleum-guardians"
