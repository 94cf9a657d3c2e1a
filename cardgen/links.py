"""Which links cardgen writes into its PDFs, Markdown and pages: http, https and mailto only.

A spec's URLs (the licence's, the source's) become PDF link actions and
Markdown links. A ``javascript:``, ``file:`` or ``data:`` URL there would run
code or reach the reader's disk when clicked, so the spec refuses any other
scheme (:func:`link_problem`, used by the spec models) and every writer checks
again (:func:`safe_link`), so a link from anywhere else (a spec's own rulebook
template) is held to the same rule.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

ALLOWED_SCHEMES = ("http", "https", "mailto")
"""The only URL schemes a link may use."""
_FORBIDDEN = frozenset('<>"\\`{}|^') | frozenset(chr(c) for c in range(0x21)) | frozenset(chr(c) for c in range(0x7F, 0xA0))
"""Characters a link may not hold raw: controls, spaces and those that end a link in HTML or Markdown."""
_KEPT_IN_MARKDOWN = ":/?#[]@!$&'()*+,;=%~-._"
"""Characters left as they are when a link is written into Markdown; everything else is percent-encoded."""


def link_problem(url: str) -> str | None:
    """Why ``url`` may not be a link (one sentence), or None when it is an http, https or mailto URL."""
    bad = next((ch for ch in url if ch in _FORBIDDEN), None)
    if bad is not None:
        return f"a link may not hold {bad!r} (percent-encode it, e.g. a space as %20)"
    try:
        parts = urlsplit(url)
    except ValueError as error:
        return f"not a URL ({error})"
    scheme = parts.scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        shown = f"the scheme {scheme + ':'!r}" if scheme else "no scheme"
        return f"a link must be http://, https:// or mailto:, not {shown}"
    if scheme in ("http", "https") and not parts.netloc:
        return f"a {scheme} link needs a host, as in {scheme}://example.org/"
    if scheme == "mailto" and not parts.path:
        return "a mailto link needs an address, as in mailto:someone@example.org"
    return None


def safe_link(url: str) -> str:
    """``url`` when it may be a link (see :func:`link_problem`) or a same-document anchor (``#name``); else ""."""
    if url.startswith("#") and not any(ch in _FORBIDDEN for ch in url):
        return url
    return url if link_problem(url) is None else ""


def markdown_destination(url: str) -> str:
    """A safe link percent-encoded for a Markdown link destination: nothing in it can end the link or start another."""
    return quote(url, safe=_KEPT_IN_MARKDOWN)
