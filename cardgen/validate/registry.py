"""The registry of validation checks, and the catalogue of finding codes.

Any layer can add checks: the spec layer registers the static cross-checks, the
renderer its text-fit and palette checks, the engine its quick simulation. A
check takes a loaded spec whose schema validated and yields findings. Each
check has a kind so that ``cardgen validate --no-sim`` can skip simulation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Literal

from cardgen.findings import Finding
from cardgen.spec.load import LoadedSpec

CheckKind = Literal["static", "render", "i18n", "sim"]
CheckFunction = Callable[[LoadedSpec], Iterable[Finding]]


@dataclass(frozen=True)
class Check:
    """One named check over a loaded spec."""

    name: str
    kind: CheckKind
    run: CheckFunction


_CHECKS: dict[str, Check] = {}
CODES: dict[str, str] = {}
"""Every finding code cardgen can report, with a one-line description (docs/findings.md is made from it)."""


def register_check(name: str, kind: CheckKind, run: CheckFunction) -> None:
    """Add (or replace) a named check."""
    _CHECKS[name] = Check(name, kind, run)


def register_codes(codes: dict[str, str]) -> None:
    """Declare finding codes and what they mean."""
    CODES.update(codes)


def registered_checks(kinds: Iterable[CheckKind]) -> list[Check]:
    """The checks of the given kinds, in registration order."""
    wanted = set(kinds)
    return [check for check in _CHECKS.values() if check.kind in wanted]


def check(name: str, kind: CheckKind) -> Callable[[CheckFunction], CheckFunction]:
    """Decorator form of :func:`register_check`."""

    def wrap(function: CheckFunction) -> CheckFunction:
        register_check(name, kind, function)
        return function

    return wrap
