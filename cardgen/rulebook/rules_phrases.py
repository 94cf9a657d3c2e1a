"""The phrases of the rulebook's generated rules, as gettext messages of the rulebook catalog.

Every sentence :mod:`cardgen.rulebook.rules_summary` writes is built from these
messages, so a new locale needs its catalog (``locales/<locale>/LC_MESSAGES``),
not code. A message marked with :func:`_gendered` exists once unmarked and once
per grammatical gender and number (its ``msgctxt``), for the names whose
``gender`` a spec gives in that locale. The sentence messages put their
prepositions before a whole noun phrase ("from %(source)s"), so a translation
may fuse a preposition with the article the noun phrase begins with (pt_BR
``d%(source)s`` reads *do monte*, *da mão*).
"""

from __future__ import annotations

import ast
from typing import get_args

from cardgen.rulebook.i18n import NC_, NP_, N_
from cardgen.spec.local_text import Gender

GENDERS = get_args(Gender)
"""The contexts a gendered message has, besides the unmarked one."""
GENDERED: set[str] = set()
"""Messages that exist once unmarked and once per gender (as ``msgctxt``)."""


def _gendered(plain: str, *variants: str) -> str:
    """One message marked unmarked and with each gender's context (all the same msgid, one per :data:`GENDERS`)."""
    assert len(variants) == len(GENDERS) and all(v == plain for v in variants), (plain, variants)
    GENDERED.add(plain)
    return plain


OWNER_PHRASES: dict[str, str] = {
    "table": _gendered(
        N_("the %(name)s"),
        NC_("masculine", "the %(name)s"),
        NC_("feminine", "the %(name)s"),
        NC_("masculine plural", "the %(name)s"),
        NC_("feminine plural", "the %(name)s"),
    ),
    "me": _gendered(
        N_("your %(name)s"),
        NC_("masculine", "your %(name)s"),
        NC_("feminine", "your %(name)s"),
        NC_("masculine plural", "your %(name)s"),
        NC_("feminine plural", "your %(name)s"),
    ),
    "their": _gendered(
        N_("their %(name)s"),
        NC_("masculine", "their %(name)s"),
        NC_("feminine", "their %(name)s"),
        NC_("masculine plural", "their %(name)s"),
        NC_("feminine plural", "their %(name)s"),
    ),
    "next": _gendered(
        N_("the next player's %(name)s"),
        NC_("masculine", "the next player's %(name)s"),
        NC_("feminine", "the next player's %(name)s"),
        NC_("masculine plural", "the next player's %(name)s"),
        NC_("feminine plural", "the next player's %(name)s"),
    ),
    "previous": _gendered(
        N_("the previous player's %(name)s"),
        NC_("masculine", "the previous player's %(name)s"),
        NC_("feminine", "the previous player's %(name)s"),
        NC_("masculine plural", "the previous player's %(name)s"),
        NC_("feminine plural", "the previous player's %(name)s"),
    ),
    "each": _gendered(
        N_("each player's %(name)s"),
        NC_("masculine", "each player's %(name)s"),
        NC_("feminine", "each player's %(name)s"),
        NC_("masculine plural", "each player's %(name)s"),
        NC_("feminine plural", "each player's %(name)s"),
    ),
    "others": _gendered(
        N_("every other player's %(name)s"),
        NC_("masculine", "every other player's %(name)s"),
        NC_("feminine", "every other player's %(name)s"),
        NC_("masculine plural", "every other player's %(name)s"),
        NC_("feminine plural", "every other player's %(name)s"),
    ),
    "target": _gendered(
        N_("the chosen player's %(name)s"),
        NC_("masculine", "the chosen player's %(name)s"),
        NC_("feminine", "the chosen player's %(name)s"),
        NC_("masculine plural", "the chosen player's %(name)s"),
        NC_("feminine plural", "the chosen player's %(name)s"),
    ),
    "active": _gendered(
        N_("the active player's %(name)s"),
        NC_("masculine", "the active player's %(name)s"),
        NC_("feminine", "the active player's %(name)s"),
        NC_("masculine plural", "the active player's %(name)s"),
        NC_("feminine plural", "the active player's %(name)s"),
    ),
    "a_player": _gendered(
        N_("a player's %(name)s"),
        NC_("masculine", "a player's %(name)s"),
        NC_("feminine", "a player's %(name)s"),
        NC_("masculine plural", "a player's %(name)s"),
        NC_("feminine plural", "a player's %(name)s"),
    ),
}
"""A named thing (zone, counter, variable) as a noun phrase, by whose it is: the table's, the seat to move's..."""
CARD_FIELD = _gendered(
        N_("the card's %(name)s"),
        NC_("masculine", "the card's %(name)s"),
        NC_("feminine", "the card's %(name)s"),
        NC_("masculine plural", "the card's %(name)s"),
        NC_("feminine plural", "the card's %(name)s"),
    )
TOP_FIELD = _gendered(
        N_("the %(name)s of the top card of %(zone)s"),
        NC_("masculine", "the %(name)s of the top card of %(zone)s"),
        NC_("feminine", "the %(name)s of the top card of %(zone)s"),
        NC_("masculine plural", "the %(name)s of the top card of %(zone)s"),
        NC_("feminine plural", "the %(name)s of the top card of %(zone)s"),
    )
EMPTY = _gendered(
        N_("%(zone)s is empty"),
        NC_("masculine", "%(zone)s is empty"),
        NC_("feminine", "%(zone)s is empty"),
        NC_("masculine plural", "%(zone)s is empty"),
        NC_("feminine plural", "%(zone)s is empty"),
    )
NOT_EMPTY = _gendered(
        N_("%(zone)s is not empty"),
        NC_("masculine", "%(zone)s is not empty"),
        NC_("feminine", "%(zone)s is not empty"),
        NC_("masculine plural", "%(zone)s is not empty"),
        NC_("feminine plural", "%(zone)s is not empty"),
    )
LED_FIELD = _gendered(
        N_("the %(name)s led"),
        NC_("masculine", "the %(name)s led"),
        NC_("feminine", "the %(name)s led"),
        NC_("masculine plural", "the %(name)s led"),
        NC_("feminine plural", "the %(name)s led"),
    )
"""The value of the followed field (the suit) of the card that led a trick."""

COMPARISONS: dict[type, tuple[str, str]] = {
    ast.Eq: (N_("%(left)s is %(right)s"), N_("%(left)s is not %(right)s")),
    ast.NotEq: (N_("%(left)s is not %(right)s"), N_("%(left)s is %(right)s")),
    ast.Lt: (N_("%(left)s is less than %(right)s"), N_("%(left)s is at least %(right)s")),
    ast.LtE: (N_("%(left)s is at most %(right)s"), N_("%(left)s is greater than %(right)s")),
    ast.Gt: (N_("%(left)s is greater than %(right)s"), N_("%(left)s is at most %(right)s")),
    ast.GtE: (N_("%(left)s is at least %(right)s"), N_("%(left)s is less than %(right)s")),
}
"""A comparison as a clause, and its negation."""
HAVE: dict[type, str] = {
    ast.Eq: N_("you have exactly %(amount)s %(counter)s"),
    ast.NotEq: N_("you do not have exactly %(amount)s %(counter)s"),
    ast.Lt: N_("you have fewer than %(amount)s %(counter)s"),
    ast.LtE: N_("you have at most %(amount)s %(counter)s"),
    ast.Gt: N_("you have more than %(amount)s %(counter)s"),
    ast.GtE: N_("you have at least %(amount)s %(counter)s"),
}
"""A per-seat counter of the seat to move compared with an amount."""
MIRRORED = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}
"""The comparison with its sides swapped (``0 < x`` is ``x > 0``)."""
OPPOSITE: dict[type, type] = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
"""The comparison that holds exactly when this one fails (``not x < 2`` is ``x >= 2``)."""
ARITHMETIC: dict[type, str] = {
    ast.Add: N_("%(left)s plus %(right)s"),
    ast.Sub: N_("%(left)s minus %(right)s"),
    ast.Mult: N_("%(left)s times %(right)s"),
    ast.FloorDiv: N_("%(left)s divided by %(right)s, rounded down"),
    ast.Mod: N_("the remainder of %(left)s divided by %(right)s"),
}
IS_ONE_OF = N_("%(left)s is %(values)s")
IS_NONE_OF = N_("%(left)s is neither %(values)s")
IS_AMONG = N_("%(left)s is one of %(values)s")
IS_NOT_AMONG = N_("%(left)s is not one of %(values)s")
NOT_SO = N_("it is not so that %(condition)s")
GROUP = N_("(%(condition)s)")
FORMULA = N_("“%(formula)s”")
MINUS = N_("minus %(amount)s")
THIS_TURN = N_("%(name)s this turn")
CARD_OF_TYPE = N_("the card is of type “%(type)s”")
CARD_NOT_OF_TYPE = N_("the card is not of type “%(type)s”")
HOLDS = N_("%(zone)s holds %(cards)s")
NOT_HOLDS = N_("%(zone)s does not hold %(cards)s")
CARD_IS = N_("the card is %(cards)s")
CARD_IS_NOT = N_("the card is not %(cards)s")
PLAYERS = N_("the number of players")
SEAT = N_("your place in the turn order, counted from 0")
TURN_NUMBER = N_("the number of the turn")
ROUND_NUMBER = N_("the number of the round")
ROUND_TURN = N_("the number of the turn in its round")
TARGET = N_("the chosen player")
ACTIVE = N_("the active player (the one whose turn it is)")
OPTION_IS = N_("the rule option “%(option)s” is set to “%(choice)s”")
OPTION_IS_NOT = N_("the rule option “%(option)s” is not set to “%(choice)s”")
TARGET_IS_YOU = N_("the chosen player is you")
TARGET_NOT_YOU = N_("the chosen player is not you")
COUNT_OF = N_("the number of cards in %(zone)s")
TOTAL_OF = N_("the total %(field)s of the cards in %(zone)s")
MATCHING_OF = N_("the number of cards in %(zone)s whose %(field)s is %(value)s")
MATCHING_SOME = N_("%(zone)s holds a card whose %(field)s is %(value)s")
MATCHING_NONE = N_("%(zone)s holds no card whose %(field)s is %(value)s")
DISTINCT_OF = N_("the number of different values of %(field)s among the cards in %(zone)s")
DISTINCT_CARDS = N_("the number of different cards in %(zone)s")
FIELD_TYPE = N_("card type")
FIELD_EFFECT = N_("card effect")
FIELD_ID = N_("card name")
DEALT = N_("the cards dealt to each player (%(deck)s)")
DISPLAYED = N_("the cards laid out (%(deck)s)")

CARDS = NP_("%(num)s card", "%(num)s cards")
TOP_CARDS = NP_("the top card", "the top %(num)s cards")
SOME_CARDS = NP_("a card", "%(num)s cards")
EVERY_CARD = N_("every card")
CARDS_BY = N_("a number of cards (%(amount)s)")
"""A count worked out in play, closed by its brackets: the phrases put 'of the deck' after it, which would otherwise
read as the end of the count ('... minus the markers left of the deck')."""
WITH_PLAYERS = NP_("%(what)s with %(num)s player", "%(what)s with %(num)s players")
WITH_PLAYER_RANGE = N_("%(what)s with %(low)s to %(high)s players")
NO_CARD = N_("no card")

FALLBACK = N_("Rule “%(kind)s”: %(detail)s.")
"""The sentence for a setup step, effect or scoring kind that has no phrase of its own yet."""


# --- sentences ----------------------------------------------------------------------------------------

SHUFFLE_FACE_DOWN = N_("Shuffle the %(deck)s (%(cards)s) and put them face down as %(zone)s.")
SHUFFLE_FACE_UP = N_("Shuffle the %(deck)s (%(cards)s) and lay them face up as %(zone)s.")
DEAL = N_("Deal %(cards)s from %(source)s to %(target)s.")
DEAL_SHARED = N_("Deal %(cards)s for each player from %(source)s to %(target)s.")
DEAL_BY_PLAYERS = N_("Deal cards from %(source)s to %(target)s: %(counts)s.")
TURN_UP = N_("Turn %(cards)s of %(source)s face up onto %(target)s.")
MOVE = N_("Move %(cards)s of %(source)s to %(target)s.")
MOVE_WHERE = N_(
    "Move %(cards)s of %(source)s to %(target)s, counting from the top down only the cards for which %(condition)s; the "
    "others stay where they are."
)
MOVE_WHERE_UNORDERED = N_("Move %(cards)s of %(source)s for which %(condition)s to %(target)s.")
SET_AT_SETUP = N_("%(variable)s is %(value)s.")
SET = N_("%(variable)s becomes %(value)s.")
CHOOSE = N_("Choose %(variable)s: %(values)s.")
CHOOSE_ANY = N_("Choose %(variable)s.")
RAISE = N_("Raise %(counter)s by %(amount)s.")
IF_THEN = N_("If %(condition)s: %(then)s")
"""A rule carried out only when a condition holds (a count or an amount that is nothing otherwise)."""
RAISE_UP_TO = N_("Raise %(counter)s by %(amount)s, to at most %(cap)s.")
LOWER = N_("Lower %(counter)s by %(amount)s.")
RAISE_BY_AMOUNT = NC_("amount", "Raise %(counter)s by %(amount)s.")
"""RAISE by an amount said in words, not a number (a context of its own: Portuguese says it without "em o")."""
TRANSFER = N_("Add %(source)s to %(target)s, and %(source)s goes back to zero.")
SKIP = NP_("The next player misses their turn.", "The next %(num)s players miss their turn.")
REVERSE = N_("The order of play changes direction.")
EXTRA_TURN = N_("You take another turn after this one.")
SET_ASIDE = N_("Set aside from %(source)s into %(target)s: %(cards)s.")
SET_ASIDE_WHERE = N_("Set aside from %(source)s into %(target)s every card for which %(condition)s.")
ROLL = N_("Roll the dice (%(dice)s): the total is %(variable)s.")
FLAG_NOW = N_("From now on, %(state)s.")
FLAG_IF = N_("%(state)s if %(condition)s; if not, %(otherwise)s.")
ROLL_DOUBLES_FLAG = N_("Roll the dice (%(dice)s): the total is %(variable)s. If every die shows the same face, %(raised)s; if not, %(lowered)s.")
ROLL_DOUBLES = N_("Roll the dice (%(dice)s): the total is %(variable)s, and %(doubles)s is 1 when every die shows the same face, 0 otherwise.")
STEAL = N_("Take a card at random from %(source)s into %(target)s.")
ARRANGE_ALL = N_("Put the cards of %(zone)s back in any order you like, choosing from the top down which card comes next.")
ARRANGE_TOP = NP_(
    "Put the top card of %(zone)s back.",
    "Put the top %(num)s cards of %(zone)s back in any order you like, choosing from the top down which card comes next.",
)
ARRANGE_FORMULA = N_(
    "Put the top %(amount)s cards of %(zone)s back in any order you like, choosing from the top down which card comes next."
)
START_EACH = N_("Each player starts with %(amount)s %(counter)s.")
START_EACH_COUNTED = N_("Each player starts with %(amount)s.")
START_SHARED = N_("%(counter)s starts at %(amount)s.")
FIRST_PLAYER = N_("A first player is chosen, as the setup says or as the players agree; play then goes around the table in turn.")
"""`first_player: first`: the engine numbers the seats from whoever starts, so how that player is chosen (a roll,
at random, the youngest) is the prose's to say, and this sentence never contradicts it."""
FIRST_WHERE = N_(
    "The first player, in seat order, for whom %(condition)s starts (the first player when there is none); "
    "play then goes around the table in turn."
)
RANDOM_PLAYER = N_("Choose at random who starts; play then goes around the table in turn.")
ROUNDS_NEXT = N_(
    "Play goes in rounds: in each round every player takes one turn, in turn order from the round's first player. "
    "The next round's first player is the player after this round's first player."
)
ROUNDS_SAME = N_(
    "Play goes in rounds: in each round every player takes one turn, in turn order, always from the same first player."
)

STEP_TITLE = N_("Step %(number)s")
STEP_NAMED = N_("Step %(number)s: %(name)s")
ONLY_WHEN = N_("Only when %(condition)s.")
ONLY_OTHERWISE = N_("Only when no other option of this step is open to you.")
CHOOSE_CARD = N_("Choose a card from %(source)s and move it to %(target)s.")
CHOOSE_CARD_STAYS = N_("Choose a card of %(source)s; it stays there.")
CHOOSE_TARGET = N_("Choose a player for this; you may choose one when %(condition)s.")
CARD_WHERE = N_("You may choose it when %(condition)s.")
CARD_EFFECT = N_("If the card carries an effect, the effect happens next (see “Card Effects”).")
PASSES = N_("This counts as passing.")
TRICK_PLAY = N_("Which cards you may play, and who wins the trick: see “Tricks”.")
THEN_END = N_("Your turn ends.")
THEN_AGAIN = N_("Then choose again.")
THEN_AGAIN_STEP = N_("Then choose again at this step.")
THEN_STEP = N_("Then go on to step %(number)s.")
THEN_THIS_STEP = N_("Then take this step again from its start.")
THEN_NEXT = N_("Then the next player in turn decides this step instead.")
BY_TARGET = N_("The chosen player decides this step, not the active player; “you” here is the chosen player.")
BY_OTHERS = N_(
    "Every other player in turn, starting after the active player, may decide this step; a player with nothing "
    "open here is skipped, and the first option taken (other than handing on) closes it for the rest; “you” here "
    "is the player deciding."
)
BY_OTHERS_END = N_("When no one is left to decide, the active player's turn ends.")
BY_OTHERS_STEP = N_("When no one is left to decide, go on to step %(number)s.")
AUTO_STEP = N_("When only one thing can be done here, it is done at once, with no choice to make.")

END_ANY_SEAT = N_("The game ends as soon as %(condition)s.")
END_TABLE = N_("The game ends as soon as %(condition)s.")
END_ALL_PASS = N_("The game ends when every player in turn has passed.")
END_TURNS = NP_("The game ends after %(num)s turn.", "The game ends after %(num)s turns.")
END_TURNS_FORMULA = N_("The game ends after %(amount)s turns.")
END_FINAL = NP_(
    "When %(condition)s at the end of a turn, every player, the one whose turn it was included, takes %(num)s more turn "
    "in turn order, starting with the next player; then the game ends.",
    "When %(condition)s at the end of a turn, every player, the one whose turn it was included, takes %(num)s more turns "
    "in turn order, starting with the next player; then the game ends.",
)
END_FINAL_FORMULA = N_(
    "When %(condition)s at the end of a turn, every player, the one whose turn it was included, takes %(amount)s more turns "
    "in turn order, starting with the next player; then the game ends."
)
END_FINAL_NOW = N_("The game ends when %(condition)s at the end of a turn.")
SCORE_SUM = N_("Each player scores the total %(field)s of the cards in %(zone)s.")
LOSE_SUM = N_("Each player loses the total %(field)s of the cards left in %(zone)s.")
RUNS_LOWEST = N_("In a run of consecutive values, only the lowest counts.")
SCORE_COUNTER = N_("Each player adds %(counter)s to their score.")
LOSE_COUNTER = N_("Each player takes %(counter)s off their score.")
HIGHEST_WINS = N_("The highest score wins.")
ALL_OR_NOTHING = N_(
    "Each player scores the total %(field)s of the cards in %(zone)s, except when one player took every card with "
    "%(field)s: that player scores nothing, and every other player scores that total instead."
)
ALL_OR_NOTHING_LOSE = N_(
    "Each player loses the total %(field)s of the cards in %(zone)s, except when one player took every card with "
    "%(field)s: that player loses nothing, and every other player loses that total instead."
)
SETS_SCORE = N_(
    "Each player sorts the cards in %(zone)s into sets by their %(set)s. A complete set, with as many cards as its "
    "%(size)s, scores its %(points)s once, however many cards it has."
)
SETS_PER = NP_("An incomplete set scores 1 point for every card.", "An incomplete set scores 1 point for every %(num)s cards, rounded down.")
SETS_PER_FORMULA = N_("An incomplete set scores 1 point for every %(amount)s cards, rounded down.")
SETS_NO_PARTIAL = N_("An incomplete set scores nothing.")
WILD_SET = N_(
    "Each card in %(zone)s for which %(condition)s completes one set of which the player holds at least one card; "
    "these cards go where they score the most."
)
WILD_CARDS = NP_(
    "Each card in %(zone)s for which %(condition)s stands for %(num)s missing card of a set of which the player holds at least one card; "
    "these cards go where they score the most.",
    "Each card in %(zone)s for which %(condition)s stands for %(num)s missing cards of a set of which the player holds at least one card; "
    "these cards go where they score the most.",
)
WILD_FORMULA = N_(
    "Each card in %(zone)s for which %(condition)s stands for %(amount)s missing cards of a set of which the player holds at least one card; "
    "these cards go where they score the most."
)
SETS_TIES = N_("Ties go to %(ties)s, in that order.")
TIE_CARDS = N_("the most cards in complete sets")
TIE_SETS = N_("the most complete sets")
TIE_BY = N_("the most complete sets of the highest %(field)s, then of the next %(field)s down")

# --- tricks -------------------------------------------------------------------------------------------

TRICK_LEAD_ANY = N_("The player leading a trick plays any card.")
TRICK_LEAD_WHERE = N_("The player leading a trick plays a card for which %(condition)s if they hold one, otherwise any card.")
TRICK_FOLLOW = N_("Every other player in turn plays a card of %(led)s if they hold one.")
TRICK_DISCARD_ANY = N_("A player who holds none plays any card.")
TRICK_DISCARD_WHERE = N_("A player who holds none plays a card for which %(condition)s if they hold one, otherwise any card.")
TRICK_WIN = N_("When every player has played, the highest card by %(rank)s of %(led)s wins the trick.")
TRICK_WIN_TRUMP_VALUE = N_(
    "When every player has played, the highest trump by %(rank)s wins the trick, the trumps being the cards of %(trump)s; "
    "when no trump was played, the highest card by %(rank)s of %(led)s wins."
)
TRICK_WIN_TRUMP_OF_CONTEXT = "noun phrase"
TRICK_WIN_TRUMP_OF = NC_(
    "noun phrase",
    "When every player has played, the highest trump by %(rank)s wins the trick, the trumps being the cards of %(trump)s; "
    "when no trump was played, the highest card by %(rank)s of %(led)s wins.",
)
"""As :data:`TRICK_WIN_TRUMP_VALUE`, for a trump named by a noun phrase with its article (a variable, the top card's
field), which a translation may fuse with the preposition before it (pt_BR ``d%(trump)s``); the two read alike in
English, so this one carries a context (:data:`TRICK_WIN_TRUMP_OF_CONTEXT`)."""
TRICK_EQUAL = N_("Between equal cards, the one played first wins.")
TRICK_TAKE = N_("The winner puts the trick into %(won)s and leads the next one.")
TRICK_AFTER = N_("After each trick, as its winner: %(effects)s")

# --- complete sets, steps taken only sometimes, runs of passes, ends looked at as a turn ends --------------

STEP_UNUSED = N_("With the rule options chosen for this game, this step is never taken.")
STEP_WHEN = N_("This step is taken only when %(condition)s; otherwise it is skipped.")
PASSES_WHEN = N_("This counts as passing when %(condition)s.")
END_ALL_SEATS = N_("The game ends as soon as, for every player, %(condition)s.")
END_AT_TURN = N_("Whether the game ends is looked at only when a turn is over.")
END_STUCK = N_("The game also ends as soon as the player who must decide has nothing they may do.")
END_STUCK_ONLY = N_("The game ends as soon as the player who must decide has nothing they may do.")
SCORE_SETS = N_("Each complete set in %(zone)s, one card of each %(value)s, scores %(points)s points.")
SETS_BONUS = N_("A player with at least %(at)s complete sets scores %(bonus)s points more, once.")
SETS_MULTIPLIED = N_("Of a player's sets, as many as %(multiplied)s count %(times)s times their points.")
SETS_OF = N_("the number of complete sets of %(value)s in %(zone)s")
SMALLER_OF = N_("the smaller of %(left)s and %(right)s")
LARGER_OF = N_("the larger of %(left)s and %(right)s")
EITHER = N_("%(then)s if %(condition)s, else %(otherwise)s")
TOP_IS = N_("the top card of %(zone)s is %(cards)s")
TOP_IS_NOT = N_("the top card of %(zone)s is not %(cards)s")

# -- majority scoring (rules_majority.py) -----------------------------------------------------------------

MAJORITY_CARDS = N_("the number of cards in %(zone)s")
MAJORITY_SUM = N_("the total %(field)s of the cards in %(zone)s")
MAJORITY_RANKED = N_("The players are ranked by %(what)s, and the places score, from the first down: %(places)s points.")
MAJORITY_RANKED_EACH = N_(
    "For each %(by)s separately, the players are ranked by %(what)s with that value, and the places score, from the first down: %(places)s points."
)
MAJORITY_NONE_PLACES = N_("A player with none does not place.")
MAJORITY_TIES_SHARE = N_("Players tied for a place share the points of the places they fill, rounded down.")
MAJORITY_TIES_FULL = N_("Players tied for a place each score its points, and the places after it that they fill go to nobody.")
MAJORITY_TIES_NONE = N_("Players tied for a place score nothing for it, and the places they fill go to nobody.")
MAJORITY_FIRST = N_("The player ranked first by %(what)s scores %(places)s points.")
MAJORITY_FIRST_EACH = N_("For each %(by)s separately, the player ranked first by %(what)s with that value scores %(places)s points.")
MAJORITY_FIRST_COUNT = NP_("The player ranked first by %(what)s scores %(num)s point.", "The player ranked first by %(what)s scores %(num)s points.")
MAJORITY_FIRST_EACH_COUNT = NP_(
    "For each %(by)s separately, the player ranked first by %(what)s with that value scores %(num)s point.",
    "For each %(by)s separately, the player ranked first by %(what)s with that value scores %(num)s points.",
)

# -- swap ----------------------------------------------------------------------------------------------------------

SWAP = N_("Swap %(mine)s with %(theirs)s.")
