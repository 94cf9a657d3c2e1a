"""Findings: what the validator, the engine checks and the renderer report about a spec.

Every problem cardgen finds is a :class:`Finding` with a stable code, a severity,
the file and line it points at, the dotted path inside the spec, a message and a
hint on how to fix it. Checks collect findings instead of stopping at the first
one, so a designer sees every problem in one run (the habit of mkdocs' config
validation and python-chess' ``Board.status()``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from enum import IntEnum
import os
from pathlib import Path
from typing import Iterable, Literal


def printable(text: str) -> str:
    """``text`` safe for one line of terminal output: control characters and lone surrogates escaped.

    Findings quote what the designer wrote; a newline, an escape sequence or an
    unpaired surrogate in a spec must not break the one-line format or crash
    printing.
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch == " " or ch.isprintable():
            out.append(ch)
        elif "\ud800" <= ch <= "\udfff" or ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F:
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)  # other non-printing characters (marks, formatting) are harmless on one line
    return "".join(out)


class Severity(IntEnum):
    """How bad a finding is; errors make ``cardgen validate`` exit with 1."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        """The lower-case name used in every output format."""
        return self.name.lower()


@dataclass(frozen=True, order=True)
class Finding:
    """One problem found in a spec, with the place it points at."""

    file: str
    line: int
    column: int
    code: str
    severity: Severity
    path: str
    message: str
    hint: str = ""

    def render(self) -> str:
        """One readable line: ``file:line:col: CODE severity: path: message (hint)``."""
        place = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        where = f"{self.path}: " if self.path else ""
        hint = f" [hint: {self.hint}]" if self.hint else ""
        return printable(f"{place}: {self.code} {self.severity.label}: {where}{self.message}{hint}")

    def as_json(self) -> dict[str, object]:
        """A JSON-ready dict, with the severity as its name."""
        data: dict[str, object] = {k: printable(v) if isinstance(v, str) else v for k, v in asdict(self).items()}
        data["severity"] = self.severity.label
        return data

    def as_github(self) -> str:
        """A GitHub Actions workflow annotation."""
        kind = {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(self.severity, "notice")
        title = f"{self.code} {self.path}".strip()
        message = self.message + (f" (hint: {self.hint})" if self.hint else "")
        message = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return printable(f"::{kind} file={self.file},line={max(self.line, 1)},col={max(self.column, 1)},title={title}::{message}")


OutputFormat = Literal["text", "json", "github"]


def format_findings(findings: Iterable[Finding], fmt: OutputFormat) -> str:
    """Render findings in the requested output format."""
    ordered = sorted(findings, key=lambda f: (f.file, f.line, f.column, f.code, f.path, f.message))
    if fmt == "json":
        return json.dumps([f.as_json() for f in ordered], indent=2, ensure_ascii=False)
    if fmt == "github":
        return "\n".join(f.as_github() for f in ordered)
    return "\n".join(f.render() for f in ordered)


def display_path(path: Path, base: Path | None = None) -> str:
    """A path shown relative to ``base`` (default: the working directory) when possible."""
    base = base or Path.cwd()
    try:
        return str(Path(os.path.realpath(path)).relative_to(os.path.realpath(base)))  # (Path.resolve raises on a link loop)
    except (ValueError, OSError):  # outside base
        return str(path)


class InputError(Exception):
    """A user's input cannot be read at all (missing file, unreadable YAML): exit code 2.

    Carries the file and place so the CLI can print one clear line.
    """

    def __init__(self, message: str, file: str = "", line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column

    def render(self) -> str:
        """One line naming the file and place."""
        place = ""
        if self.file:
            place = f"{self.file}:{self.line}:{self.column}: " if self.line else f"{self.file}: "
        return printable(f"{place}error: {self.message}")
