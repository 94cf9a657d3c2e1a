"""Named mechanics in rules data: the rules a game's vocabulary cannot say, written in Python and used by name.

A spec's rules data lists the mechanics it uses (``mechanics: [NAME]``) and calls
them where the vocabulary has no word: an option whose choices are a mechanic's
actions (``mechanic: {name, action}``), an effect (``{mechanic: {name, effect}}``),
a setup step (``{mechanic: {name, setup}}``), a scoring item (``{mechanic:
{name, score}}``) and an end condition (``end.mechanic: {name, condition}``).
Everything else about the game stays data.

A mechanic is registered once by a game package (``cardgen/games/<pkg>/``) or an
installed distribution (the ``cardgen.games`` entry-point group), with a
:class:`MechanicDeclaration`: what it offers under which names, the zones of the
rules data it reads and fills, the phrase the generated rulebook says for each
use, and its own contract (numbers, options, decks and fields, setup entries),
which the validator merges into the contract the rules data implies. This module
holds the rules-data models (imported by :mod:`cardgen.spec.rules_data`, so it
imports nothing of the spec's); the declaration and the checks are
:mod:`cardgen.spec.mechanic_declaration`, the registry and the runtime class
:mod:`cardgen.engine.mechanics`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from cardgen.spec.rules_base import RulesIdentifier, RulesModel

UseKind = Literal["action", "effect", "setup", "score", "condition"]
"""What a rules-data item asks of a mechanic."""


class MechanicAction(RulesModel):
    """An option whose choices are a named mechanic's actions (a slot to draft from, a place to put a tile)."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    action: RulesIdentifier = Field(description="One of the actions the mechanic declares.")


class MechanicEffectSpec(RulesModel):
    """Which mechanic and which of its effects."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    effect: RulesIdentifier = Field(description="One of the effects the mechanic declares.")


class MechanicEffect(RulesModel):
    """An effect the vocabulary has no word for, carried out by a named mechanic."""

    mechanic: MechanicEffectSpec = Field(description="The mechanic and its effect.")


class MechanicSetupSpec(RulesModel):
    """Which mechanic and which of its setup steps."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    setup: RulesIdentifier = Field(description="One of the setup steps the mechanic declares.")


class MechanicStep(RulesModel):
    """A setup step carried out by a named mechanic."""

    mechanic: MechanicSetupSpec = Field(description="The mechanic and its setup step.")


class MechanicScoreSpec(RulesModel):
    """Which mechanic and which of its scores."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    score: RulesIdentifier = Field(description="One of the scores the mechanic declares.")


class MechanicScore(RulesModel):
    """Points counted by a named mechanic (a geometry the scoring vocabulary cannot say)."""

    mechanic: MechanicScoreSpec = Field(description="The mechanic and its score.")


class MechanicCondition(RulesModel):
    """Which mechanic and which of its conditions (a question about the position the vocabulary cannot ask)."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    condition: RulesIdentifier = Field(description="One of the conditions the mechanic declares.")
