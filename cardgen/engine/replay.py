"""Replay logs: one game as JSON lines, written deterministically and checked on reading.

A log holds a header line ``{"game", "spec_hash", "players", "seed", "agents",
"cardgen_version"}``, then one line per action ``{"ply", "player", "action",
"text"}`` (chance outcomes included, player -1) and a final line ``{"scores",
"ranking", "termination"}``. Keys are sorted and nothing depends on the clock,
so the same game always gives the same bytes.

:func:`replay_lines` plays a log back through the engine: the spec must hash to
the recorded value, every action must be legal where it is played, and the end
must match the recorded scores.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from cardgen import __version__
from cardgen.engine.core import CHANCE, Action, Game, State
from cardgen.engine.playout import PlayoutResult
from cardgen.findings import InputError, display_path
from cardgen.limits import MAX_INT, MAX_JSON_DEPTH, MAX_PLAYERS, MAX_REPLAY_BYTES, MAX_REPLAY_PLIES, MAX_SEED
from cardgen.spec.models import Spec
from cardgen.spec.files import decode_text, read_bytes


class ReplayMismatch(ValueError):
    """A log does not fit the engine: another spec, an illegal action or a different end."""


def spec_hash(spec: Spec) -> str:
    """The sha256 of the spec model's canonical JSON (sorted keys, no spaces)."""
    canonical = json.dumps(spec.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ReplayStep:
    """One action of a logged game."""

    ply: int
    player: int
    action: Action
    text: str


@dataclass
class Replay:
    """A whole logged game."""

    game: str
    spec_hash: str
    players: int
    seed: int
    agents: list[str]
    cardgen_version: str = __version__
    steps: list[ReplayStep] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    ranking: list[list[int]] = field(default_factory=list)
    termination: str = ""

    @property
    def actions(self) -> list[Action]:
        """The actions in order."""
        return [step.action for step in self.steps]


def record_replay(
    game: Game, seed: int, actions: Sequence[Action], agents: Sequence[str], termination: str | None = None
) -> Replay:
    """Build the log of ``actions`` played from the deal of ``seed``, with a readable text per action."""
    state = game.new_initial_state(seed)
    replay = Replay(game=game.spec.id, spec_hash=spec_hash(game.spec), players=game.num_players, seed=seed, agents=list(agents))
    for ply, action in enumerate(actions):
        player = state.current_player()
        replay.steps.append(ReplayStep(ply, player, action, state.action_to_string(action)))
        state.apply_action(action)
    replay.scores = list(state.scores())
    replay.ranking = [list(group) for group in state.ranking()]
    tag = state.termination()
    replay.termination = termination if termination is not None else (tag.value if tag is not None else "unfinished")
    return replay


def replay_of(game: Game, result: PlayoutResult) -> Replay:
    """The log of a playout."""
    return record_replay(game, result.seed, result.actions, result.agents, result.termination)


def dumps_replay(replay: Replay) -> str:
    """The log as JSON lines (deterministic)."""

    def line(data: dict[str, object]) -> str:
        return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))

    lines = [
        line(
            {
                "game": replay.game,
                "spec_hash": replay.spec_hash,
                "players": replay.players,
                "seed": replay.seed,
                "agents": list(replay.agents),
                "cardgen_version": replay.cardgen_version,
            }
        )
    ]
    for step in replay.steps:
        lines.append(line({"ply": step.ply, "player": step.player, "action": step.action, "text": step.text}))
    lines.append(line({"scores": list(replay.scores), "ranking": [list(g) for g in replay.ranking], "termination": replay.termination}))
    return "\n".join(lines) + "\n"


def write_replay(replay: Replay, path: Path) -> Path:
    """Write the log to ``path`` (folders created), returning the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(dumps_replay(replay).encode("utf-8"))
    return path


class _Row:
    """One parsed line of a log, with typed getters that name the line on a problem."""

    def __init__(self, data: dict[str, object], where: str, lineno: int) -> None:
        self.data, self.where, self.lineno = data, where, lineno

    def _fail(self, key: str, kind: str) -> InputError:
        return InputError(f"replay line {self.lineno} needs {key!r} as {kind}", self.where, self.lineno)

    def integer(self, key: str, low: int = -MAX_INT, high: int = MAX_INT) -> int:
        value = self.data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._fail(key, "a whole number")
        if not low <= value <= high:
            raise self._fail(key, f"a whole number from {low} to {high}")
        return value

    def text(self, key: str) -> str:
        value = self.data.get(key)
        if not isinstance(value, str):
            raise self._fail(key, "a string")
        return value

    def integers(self, key: str) -> list[int]:
        value = self.data.get(key)
        if not isinstance(value, list) or not all(_whole(v) for v in value):
            raise self._fail(key, "a list of whole numbers")
        return list(value)

    def groups(self, key: str) -> list[list[int]]:
        value = self.data.get(key)
        if not isinstance(value, list) or not all(isinstance(g, list) and all(_whole(v) for v in g) for g in value):
            raise self._fail(key, "a list of lists of seats")
        return [list(g) for g in value]

    def texts(self, key: str) -> list[str]:
        value = self.data.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._fail(key, "a list of strings")
        return list(value)


def _whole(value: object) -> bool:
    """A JSON whole number within the range any spec number has."""
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT


def _json_depth(line: str) -> int:
    """How deeply a JSON line nests lists and objects (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in line:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def loads_replay(text: str, where: str = "<replay>") -> Replay:
    """Parse a log; raises InputError naming the line of the first problem.

    Bounded: at most :data:`~cardgen.limits.MAX_REPLAY_PLIES` actions, lines nested
    at most :data:`~cardgen.limits.MAX_JSON_DEPTH` deep, every number within
    :data:`~cardgen.limits.MAX_INT` and the seed within :data:`~cardgen.limits.MAX_SEED`.
    """
    rows: list[_Row] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if len(rows) > MAX_REPLAY_PLIES + 1:
            raise InputError(f"the replay holds more than {MAX_REPLAY_PLIES:,} actions (limit MAX_REPLAY_PLIES)", where, lineno)
        if _json_depth(raw) > MAX_JSON_DEPTH:
            raise InputError(f"replay line {lineno} nests deeper than {MAX_JSON_DEPTH} levels (limit MAX_JSON_DEPTH)", where, lineno)
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as error:
            raise InputError(f"replay line {lineno} is not JSON: {error.msg}", where, lineno) from None
        except ValueError as error:  # e.g. a number of thousands of digits (Python's int conversion limit)
            raise InputError(f"replay line {lineno} cannot be read: {str(error)[:120]}", where, lineno) from None
        if not isinstance(data, dict):
            raise InputError(f"replay line {lineno} is not a JSON object", where, lineno)
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(f"replay line {lineno} holds an unpaired surrogate escape (\\udXXX), which no text can print", where, lineno) from None
        rows.append(_Row(data, where, lineno))
    if len(rows) < 2:
        raise InputError("a replay needs a header line and a final line", where)
    head = rows[0]
    replay = Replay(
        game=head.text("game"),
        spec_hash=head.text("spec_hash"),
        players=head.integer("players", 1, MAX_PLAYERS),
        seed=head.integer("seed", 0, MAX_SEED),
        agents=head.texts("agents"),
        cardgen_version=str(head.data.get("cardgen_version", "")),
    )
    for row in rows[1:-1]:
        replay.steps.append(ReplayStep(row.integer("ply"), row.integer("player"), row.integer("action"), str(row.data.get("text", ""))))
    end = rows[-1]
    replay.scores = end.integers("scores")
    replay.ranking = end.groups("ranking")
    replay.termination = end.text("termination")
    return replay


def read_replay(path: Path) -> Replay:
    """Read a log file; InputError when it cannot be read or parsed."""
    where = display_path(path)
    raw = read_bytes(path, where, MAX_REPLAY_BYTES)  # bounded: a device or a growing file cannot make it endless
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = decode_text(raw, where)  # raises, naming the line and column of the first bad byte
    return loads_replay(text, where)


def replay_lines(game: Game, replay: Replay) -> Iterator[str]:
    """Play ``replay`` through ``game``, yielding one readable line per action and a final line.

    Raises :class:`ReplayMismatch` when the spec hash differs, an action is
    illegal, or the final scores differ from the recorded ones.
    """
    if replay.spec_hash != spec_hash(game.spec):
        raise ReplayMismatch(f"the replay was recorded with another version of {replay.game!r} (spec hash differs)")
    if replay.players != game.num_players:
        raise ReplayMismatch(f"the replay has {replay.players} players, the game was built for {game.num_players}")
    state: State = game.new_initial_state(replay.seed)
    yield f"{replay.game}, {replay.players} player(s), seed {replay.seed}, agents {', '.join(replay.agents)}"
    for step in replay.steps:
        legal = state.legal_actions()
        if step.action not in legal:
            raise ReplayMismatch(f"ply {step.ply}: action {step.action} is not legal here (legal: {legal[:20]})")
        text = state.action_to_string(step.action)
        who = "chance" if state.current_player() == CHANCE else f"P{state.current_player() + 1}"
        yield f"{step.ply:>4}  {who:<6} {text}"
        state.apply_action(step.action)
    scores = state.scores()
    if list(scores) != list(replay.scores):
        raise ReplayMismatch(f"the replay ends with scores {replay.scores}, the engine reaches {scores}")
    places = "; ".join(f"{place + 1}. " + ", ".join(f"P{s + 1}" for s in group) for place, group in enumerate(state.ranking()))
    yield f"end ({replay.termination}): scores {', '.join(f'P{i + 1} {s}' for i, s in enumerate(scores))}; ranking {places}"


def replay_state(game: Game, replay: Replay) -> State:
    """The state the log reaches, checking hash and legality like :func:`replay_lines`."""
    for _ in replay_lines(game, replay):
        pass
    state = game.new_initial_state(replay.seed)
    for action in replay.actions:
        state.apply_action(action)
    return state
