"""Run every registered check over one or more spec folders and collect the findings."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable

from cardgen.findings import Finding, InputError, Severity
from cardgen.spec.load import LoadedSpec, load_spec
from cardgen.spec.parse_cache import ResultCache
from cardgen.validate.registry import CheckKind, registered_checks
from cardgen.validate.static import texts_walked_once

@dataclass
class ValidationResult:
    """The findings for one spec folder (and the loaded spec, when it loaded)."""

    folder: Path
    loaded: LoadedSpec | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        """Whether any finding is an error."""
        return any(f.severity is Severity.ERROR for f in self.findings)


def check_folder(
    folder: Path,
    kinds: Iterable[CheckKind] = ("static", "render", "i18n", "sim"),
    skip: Iterable[str] = (),
    cache: ResultCache | None = None,
) -> ValidationResult:
    """Load one spec folder and run the checks registered so far. Raises InputError only when a file cannot be read at all.

    The checks of the layers above (faces, rulebooks, the quick simulation) register themselves when
    their modules are imported; :func:`cardgen.catalogue.validate_folder` imports them and calls this.

    ``skip`` names checks not to run: the build skips a check whose work one of
    its producers does anyway and reports the same way (see
    :data:`cardgen.build.CHECKS_DONE_BY_PRODUCERS`), so that work is done once.
    ``cache`` (a build's artefact cache) lets the loader and the checks reuse
    results of earlier processes whose inputs are unchanged; without it
    (``cardgen validate``) everything is computed afresh.
    """
    wanted = list(kinds)
    skipped = set(skip)
    loaded = load_spec(folder, cache=cache)
    result = ValidationResult(folder, loaded, list(loaded.findings))
    if loaded.spec is None:
        result.findings.extend(salvaged_findings(loaded, skipped))
        return result
    with texts_walked_once():  # (the spec loaded whole: every check reads the same texts)
        for check in registered_checks(["static"]):
            if check.name not in skipped:
                result.findings.extend(check.run(loaded))
        if result.has_errors:
            return result  # later checks assume a sound spec
        for check in registered_checks([k for k in wanted if k != "static"]):
            if check.name not in skipped:
                result.findings.extend(check.run(loaded))
    return result


def salvaged_findings(loaded: LoadedSpec, skip: Iterable[str] = ()) -> list[Finding]:
    """The cross-checks (kind "static") of a spec the schema refused, on the parts that did parse.

    A type error in one key once hid every cross-check of the rest (``min_age:
    eight`` hid a stated count that disagreed and a text naming an effect no
    card has). The checks run on :attr:`LoadedSpec.salvaged`, which lacks each
    top-level key holding a refused part; a check that reads one of those
    stops there (it keeps what it found before), the others run in full. A
    note (CG005) names what was not checked. Render, translation and
    simulation checks still wait for a spec the schema accepts.
    """
    if loaded.salvaged is None:
        return []
    partial = replace(loaded, spec=loaded.salvaged, findings=[], cache=None)
    absent = {f"attribute {key!r}" for key in loaded.left_out}
    seen = {(f.code, f.path) for f in loaded.findings}
    out: list[Finding] = []
    skipped = set(skip)
    stopped: list[str] = []
    for check in registered_checks(["static"]):
        if check.name in skipped:
            continue
        try:
            for finding in check.run(partial):
                if (finding.code, finding.path) not in seen:
                    seen.add((finding.code, finding.path))
                    out.append(finding)
        except AttributeError as error:
            if not any(str(error).endswith(name) for name in absent):
                raise
            stopped.append(check.name)
    if loaded.left_out:
        keys = ", ".join(loaded.left_out)
        waiting = f"; {len(stopped)} check(s) that read them wait for the fix" if stopped else ""
        out.append(
            loaded.place_finding(
                "CG005", Severity.INFO, (), f"the cross-checks ran on the rest of the spec, without {keys}{waiting}",
                "fix the schema errors; the render, translation and simulation checks run once the spec parses",
            )
        )
    return out


def input_error_finding(error: InputError) -> Finding:
    """An unreadable file as a finding (code CG001), for reports that list everything."""
    return Finding(error.file, error.line, error.column, "CG001", Severity.ERROR, "", error.message)
