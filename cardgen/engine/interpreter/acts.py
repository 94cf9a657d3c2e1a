"""An option taken, as one function per option written when the game is made.

:meth:`DataState._apply <cardgen.engine.interpreter.state.DataState._apply>` used to read every part an option may
have (an aim, a pass, a mechanic's act, a card chosen, effects, the card's own effect, a trick) at every action;
:func:`option_act` writes, per option, the code of only the parts it has, in that order, with its zones' slots,
effects and tables as constants. Where the turn goes next stays with the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from cardgen.engine.interpreter.compile import compiled
from cardgen.engine.interpreter.options import CompiledOption

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataGame
    from cardgen.engine.interpreter.state import DataState

ActOption = Callable[["DataState", int, int], None]
"""``f(state, seat deciding, parameter)``: everything taking the option does before the turn moves on."""


def option_act(game: "DataGame", option: CompiledOption) -> ActOption:
    """The function carrying out ``option`` with the action's parameter (the card chosen, the seat aimed at times the
    card width plus the card, or a mechanic's or row's choice): its use counted, the aim taken, a pass read before
    anything moves, a mechanic's or row's act, the card moved, the option's effects, the card's own effect, the card
    played to the trick, and the run of passes, as the state did it part by part."""
    names: dict[str, Any] = {"_DE": game.design_effect, "_DEI": game.design_effect_index, "_TR": game.trick_rules}
    i = option.index
    lines = ["def _act(s, S, p):", f"    s.option_uses[{i}] += 1"]
    lines.append(f"    s.tg, c = divmod(p, {game.card_width})" if option.target is not None else "    c = p")
    passes = option.passes
    read_pass = passes is not None and passes is not True and passes is not False
    if read_pass:  # an expression, read as the option is taken
        names["_passes"] = passes
        lines.append("    _passed = bool(_passes(s, S, c))")
    if option.mechanic is not None:
        names["_mechanic_act"] = option.mechanic[3]
        lines.append("    _mechanic_act(s, S, p)")
    if option.chooses_card:
        owner = "s.tg" if option.from_target else "S"
        source = f"{option.card_from} + {owner}" if option.card_from_seat else str(option.card_from)
        receiver = "s.tg" if option.to_target else "S"
        target = f"{option.card_to} + {receiver}" if option.card_to_seat else str(option.card_to)
        lines.append(f"    s.z[{source}].remove(c)")
        lines.append(f"    s.z[{target}].append(c)")
    for k, effect in enumerate(option.do):
        names[f"_e{k}"] = effect
        lines.append(f"    _e{k}(s, S, c)")
    if option.chooses_card and option.card_effects:
        lines += [
            "    _effects = _DE[c]",
            "    if _effects is not None:",
            "        s.effect_uses[_DEI[c]] += 1",
            "        for _effect in _effects:",
            "            _effect(s, S, c)",
        ]
    if option.trick:
        lines.append("    _TR.played(s, S)")
    if read_pass:
        lines.append("    s.passes = s.passes + 1 if _passed else 0")
    elif passes is True:
        lines.append("    s.passes += 1")
    elif passes is False:
        lines.append("    s.passes = 0")
    exec(compiled("\n".join(lines), "exec"), names)  # noqa: S102 - written from the game's own tables
    act: ActOption = names["_act"]
    return act
