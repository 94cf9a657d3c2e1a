"""The JSON Schema of the spec language, as editors and ``cardgen schema`` see it."""

from __future__ import annotations

import inspect
import json
from typing import Any, get_args

from pydantic import BaseModel

from cardgen.spec import references
from cardgen.spec.models import Spec
from cardgen.spec.rules_field import RulesOnDemand

SCHEMA_ID = "https://cardgen.invalid/schema/cardgen-spec.schema.json"


def spec_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``game.yaml``."""
    schema = Spec.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_ID
    schema["title"] = "cardgen game spec"
    return schema


def schema_text() -> str:
    """The schema as the stable JSON text kept in ``schema/cardgen-spec.schema.json``."""
    return json.dumps(spec_json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def _models() -> list[type[BaseModel]]:
    """Every model of the spec language, the Spec first, then in order of first use."""
    seen: list[type[BaseModel]] = []

    def visit(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.append(model)
        for info in model.model_fields.values():
            for inner in _inner_models(info.annotation):
                visit(inner)

    visit(Spec)
    return seen


def _inner_models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    if isinstance(annotation, RulesOnDemand):  # a field whose models load on demand names them
        return annotation.models()
    found: list[type[BaseModel]] = []
    for arg in get_args(annotation):
        found.extend(_inner_models(arg))
    return found


def spec_reference_markdown() -> str:
    """The reference of every spec model and field, made from the models' own descriptions."""
    lines = [
        "# Spec language reference",
        "",
        "Generated from `cardgen/spec/models.py` by `cardgen schema --markdown`; a test fails when it is out of date.",
        "",
    ]
    for model in _models():
        lines += [f"## {model.__name__}", "", (model.__doc__ or "").strip().splitlines()[0], "", "| key | required | description |", "| --- | --- | --- |"]
        for name, info in model.model_fields.items():
            required = "yes" if info.is_required() else "no"
            description = (info.description or "").replace("|", "\\|").replace("\n", " ")
            lines.append(f"| `{name}` | {required} | {description} |")
        lines.append("")
    lines += ["## References in text", "", inspect.cleandoc(references.__doc__ or ""), ""]
    return "\n".join(lines)
