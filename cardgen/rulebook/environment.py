"""The sandboxed Jinja2 environment the rulebook templates render in.

Templates may one day come with a spec, so they are treated as untrusted:

* :class:`jinja2.sandbox.ImmutableSandboxedEnvironment` refuses ``__class__``,
  ``__mro__``, ``__subclasses__`` and every other private attribute, and any
  method that mutates a list or dict;
* undefined values are strict, so a refused attribute raises
  :class:`jinja2.exceptions.SecurityError` instead of printing as nothing;
* the only loaders are folders of templates, confined by real path
  (:class:`ConfinedLoader`): ``{% include %}`` cannot reach any other file,
  not even through a symbolic link, and no global gives access to files,
  modules or the OS;
* the context holds plain data only (strings, numbers, lists, dicts), built by
  :mod:`cardgen.rulebook.context`, never spec models or other live objects;
* autoescape is on: the templates write XHTML, spec text is escaped;
* what a template may compute is bounded (steps, sizes, memory): see
  :mod:`cardgen.rulebook.bounded`.

Translation goes through Jinja2's i18n extension with Babel ``Translations``
(new-style gettext: ``{{ _("%(num)s cards", num=n) }}`` and ``{% trans %}``);
a translation is escaped like any other text (see :func:`cardgen.rulebook.i18n.text_callables`).
"""

from __future__ import annotations

import marshal
import os
import stat
import weakref
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any
from collections.abc import Callable

from babel.numbers import format_decimal
from babel.support import NullTranslations
from jinja2 import BytecodeCache, ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, Template, TemplateError
from jinja2.bccache import Bucket
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment

from cardgen.cache import user_store
from cardgen.rulebook.i18n import TEMPLATES_DIR, text_callables, translations
from cardgen.rulebook.bounded import BoundedSandbox
from cardgen.spec.load import inside_folder
from cardgen.spec.parse_cache import open_entry, ResultCache, seal_entry

MAIN_TEMPLATE = "rulebook.xhtml.j2"
"""The template that renders a whole rulebook."""
SPEC_TEMPLATES = "templates/rulebook"
"""Inside a spec folder: templates here override the bundled ones of the same name."""


class _CompiledTemplates(BytecodeCache):
    """Compiled template code shared by every environment of this process.

    Each rulebook gets a fresh environment (its locale's translations and
    filters), but all of them are configured alike, so a template's compiled
    code depends only on its source: compiling once per process instead of
    once per rulebook saves most of the time spent in Jinja. Entries are keyed
    by Jinja's own bucket key (template name and file) and checked against the
    source's checksum, so an edited template is recompiled.
    """

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Hand Jinja the code compiled earlier from the same source, if any."""
        entry = self._code.get(bucket.key)
        if entry is not None and entry[0] == bucket.checksum:
            bucket.code = entry[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep the code Jinja just compiled."""
        if bucket.code is not None:
            self._code[bucket.key] = (bucket.checksum, bucket.code)


_COMPILED = _CompiledTemplates()

TEMPLATE_CODE_ENTRY = "jinja-code-1"
"""The kind (and format version) of a template's compiled code kept in a build's cache."""


USER_TEMPLATE_STORE = "templates"
"""The kind of :func:`cardgen.cache.user_store` that keeps the compiled code of cardgen's own templates."""


class StoredTemplates(BytecodeCache):
    """Compiled template code kept for later processes, over the in-process :data:`_COMPILED`.

    cardgen's own (bundled) templates are kept in this user's store
    (:func:`cardgen.cache.user_store`, as Python keeps ``__pycache__``), so a
    build into a new output folder and ``cardgen validate`` do not compile
    them again; a spec's own templates, and the bundled ones when there is no
    user store, are kept in the build's cache (``build``), when there is one.

    Jinja's :class:`jinja2.FileSystemBytecodeCache` is not used: its files
    start with a pickle, and the build's cache folder lies inside the output folder.
    An entry here is the template's code object, serialised with
    :mod:`marshal` and sealed with its sha256 (see
    :func:`cardgen.spec.parse_cache.seal_entry`); its key covers the template's
    name, file and source checksum, the Python bytecode version and (through
    the cache's key) cardgen's code and Jinja2's version, and so every setting
    of the environment this module makes: an edited template or another
    version of cardgen or Jinja is a miss, never stale code. The sandbox and autoescaping work at
    render time, through the environment, so cached code is as confined as
    fresh code. Since a code object runs when loaded, it matters who wrote the
    entry: :class:`cardgen.cache.ArtefactCache` reads back only files this
    user wrote and nobody else may change, and the seal rejects damaged ones.
    """

    def __init__(self, build: ResultCache | None, user: ResultCache | None = None) -> None:
        self.build = build
        self.user = user
        self._confirmed: set[tuple[int, str]] = set()
        """(store, key) pairs known to be stored (read or written by this object)."""
        self._stores: dict[str, ResultCache | None] = {}
        """Jinja's bucket key -> the store its template's code is kept in."""

    def get_bucket(self, environment: Environment, name: str, filename: str | None, source: str) -> Bucket:
        """Jinja's bucket for a template, after choosing its store by where its file is."""
        key = self.get_cache_key(name, filename)
        bundled = filename is not None and Path(filename).is_relative_to(TEMPLATES_DIR)
        self._stores[key] = self.user if bundled and self.user is not None else self.build
        return super().get_bucket(environment, name, filename, source)

    def _store(self, bucket: Bucket) -> tuple[ResultCache | None, str]:
        store = self._stores.get(bucket.key, self.build)
        return store, (store.key(TEMPLATE_CODE_ENTRY, bucket.key, bucket.checksum, MAGIC_NUMBER) if store is not None else "")

    def load_bytecode(self, bucket: Bucket) -> None:
        """Hand Jinja the code compiled earlier from the same source, in this process or a former one."""
        _COMPILED.load_bytecode(bucket)
        store, key = self._store(bucket)
        if store is None:
            return
        if bucket.code is not None:
            if (id(store), key) not in self._confirmed:  # mark the entry used by this build, or store it
                if store.get(key) is None:
                    store.put(key, seal_entry(TEMPLATE_CODE_ENTRY, marshal.dumps(bucket.code)))
                self._confirmed.add((id(store), key))
            return
        payload = open_entry(TEMPLATE_CODE_ENTRY, store.get(key))
        if payload is None:
            return
        try:
            code = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return
        if isinstance(code, CodeType):
            bucket.code = code
            _COMPILED.dump_bytecode(bucket)
            self._confirmed.add((id(store), key))

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep the code Jinja just compiled, in this process and in its store."""
        if bucket.code is None:
            return
        _COMPILED.dump_bytecode(bucket)
        store, key = self._store(bucket)
        if store is None:
            return
        store.put(key, seal_entry(TEMPLATE_CODE_ENTRY, marshal.dumps(bucket.code)))
        self._confirmed.add((id(store), key))


_STORED: "weakref.WeakKeyDictionary[ResultCache, StoredTemplates]" = weakref.WeakKeyDictionary()
_WITHOUT_BUILD_CACHE: dict[int, StoredTemplates] = {}


def _stored_templates(cache: ResultCache | None) -> BytecodeCache:
    """The compiled-template store for environments of a build with ``cache`` (one per cache, so each entry is
    confirmed once per build; without a build's cache, the user store's alone, or only this process's)."""
    user = user_store(USER_TEMPLATE_STORE)
    if cache is None:
        if user is None:
            return _COMPILED
        return _WITHOUT_BUILD_CACHE.setdefault(id(user), StoredTemplates(None, user))
    try:
        found = _STORED.get(cache)
        if found is None or found.user is not user:
            found = _STORED[cache] = StoredTemplates(cache, user)
    except TypeError:  # a cache that cannot be weakly referenced or hashed: one per environment
        found = StoredTemplates(cache, user)
    return found


class TemplateOutsideError(TemplateError):
    """A template (or a file a template includes) is refused: a link whose real path leaves its allowed folder, or not a readable regular file."""


class ConfinedLoader(FileSystemLoader):
    """A :class:`jinja2.FileSystemLoader` that reads only regular files whose real path lies inside ``root``.

    Jinja's own loader follows symbolic links, so a spec's template folder
    could otherwise publish any file the user can read (``{% include
    'passwd.j2' %}`` with ``passwd.j2`` a link to ``/etc/passwd``). Every file
    is checked before it is opened, whichever way it is asked for (the main
    template, ``{% include %}``, ``{% import %}``, ``{% extends %}``): a file
    leaving ``root`` is a :class:`TemplateOutsideError`, not a "not found", so
    no other template is used in its place. ``root`` is the spec folder for a
    spec's templates (so a template folder that is itself a link leaving the
    spec is refused too) and the bundled folder for cardgen's own.
    """

    def __init__(self, folder: Path, root: Path) -> None:
        super().__init__(str(folder))
        self.root = root

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        """The template's source, after checking where its file really is."""
        pieces = split_template_path(template)  # refuses '..' and the like
        for searchpath in self.searchpath:
            candidate = Path(searchpath, *pieces)
            if not os.path.lexists(candidate):
                continue
            if not inside_folder(self.root, candidate):
                raise TemplateOutsideError(f"template {template!r} is a link to a file outside {self.root}; it was not read")
            try:
                mode = os.stat(candidate).st_mode
            except OSError as error:  # a link loop, a permission
                raise TemplateOutsideError(f"template {template!r} cannot be read ({error.strerror or error})") from error
            if not stat.S_ISREG(mode):
                raise TemplateOutsideError(f"template {template!r} is not a regular file; it was not read")
            break
        return super().get_source(environment, template)


def _number_filter(locale: str) -> Callable[[Any], str]:
    def number(value: Any) -> str:
        """Format an int (or a numeric string) with the locale's digit grouping."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return str(value)
        return format_decimal(value, locale=locale)

    return number


def make_environment(
    locale: str,
    template_dirs: list[Path] | None = None,
    translation: NullTranslations | None = None,
    cache: ResultCache | None = None,
    spec_folder: Path | None = None,
) -> BoundedSandbox:
    """A sandboxed, metered environment for ``locale`` loading templates from ``template_dirs``.

    ``template_dirs`` defaults to the bundled ``templates/rulebook``; earlier folders win.
    Templates are read only from inside ``spec_folder`` (the bundled ones from
    inside the bundled folder; without a spec folder, each folder from inside
    itself): see :class:`ConfinedLoader`.
    Compiled templates are reused by later processes: cardgen's own from this
    user's store, a spec's own from ``cache`` (a build's), when there is one
    (see :class:`StoredTemplates`).
    """
    folders = template_dirs if template_dirs is not None else [TEMPLATES_DIR]
    loaders = [ConfinedLoader(folder, TEMPLATES_DIR if folder == TEMPLATES_DIR else (spec_folder or folder)) for folder in folders]
    env = BoundedSandbox(
        loader=ChoiceLoader(loaders),
        autoescape=True,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=_stored_templates(cache),
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(**text_callables(translation or translations(locale)), newstyle=True)  # type: ignore[attr-defined]
    env.filters["number"] = _number_filter(locale)
    env.globals["locale"] = locale
    return env


def template_dirs_for(spec_folder: Path | None) -> list[Path]:
    """The template search path for a spec: its own ``templates/rulebook`` first (if any), then the bundled one."""
    folders: list[Path] = []
    if spec_folder is not None and (spec_folder / SPEC_TEMPLATES).is_dir():
        folders.append(spec_folder / SPEC_TEMPLATES)
    folders.append(TEMPLATES_DIR)
    return folders


def get_template(env: ImmutableSandboxedEnvironment, name: str = MAIN_TEMPLATE) -> Template:
    """Load a template by name through the environment's confined loaders."""
    return env.get_template(name)
