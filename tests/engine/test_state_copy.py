"""Cloning and fingerprints are generated from the fields a State declares (cardgen.engine.state_copy)."""

from __future__ import annotations

import pytest

from cardgen.engine.core import State
from cardgen.engine.state_copy import state_methods
from reference.ceramus import CeramusState
from reference.keramikos import KeramikosState
from reference.mausoleum_guardians import MausoleumState


class _Pile:
    __slots__ = ("game", "pile", "top", "hands", "tricks", "marks", "turn")
    clone, fingerprint = state_methods(
        __slots__, shared="game pile", values="top turn", lists="hands", nested="tricks", dicts="marks",
        fingerprint="turn tail:pile:top hands tricks marks",
    )

    def __init__(self) -> None:
        self.game, self.pile, self.top, self.turn = object(), (5, 6, 7), 1, 0
        self.hands, self.tricks, self.marks = [1, 2], [[3], [4]], {"a": 1}


def test_the_copy_is_independent_where_the_declaration_says_so() -> None:
    state = _Pile()
    other = state.clone()
    assert type(other) is _Pile and other.game is state.game and other.pile is state.pile
    other.hands.append(9)
    other.tricks[0].append(9)
    other.marks["b"] = 2
    assert state.hands == [1, 2] and state.tricks == [[3], [4]] and state.marks == {"a": 1}
    assert state.fingerprint() == (0, (6, 7), (1, 2), ((3,), (4,)), (("a", 1),))
    hash(state.fingerprint())


def test_an_undeclared_slot_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match=r"undeclared: \['b'\]"):
        state_methods(("a", "b"), values="a", fingerprint="a")
    with pytest.raises(TypeError, match=r"not slots: \['c'\]"):
        state_methods(("a",), values="a c", fingerprint="a")
    with pytest.raises(TypeError, match="declared twice"):
        state_methods(("a",), values="a", lists="a", fingerprint="a")
    with pytest.raises(TypeError, match="not a declared field"):
        state_methods(("a",), values="a", fingerprint="b")
    with pytest.raises(TypeError, match="not a form"):
        state_methods(("a",), values="a", fingerprint="tail:a:b")


@pytest.mark.parametrize("state_class", [CeramusState, KeramikosState, MausoleumState])
def test_every_game_state_declares_its_copies(state_class: type[State]) -> None:
    assert state_class.clone.__doc__ and "generated" in state_class.clone.__doc__
    assert state_class.fingerprint.__doc__ and "generated" in state_class.fingerprint.__doc__


class _Hands:
    __slots__ = ("hands",)
    clone, fingerprint = state_methods(__slots__, nested="hands*2", fingerprint="sorted-each:hands")

    def __init__(self) -> None:
        self.hands = [[3, 1], [2]]


def test_a_fixed_length_nested_list_is_copied_and_fingerprinted_item_by_item() -> None:
    state = _Hands()
    other = state.clone()
    other.hands[0].append(0)
    assert state.hands == [[3, 1], [2]] and other.hands == [[3, 1, 0], [2]]
    assert state.fingerprint() == ((1, 3), (2,))
    with pytest.raises(TypeError, match="fixed length"):
        state_methods(("a",), lists="a*2", fingerprint="a")
