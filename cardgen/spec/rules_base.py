"""The base model and the identifier type shared by every rules-data model (:mod:`cardgen.spec.rules_data`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

RulesIdentifier = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40, description="A name in the rules: lower-case letters, digits and '_'.")]


class RulesModel(BaseModel):
    """Base of the rules-data models: strict, closed to unknown keys, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)
