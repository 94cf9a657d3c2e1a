"""What every test shares: a private per-user store, so no test reads or writes the runner's own ``~/.cache/cardgen``."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_user_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test (and every process it starts) gets an empty store of its own (see :func:`cardgen.cache.user_store`)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
