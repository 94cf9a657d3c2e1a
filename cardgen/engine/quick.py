"""The engine's part of ``cardgen validate``: a quick simulation registered as a 'sim' check.

Importing this module registers the check and the engine's finding codes
(CG500-CG599) with the validator's registry.
"""

from __future__ import annotations

from typing import Iterable

from cardgen.engine.codes import CHECK_CODES
from cardgen.findings import Finding
from cardgen.spec.load import LoadedSpec
from cardgen.validate.registry import register_check, register_codes


def quick_simulation(loaded: LoadedSpec) -> Iterable[Finding]:
    """The findings of :func:`cardgen.engine.checks.quick_checks` (no finding when nothing is simulated)."""
    if loaded.spec is None or loaded.spec.rules is None:
        return []  # nothing to simulate: the engine is not even imported
    from cardgen.engine.checks import quick_checks

    return quick_checks(loaded).findings


register_codes(CHECK_CODES)
register_check("engine-quick-simulation", "sim", quick_simulation)
