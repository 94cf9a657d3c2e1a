"""Rules data checked before anything is played: every name it uses exists, every turn can end, every effect can happen.

The problems come from :func:`cardgen.spec.rules_check.rules_problems`; this
module turns them into findings at their file and line. What the rules data
reads from the rest of the spec is checked like any rules module's contract
(:mod:`cardgen.validate.contract`).
"""

from __future__ import annotations

from typing import Any, Iterator

from cardgen.findings import Finding, Severity
from cardgen.spec.load import LoadedSpec
from cardgen.spec.source import PathKey
from cardgen.spec.local_text import needs_gender
from cardgen.validate.registry import check, register_codes

# The checks below import the rules-data machinery (cardgen.spec.rules_check and its kin, which load the rules-data
# models) only for a spec that holds rules data: the others never load those models (see cardgen.spec.rules_field).

register_codes(
    {
        "CG175": "The rules data names something that does not exist (a zone, counter, variable, step, field, number, dice or setup entry), "
        "an expression is not in the rules language or gives the wrong kind of value, names clash, a count, range or limit is out "
        "of bounds, or a name is used where it means nothing (`target` where no seat is chosen, a roll or steal that is not the last "
        "effect of its list), or a named mechanic is not registered, not listed under `mechanics`, lacks the action, effect, setup "
        "step or score asked of it, or misses a zone it needs, so the interpreter could not play it.",
        "CG176": "A step of the turn from which no chain of options ever ends the turn, so a turn could go on for ever.",
        "CG177": "A card effect in the rules data that can never happen: no card in play carries it, or no option chooses a card with its effects.",
        "CG178": "The trick rules cannot be played as written: the trick zone is per seat or tricks won go to a shared zone, no option "
        "plays to the trick, a turn may play no card or two to it, something else moves cards into or out of it, an effect "
        "changes the turn order, or the rank compared is not a whole number.",
        "CG179": "At some player count the setup deals the hands a trick game plays from unevenly (the deal asks for more cards "
        "than are left after the cards set aside), so the last trick cannot have a card from every seat.",
        "CG181": "A zone, counter, variable or option of the rules data, or a card field it reads, has no `name:`, so the rulebook's "
        "generated text shows its id in every language (a step without a name is numbered, which reads well); or a name in a language "
        "whose sentences agree in gender (pt_BR) has no `gender` there, so its articles are the unmarked ones.",
        "CG180": "An option no position can offer: it chooses a card from a zone that no setup step, option or effect ever fills.",
        "CG182": "An effect or scoring rule of the rules data that does nothing at the spec's numbers, at some or every player count: "
        "it adds 0, moves no card (or moves cards back onto the zone they leave), arranges at most one card, swaps a zone with the same seat's same zone, multiplies sets by 1, gives a bonus of 0 "
        "or scores 0 for every place of a majority (a warning when a rule "
        "option decides it, since a variant may switch a rule off); or a setup step (or a set in a setup loop) sets a variable that nothing after it reads.",
        "CG183": "A rules-data expression compares a card's field (or a variable holding a field's values, or the value asked of "
        "`has`, `matching` or `sets`) with a value no card in play has, so the condition never holds (or always does): a typo, or "
        "a rule waiting for a card the decks leave out; or compares a yes-or-no variable (`flag`) with a value other than 1 and 0.",
    }
)

_HINTS = {
    "CG175": "see docs/rules-data.md for the names and the expression language",
    "CG176": "give the step an option with `then: end`, or one leading to a step that has one",
    "CG177": "give the effect to a card, or remove it",
    "CG178": "see docs/rules-data-tricks.md: one card per seat per trick, played from the seat's own hand",
    "CG179": "deal fewer cards at that player count, or set aside cards so the deck divides evenly",
    "CG180": "fill the zone somewhere (a deal, a move), or choose from the zone that holds the cards",
    "CG181": "give it `name: {en: ..., pt_BR: ...}` (and a `gender` for Portuguese articles)",
    "CG182": "change the number it reads, or remove the rule (a `when` on the option says when it applies)",
    "CG183": "correct the value, or put a card with it in the deck (or remove the rule)",
}


@check("rules-data-dead-rules", "static")
def rules_data_dead_rules(loaded: LoadedSpec) -> Iterator[Finding]:
    """No effect or scoring rule of the rules data does nothing at the spec's numbers, and no condition waits for a
    card value no card in play has."""
    assert loaded.spec is not None
    rules = loaded.spec.rules_data
    if rules is None:
        return
    from cardgen.spec.rules_inert import inert_problems
    from cardgen.spec.rules_literals import literal_problems

    for path, problem, optional in inert_problems(loaded.spec, rules):
        yield loaded.place_finding("CG182", Severity.WARNING if optional else Severity.ERROR, path, problem, _HINTS["CG182"])
    for path, problem in literal_problems(loaded.spec, rules):
        yield loaded.place_finding("CG183", Severity.WARNING, path, problem, _HINTS["CG183"])


@check("rules-data", "static")
def rules_data(loaded: LoadedSpec) -> Iterator[Finding]:
    """The spec's rules data can be played as written."""
    assert loaded.spec is not None
    rules = loaded.spec.rules_data
    if rules is None:
        return
    from cardgen.spec.mechanic_declaration import mechanic_fills
    from cardgen.spec.rules_check import rules_problems
    from cardgen.spec.rules_give import give_problems

    fills: frozenset[str] = frozenset()
    if rules.mechanics:
        from cardgen.engine.mechanics import mechanic_declaration

        fills = mechanic_fills(rules, {name: mechanic_declaration(name) for name in rules.mechanics})
    for path, problem, code in [*rules_problems(loaded.spec, rules, fills), *give_problems(rules)]:
        severity = Severity.WARNING if code in ("CG177", "CG180") else Severity.ERROR
        yield loaded.place_finding(code, severity, path, problem, _HINTS[code])


@check("rules-data-mechanics", "static")
def rules_data_mechanics(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every named mechanic the rules data uses is registered, listed, offers what is asked of it and finds its zones."""
    assert loaded.spec is not None
    rules = loaded.spec.rules_data
    if rules is None:
        return
    from cardgen.spec.mechanic_declaration import mechanic_problems, mechanic_uses
    from cardgen.spec.rules_check import condition_uses

    if not (rules.mechanics or any(True for _ in mechanic_uses(rules))):
        return
    from cardgen.engine.mechanics import mechanic_declaration, registered_mechanics

    declarations = {name: mechanic_declaration(name) for name in rules.mechanics}
    # Every registered name is listed only in the message for a name nothing registers: listing them imports every game.
    known = registered_mechanics() if None in declarations.values() else sorted(declarations)
    conditions = condition_uses(loaded.spec, rules)
    for path, problem in mechanic_problems(rules, declarations, known, conditions):
        yield loaded.place_finding("CG175", Severity.ERROR, path, problem, "see docs/rules-data.md, Named mechanics")


@check("rules-data-names", "static")
def rules_data_names(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every name the generated rulebook text prints is given in words, not left to the id."""
    assert loaded.spec is not None
    rules = loaded.spec.rules_data
    if rules is None:
        return
    from cardgen.spec.rules_check import rules_reads

    spec = loaded.spec
    kinds: list[tuple[PathKey, str, str, Any]] = [
        (("rules", key, name), what, name, item)
        for key, what, named in (("zones", "zone", rules.zones), ("counters", "counter", rules.counters), ("variables", "variable", rules.variables))
        for name, item in named.items()
    ]
    read = rules_reads(spec, rules).fields
    kinds += [(("decks", d, "fields", name), "card field", name, field) for d, deck in enumerate(spec.decks) for name, field in deck.fields.items() if name in read]
    shown: set[tuple[str, str]] = set()
    for path, what, name, item in kinds:
        if item.name is None:
            if (what, name) not in shown:  # a field two decks declare is reported once
                shown.add((what, name))
                yield loaded.place_finding("CG181", Severity.WARNING, path, f"{what} {name!r} has no name; the rulebook prints {name!r} in every language", _HINTS["CG181"])
            continue
        for locale in item.name:
            if needs_gender(locale) and locale not in item.gender:
                yield loaded.place_finding(
                    "CG181", Severity.WARNING, path,
                    f"{what} {name!r} has no gender in {locale}; the generated sentences there print it with the unmarked articles ({item.name[locale]!r})",
                    _HINTS["CG181"],
                )
    for i, step in enumerate(rules.turn):
        for j, option in enumerate(step.options):
            if option.name is None:
                path = ("rules", "turn", i, "options", j)
                yield loaded.place_finding("CG181", Severity.WARNING, path, f"option {option.id!r} has no name; the rulebook prints {option.id!r} in every language", _HINTS["CG181"])

