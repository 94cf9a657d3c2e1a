"""Results of reading files kept for later processes: the cache protocol, the scope a build sets, sealed entries."""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Protocol


class ResultCache(Protocol):
    """Where a loader or a check keeps a result for later processes (a build's :class:`cardgen.cache.ArtefactCache`).

    Keys come from :meth:`key`, which covers cardgen's code and the versions
    of the libraries it uses besides the parts given; a result is stored only
    when it is a deterministic function of those parts.
    """

    def key(self, *parts: object) -> str:
        """A hex key over the code fingerprint and ``parts``."""
        ...

    def get(self, key: str) -> bytes | None:
        """The bytes stored under ``key`` (marking it used by this build), or None."""
        ...

    def put(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key``; failing to store is not an error."""
        ...


_PARSE_CACHE: ContextVar[ResultCache | None] = ContextVar("cardgen_parse_cache", default=None)


@contextmanager
def parse_cache_scope(cache: ResultCache | None) -> Iterator[None]:
    """Make ``cache`` the :func:`active_parse_cache` for the duration (a build sets its own).

    Spec files are loaded with an explicit cache (``load_spec(folder, cache=...)``);
    files read deeper down, where no cache is passed (a deck's layout file),
    use this one.
    """
    token = _PARSE_CACHE.set(cache)
    try:
        yield
    finally:
        _PARSE_CACHE.reset(token)


def active_parse_cache() -> ResultCache | None:
    """The cache set by the enclosing :func:`parse_cache_scope`, or None (outside a build)."""
    return _PARSE_CACHE.get()


def seal_entry(kind: str, payload: bytes) -> bytes:
    """A cache entry: a header naming ``kind`` and the sha256 of ``payload``, then ``payload``."""
    return f"cardgen:{kind}:{hashlib.sha256(payload).hexdigest()}\n".encode("ascii") + payload


def open_entry(kind: str, entry: bytes | None) -> bytes | None:
    """The payload of an entry made by :func:`seal_entry` for ``kind``; None when missing, foreign, truncated or altered."""
    if entry is None:
        return None
    header, newline, payload = entry.partition(b"\n")
    if not newline or header != f"cardgen:{kind}:{hashlib.sha256(payload).hexdigest()}".encode("ascii"):
        return None
    return payload
