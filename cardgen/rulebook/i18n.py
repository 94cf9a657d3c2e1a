"""gettext catalogs for the rulebook's generic prose, managed with Babel.

Game content (card names, rules prose, clarifications) is *not* here: it lives
in the spec as LocalText. The catalogs carry only what the templates and this
package say about any game: headings, table headers, sentences with numbers,
plural forms.

Layout::

    templates/rulebook/*.j2                      message sources (Jinja2 {% trans %})
    cardgen/rulebook/*.py                        message sources (N_() / gettext calls)
    locales/cardgen.pot                          the extracted template
    locales/<locale>/LC_MESSAGES/cardgen.po      one catalog per locale

Decision on compiled catalogs: no ``.mo`` file is committed or read from the
checkout at run time. :func:`translations` compiles the ``.po`` in memory (it
is small, and this can never go stale); inside a build the compiled bytes are
kept in the build's cache under the ``.po`` file's sha256, so they are exactly
as fresh. ``cardgen i18n compile`` still writes ``.mo`` files, into
``build/locales/`` (ignored by git), for tools that want them.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TYPE_CHECKING, cast

from markupsafe import escape

from cardgen import __version__
from cardgen.spec.files import read_bytes
from cardgen.spec.parse_cache import active_parse_cache, open_entry, ResultCache, seal_entry
from cardgen.resources import CHECKOUT, LOCALES, TEMPLATES

if TYPE_CHECKING:
    from babel.support import NullTranslations, Translations
    from babel.messages.catalog import Catalog, Message

# Babel (its translations, and the catalog machinery: PO parsing and writing, message extraction) is
# imported by the functions that use it: a build whose compiled catalogs and catalog-check findings
# come from its cache needs none of the catalog machinery, and one that prints no rulebook none of Babel.

PROJECT_ROOT: Path = CHECKOUT
"""The repository root (templates/ and locales/ live there)."""
TEMPLATES_DIR: Path = TEMPLATES / "rulebook"
"""The bundled rulebook templates."""
LOCALES_DIR: Path = LOCALES
"""The gettext catalogs."""
PYTHON_SOURCES_DIR: Path = Path(__file__).resolve().parent
"""Python modules whose N_()/gettext messages belong to the catalog."""
DOMAIN = "cardgen"
SOURCE_LOCALE = "en"
"""The language the messages are written in; it needs no catalog."""
MO_BUILD_DIR: Path = PROJECT_ROOT / "build" / "locales"
"""Where ``cardgen i18n compile`` writes .mo files by default."""

KEYWORDS: dict[str, object] = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "NC_": ((1, "c"), 2), "NP_": (1, 2)}
"""Function names whose string arguments are messages."""
TEMPLATE_SUFFIX = ".j2"
JINJA_OPTIONS: dict[str, object] = {"trimmed": "true", "newstyle_gettext": "true"}
"""Options for Jinja2's Babel extractor; they must match the rendering environment."""
PROJECT_NAME = "cardgen"
COPYRIGHT = "the cardgen authors"
MSGID_BUGS = "the cardgen issue tracker"


def N_(message: str) -> str:
    """Mark a Python string as a message for extraction; translated later with gettext."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark a Python string as a message with a context (``msgctxt``), for extraction; translated later with pgettext."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a Python message with plural forms for extraction; translated later with ngettext."""
    return singular, plural


def pot_path(root: Path = LOCALES_DIR) -> Path:
    """The extracted template catalog."""
    return root / f"{DOMAIN}.pot"


def po_path(locale: str, root: Path = LOCALES_DIR) -> Path:
    """The catalog of ``locale``."""
    return root / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


LOCALE_NAME = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")
"""A locale as catalogs are named: ``pt_BR``, ``en``, ``fr`` (matched whole)."""


def locale_problem(name: str) -> str | None:
    """Why ``name`` cannot name a catalog (one sentence), or None when Babel knows it as a locale."""
    from babel import Locale, UnknownLocaleError

    if not LOCALE_NAME.fullmatch(name):
        return f"{name!r} is not a locale name such as pt_BR or fr"
    try:
        Locale.parse(name)
    except (UnknownLocaleError, ValueError):
        return f"{name!r} is not a locale Babel knows"
    return None


def catalog_locales(root: Path = LOCALES_DIR) -> list[str]:
    """Every locale that has a catalog under ``root``, sorted."""
    if not root.is_dir():
        return []
    return sorted(p.parent.parent.name for p in root.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def _relative(path: Path) -> str:
    try:
        return path.resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def message_sources(templates_dir: Path = TEMPLATES_DIR, python_dir: Path = PYTHON_SOURCES_DIR) -> list[Path]:
    """The files messages are extracted from, in a stable order."""
    templates = sorted(templates_dir.rglob(f"*{TEMPLATE_SUFFIX}")) if templates_dir.is_dir() else []
    python = sorted(python_dir.glob("*.py")) if python_dir.is_dir() else []
    # named mechanics' phrases (see cardgen.spec.rules_mechanics): every game package's phrases.py
    games = sorted((python_dir.parent / "games").glob("*/phrases.py")) if python_dir.is_dir() else []
    return templates + python + games


def extract_catalog(templates_dir: Path = TEMPLATES_DIR, python_dir: Path = PYTHON_SOURCES_DIR) -> Catalog:
    """Extract every message of the templates and the rulebook's Python code into a fresh catalog."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract
    from jinja2.ext import babel_extract

    catalog = Catalog(
        project=PROJECT_NAME,
        version=__version__,
        copyright_holder=COPYRIGHT,
        msgid_bugs_address=MSGID_BUGS,
        fuzzy=False,
        charset="utf-8",
    )
    for path in message_sources(templates_dir, python_dir):
        method = babel_extract if path.suffix == TEMPLATE_SUFFIX else "python"
        options = JINJA_OPTIONS if path.suffix == TEMPLATE_SUFFIX else {}
        with path.open("rb") as handle:
            for lineno, message, comments, context in extract(
                method, handle, KEYWORDS, comment_tags=("Translators:",), options=options, strip_comment_tags=True  # type: ignore[arg-type]
            ):
                catalog.add(message, None, [(_relative(path), lineno)], auto_comments=comments, context=context)
    return catalog


def _normal_string(value: object) -> str:
    """A msgstr compared by content: None, "" and a tuple of empty plural forms are all empty."""
    if isinstance(value, (tuple, list)):
        return "" if not any(value) else repr(tuple(v or "" for v in value))
    return repr(value or "")


def _messages_signature(catalog: Catalog) -> list[tuple[object, ...]]:
    """What matters in a catalog for deciding whether to rewrite it (the header dates and the order of a message's locations do not)."""
    return sorted(
        (repr(m.id), _normal_string(m.string), m.context or "", tuple(sorted(m.locations)), m.fuzzy, tuple(m.auto_comments))
        for m in catalog
        if m.id
    )


def _write_catalog(catalog: Catalog, path: Path, previous: Catalog | None) -> bool:
    """Write ``catalog`` as a PO file unless only its header dates would change. Returns whether it wrote."""
    if previous is not None and _messages_signature(previous) == _messages_signature(catalog):
        same_obsolete = sorted(map(repr, previous.obsolete)) == sorted(map(repr, catalog.obsolete))
        if same_obsolete:
            return False
    from babel.messages.pofile import write_po

    buffer = io.BytesIO()
    write_po(buffer, catalog, width=79, sort_by_file=True, include_previous=False, ignore_obsolete=True)
    atomic_write_bytes(path, buffer.getvalue())
    return True


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    """Read a PO/POT file with Babel."""
    from babel.messages.pofile import read_po

    raw = read_bytes(path, _relative(path))  # bounded: a device or a runaway file cannot make it endless
    return read_po(io.BytesIO(raw), locale=locale, abort_invalid=False)


def write_pot(root: Path = LOCALES_DIR) -> tuple[Path, bool]:
    """Extract messages and write ``cardgen.pot``; returns the path and whether it changed."""
    path = pot_path(root)
    fresh = extract_catalog()
    previous = read_catalog(path) if path.is_file() else None
    if previous is not None:
        fresh.creation_date = previous.creation_date
    return path, _write_catalog(fresh, path, previous)


def update_locale(locale: str, root: Path = LOCALES_DIR) -> tuple[Path, bool]:
    """Merge the current messages into the catalog of ``locale`` (created when missing).

    New messages come in untranslated (similar old ones are matched as fuzzy
    suggestions, which ``i18n check`` then reports until a translator confirms them).
    """
    template = extract_catalog()
    path = po_path(locale, root)
    if path.is_file():
        previous = read_catalog(path, locale)
        merged = read_catalog(path, locale)
        merged.update(template, no_fuzzy_matching=False, update_header_comment=False)
    else:
        from babel.messages.catalog import Catalog

        previous = None
        merged = Catalog(
            locale=locale, project=PROJECT_NAME, version=__version__, copyright_holder=COPYRIGHT, msgid_bugs_address=MSGID_BUGS, fuzzy=False
        )
        merged.update(template)
    return path, _write_catalog(merged, path, previous)


def compile_locale(locale: str, root: Path = LOCALES_DIR, out_dir: Path = MO_BUILD_DIR) -> Path:
    """Compile the catalog of ``locale`` into ``out_dir/<locale>/LC_MESSAGES/cardgen.mo``."""
    catalog = read_catalog(po_path(locale, root), locale)
    target = out_dir / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"
    atomic_write_bytes(target, mo_bytes(catalog))
    return target


def mo_bytes(catalog: Catalog) -> bytes:
    """The compiled form of ``catalog`` (fuzzy entries left out, as gettext does)."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


_PYTHON_FORMAT = re.compile(r"%(?:\((?P<name>[^)]*)\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]")
_BRACE = re.compile(r"\{\{|\}\}|\{[^{}\s]*\}")
LONE_PERCENT = "% (a lone %; write %% for a percent sign)"
"""How a ``%`` that starts no placeholder is counted: the rulebook formats every message with ``%``, where it fails."""


def placeholders(text: str) -> Counter[str]:
    """The placeholders in a message: ``%(name)s``, ``%s`` and ``{name}``, with their counts (``%%`` and ``{{`` are not).

    A ``%`` that starts no placeholder counts as :data:`LONE_PERCENT`, so a
    translation with one differs from its msgid (which never has one).
    """
    found: Counter[str] = Counter()
    covered = 0
    for match in _PYTHON_FORMAT.finditer(text):
        covered += match.group(0).count("%")
        token = match.group(0)
        if token == "%%":
            continue
        found[f"%({match.group('name')})" if match.group("name") is not None else "%" + token[-1]] += 1
    lone = text.count("%") - covered
    if lone:
        found[LONE_PERCENT] += lone
    for match in _BRACE.finditer(text):
        token = match.group(0)
        if token not in ("{{", "}}"):
            found[token] += 1
    return found


def placeholder_problems(message: Message) -> Iterator[tuple[int, Counter[str], Counter[str]]]:
    """(plural form, its placeholders, the msgid's) for every translated form whose placeholders the msgid does not have.

    A plural form may use the singular's or the plural's placeholders (a
    language's form for one may leave out the number). An empty form is not
    checked here (it is untranslated, and gettext falls back to the msgid).
    """
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
    allowed = [placeholders(i) for i in ids]
    for index, string in enumerate(strings):
        if not string:
            continue
        got = placeholders(string)
        if len(ids) == 1:
            expected = [allowed[0]]
        else:
            expected = [allowed[min(index, 1)]] + [a for a in allowed if a != allowed[min(index, 1)]]
        if got not in expected:
            yield index, got, expected[0]


def usable_catalog(catalog: Catalog) -> Catalog:
    """``catalog`` without the translations the rulebook cannot format (their placeholders differ from the msgid's).

    Those messages fall back to the English msgid, so a renamed placeholder or
    a lone ``%`` in a translation never stops a rulebook; ``cardgen validate``
    and ``cardgen i18n check`` report each as CG304.
    """
    for message in list(catalog):
        if message.id and any(placeholder_problems(message)):
            catalog.delete(message.id, context=message.context)
    return catalog


COMPILED_CATALOG_ENTRY = "gettext-mo-2"
"""The kind (and format version) of a compiled catalog kept in a build's cache."""


@lru_cache(maxsize=16)
def _translations_cached(path: str, mtime_ns: int, locale: str, build_cache: Hashable | None) -> NullTranslations:
    """The catalog at ``path`` compiled: from the build's cache when it holds this very PO file compiled, else with Babel (and kept there).

    A catalog Babel cannot read gives the identity translations (the English
    msgids); ``cardgen validate``, ``build`` and ``rulebook`` report it as
    CG307 at the PO file.

    ``build_cache`` (a :class:`ResultCache`) is part of the memo's key, so a
    long-running process (``cardgen watch``) looks each build's cache up once
    and the entry counts as used by that build.
    """
    from babel.support import NullTranslations, Translations  # (Babel is loaded when a catalog is)

    cache = cast("ResultCache | None", build_cache)
    key = ""
    if cache is not None:
        key = cache.key(COMPILED_CATALOG_ENTRY, locale, hashlib.sha256(Path(path).read_bytes()).hexdigest())
        stored = open_entry(COMPILED_CATALOG_ENTRY, cache.get(key))
        if stored is not None:
            try:
                return Translations(io.BytesIO(stored), domain=DOMAIN)
            except (OSError, ValueError, IndexError, KeyError):  # not a readable .mo: compile afresh
                pass
    try:
        catalog = read_catalog(Path(path), locale)
    except Exception:  # the same failures the catalog check reports as CG307, at the PO file: render in English
        return NullTranslations()
    compiled = mo_bytes(usable_catalog(catalog))
    if cache is not None:
        cache.put(key, seal_entry(COMPILED_CATALOG_ENTRY, compiled))
    return Translations(io.BytesIO(compiled), domain=DOMAIN)


def translations(locale: str, root: Path = LOCALES_DIR) -> NullTranslations:
    """The translations for ``locale``, compiled in memory from its PO file.

    The source locale (and a locale without a catalog) gets the identity
    translations, so the English text of the templates shows. Inside a build
    (see :func:`cardgen.spec.parse_cache.parse_cache_scope`) the compiled catalog is
    kept in the build's cache, keyed by the PO file's bytes, so a later process
    skips parsing it.
    """
    from babel.support import NullTranslations

    if locale == SOURCE_LOCALE:
        return NullTranslations()
    path = po_path(locale, root)
    if not path.is_file():
        return NullTranslations()
    return _translations_cached(str(path), path.stat().st_mtime_ns, locale, cast("Hashable | None", active_parse_cache()))


def text_callables(translation: NullTranslations) -> dict[str, Callable[..., str]]:
    """gettext, ngettext, pgettext and npgettext of ``translation`` for Jinja2's i18n extension, returning escaped text.

    Jinja2 marks a translation as safe markup (``Markup(msgstr)``) and escapes
    only the values put into it, so a ``<`` or ``&`` in a catalog's msgstr
    would reach the rulebook's XHTML as markup. A translation is text like any
    other: these callables escape it first (the msgids hold no markup).
    """

    def gettext(message: str) -> str:
        return escape(translation.gettext(message))

    def ngettext(singular: str, plural: str, n: int) -> str:
        return escape(translation.ngettext(singular, plural, n))

    def pgettext(context: str, message: str) -> str:
        return escape(translation.pgettext(context, message))

    def npgettext(context: str, singular: str, plural: str, n: int) -> str:
        return escape(translation.npgettext(context, singular, plural, n))

    return {"gettext": gettext, "ngettext": ngettext, "pgettext": pgettext, "npgettext": npgettext}


def entries(catalog: Catalog) -> Iterator[Message]:
    """The real messages of a catalog (the header entry left out)."""
    for message in catalog:
        if message.id:
            yield message


def msgid_set(catalog: Catalog | Iterable[Message]) -> set[str]:
    """The singular msgids of a catalog (with their context, if any)."""
    out = set()
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        out.add(f"{message.context}\x04{key}" if message.context else key)
    return out


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    A reader never sees a half-written file, and an interrupted write leaves the
    old file (or nothing) in place.
    """
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, 0o644)
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
