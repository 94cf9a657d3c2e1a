"""Validation checks of kind "i18n": the gettext catalogs and the rulebook template.

Catalog checks (``cardgen i18n check``, and ``cardgen validate`` for every
locale a spec declares):

* every message is translated (every plural form too), and none is fuzzy;
* the placeholders of each translation (python-format ``%(name)s`` and ``%s``,
  and ``{name}``) are exactly those of its msgid;
* Babel's own ``Catalog.check()`` passes (plural form count, format flags);
* the catalog is up to date with the templates: the messages are re-extracted
  in memory and compared by msgid (missing ones are errors, stale ones warnings);
* ``locales/cardgen.pot`` is up to date too.

Each finding names the PO file and the line of the entry (Babel's ``lineno``).
A further check renders each spec's rulebook text in every locale, so a
template error shows up in ``cardgen validate`` rather than at print time.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from functools import lru_cache
from pathlib import Path
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from cardgen.cache import user_store
from cardgen.findings import Finding, Severity, display_path
from cardgen.rulebook.i18n import (
    LOCALES_DIR,
    SOURCE_LOCALE,
    catalog_locales,
    extract_catalog,
    message_sources,
    msgid_set,
    placeholder_problems,
    placeholders,
    po_path,
    pot_path,
    read_catalog,
)
from cardgen.spec.load import LoadedSpec
from cardgen.spec.strings import has_control_characters
from cardgen.spec.parse_cache import open_entry, ResultCache, seal_entry
from cardgen.validate.registry import register_check, register_codes

__all__ = ["placeholders", "catalog_findings", "check_all_catalogs", "spec_catalog_findings", "spec_rulebook_findings"]

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog, Message

register_codes(
    {
        "CG301": "A locale the game declares has no rulebook catalog (its generic rulebook prose stays in English).",
        "CG302": "A catalog message is not translated (or one of its plural forms is empty).",
        "CG303": "A catalog entry is marked fuzzy: a translator must confirm it.",
        "CG304": "A translation's placeholders differ from its msgid's.",
        "CG305": "A message of the rulebook templates is missing from a catalog (run `cardgen i18n update`).",
        "CG306": "A catalog holds a message the templates no longer use.",
        "CG307": "A catalog cannot be read, or Babel's catalog check fails.",
        "CG308": "locales/cardgen.pot is out of date with the templates (run `cardgen i18n extract`).",
        "CG310": "The rulebook template fails to render for this spec.",
    }
)

def _label(message: Message) -> str:
    key = message.id if isinstance(message.id, str) else message.id[0]
    short = key if len(key) <= 50 else key[:47] + "..."
    return f"msgid {short!r}"


def _finding(file: str, message: Message | None, code: str, severity: Severity, text: str, hint: str) -> Finding:
    line = message.lineno if message is not None and message.lineno else 0
    return Finding(file, line, 1 if line else 0, code, severity, _label(message) if message is not None else "", text, hint)


def _format(counter: Counter[str]) -> str:
    names = ", ".join(sorted(counter.elements()))
    return f"placeholders {names}" if names else "no placeholders"


def _message_findings(file: str, message: Message) -> Iterator[Finding]:
    strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
    if message.fuzzy:
        yield _finding(file, message, "CG303", Severity.ERROR, "the entry is marked fuzzy", "check the translation, then remove the 'fuzzy' flag")
    if not strings or any(not s for s in strings):
        yield _finding(file, message, "CG302", Severity.ERROR, "the message is not translated", "write the translation in msgstr")
        return
    for index, got, expected in placeholder_problems(message):
        form = f" (plural form {index})" if len(strings) > 1 else ""
        yield _finding(
            file,
            message,
            "CG304",
            Severity.ERROR,
            f"the translation{form} has {_format(got)} but the msgid has {_format(expected)}",
            "keep every placeholder of the msgid, spelled exactly the same; write a literal % as %%",
        )


def catalog_findings(path: Path, locale: str, expected: Catalog | None = None) -> list[Finding]:
    """Every problem in the PO file at ``path``; ``expected`` is a fresh extraction to compare with (None: skip)."""
    file = display_path(path)
    try:
        catalog = read_catalog(path, locale)
    except Exception as problem:  # Babel raises several kinds of errors for a broken file
        line = getattr(problem, "lineno", 0) or 0
        return [Finding(file, line, 0, "CG307", Severity.ERROR, "", f"the catalog cannot be read: {problem}", "fix the PO syntax")]
    findings: list[Finding] = []
    if catalog.fuzzy:
        findings.append(Finding(file, 1, 1, "CG303", Severity.ERROR, "header", "the catalog header is marked fuzzy", "remove the 'fuzzy' flag of the header entry"))
    flagged: set[int] = set()
    for message in catalog:
        if not message.id:
            continue
        for finding in _message_findings(file, message):
            findings.append(finding)
            flagged.add(message.lineno or 0)
    for message, errors in catalog.check():
        if message.lineno in flagged:
            continue
        for error in errors:
            findings.append(_finding(file, message, "CG307", Severity.ERROR, f"Babel's catalog check: {error}", "fix the translation"))
    if expected is not None:
        have = msgid_set(catalog)
        by_key = {next(iter(msgid_set([m]))): m for m in expected if m.id}
        for key in sorted(msgid_set(expected) - have):
            source = by_key[key]
            where = ", ".join(f"{f}:{n}" for f, n in source.locations[:2])
            findings.append(
                Finding(file, 0, 0, "CG305", Severity.ERROR, _label(source), f"the message from {where} is not in the catalog", "run `cardgen i18n update`, then translate it")
            )
        stale = msgid_set(catalog) - msgid_set(expected)
        for message in catalog:
            if message.id and next(iter(msgid_set([message]))) in stale:
                findings.append(_finding(file, message, "CG306", Severity.WARNING, "the templates no longer use this message", "run `cardgen i18n update` to drop it"))
    return findings


def _sources_stamp() -> tuple[tuple[str, int], ...]:
    return tuple((str(p), p.stat().st_mtime_ns) for p in message_sources())


@lru_cache(maxsize=4)
def _fresh_extraction(stamp: tuple[tuple[str, int], ...]) -> Catalog:
    return extract_catalog()


def fresh_extraction() -> Catalog:
    """The messages of the current templates and code, extracted in memory (cached until a source changes)."""
    return _fresh_extraction(_sources_stamp())


def pot_findings(root: Path = LOCALES_DIR, expected: Catalog | None = None) -> list[Finding]:
    """Whether ``cardgen.pot`` exists and matches the current templates."""
    path = pot_path(root)
    file = display_path(path)
    if not path.is_file():
        return [Finding(file, 0, 0, "CG308", Severity.WARNING, "", "there is no .pot file", "run `cardgen i18n extract`")]
    expected = expected if expected is not None else fresh_extraction()
    try:
        pot = read_catalog(path)
    except Exception as problem:
        return [Finding(file, 0, 0, "CG307", Severity.ERROR, "", f"the template catalog cannot be read: {problem}", "run `cardgen i18n extract`")]
    if msgid_set(pot) != msgid_set(expected):
        missing = len(msgid_set(expected) - msgid_set(pot))
        extra = len(msgid_set(pot) - msgid_set(expected))
        return [
            Finding(file, 0, 0, "CG308", Severity.WARNING, "", f"the .pot differs from the templates ({missing} new, {extra} stale message(s))", "run `cardgen i18n extract`")
        ]
    return []


def check_all_catalogs(root: Path = LOCALES_DIR) -> list[Finding]:
    """Check the .pot and the catalog of every locale under ``root``."""
    expected = fresh_extraction()
    findings = pot_findings(root, expected)
    for locale in catalog_locales(root):
        findings.extend(catalog_findings(po_path(locale, root), locale, expected))
    return findings


@lru_cache(maxsize=32)
def _cached_catalog_findings(path: str, mtime_ns: int, locale: str, stamp: tuple[tuple[str, int], ...]) -> tuple[Finding, ...]:
    return tuple(catalog_findings(Path(path), locale, _fresh_extraction(stamp)))


CATALOG_ENTRY = "catalog-findings-1"
"""The kind (and format version) of a cached catalog check."""


@lru_cache(maxsize=4)
def _sources_digest(stamp: tuple[tuple[str, int], ...]) -> str:
    """sha256 over the message sources (the extraction's inputs): their paths and contents."""
    digest = hashlib.sha256()
    for name, _mtime in stamp:
        try:
            data = Path(name).read_bytes()
        except OSError:
            data = b"\0unreadable"
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _encode_findings(findings: Iterable[Finding]) -> bytes:
    rows = [[f.file, f.line, f.column, f.code, int(f.severity), f.path, f.message, f.hint] for f in findings]
    return seal_entry(CATALOG_ENTRY, json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _decode_findings(entry: bytes | None) -> list[Finding] | None:
    """The findings stored by :func:`_encode_findings`; None for a missing or unusable entry."""
    payload = open_entry(CATALOG_ENTRY, entry)
    if payload is None:
        return None
    try:
        findings = []
        for file, line, column, code, severity, path, message, hint in json.loads(payload.decode("utf-8")):
            texts = (file, code, path, message, hint)
            if not all(isinstance(t, str) for t in texts) or type(line) is not int or type(column) is not int or type(severity) is not int:
                return None
            findings.append(Finding(file, line, column, code, Severity(severity), path, message, hint))
    except (ValueError, TypeError, UnicodeDecodeError):
        return None
    return findings


def stored_catalog_findings(path: Path, locale: str, cache: ResultCache) -> list[Finding]:
    """:func:`catalog_findings` against a fresh extraction, kept in ``cache`` for later processes.

    The key covers everything the check reads: the catalog's bytes, the
    locale, the name the findings give the file (it depends on the working
    folder), the message sources' paths and contents, and (through the cache's
    key) cardgen's code and Babel's and Jinja2's versions. An entry that cannot
    be read back is recomputed.
    """
    try:
        raw = path.read_bytes()
    except OSError:
        return catalog_findings(path, locale, fresh_extraction())  # reports the unreadable file
    stamp = _sources_stamp()
    key = cache.key(CATALOG_ENTRY, hashlib.sha256(raw).hexdigest(), locale, display_path(path), _sources_digest(stamp))
    stored = _decode_findings(cache.get(key))
    if stored is not None:
        return stored
    findings = catalog_findings(path, locale, _fresh_extraction(stamp))
    try:
        unchanged = path.read_bytes() == raw and _sources_stamp() == stamp
    except OSError:
        unchanged = False
    if unchanged:  # the findings belong to the bytes the key names
        cache.put(key, _encode_findings(findings))
    return findings


CATALOG_STORE = "catalog-findings"
"""The kind of :func:`cardgen.cache.user_store` that keeps the catalog check's findings."""


def spec_catalog_findings(loaded: LoadedSpec) -> Iterable[Finding]:
    """The catalog findings for every locale ``loaded`` declares (besides the source locale).

    The check reads only cardgen's own catalogs, templates and code, never the
    spec, so the findings of an unchanged catalog are kept in this user's store
    (:func:`cardgen.cache.user_store`, as the compiled templates are): a build
    into a new output folder and ``cardgen validate`` reuse them (checking the
    pt_BR catalog takes about 0.18 s). Without that store (switched off by
    ``--no-cache``, or not private), a build's cache keeps them, else only the
    process.
    """
    spec = loaded.spec
    if spec is None:
        return []
    store: ResultCache | None = user_store(CATALOG_STORE)
    if store is None:
        store = loaded.cache
    findings: list[Finding] = []
    for index, locale in enumerate(spec.locales):
        if locale == SOURCE_LOCALE:
            continue
        path = po_path(locale)
        if not path.is_file():
            findings.append(
                loaded.place_finding(
                    "CG301",
                    Severity.WARNING,
                    ("locales", index),
                    f"cardgen has no rulebook catalog for {locale}: headings and table text of its rulebook stay in English",
                    f"run `cardgen i18n update --locale {locale}` and translate {display_path(path)}",
                )
            )
            continue
        if store is not None:
            findings.extend(stored_catalog_findings(path, locale, store))
        else:
            findings.extend(_cached_catalog_findings(str(path), path.stat().st_mtime_ns, locale, _sources_stamp()))
    return findings


def spec_rulebook_findings(loaded: LoadedSpec) -> Iterable[Finding]:
    """Render the spec's rulebook text in each of its locales; a failure is a finding."""
    from cardgen.rulebook.build import RulebookError, make_rulebook

    spec = loaded.spec
    if spec is None or has_control_characters(spec):
        return []  # CG122 names the character and its place; XHTML cannot hold it, so a render would only fail elsewhere
    findings = []
    for locale in spec.locales:
        try:
            make_rulebook(spec, locale, loaded.folder, cache=loaded.cache)
        except RulebookError as error:
            if error.file:  # a template line failed: point at it
                findings.append(Finding(error.file, error.line, 1 if error.line else 0, "CG310", Severity.ERROR, "", str(error), "fix the template"))
            else:
                findings.append(loaded.place_finding("CG310", Severity.ERROR, ("rules_text",), str(error), "fix the template or the text it names"))
    return findings


register_check("rulebook-catalogs", "i18n", spec_catalog_findings)
register_check("rulebook-render", "i18n", spec_rulebook_findings)
