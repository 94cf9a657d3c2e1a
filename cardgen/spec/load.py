"""Finding and loading a game's spec folder into validated models.

``load_spec`` reads ``game.yaml`` and any card sheets it names, checks that
every named file stays inside the spec folder, validates everything against the
Pydantic models and turns each schema error into a :class:`Finding` pointing at
the line the designer wrote.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError, create_model

from cardgen.findings import Finding, InputError, Severity, display_path
from cardgen.spec.models import SIZE_PRESETS, CardSize, SizeName, Spec
from cardgen.spec.parse_cache import ResultCache
from cardgen.spec.sheets import SheetBudget
from cardgen.spec.source import PathKey, SourceMap, dotted
from cardgen.spec.tables import load_card_table
from cardgen.spec.yaml_load import load_yaml

SPEC_FILE = "game.yaml"
SPEC_LAYOUTS = "layouts"
"""The folder inside a spec folder whose files override the bundled layouts."""
SPECS_ROOT = Path("specs")


@dataclass
class LoadedSpec:
    """A spec folder after loading: the model (None when the schema failed), its places and findings."""

    folder: Path
    file: str
    spec: Spec | None
    source: SourceMap
    findings: list[Finding] = field(default_factory=list)
    cache: ResultCache | None = field(default=None, compare=False, repr=False)
    """The cache the spec was loaded with (a build's); checks keep their own results there too. None: none."""
    salvaged: Spec | None = field(default=None, compare=False, repr=False)
    """When the schema refused the spec: what did parse, without the top-level keys that hold a refused part
    (see :func:`salvage_spec`). Only the validator's cross-checks read it."""
    left_out: tuple[str, ...] = ()
    """The top-level keys ``salvaged`` lacks (an unknown key is not among them: it is simply not read)."""

    def require_locale(self, locale: str, option: str) -> None:
        """Raise :class:`InputError` (exit 2) unless ``locale``, asked for by the command-line ``option``, is one the spec declares."""
        if self.spec is not None and locale not in self.spec.locales:
            declared = ", ".join(self.spec.locales)
            raise InputError(f"{option} {locale}: {self.spec.id} declares the locales {declared}; choose one of them", self.file)

    def place_finding(
        self, code: str, severity: Severity, path: PathKey, message: str, hint: str = ""
    ) -> Finding:
        """A finding at ``path`` inside the spec, with its file and line."""
        place = self.source.place(path)
        return Finding(place.file, place.line, place.column, code, severity, dotted(path), message, hint)


def find_spec_folder(name_or_path: str, specs_root: Path = SPECS_ROOT) -> Path:
    """Resolve a game id (``ceramus``) or a folder path to a spec folder holding game.yaml."""
    candidate = Path(name_or_path)
    for folder in (candidate, specs_root / name_or_path):
        if folder.is_file() and folder.name == SPEC_FILE:
            return folder.parent
        if (folder / SPEC_FILE).is_file():
            return folder
    if candidate.exists() and candidate.is_dir():
        raise InputError(f"no {SPEC_FILE} in this folder", display_path(candidate))
    raise InputError(f"no game with id {name_or_path!r} under {specs_root}/ and no such folder", name_or_path)


def all_spec_folders(specs_root: Path = SPECS_ROOT) -> list[Path]:
    """Every folder under ``specs_root`` that holds a game.yaml, sorted."""
    if not specs_root.is_dir():
        raise InputError("no specs/ folder here; run from the project root or name a spec folder", str(specs_root))
    return sorted(p.parent for p in specs_root.glob(f"*/{SPEC_FILE}"))


def inside_folder(folder: Path, path: Path) -> bool:
    """Whether ``path`` lies inside ``folder`` once every symbolic link in either is followed.

    The one test of confinement: a file cardgen reads for a spec must pass it
    against the spec folder, whatever route named it (``game.yaml`` itself, a
    card sheet, a layout, a rulebook template or a file a template includes).
    """
    root = os.path.realpath(folder)
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def leaves_folder(folder: Path, relative: str) -> bool:
    """Whether the name ``relative`` (as a spec writes it) points outside ``folder``.

    True for absolute paths, drive letters and ``..`` segments, and when
    something exists under that name whose real path (links followed) lies
    outside the folder.
    """
    if not relative or Path(relative).is_absolute() or relative.startswith(("/", "\\")) or ":" in relative[:3]:
        return True
    if any(part == ".." for part in Path(relative).parts):
        return True
    candidate = folder / relative
    return os.path.lexists(candidate) and not inside_folder(folder, candidate)


def confined_path(folder: Path, relative: str) -> Path | None:
    """The file ``relative`` inside ``folder``, or None when it would leave the folder.

    Absolute paths, ``..`` segments and symbolic links pointing outside are refused.
    """
    if not relative or Path(relative).is_absolute() or relative.startswith(("/", "\\")) or ":" in relative[:3]:
        return None
    if any(part == ".." for part in Path(relative).parts):
        return None
    if not inside_folder(folder, folder / relative):
        return None
    return Path(os.path.realpath(folder / relative))  # (not Path.resolve: it raises on a link loop)


def _refuse_a_link_loop(path: Path, what: str) -> None:
    """InputError (exit 2, one line naming the file) when ``path`` is a symbolic link that loops back on itself."""
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise InputError(f"{what} is a symbolic link that loops back on itself; point it at a file", display_path(path)) from None


def _layout_leaves(folder: Path, name: str) -> bool:
    """Whether a deck's ``layout:`` points outside the spec folder, under any name it is looked up by."""
    if leaves_folder(folder, name):
        return True
    return any(leaves_folder(folder, f"{SPEC_LAYOUTS}/{candidate}") for candidate in (name, f"{name}.yaml"))


def size_of(size: SizeName | CardSize) -> CardSize:
    """The explicit size of a named preset or an explicit size.

    A preset's size is made without validation (``model_construct``): its numbers are cardgen's own, within the
    model's ranges, and the result is the validated one field for field (a test compares every preset). Validating
    it built the model's own schema on the first call of a process, apart from the spec's (about 0.5 ms).
    """
    if isinstance(size, CardSize):
        return size
    width, height = SIZE_PRESETS[size]
    return CardSize.model_construct(width=width, height=height)


def _data_path(data: Any, loc: tuple[Any, ...]) -> PathKey:
    """The part of a Pydantic ``loc`` that is a real path in ``data`` (union tags dropped)."""
    out: list[str | int] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            out.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            out.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and not out and part not in node:
            out.append(part)  # a missing top-level key
            break
        elif isinstance(node, dict) and isinstance(part, str) and part.isidentifier() and part[0].islower() and "[" not in part:
            # a missing or extra key below a mapping: keep it for the message
            if part not in {"function-after", "function-before", "function-wrap", "tagged-union"}:
                out.append(part)
                break
    return tuple(out)


def salvage_spec(data: Any, error: ValidationError) -> tuple[Spec, tuple[str, ...]] | None:
    """What of a spec the schema refused did parse: a :class:`Spec` lacking each top-level key that holds a refused part.

    The keys left out are absent from the result, not given a default or a
    stand-in: reading one raises ``AttributeError``, so a check that needs a
    part that did not parse cannot run on a guess, and a check that does not
    need it runs as usual (:func:`cardgen.validate.runner.salvaged_findings`).
    Returns None when a refused part is the top of the file itself, or what
    is left does not parse either.
    """
    if not isinstance(data, dict):
        return None
    refused: set[str] = set()
    for item in error.errors(include_url=False):
        path = _data_path(data, tuple(item["loc"]))
        if not path or not isinstance(path[0], str):
            return None
        refused.add(path[0])
    unknown = {key for key in refused if key not in Spec.model_fields}
    rest = {key: value for key, value in data.items() if key not in refused}
    left_out = tuple(sorted(refused - unknown))
    stand_ins: dict[str, Any] = {key: (Any, None) for key in left_out}
    model = create_model("SalvagedSpec", __base__=Spec, **stand_ins)
    try:
        salvaged = model.model_validate(rest)
    except ValidationError:
        return None
    for key in left_out:
        salvaged.__dict__.pop(key, None)
    return salvaged, left_out


def _schema_findings(loaded: LoadedSpec, data: Any, error: ValidationError) -> list[Finding]:
    """Turn Pydantic's errors into findings, one per place, union alternatives merged."""
    grouped: dict[PathKey, list[dict[str, Any]]] = {}
    for item in error.errors(include_url=False):
        path = _data_path(data, tuple(item["loc"]))
        grouped.setdefault(path, []).append(dict(item))
    findings = []
    for path, items in grouped.items():
        kinds = {i["type"] for i in items}
        if "extra_forbidden" in kinds:
            code, message = "CG003", f"unknown key {path[-1]!r}" if path else "unknown key"
            hint = "check the spelling; `cardgen schema` lists every allowed key"
        elif "missing" in kinds:
            code, message = "CG002", f"required key {path[-1]!r} is missing" if path else "a required key is missing"
            hint = "add it (see docs/spec.md)"
        else:
            messages = sorted({i["msg"] for i in items})
            got = items[0].get("input")
            shown_input = repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
            if len(shown_input) > 60:
                shown_input = shown_input[:57] + "..."
            code = "CG004"
            message = " or ".join(messages) + f" (got {shown_input})"
            hint = "fix the value's type or range"
        findings.append(loaded.place_finding(code, Severity.ERROR, path, message, hint))
    return findings


def check_spec_file(folder: Path, path: Path, shown: str) -> None:
    """Raise :class:`InputError` unless ``path`` is a regular file whose real path lies inside ``folder``.

    Run before a file of the spec is opened: a link to a file elsewhere is never
    read (its content would reach the findings, the rulebook and the cache), and
    neither is a FIFO or a device (reading one could block or never end).
    """
    if os.path.lexists(path) and not inside_folder(folder, path):
        raise InputError("a link to a file outside the spec folder; cardgen reads only files inside the spec folder", shown)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # missing: the reader reports it in its own words
    if not stat.S_ISREG(mode):
        raise InputError("not a regular file (a folder, FIFO or device); cardgen reads only regular files", shown)


def load_spec(folder: Path, cache: ResultCache | None = None) -> LoadedSpec:
    """Load and schema-check the spec in ``folder``.

    Raises :class:`InputError` when a file cannot be read at all; everything
    else (schema errors, escaping paths) becomes findings on the result.
    With a ``cache`` (a build's), the parse of ``game.yaml`` is reused when its
    bytes are unchanged (see :func:`cardgen.spec.yaml_load.load_yaml`), and the
    cache rides along on the result for the checks.
    """
    spec_path = folder / SPEC_FILE
    shown = display_path(spec_path) if not spec_path.is_symlink() else str(Path(display_path(folder)) / SPEC_FILE)  # (a link: name the link)
    check_spec_file(folder, spec_path, shown)
    data, smap = load_yaml(spec_path, shown, cache=cache)
    loaded = LoadedSpec(folder=folder, file=shown, spec=None, source=smap, cache=cache)
    if not isinstance(data, dict):
        raise InputError(f"the top of {SPEC_FILE} must be a mapping of keys, not a {type(data).__name__}", shown, 1, 1)
    decks = data.get("decks")
    budget = SheetBudget()  # shared by every sheet the spec names
    if isinstance(decks, list):
        for index, deck in enumerate(decks):
            if isinstance(deck, dict) and isinstance(deck.get("layout"), str) and _layout_leaves(folder, deck["layout"]):
                loaded.findings.append(
                    loaded.place_finding(
                        "CG010", Severity.ERROR, ("decks", index, "layout"), f"layout {deck['layout']!r} is outside the spec folder",
                        f"name a file inside the spec folder (or its {SPEC_LAYOUTS}/ folder), or a bundled layout",
                    )
                )
            if not isinstance(deck, dict) or not isinstance(deck.get("cards_file"), str):
                continue
            path: PathKey = ("decks", index, "cards_file")
            sheet = confined_path(folder, deck["cards_file"])
            if sheet is None:
                loaded.findings.append(
                    loaded.place_finding("CG010", Severity.ERROR, path, f"card sheet {deck['cards_file']!r} is outside the spec folder", "name a file inside the spec's own folder")
                )
                continue
            if sheet.exists() and not sheet.is_file():
                loaded.findings.append(
                    loaded.place_finding("CG011", Severity.ERROR, path, f"card sheet {deck['cards_file']!r} is not a regular file", "name a CSV, XLSX or ODS file")
                )
                continue
            if not sheet.is_file():
                _refuse_a_link_loop(folder / deck["cards_file"], "card sheet")
                loaded.findings.append(
                    loaded.place_finding("CG011", Severity.ERROR, path, f"card sheet {deck['cards_file']!r} does not exist", "create it or fix the name")
                )
                continue
            rows, sheet_map = load_card_table(sheet, display_path(sheet), budget=budget, text_fields=_text_fields(deck))
            existing = deck.get("cards") or []
            if not isinstance(existing, list):
                continue
            offset = len(existing)
            deck["cards"] = existing + rows
            for key, place in sheet_map.places.items():
                index_in_sheet = key[0]
                assert isinstance(index_in_sheet, int)
                smap.places[("decks", index, "cards", offset + index_in_sheet) + key[1:]] = place
    try:
        loaded.spec = Spec.model_validate(data)
    except ValidationError as error:
        loaded.findings.extend(_schema_findings(loaded, data, error))
        salvage = salvage_spec(data, error)
        if salvage is not None:
            loaded.salvaged, loaded.left_out = salvage
    if loaded.findings and loaded.spec is not None and any(f.severity is Severity.ERROR for f in loaded.findings):
        loaded.spec = None
    return loaded


TEXT_FIELD_TYPES = frozenset({"text", "id", "palette"})
"""Field types whose values are words: a sheet cell for one stays as written (``10`` is the text 10)."""


def _text_fields(deck: dict[str, Any]) -> frozenset[str]:
    """The data fields a deck (as read from YAML, not yet validated) declares as words."""
    fields = deck.get("fields")
    if not isinstance(fields, dict):
        return frozenset()
    return frozenset(
        name for name, field in fields.items() if isinstance(field, dict) and isinstance(field.get("type"), str) and field["type"] in TEXT_FIELD_TYPES
    )

