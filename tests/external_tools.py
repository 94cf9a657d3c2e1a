"""Programs some tests read their results with (Chromium, qpdf, Ghostscript, msgfmt): found, or the test stops.

The README's first set-up command installs them (``.ci/install-test-tools``). Where one is missing the
test is skipped on a person's machine, and fails under CI (``CI`` set in the environment), where the
set-up step must have installed it: a missing reader there is a broken set-up, not a reason to pass.
"""

from __future__ import annotations

import os
import shutil

import pytest

PACKAGES = {"chromium": "chromium", "qpdf": "qpdf", "gs": "ghostscript", "msgfmt": "gettext"}
"""Each program and the Debian package that installs it."""


def need(program: str) -> str:
    """The path of ``program``; skips the test without it, or fails it when ``CI`` is set."""
    path = shutil.which(program)
    if path is not None:
        return path
    package = PACKAGES.get(program, program)
    message = f"{program} is not installed (Debian package {package!r}; the README's first set-up command installs it)"
    if os.environ.get("CI"):
        pytest.fail(message + "; CI must have it")
    pytest.skip(message)


def optional(program: str) -> str | None:
    """The path of ``program`` for a test that checks more besides; None without it, except under ``CI``, where it fails."""
    path = shutil.which(program)
    if path is None and os.environ.get("CI"):
        pytest.fail(f"{program} is not installed (Debian package {PACKAGES.get(program, program)!r}); CI must have it")
    return path
