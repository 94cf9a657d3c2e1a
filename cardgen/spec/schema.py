"""The JSON Schema of the spec language, as editors and ``cardgen schema`` see it."""

from __future__ import annotations

from typing import Any

from cardgen.spec.models import Spec

SCHEMA_ID = "https://cardgen.invalid/schema/cardgen-spec.schema.json"


def spec_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``game.yaml``."""
    schema = Spec.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_ID
    schema["title"] = "cardgen game spec"
    return schema
