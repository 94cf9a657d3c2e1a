"""Keramikos in the rulebook's pictures: the table read off a state of its rules data, and its actions said in words.

The game is played by the generic interpreter from the ``rules:`` mapping of its spec; this module reads the
interpreter's rows of piles under the dig sites (``stacks``, the cards buried, and ``marked``, the cards marked this
turn), the markers on empty sites (the per-pile counter ``site_mark``) and the markers placed (``placed``) through
:mod:`.position`, and says each option of the rules data in the game's own words.
Registered on import under the spec's id; the rulebook imports it through its figure discovery.
"""

from __future__ import annotations

from cardgen.engine.core import Action, State
from cardgen.engine.interpreter import DataState
from cardgen.games.keramikos.position import facts, key_of, position
from cardgen.render.figures import GameFigures, Mark, TableView, Words, Zone, register_figures

GAME_ID = "keramikos"
SITES, DIG, MARKER = "dig-sites", "excavation", "marker"
"""The decks and the component the rules data reads."""


def table(state: State) -> TableView:
    """The dig sites, below each its stack of buried cards (the top one face up, marked cards counted in), the deck
    and discard pile, and each seat's markers, special cards in hand and pottery collected."""
    assert isinstance(state, DataState)
    g = state.g
    f = facts(g)
    dig = position(state)
    ids = f.card_ids
    piles = len(f.sites)
    zones = [Zone("grid", SITES, piles, marks=tuple(Mark(card=ids[site]) for site in f.sites), columns=piles)]
    stacks = [marked + buried for marked, buried in zip(dig.marked, dig.stacks)]
    zones.append(Zone("grid", DIG, sum(len(stack) for stack in stacks), marks=tuple(Mark(card=ids[stack[0]], depth=len(stack)) if stack else Mark(depth=0) for stack in stacks), columns=piles))
    zones.append(Zone("pile", DIG, dig.deck))
    if dig.discard:
        zones.append(Zone("discard", DIG, len(dig.discard)))
    for seat in range(g.num_players):
        zones.append(Zone("pieces", MARKER, f.markers - (dig.placed if seat == dig.active else 0), seat))
        if dig.hands[seat]:
            zones.append(Zone("hand", DIG, len(dig.hands[seat]), seat))
        pottery = tuple(Mark(card=ids[d]) for d in sorted(dig.collections[seat]) if f.pottery[d])
        if pottery:
            zones.append(Zone("collection", DIG, len(pottery), seat, pottery))
    return TableView(g.num_players, tuple(zones))


P: dict[str, dict[str, str]] = {
    "dice": {"en": "the dice show {total}: {site}", "pt_BR": "os dados somam {total}: {site}"},
    "doubles": {"en": "the dice show {total}, doubles: {site}", "pt_BR": "os dados somam {total}, um par: {site}"},
    "sabotage": {"en": "{other} plays {card} and {who} must roll again", "pt_BR": "{other} joga {card} e {who} precisa rolar de novo"},
    "let": {"en": "{other} lets the roll stand", "pt_BR": "{other} deixa a rolagem valer"},
    "roll": {"en": "{who} rolls the dice", "pt_BR": "{who} rola os dados"},
    "stop": {"en": "{who} stops and collects the cards under their {n} markers", "pt_BR": "{who} para e recolhe as cartas sob seus {n} marcadores"},
    "stop_one": {"en": "{who} stops and collects the card under their marker", "pt_BR": "{who} para e recolhe a carta sob seu marcador"},
    "bust": {"en": "{who} busts on {site}: nothing is collected", "pt_BR": "{who} estoura em {site}: nada é recolhido"},
    "empty": {"en": "{who} marks {site}, which is empty", "pt_BR": "{who} marca {site}, que está vazio"},
    "mark": {"en": "{who} marks {card} on {site}", "pt_BR": "{who} marca {card} em {site}"},
    "extra": {"en": "{who} marks {card} on {site} and, with an extra marker, {below} below it", "pt_BR": "{who} marca {card} em {site} e, com um marcador extra, {below} abaixo dela"},
    "reroll": {"en": "{who} plays {card} to roll again", "pt_BR": "{who} joga {card} para rolar de novo"},
    "deepen": {"en": "{who} uses the doubles to mark {card} deeper in {site}", "pt_BR": "{who} usa o par para marcar {card} mais fundo em {site}"},
    "burn": {"en": "{who} discards {card} to roll again", "pt_BR": "{who} descarta {card} para rolar de novo"},
    "take": {"en": "{who} takes {card} for the empty site", "pt_BR": "{who} pega {card} pelo sítio vazio"},
    "trash": {"en": "{who} takes {card} from the discard pile", "pt_BR": "{who} pega {card} da pilha de descarte"},
    "steal": {"en": "{who} steals {card} from {other}", "pt_BR": "{who} rouba {card} de {other}"},
    "sort": {"en": "{who} rearranges the cards of {site}", "pt_BR": "{who} reordena as cartas de {site}"},
    "sort_pick": {"en": "{who} puts {card} next, from the top down", "pt_BR": "{who} põe {card} a seguir, de cima para baixo"},
}


def describe(state: State, action: Action, words: Words) -> str:
    """``action`` in ``words``' language, from the position before it (as ``action_to_string`` says it)."""
    assert isinstance(state, DataState)
    g = state.g
    f = facts(g)
    dig = position(state)
    who = words.seat(state.deciding_seat())

    def say(phrase: str, **values: object) -> str:
        return words.phrase(P[phrase]).format(**({"who": who} | values))

    def card(design: int) -> str:
        return words.card(DIG, f.card_ids[design], -1)

    def site(pile: int) -> str:
        return words.card(SITES, f.card_ids[f.sites[pile]], -1)

    def rolled_pile() -> int:
        totals = g.tables.field_values["totals"]
        return next(p for p, d in enumerate(f.sites) if dig.rolled in (totals[d] or ()))

    key, parameter = key_of(g, action)
    if key == "chance":
        total, double = divmod(parameter, 2)
        return say("doubles" if double else "dice", total=words.number(total), site=site(next(p for p, d in enumerate(f.sites) if total in (g.tables.field_values["totals"][d] or ()))))
    if key == "arrange":
        return say("sort_pick", card=card(parameter))
    if key in ("sabotage.sabotage", "sabotage.let_stand"):
        if key == "sabotage.let_stand":
            return say("let", other=who, who=words.seat(dig.active))
        return say("sabotage", other=who, who=words.seat(dig.active), card=card(parameter))
    if key == "decide.roll":
        return say("roll")
    if key == "decide.stop":
        return say("stop_one") if dig.placed == 1 else say("stop", n=words.number(dig.placed))
    if key == "resolve.bust":
        return say("bust", site=site(rolled_pile()))
    if key in ("resolve.mark_site", "resolve.mark_site_take"):
        return say("empty", site=site(rolled_pile()))
    if key in ("resolve.mark", "resolve.mark_extra"):
        pile = rolled_pile()
        stack = dig.stacks[pile]
        if key == "resolve.mark_extra" and len(stack) > 1:
            return say("extra", card=card(stack[0]), site=site(pile), below=card(stack[1]))
        return say("mark", card=card(stack[0]), site=site(pile))
    if key == "resolve.reroll":
        return say("reroll", card=card(parameter))
    if key in ("resolve.deepen", "resolve.deepen_extra"):
        stack = dig.stacks[parameter]
        return say("deepen", card=card(stack[0]) if stack else "?", site=site(parameter))
    if key == "resolve.burn":
        return say("burn", card=card(parameter))
    if key == "take.take":
        return say("take", card=card(parameter))
    if key.startswith("decide.trash_"):
        return say("trash", card=card(parameter))
    if key in ("steal.steal", "trash_steal.steal"):
        victim, design = divmod(parameter, g.card_width)
        return say("steal", card=card(design), other=words.seat(victim))
    if key == "decide.sort":
        return say("sort", site=site(parameter))
    return state.action_to_string(action)


register_figures(GAME_ID, GameFigures(table=table, describe=describe))
