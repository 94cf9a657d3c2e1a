"""Property-based fuzzing of rules data (issue 14): validation never raises, and rules data it passes plays.

Hypothesis builds `rules:` mappings of the right shape for Crazy Eights' deck
(zones, counters, a variable, setup steps, a turn of options, card effects, an
end and a score) whose names and expressions are drawn at random: names from a
pool that includes the language's own words and clashing names, expressions
from the whole grammar (arithmetic, ordering, ``in`` lists, every function,
text and number constants, division by zero, values of a billion), with moves to
another seat (``to_who``, with or without ``where``), swaps, majorities and ``end.stuck``. Each case is
written to a copy of the spec and validated (static checks) through
:func:`validate_folder`, which must never raise. When the rules data has no
error of its own (CG175-CG180), the game is made for two and three players and
a few random playouts run to their end or a bounded number of actions: none
may raise. Runs are derandomized and keep no database, so CI sees the same
cases every time.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from cardgen.engine.interpreter.game import DataGame
from cardgen.findings import Severity
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder

from .conftest import SPECS

SPEC = "crazy-eights"
EXAMPLES = 30
"""Cases per run: each writes and validates a spec (a few hundred ms), then plays a few games."""
PLAYOUT_ACTIONS = 400
"""Actions one fuzz playout may take before it is stopped (the length bound itself is checked elsewhere)."""
RULES_CODES = ("CG175", "CG176", "CG177", "CG178", "CG179", "CG180")

ZONE_NAMES = ["pile", "count"]
COUNTER_NAMES = ["draws", "score"]
HOSTILE_NAMES = ["seat", "card", "players", "hand", "turn", "true", "lambda"]
"""Names that clash with the language's words or with each other: a case uses them one time in five."""
FIELDS = ["suit", "rank", "label", "points", "id", "type", "effect"]
NUMBERS = ["numbers.max_draws", "setup.deal.standard"]


def _expression(zones: list[str], counters: list[str], *, card: bool, hostile: bool) -> st.SearchStrategy[str]:
    """Conditions over the given names (``card.X`` in a card's condition), built by kind so most check; when
    ``hostile``, also untyped mixes and names that do not exist, which the checker must refuse."""
    zone = st.sampled_from(zones)
    number_leaf = st.one_of(
        st.sampled_from(["0", "1", "8", "13", "-1", "1000000000", "true"] + NUMBERS + counters + ["players", "seat", "turn"] + (["card.rank", "card.points"] if card else [])),
        st.builds(lambda z: f"count({z})", zone),
        st.builds(lambda z, f: f"total({z}, {f})", zone, st.sampled_from(["rank", "points"])),
        st.builds(lambda z, f: f"top({z}).{f}", zone, st.sampled_from(["rank", "points"])),
        st.builds(lambda z, f: f"distinct({z}, {f})", zone, st.sampled_from(FIELDS)),
    )
    text = st.sampled_from(["'hearts'", "'wild'", "''", "suit", "top(discard).suit", "top(hand).label"] + (["card.suit", "card.effect", "card.id"] if card else []))
    numbers = st.recursive(
        number_leaf,
        lambda inner: st.one_of(
            st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner),
            st.builds(lambda a: f"-({a})", inner),
        ),
        max_leaves=6,
    )
    comparison = st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", numbers, st.sampled_from(["==", "!=", "<", ">=", ">", "<="]), numbers),
        st.builds(lambda a, op, b: f"{a} {op} {b}", text, st.sampled_from(["==", "!=", "<"]), text),
        st.builds(lambda a: f"{a} in [1, 'hearts', 13]", st.one_of(numbers, text)),
        st.builds(lambda z, f, a: f"has({z}, {f}, {a})", zone, st.sampled_from(FIELDS), st.one_of(numbers, text)),
        st.builds(lambda z: f"holds({z}, '8-hearts')", zone),
    )
    conditions = st.recursive(
        comparison,
        lambda inner: st.one_of(
            st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(["and", "or"]), inner),
            st.builds(lambda a: f"not ({a})", inner),
        ),
        max_leaves=4,
    )
    if not hostile:
        return st.one_of(conditions, numbers)
    untyped = st.recursive(
        st.one_of(number_leaf, text, st.sampled_from(["nowhere", "card.colour", "setup.deal.jokers", "count(nowhere)", "top(hand).suit"])),
        lambda inner: st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(["+", "*", "//", "%", "<", "==", "and"]), inner),
        max_leaves=8,
    )
    return st.one_of(conditions, numbers, untyped)


@st.composite
def rules_data(draw: st.DrawFn) -> dict[str, Any]:
    """A rules-data mapping of the right shape with random names and expressions."""
    hostile = draw(st.integers(0, 4)) == 0
    pool = ZONE_NAMES + (HOSTILE_NAMES if hostile else [])
    zones = list(dict.fromkeys(["stock", "discard", "hand"] + draw(st.lists(st.sampled_from(pool), max_size=2, unique=True))))
    counters = draw(st.lists(st.sampled_from(COUNTER_NAMES + (HOSTILE_NAMES if hostile else [])), min_size=1, max_size=2, unique=True))
    expr = _expression(zones, counters, card=False, hostile=hostile)
    card_expr = _expression(zones, counters, card=True, hostile=hostile)
    huge = st.sampled_from([10**9, -(10**9)]) if hostile else st.integers(0, 2)
    amount = st.one_of(st.integers(-3, 3), huge, _expression(zones, counters, card=False, hostile=hostile))
    zone = st.sampled_from(zones)

    def effect(card: bool = False) -> st.SearchStrategy[Any]:
        value = card_expr if card else expr
        return st.one_of(
            st.builds(lambda f, t, n: {"move": {"from": f, "to": t, "count": n}}, zone, zone, amount),
            st.builds(
                lambda f, n, who, to_who, where: {"move": {"from": f, "to": "hand", "count": n, "who": who, "to_who": to_who, **where}},
                zone, amount, st.sampled_from(["me", "each", "others", "next"]), st.sampled_from(["me", "next", "previous", "active"]),
                st.one_of(st.just({}), st.builds(lambda w: {"where": w}, card_expr)),
            ),
            st.builds(lambda w, other: {"swap": {"zone": "hand", "with": w, **other}}, st.sampled_from(["next", "previous", "active"]),
                      st.sampled_from([{}, {"other": "hand"}, {"other": "discard"}])),
            st.builds(lambda c, a: {"add": {"counter": c, "amount": a}}, st.sampled_from(counters), amount),
            st.builds(lambda v: {"set": {"var": "suit", "value": v}}, value),
            st.sampled_from(["reverse", "extra_turn", {"skip": 1}]),
        )

    options = [
        {
            "id": "play",
            "card": {"from": "hand", "to": "discard", "where": draw(card_expr)},
            "do": draw(st.lists(effect(card=True), max_size=2)),
        },
        {"id": "draw", "when": draw(expr), "do": draw(st.lists(effect(), max_size=2)), "then": draw(st.sampled_from(["end", "again"]))},
        {"id": "pass", "otherwise": True, "passes": True},
    ]
    end: dict[str, Any] = {"any_seat": draw(expr), "all_pass": True, "stuck": draw(st.booleans())}
    if draw(st.booleans()):
        end["turn_limit"] = draw(st.one_of(st.integers(-2, 300), st.just(10**9), expr))
    return {
        "zones": {name: {"per_seat": name == "hand"} for name in zones},
        "counters": {name: {"start": draw(st.one_of(st.integers(-1, 3), expr)), "min": draw(st.integers(-5, 0)), "max": draw(st.integers(0, 100))} for name in counters},
        "variables": {"suit": {"values": draw(st.sampled_from(["suit", "rank", "label"]))}},
        "setup": [
            {"shuffle": {"deck": "standard", "to": "stock"}},
            {"deal": {"from": "stock", "to": "hand", "count": draw(st.one_of(st.just("setup.deal.standard"), amount))}},
            {"move": {"from": "stock", "to": "discard", "count": draw(amount)}},
        ],
        "turn": [{"id": "turn", "options": options}],
        "effects": {"wild": draw(st.lists(effect(card=True), max_size=2)) + draw(st.sampled_from([[], [{"choose": "suit"}]]))},
        "end": end,
        "scoring": [draw(st.sampled_from([{"sum": {"zone": "hand", "field": "points", "sign": -1}}, {"counter": counters[0]}]))]
        + draw(st.lists(st.builds(
            lambda by, count, points, ties: {"majority": {"zone": "hand", "by": by, "count": count, "points": points, "ties": ties}},
            st.sampled_from([None, "suit", "rank", "effect", "label"]), st.sampled_from([None, "points", "rank", "suit"]),
            st.lists(st.one_of(st.integers(-3, 9), huge, expr), min_size=1, max_size=3), st.sampled_from(["share", "full", "none"]),
        ), max_size=1)),
    }


def _base() -> dict[str, Any]:
    data = YAML(typ="safe").load((SPECS / SPEC / "game.yaml").read_text(encoding="utf-8"))
    return json.loads(json.dumps(data, default=str))


BASE = _base()


def _play(folder: Path) -> None:
    loaded = load_spec(folder)
    assert loaded.spec is not None
    for players in (2, 3):
        try:
            game = DataGame(loaded.spec, players)
        except ValueError:
            continue  # a count or limit out of range at this player count: CG502, a finding
        for seed in range(2):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            for _ in range(PLAYOUT_ACTIONS):
                actions = state.legal_actions()
                if state.is_terminal() or not actions:
                    break
                state.apply_action(rng.choice(actions))
            state.scores()
            state.conservation_errors()


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(rules=rules_data())
def test_fuzzed_rules_data_never_raises(tmp_path_factory: Any, rules: dict[str, Any]) -> None:
    folder = tmp_path_factory.mktemp("fuzz") / SPEC
    shutil.copytree(SPECS / SPEC, folder)
    data = dict(BASE, rules=rules)
    (folder / "game.yaml").write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    findings = validate_folder(folder, kinds=("static",)).findings
    for finding in findings:
        assert "\n" not in finding.render(), finding.render()
    if any(f.code in RULES_CODES and f.severity is Severity.ERROR for f in findings):
        return
    if any(f.code in ("CG002", "CG003", "CG004") for f in findings):
        return  # the mapping did not parse (a name outside the pattern): the schema finding is the answer
    _play(folder)
