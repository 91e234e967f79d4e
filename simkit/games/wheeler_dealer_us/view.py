"""What a Wheeler-Dealer (US) strategy sees and decides: everything on the table, never the deck's order or
other bidders' maxima (docs/rules/wheeler-dealer-us.md, "What a strategy sees").

Every decision point is a function with one signature::

    decide(public, table, query, params, memory, rng, out) -> int64

- ``public`` (int64 vector): the table as every player sees it, which is the engine's own state: the
  header fields ``PUB_*`` (the rule amounts strategies need, e.g. ``PUB_BAMBOOZLE_CASH``; and
  ``holdings_version``: a count per seat of changes to its titles and debts), then per seat
  (``seat_field``) cash, position, alive, on-School, missed-turn and extra-Exchange-used flags, then per
  property (``owner``, ``debt_ridden``), then each seat's saved cards by card type (``saved``) and the
  cards of each type left in the deck (``cards_left``). It is the engine's live array: read it, never
  write it. ``public[PUB_SEAT]`` is the seat being asked.
- ``table`` (int64 [rows, TABLE_COLUMNS]): the static rule data in sections — properties from row 0
  (``P_*`` columns), commodities from ``public[PUB_COMMODITY_ROW]`` (``X_*``), card types from
  ``public[PUB_CARD_ROW]`` (``K_*``), board squares from ``public[PUB_SQUARE_ROW]`` (``B_*``).
- ``query`` (int64 vector): ``query[Q_KIND]`` is the decision kind (``D_*``), the other fields its
  arguments (``Q_*``, named after the decision and documented at each ``D_*``).
- ``out``: extra results of the decision (``A_*``, documented at each ``D_*``); it is zeroed before the call.
The return value is the decision's main answer.

Every answer (the return value and each ``out`` slot the decision uses) is checked before the engine
uses it: an answer outside the documented range, or one the rules do not allow at that moment, is
refused, counted in the seat's ``illegal_actions`` result, and the default given at the decision is
played instead.
"""
import numpy as np
from numba import njit, types

from ...numba_tools import readonly_array, trailing_zeros

MAX_SEATS = 6
MAX_BLOCK = 6
MEMORY_SIZE = 136
OUT_SIZE = 8
QUERY_SIZE = 8

# ---- decision points (query[Q_KIND]), their arguments (query[Q_*]) and answers (return value, out[A_*]) ----
# (default: what the engine plays when the answer is refused). The arguments and answers of each decision
# are named after it; query[Q_KIND] is the decision itself.
Q_KIND = 0
D_FINANCE = 0       # start of turn / after step 5: return FINANCE_DONE, FINANCE_BORROW or FINANCE_REPAY on
                    # out[A_FINANCE_PROPERTY] (asked again until done; default for a refused step: ask again, at
                    # most twice the steps there can be)
FINANCE_DONE, FINANCE_BORROW, FINANCE_REPAY = 0, 1, 2
A_FINANCE_PROPERTY = 0
D_INVEST = 1        # Q_INVEST_OPTIONAL=1 if optional (Trade Fair, raising money), Q_INVEST_RAISING=1 when raising
                    # money and Q_INVEST_SHORT=the dollars still short: return a commodity whose stake you can pay,
                    # or -1 to decline an optional one (default: decline an optional one, else the cheapest stake)
Q_INVEST_OPTIONAL, Q_INVEST_RAISING, Q_INVEST_SHORT = 1, 2, 3
D_BUY = 2           # Q_BUY_PROPERTY: return 1 to buy at cost (the engine borrows if short), 0 not (default 0)
Q_BUY_PROPERTY = 1
D_BID = 3           # Q_BID_PROPERTY=the property, or -1 for a Wheeler-Dealer card on sale (Q_BID_CARD_TYPE=its card
                    # type, Q_BID_MUST_USE=1 when the buyer must use it at once: a drawn Bamboozle),
                    # Q_BID_BANKRUPT_SALE=1 if a bankrupt's property, Q_BID_SELLER=seller (-1 the bank): return the
                    # most you'd pay, 0..bid_limit() (default: no bid)
Q_BID_PROPERTY, Q_BID_BANKRUPT_SALE, Q_BID_SELLER, Q_BID_CARD_TYPE, Q_BID_MUST_USE = 1, 2, 3, 4, 5
D_POACH = 4         # Q_POACH_PROPERTY (debt-ridden, another's): return 1 to poach (pay payoff to the bank), 0 not
Q_POACH_PROPERTY = 1
D_DEAL_OFFER = 5    # Q_OFFERS_MADE=offers made so far this turn: return 0 none, else the offer kind DEAL_*;
                    # out[A_DEAL_OTHER]=other seat, out[A_DEAL_MINE]=my property, out[A_DEAL_THEIRS]=their property,
                    # out[A_DEAL_CASH]=cash I pay (<0: I receive) (default: no offer; the next one is still asked)
Q_OFFERS_MADE = 1
A_DEAL_OTHER, A_DEAL_MINE, A_DEAL_THEIRS, A_DEAL_CASH = 0, 1, 2, 3
D_DEAL_ANSWER = 6   # Q_DEAL_FROM=offering seat, Q_DEAL_KIND=kind, Q_DEAL_THEIRS=their property, Q_DEAL_MINE=my
                    # property, Q_DEAL_CASH=cash they pay me: return 1 to accept, 0 to refuse (default 0)
Q_DEAL_FROM, Q_DEAL_KIND, Q_DEAL_THEIRS, Q_DEAL_MINE, Q_DEAL_CASH = 1, 2, 3, 4, 5
D_RAISE = 7         # Q_RAISE_SHORT=amount short, Q_RAISE_CREDITOR=creditor seat (-1 bank), Q_RAISE_STEPS=steps
                    # already taken in this raise (0: a new raise): return RAISE_*; out[A_RAISE_ITEM]=property
                    # (RAISE_BORROW, RAISE_SELL) or card type (RAISE_SELL_CARD); out[A_RAISE_RESERVE]=reserve price
                    # (0: the smallest sale, PUB_AUCTION_MIN). Each property and card type may be offered once a
                    # raise; RAISE_BORROW only while raise_may_borrow() (U17(b): not for a hopeless debt).
                    # (default: refused, asked again)
Q_RAISE_SHORT, Q_RAISE_CREDITOR, Q_RAISE_STEPS = 1, 2, 3
A_RAISE_ITEM, A_RAISE_RESERVE = 0, 1
D_BUMP = 8          # no arguments: return 0 or 1 to bump; out[A_BUMP_SEAT]=seat to bump, out[A_BUMP_SQUARE]=its
                    # destination square (default: no bump)
A_BUMP_SEAT, A_BUMP_SQUARE = 0, 1
D_CARD = 9          # Q_CARD_CONTEXT=CARD_DRAWN or CARD_STEP5, Q_CARD_TYPE=card type (drawn): return the card type to
                    # use now, -1 for none/keep; out[A_*] its arguments (see CARD_ARGS below) (default: keep / none)
Q_CARD_CONTEXT, Q_CARD_TYPE = 1, 2
D_BAMBOOZLE = 10    # Q_UNDERHANDED=1 for underhanded, Q_MUST_USE=1 if it must be used (bought, a Combo Platter
                    # played as one, or drawn and usable but unsold, U17(c)): return 1 to use, 0 not (a drawn one
                    # is then offered for sale, U14; unsold and usable, it is asked again with Q_MUST_USE=1);
                    # out[A_STAKE]=my property (-1: stake PUB_BAMBOOZLE_CASH cash when owning none),
                    # out[A_TARGET]=target property (default: not used, or when it must be used, my cheapest
                    # property against the first eligible target)
Q_UNDERHANDED, Q_MUST_USE = 1, 2
A_STAKE, A_TARGET = 0, 1
D_BORROW_ON = 11    # Q_BORROW_SHORT=amount still short: return the property to borrow on next (engine's forced
                    # borrowing; default: the first property it may borrow on)
Q_BORROW_SHORT = 1
DECISION_NAMES = ("finance", "invest", "buy", "bid", "poach", "deal_offer", "deal_answer", "raise", "bump",
                  "card", "bamboozle", "borrow_on")

DEAL_NONE, DEAL_BUY, DEAL_SELL, DEAL_SWAP = 0, 1, 2, 3
RAISE_GIVE_UP, RAISE_BORROW, RAISE_SELL, RAISE_EXCHANGE, RAISE_SELL_CARD = 0, 1, 2, 3, 4
CARD_DRAWN, CARD_STEP5, CARD_MASTER_KEY_AUDIT, CARD_MASTER_KEY_SCHOOL = 0, 1, 2, 3
# CARD_ARGS: taxi_service out[A_TAXI_SQUARE]=square; move_any_player out[A_MOVE_SEAT]=seat, out[A_MOVE_SQUARE]=
# square; master_key out[A_KEY_DESTINATION]=KEY_TAX_AUDIT or KEY_SCHOOL; combo_platter out[A_COMBO_USE]=COMBO_TAXI
# (out[A_COMBO_SQUARE]=square), COMBO_BAMBOOZLE, COMBO_MOVE (out[A_COMBO_SEAT]=seat, out[A_COMBO_MOVE_SQUARE]=
# square) or COMBO_DISCARD. For CARD_MASTER_KEY_AUDIT/SCHOOL (cancel an audit just drawn / skip the turn missed
# after School) return 1 to use a saved master key, 0 not.
A_TAXI_SQUARE = 0
A_MOVE_SEAT, A_MOVE_SQUARE = 0, 1
A_KEY_DESTINATION = 0
KEY_TAX_AUDIT, KEY_SCHOOL = 0, 1
A_COMBO_USE, A_COMBO_SQUARE, A_COMBO_SEAT, A_COMBO_MOVE_SQUARE = 0, 1, 1, 2
COMBO_TAXI, COMBO_BAMBOOZLE, COMBO_MOVE, COMBO_DISCARD = 0, 1, 2, 3
MAX_MONEY = 1 << 50     # no amount in an answer may exceed this (far above any game's money)

# ---- card kinds (table K_KIND): the rule data's card.kind words, CK_* their codes in this order ----
CARD_KINDS = ("tax_audit", "bamboozle", "underhanded_bamboozle", "taxi_service", "move_any_player",
              "easy_come_easy_go", "extra_turn", "master_key", "combo_platter", "collect", "pay",
              "pay_cash_percent", "collect_per_pip", "collect_from_each_player")
(CK_TAX_AUDIT, CK_BAMBOOZLE, CK_UNDERHANDED, CK_TAXI, CK_MOVE_ANY, CK_EASY_COME, CK_EXTRA_TURN, CK_MASTER_KEY,
 CK_COMBO, CK_COLLECT, CK_PAY, CK_PAY_PERCENT, CK_COLLECT_PER_PIP, CK_COLLECT_FROM_EACH) = range(len(CARD_KINDS))

# ---- square kinds (table B_KIND): a property's square, then the rule data's corner.kind words ----
CORNER_KINDS = ("park", "city_hall", "school", "trade_fair")
SQUARE_KINDS = ("property",) + CORNER_KINDS
SQ_PROPERTY, SQ_PARK, SQ_CITY_HALL, SQ_SCHOOL, SQ_TRADE_FAIR = range(len(SQUARE_KINDS))

# ---- table columns: each section's columns by name, and <PREFIX>_<NAME> the place of each
# (tests/test_layouts.py checks them) ----
PROPERTY_COLUMNS = ("square", "block", "cost", "loan", "payoff", "block_size", "income")
P_SQUARE, P_BLOCK, P_COST, P_LOAN, P_PAYOFF, P_BLOCK_SIZE, P_INCOME = range(len(PROPERTY_COLUMNS))
# income: the rent with k of the block held is table[p, P_INCOME + k - 1], one column per k up to MAX_BLOCK
TABLE_COLUMNS = P_INCOME + MAX_BLOCK
# table[p, P_BLOCK]: the block of property p, 0 .. blocks - 1, numbered in the order the blocks first appear in
# the rule data's [[property]] list (USRules.blocks names them); table[p, P_BLOCK_SIZE]: how many properties it has
COMMODITY_COLUMNS = ("invest", "return", "ways", "mask")
X_INVEST, X_RETURN, X_WAYS, X_MASK = range(len(COMMODITY_COLUMNS))   # X_MASK bit t set: a 2d6 total of t wins
CARD_COLUMNS = ("kind", "amount", "percent", "save")
K_KIND, K_AMOUNT, K_PERCENT, K_SAVE = range(len(CARD_COLUMNS))
SQUARE_COLUMNS = ("kind", "property")
B_KIND, B_PROPERTY = range(len(SQUARE_COLUMNS))                     # board squares; B_PROPERTY: property index or -1

# ---- public header: its fields by name, and PUB_<NAME> the place of each (tests/test_layouts.py checks them) ----
PUBLIC_FIELDS = ("seat", "players", "active", "turn", "level", "cards_left", "properties", "blocks", "commodities",
                 "card_types", "squares", "commodity_row", "card_row", "square_row", "min_invest", "auction_min",
                 "auction_increment", "last_card_drawn", "school_square", "park_square", "park_per_pip",
                 "school_per_pip", "city_hall_percent", "trade_fair_extra", "audit_per_pip", "bamboozle_cash")
(PUB_SEAT, PUB_PLAYERS, PUB_ACTIVE, PUB_TURN, PUB_LEVEL, PUB_CARDS_LEFT, PUB_PROPERTIES, PUB_BLOCKS,
 PUB_COMMODITIES, PUB_CARD_TYPES, PUB_SQUARES, PUB_COMMODITY_ROW, PUB_CARD_ROW, PUB_SQUARE_ROW,
 PUB_MIN_INVEST, PUB_AUCTION_MIN, PUB_AUCTION_INCREMENT, PUB_LAST_CARD_DRAWN, PUB_SCHOOL_SQUARE,
 PUB_PARK_SQUARE, PUB_PARK_PER_PIP, PUB_SCHOOL_PER_PIP, PUB_CITY_HALL_PERCENT, PUB_TRADE_FAIR_EXTRA,
 PUB_AUDIT_PER_PIP, PUB_BAMBOOZLE_CASH) = range(len(PUBLIC_FIELDS))
PUB_HOLDINGS_VERSION = len(PUBLIC_FIELDS)   # per seat (holdings_version)
PUB_HEADER = PUB_HOLDINGS_VERSION + MAX_SEATS
# S_EXTRA_EXCHANGE: the seat has made its one extra Exchange investment of this turn (raising money, U6)
SEAT_FIELD_NAMES = ("cash", "position", "alive", "on_school", "misses_turn", "extra_exchange")
S_CASH, S_POSITION, S_ALIVE, S_ON_SCHOOL, S_MISSES_TURN, S_EXTRA_EXCHANGE = range(len(SEAT_FIELD_NAMES))
SEAT_FIELDS = len(SEAT_FIELD_NAMES)

# What a strategy is shown (public, table, query, params) is read-only: a write is a typing error when the
# strategy compiles. Its memory, random stream and answer buffer (out) are its own to write.
# All are C-ordered, as the engine keeps them (numba_tools.readonly_c): indexing them needs no strides, so the
# strategies' loops over the board vectorise.
DECISION_SIGNATURE = types.int64(readonly_array(types.int64, 1, "C"), readonly_array(types.int64, 2, "C"),
                                 readonly_array(types.int64, 1, "C"), readonly_array(types.float64, 1, "C"),
                                 types.Array(types.float64, 1, "C"), types.Array(types.uint64, 1, "C"),
                                 types.Array(types.int64, 1, "C"))
DECISIONS = {name: DECISION_SIGNATURE for name in DECISION_NAMES}


@njit(cache=True)
def public_length(properties, card_types):
    return PUB_HEADER + MAX_SEATS * SEAT_FIELDS + 2 * properties + MAX_SEATS * card_types + card_types


@njit(cache=True)
def seat_slot(seat, field):
    return PUB_HEADER + seat * SEAT_FIELDS + field


@njit(cache=True)
def owner_slot(prop):
    return PUB_HEADER + MAX_SEATS * SEAT_FIELDS + prop


@njit(cache=True)
def debt_slot(public, prop):
    return owner_slot(public[PUB_PROPERTIES] + prop)


@njit(cache=True)
def saved_slot(public, seat, card_type):
    return owner_slot(2 * public[PUB_PROPERTIES]) + seat * public[PUB_CARD_TYPES] + card_type


@njit(cache=True)
def left_slot(public, card_type):
    return saved_slot(public, MAX_SEATS, card_type)


@njit(cache=True)
def seat_field(public, seat, field):
    """A seat's cash, position, alive, on-School, misses-turn or extra-Exchange-used flag (S_* field). The
    on-School flag lasts from the landing until the seat's next real turn moves its token away."""
    return public[seat_slot(seat, field)]


@njit(cache=True)
def holdings_version(public, seat):
    """Changes whenever a title of the seat's changes hands or one of its debt flags changes (0 at the start
    of a game): a strategy may keep what it derives from its own titles and debts until it changes."""
    return public[PUB_HOLDINGS_VERSION + seat]


@njit(cache=True)
def cash(public, seat):
    return public[seat_slot(seat, S_CASH)]


@njit(cache=True)
def owner(public, prop):
    """Seat owning a property, or -1 when the bank does."""
    return public[owner_slot(prop)]


@njit(cache=True)
def debt_ridden(public, prop):
    return public[debt_slot(public, prop)] != 0


@njit(cache=True)
def saved(public, seat, card_type):
    """How many saved cards of a type a seat holds (saved cards were shown when drawn)."""
    return public[saved_slot(public, seat, card_type)]


@njit(cache=True)
def cards_left(public, card_type):
    """Cards of a type still in the draw pile."""
    return public[left_slot(public, card_type)]


@njit(cache=True)
def owns_property(public, seat):
    """True if the seat holds at least one title."""
    for prop in range(public[PUB_PROPERTIES]):
        if owner(public, prop) == seat:
            return True
    return False


@njit(cache=True)
def held_in_block(public, table, seat, block):
    """Properties of a block a seat owns."""
    count = 0
    for prop in range(public[PUB_PROPERTIES]):
        if table[prop, P_BLOCK] == block and owner(public, prop) == seat:
            count += 1
    return count


@njit(cache=True)
def win_ways(table, public, commodity):
    """Ways out of 36 that a 2d6 roll wins this commodity."""
    return table[public[PUB_COMMODITY_ROW] + commodity, X_WAYS]


# ---- the rules the engine and the strategies share: the engine calls these very functions ----------------


@njit(cache=True)
def income_multiple(table, prop, held, debt_ridden_held):
    """The Income Multiple a visitor pays on ``prop`` when its holder owns ``held`` properties of its block,
    ``debt_ridden_held`` of them debt-ridden: the top multiple needs the whole block with none of it
    debt-ridden (U5: otherwise the one before it)."""
    if held == table[prop, P_BLOCK_SIZE] and debt_ridden_held > 0:
        held -= 1
    return table[prop, P_INCOME + held - 1]


@njit(cache=True)
def rent_multiple(public, table, prop):
    """Income Multiple a visitor pays on a held property (income_multiple of its holder's block holdings)."""
    holder = owner(public, prop)
    block = table[prop, P_BLOCK]
    held, debts = 0, 0
    for other in range(public[PUB_PROPERTIES]):
        if table[other, P_BLOCK] == block and owner(public, other) == holder:
            held += 1
            debts += debt_ridden(public, other)
    return income_multiple(table, prop, held, debts)


BLOCK_COUNT_BITS = 3   # titles_net_worth counts a block's properties held in this many bits (MAX_BLOCK < 8)
TITLE_BITS = 63        # held_titles' bit mask holds the first this many properties


@njit(cache=True)
def held_titles(public, seat):
    """The seat's titles among the first TITLE_BITS properties as bits (property p: bit p), set without a branch
    per property."""
    at = owner_slot(0)
    titles = 0
    for prop in range(min(public[PUB_PROPERTIES], TITLE_BITS)):
        titles |= np.int64(public[at + prop] == seat) << prop
    return titles


@njit(cache=True)
def titles_fit(public):
    """True if titles_net_worth can value a seat's titles on this board: at most TITLE_BITS properties (one bit
    each) in blocks whose counts fit one integer, BLOCK_COUNT_BITS bits a block."""
    return public[PUB_PROPERTIES] <= TITLE_BITS and public[PUB_BLOCKS] * BLOCK_COUNT_BITS < 63


@njit(cache=True)
def titles_net_worth(public, table, seat, titles):
    """seat_net_worth from the seat's titles as bits (held_titles: exactly the seat's titles), on a board where
    titles_fit: two walks of those titles alone, the properties held per block packed BLOCK_COUNT_BITS bits a
    block into one integer, then each title's cost times its block's count. A caller that keeps the seat's bits
    (the investor family) passes them here rather than have seat_net_worth find them again."""
    total = cash(public, seat)
    counts = 0
    rest = titles
    while rest != 0:
        prop = trailing_zeros(rest)
        rest &= rest - 1
        counts += 1 << (BLOCK_COUNT_BITS * table[prop, P_BLOCK])
        if debt_ridden(public, prop):
            total -= table[prop, P_PAYOFF]
    rest = titles
    while rest != 0:
        prop = trailing_zeros(rest)
        rest &= rest - 1
        held = (counts >> (BLOCK_COUNT_BITS * table[prop, P_BLOCK])) & ((1 << BLOCK_COUNT_BITS) - 1)
        total += table[prop, P_COST] * held
    return total


@njit(cache=True)
def seat_net_worth(public, table, seat):
    """A seat's net worth, what the game scores (docs/rules/wheeler-dealer-us.md "Net worth"): cash + market
    value (in each block, the cost of the properties held x how many are held) - the payoff of each debt-ridden
    property held. The engine's results and every strategy's valuation call this function (or, with the seat's
    titles as bits, titles_net_worth). A board on which the titles do not fit (titles_fit) is counted block by
    block."""
    if titles_fit(public):
        return titles_net_worth(public, table, seat, held_titles(public, seat))
    total = cash(public, seat)
    for block in range(public[PUB_BLOCKS]):
        held, cost = 0, 0
        for prop in range(public[PUB_PROPERTIES]):
            if table[prop, P_BLOCK] == block and owner(public, prop) == seat:
                held += 1
                cost += table[prop, P_COST]
                if debt_ridden(public, prop):
                    total -= table[prop, P_PAYOFF]
        total += held * cost
    return total


@njit(cache=True)
def occupied(public, square, except_seat):
    """True if a token of a player in the game, other than except_seat (-1: any), rests on the square."""
    for seat in range(public[PUB_PLAYERS]):
        if seat != except_seat and seat_field(public, seat, S_ALIVE) and seat_field(public, seat, S_POSITION) == square:
            return True
    return False


@njit(cache=True)
def may_borrow(public, seat, prop):
    """U5: a loan on one of the seat's titles that is not debt-ridden."""
    return 0 <= prop < public[PUB_PROPERTIES] and owner(public, prop) == seat and not debt_ridden(public, prop)


@njit(cache=True)
def loans_available(public, table, seat):
    """What borrowing on every title of the seat that is not debt-ridden would raise."""
    total = 0
    for prop in range(public[PUB_PROPERTIES]):
        if owner(public, prop) == seat and not debt_ridden(public, prop):
            total += table[prop, P_LOAN]
    return total


@njit(cache=True)
def raise_may_borrow(public, table, seat, short):
    """U16, U17(b): a debtor ``short`` dollars short may borrow only while borrowing on every title it could
    still borrow on would cover the debt; a hopeless debtor may only sell (titles, saved cards) or go bankrupt."""
    return loans_available(public, table, seat) >= short


@njit(cache=True)
def may_repay(public, table, seat, prop):
    """U5: repaying one of the seat's debt-ridden titles, when its cash covers the payoff."""
    return (0 <= prop < public[PUB_PROPERTIES] and owner(public, prop) == seat and debt_ridden(public, prop)
            and cash(public, seat) >= table[prop, P_PAYOFF])


@njit(cache=True)
def extra_exchange_open(public, seat):
    """U6, U16: the seat may still make its one extra Exchange investment of this turn to raise money."""
    return not seat_field(public, seat, S_EXTRA_EXCHANGE) and cash(public, seat) >= public[PUB_MIN_INVEST]


@njit(cache=True)
def has_bamboozle_stake(public, seat):
    """A title to stake, or (owning none) the rules' cash stake."""
    return owns_property(public, seat) or cash(public, seat) >= public[PUB_BAMBOOZLE_CASH]


@njit(cache=True)
def bamboozle_stake_ok(public, seat, mine):
    """A Bamboozle's stake: one of the seat's titles; -1 (the cash stake) only when it owns none and has it."""
    if owns_property(public, seat):
        return 0 <= mine < public[PUB_PROPERTIES] and owner(public, mine) == seat
    return mine == -1 and cash(public, seat) >= public[PUB_BAMBOOZLE_CASH]


@njit(cache=True)
def bamboozle_target_ok(public, table, seat, target, underhanded):
    """A Bamboozle's target: another player's title, that player not on School, and (unless underhanded)
    not in a block that player holds whole."""
    if target < 0 or target >= public[PUB_PROPERTIES]:
        return False
    victim = owner(public, target)
    if victim < 0 or victim == seat or not seat_field(public, victim, S_ALIVE) or seat_field(public, victim, S_ON_SCHOOL):
        return False
    return underhanded or held_in_block(public, table, victim, table[target, P_BLOCK]) < table[target, P_BLOCK_SIZE]


@njit(cache=True)
def can_bamboozle(public, table, seat, underhanded):
    """Whether the seat has a stake and an eligible target for a Bamboozle now."""
    if not has_bamboozle_stake(public, seat):
        return False
    for prop in range(public[PUB_PROPERTIES]):
        if bamboozle_target_ok(public, table, seat, prop, underhanded):
            return True
    return False


@njit(cache=True)
def auction_limit(public, seat, must_use_card):
    """The largest bid a seat may make in a sealed-bid auction (U3, U14): its cash; for a Bamboozle card it
    must use at once while owning no title, its cash less the cash it must then stake."""
    money = cash(public, seat)
    if must_use_card and not owns_property(public, seat):
        return money - public[PUB_BAMBOOZLE_CASH]
    return money


@njit(cache=True)
def bid_limit(public, seat, query):
    """auction_limit for the auction of a D_BID query."""
    return auction_limit(public, seat, query[Q_BID_PROPERTY] < 0 and query[Q_BID_MUST_USE] != 0)


# Amounts the rules imply, from the public header (so a house rule changes them for every strategy)
DIE_MEAN = 3.5


@njit(cache=True)
def park_mean(public):
    """What a Park landing pays on average: one die x park_collect_per_pip."""
    return DIE_MEAN * public[PUB_PARK_PER_PIP]


@njit(cache=True)
def school_mean(public):
    """What a School landing pays on average: one die x school_collect_per_pip."""
    return DIE_MEAN * public[PUB_SCHOOL_PER_PIP]


@njit(cache=True)
def audit_max(public):
    """The most a Tax Audit can take: six pips x stake_per_pip."""
    return 6.0 * public[PUB_AUDIT_PER_PIP]


@njit(cache=True)
def city_hall_share(public):
    """The share of its cash a City Hall landing takes."""
    return public[PUB_CITY_HALL_PERCENT] / 100.0
