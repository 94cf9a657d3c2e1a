"""A conformance harness for rules modules (after OpenSpiel's random simulation test).

:func:`conformance_problems` plays random games and checks, at every step, that
the State API keeps its promises:

* legal actions are sorted ints without repeats, and empty exactly when the
  game is over (``current_player()`` is TERMINAL exactly then too);
* at a chance step the outcomes match the legal actions, have positive
  probabilities and sum to 1;
* ``clone()`` equals its original, stays equal after the same action is applied
  to both, and changing the clone leaves the original untouched;
* ``conservation_errors()`` is empty after every action;
* every legal action has a readable, non-empty ``action_to_string``;
* the deal is a function of the seed; (spec hash, seed, actions) replays to the
  same ``state_hash`` through a written and re-read replay log;
* the game ends within ``info().max_game_length`` actions, with scores inside
  ``info()``'s bounds, and ``usage()`` only counts keys from ``usage_keys()``.

It returns readable problems instead of raising, so a test can show them all.
"""

from __future__ import annotations

import math
import random
from typing import Iterable

from cardgen.engine.core import CHANCE, TERMINAL, Game, State, play_actions
from cardgen.engine.replay import dumps_replay, loads_replay, record_replay, replay_state


def _check_step(state: State, ply: int, problems: list[str]) -> list[int]:
    legal = state.legal_actions()
    where = f"ply {ply}"
    if any(not isinstance(a, int) or isinstance(a, bool) for a in legal):
        problems.append(f"{where}: legal_actions() holds something other than ints")
    if legal != sorted(legal):
        problems.append(f"{where}: legal_actions() is not sorted")
    if len(set(legal)) != len(legal):
        problems.append(f"{where}: legal_actions() repeats an action")
    terminal = state.is_terminal()
    if terminal and legal:
        problems.append(f"{where}: the game is over but legal_actions() is not empty")
    if terminal != (state.current_player() == TERMINAL):
        problems.append(f"{where}: is_terminal() is {terminal} but current_player() is {state.current_player()}")
    if not terminal and not legal:
        problems.append(f"{where}: dead end: the game is not over but there is no legal action")
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        total = sum(p for _, p in outcomes)
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            problems.append(f"{where}: chance outcome probabilities sum to {total}, not 1")
        if any(p <= 0 for _, p in outcomes):
            problems.append(f"{where}: a chance outcome has probability <= 0")
        if sorted(a for a, _ in outcomes) != legal:
            problems.append(f"{where}: chance_outcomes() and legal_actions() list different outcomes")
    for action in legal:
        text = state.action_to_string(action)
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{where}: action_to_string({action}) is empty")
            break
    errors = state.conservation_errors()
    if errors:
        problems.append(f"{where}: conservation: {'; '.join(errors[:3])}")
    return legal


def conformance_problems(game: Game, seed: int, max_problems: int = 20) -> list[str]:
    """Play the deal of ``seed`` with uniformly random choices, checking the State API at every step."""
    problems: list[str] = []
    info = game.info()
    rng = random.Random(f"cardgen-harness:{seed}")
    state = game.new_initial_state(seed)
    again = game.new_initial_state(seed)
    if state.fingerprint() != again.fingerprint():
        problems.append("new_initial_state(seed) deals differently when called twice with the same seed")
    try:
        hash(state.fingerprint())
    except TypeError:
        problems.append("fingerprint() is not hashable")
        return problems
    actions: list[int] = []
    keys = set(game.usage_keys())
    while len(problems) < max_problems:
        legal = _check_step(state, len(actions), problems)
        if state.is_terminal() or not legal:
            break
        if len(actions) >= info.max_game_length:
            problems.append(f"the game passed info().max_game_length = {info.max_game_length} actions without ending")
            break
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
            if action not in legal:
                problems.append(f"ply {len(actions)}: sample_chance() drew {action}, which is not a legal outcome")
                break
        else:
            action = legal[rng.randrange(len(legal))]
        copy = state.clone()
        if copy != state or copy.fingerprint() != state.fingerprint():
            problems.append(f"ply {len(actions)}: clone() differs from its original")
        before = state.fingerprint()
        probe = state.clone()
        probe.apply_action(action)
        if state.fingerprint() != before:
            problems.append(f"ply {len(actions)}: applying an action to a clone changed the original")
        state.apply_action(action)
        copy.apply_action(action)
        if copy.fingerprint() != state.fingerprint():
            problems.append(f"ply {len(actions)}: a clone and its original differ after the same action {action}")
        actions.append(action)
    if len(problems) >= max_problems:
        return problems
    if state.is_terminal():
        scores = state.scores()
        if len(scores) != game.num_players:
            problems.append(f"scores() has {len(scores)} entries for {game.num_players} seats")
        for seat, score in enumerate(scores):
            if not info.min_score <= score <= info.max_score:
                problems.append(f"P{seat + 1}'s final score {score} lies outside info()'s bounds [{info.min_score}, {info.max_score}]")
        seats = sorted(s for group in state.ranking() for s in group)
        if seats != list(range(game.num_players)):
            problems.append(f"ranking() {state.ranking()} does not list every seat exactly once")
        if state.termination() is None:
            problems.append("termination() is None although the game is over")
    undeclared = sorted(k for k, v in state.usage().items() if v and k not in keys)
    if undeclared:
        problems.append(f"usage() counts keys missing from usage_keys(): {', '.join(undeclared[:5])}")
    try:
        replayed = play_actions(game, seed, actions)
    except ValueError as error:
        problems.append(f"replaying the actions from the seed failed: {error}")
        return problems
    if replayed.state_hash() != state.state_hash():
        problems.append("replaying (seed, actions) reaches a different state_hash")
    log = loads_replay(dumps_replay(record_replay(game, seed, actions, ["random"] * game.num_players)))
    try:
        if replay_state(game, log).state_hash() != state.state_hash():
            problems.append("a written and re-read replay log reaches a different state_hash")
    except ValueError as error:
        problems.append(f"the replay log does not play back: {error}")
    return problems


def conformance_report(game: Game, seeds: Iterable[int]) -> dict[int, list[str]]:
    """:func:`conformance_problems` for several seeds; only seeds with problems appear."""
    out: dict[int, list[str]] = {}
    for seed in seeds:
        try:
            found = conformance_problems(game, seed)
        except Exception as error:  # a crash is a problem to show, not a harness failure
            found = [f"the rules module raised {type(error).__name__}: {error}"]
        if found:
            out[seed] = found
    return out
