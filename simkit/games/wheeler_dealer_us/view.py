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
  ``public[PUB_CARD_ROW]`` (``K_*``), squares from ``public[PUB_SQUARE_ROW]`` (``Q_*``).
- ``query`` (int64 vector): ``query[0]`` is the decision kind (``D_*``), the rest its arguments
  (documented at each ``D_*``).
- ``out``: extra results of the decision (documented at each ``D_*``); it is zeroed before the call.
The return value is the decision's main answer.

Every answer (the return value and each ``out`` slot the decision uses) is checked before the engine
uses it: an answer outside the documented range, or one the rules do not allow at that moment, is
refused, counted in the seat's ``illegal_actions`` result, and the default given at the decision is
played instead.
"""
from numba import njit, types

from ...numba_tools import readonly_array

MAX_SEATS = 6
MAX_BLOCK = 6
TABLE_COLUMNS = 6 + MAX_BLOCK
MEMORY_SIZE = 136
OUT_SIZE = 8
QUERY_SIZE = 8

# ---- decision points: query[0], the arguments in query[1:], the answer and out[] -------------
# (default: what the engine plays when the answer is refused)
D_FINANCE = 0       # start of turn / after step 5: return 0 done, 1 borrow on out[0], 2 repay out[0] (asked again
                    # until done; default for a refused step: ask again, at most twice the steps there can be)
D_INVEST = 1        # query[1]=1 if optional (Trade Fair, raising money), query[2]=1 when raising money and
                    # query[3]=the dollars still short: return a commodity whose stake you can pay, or -1 to decline
                    # an optional one (default: decline an optional one, else the cheapest stake)
D_BUY = 2           # query[1]=property: return 1 to buy at cost (the engine borrows if short), 0 not (default 0)
D_BID = 3           # query[1]=property, or -1 for a Wheeler-Dealer card on sale (query[4]=its card type, query[5]=1
                    # when the buyer must use it at once: a drawn Bamboozle), query[2]=1 if a bankrupt's property,
                    # query[3]=seller (-1 the bank): return the most you'd pay, 0..bid_limit() (default: no bid)
D_POACH = 4         # query[1]=property (debt-ridden, another's): return 1 to poach (pay payoff to the bank), 0 not
D_DEAL_OFFER = 5    # query[1]=offers made so far this turn: return 0 none, else the offer kind DEAL_*;
                    # out[0]=other seat, out[1]=my property, out[2]=their property, out[3]=cash I pay (<0: I receive)
                    # (default: no offer; the next one is still asked)
D_DEAL_ANSWER = 6   # query[1]=offering seat, [2]=kind, [3]=their property, [4]=my property, [5]=cash they pay me:
                    # return 1 to accept, 0 to refuse (default 0)
D_RAISE = 7         # query[1]=amount short, [2]=creditor seat (-1 bank), [3]=steps already taken in this raise
                    # (0: a new raise): return RAISE_*; out[0]=property (RAISE_BORROW, RAISE_SELL) or card type
                    # (RAISE_SELL_CARD); out[1]=reserve price (0: the smallest sale, PUB_AUCTION_MIN). Each property
                    # and card type may be offered once a raise. (default: refused, asked again)
D_BUMP = 8          # query[1..]=nothing: return 0 or 1 to bump; out[0]=seat to bump, out[1]=destination square
D_CARD = 9          # query[1]=CARD_DRAWN or CARD_STEP5, [2]=card type (drawn) : return the card type to use now,
                    # -1 for none/keep; out[0..] its arguments (see CARD_ARGS below) (default: keep / none)
D_BAMBOOZLE = 10    # query[1]=1 for underhanded, query[2]=1 if it must be used (bought, or a Combo Platter played
                    # as one): return 1 to use, 0 not; out[0]=my property (-1: stake PUB_BAMBOOZLE_CASH cash when
                    # owning none), out[1]=target property (default: not used, or when it must be used, my
                    # cheapest property against the first eligible target)
D_BORROW_ON = 11    # query[1]=amount still short: return the property to borrow on next (engine's forced borrowing;
                    # default: the first property it may borrow on)
DECISION_NAMES = ("finance", "invest", "buy", "bid", "poach", "deal_offer", "deal_answer", "raise", "bump",
                  "card", "bamboozle", "borrow_on")

DEAL_NONE, DEAL_BUY, DEAL_SELL, DEAL_SWAP = 0, 1, 2, 3
RAISE_GIVE_UP, RAISE_BORROW, RAISE_SELL, RAISE_EXCHANGE, RAISE_SELL_CARD = 0, 1, 2, 3, 4
CARD_DRAWN, CARD_STEP5, CARD_MASTER_KEY_AUDIT, CARD_MASTER_KEY_SCHOOL = 0, 1, 2, 3
# CARD_ARGS: taxi_service out[0]=square; move_any_player out[0]=seat, out[1]=square; master_key out[0]=0 Tax
# Audit, 1 School; combo_platter out[0]=0 taxi (out[1]=square), 1 bamboozle, 2 move_any_player (out[1]=seat,
# out[2]=square), 3 discard. For CARD_MASTER_KEY_AUDIT/SCHOOL (cancel an audit just drawn / skip the turn
# missed after School) return 1 to use a saved master key, 0 not.
MAX_MONEY = 1 << 50     # no amount in an answer may exceed this (far above any game's money)

# ---- card kinds (table K_KIND) ----
(CK_TAX_AUDIT, CK_BAMBOOZLE, CK_UNDERHANDED, CK_TAXI, CK_MOVE_ANY, CK_EASY_COME, CK_EXTRA_TURN, CK_MASTER_KEY,
 CK_COMBO, CK_COLLECT, CK_PAY, CK_PAY_PERCENT, CK_COLLECT_PER_PIP, CK_COLLECT_FROM_EACH) = range(14)
CARD_KINDS = ("tax_audit", "bamboozle", "underhanded_bamboozle", "taxi_service", "move_any_player",
              "easy_come_easy_go", "extra_turn", "master_key", "combo_platter", "collect", "pay",
              "pay_cash_percent", "collect_per_pip", "collect_from_each_player")

# ---- square kinds (table Q_KIND) ----
SQ_PROPERTY, SQ_PARK, SQ_CITY_HALL, SQ_SCHOOL, SQ_TRADE_FAIR = range(5)
CORNER_KINDS = ("park", "city_hall", "school", "trade_fair")

# ---- table columns ----
P_SQUARE, P_BLOCK, P_COST, P_LOAN, P_PAYOFF, P_BLOCK_SIZE, P_INCOME = range(7)   # income: P_INCOME + k - 1
X_INVEST, X_RETURN, X_WAYS, X_MASK = range(4)        # X_MASK bit t set: a 2d6 total of t wins
K_KIND, K_AMOUNT, K_PERCENT, K_SAVE = range(4)
Q_KIND, Q_PROPERTY = range(2)                         # Q_PROPERTY: property index or -1

# ---- public header ----
(PUB_SEAT, PUB_PLAYERS, PUB_ACTIVE, PUB_TURN, PUB_LEVEL, PUB_CARDS_LEFT, PUB_PROPERTIES, PUB_BLOCKS,
 PUB_COMMODITIES, PUB_CARD_TYPES, PUB_SQUARES, PUB_COMMODITY_ROW, PUB_CARD_ROW, PUB_SQUARE_ROW,
 PUB_MIN_INVEST, PUB_AUCTION_MIN, PUB_AUCTION_INCREMENT, PUB_LAST_CARD_DRAWN, PUB_SCHOOL_SQUARE,
 PUB_PARK_SQUARE, PUB_PARK_PER_PIP, PUB_SCHOOL_PER_PIP, PUB_CITY_HALL_PERCENT, PUB_TRADE_FAIR_EXTRA,
 PUB_AUDIT_PER_PIP, PUB_BAMBOOZLE_CASH) = range(26)
PUB_HOLDINGS_VERSION = 32  # per seat (holdings_version)
PUB_HEADER = PUB_HOLDINGS_VERSION + 8
SEAT_FIELDS = 6
# S_EXTRA_EXCHANGE: the seat has made its one extra Exchange investment of this turn (raising money, U6)
S_CASH, S_POSITION, S_ALIVE, S_ON_SCHOOL, S_MISSES_TURN, S_EXTRA_EXCHANGE = range(SEAT_FIELDS)

# What a strategy is shown (public, table, query, params) is read-only: a write is a typing error when the
# strategy compiles. Its memory, random stream and answer buffer (out) are its own to write.
DECISION_SIGNATURE = types.int64(readonly_array(types.int64, 1), readonly_array(types.int64, 2),
                                 readonly_array(types.int64, 1), readonly_array(types.float64, 1),
                                 types.Array(types.float64, 1, "A"), types.Array(types.uint64, 1, "A"),
                                 types.Array(types.int64, 1, "A"))
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
def held_in_block(public, table, seat, block):
    """Properties of a block a seat owns."""
    count = 0
    for prop in range(public[PUB_PROPERTIES]):
        if table[prop, P_BLOCK] == block and owner(public, prop) == seat:
            count += 1
    return count


@njit(cache=True)
def rent_multiple(public, table, prop):
    """Income Multiple a visitor pays on: by block holdings, the top multiple needs the whole block with
    none of it debt-ridden (U5: otherwise the one before it)."""
    holder = owner(public, prop)
    block = table[prop, P_BLOCK]
    held, any_debt = 0, False
    for other in range(public[PUB_PROPERTIES]):
        if table[other, P_BLOCK] == block and owner(public, other) == holder:
            held += 1
            any_debt = any_debt or debt_ridden(public, other)
    if held == table[prop, P_BLOCK_SIZE] and any_debt:
        held -= 1
    return table[prop, P_INCOME + held - 1]


@njit(cache=True)
def win_ways(table, public, commodity):
    """Ways out of 36 that a 2d6 roll wins this commodity."""
    return table[public[PUB_COMMODITY_ROW] + commodity, X_WAYS]


@njit(cache=True)
def owns_property(public, seat):
    """True if the seat holds at least one title."""
    for prop in range(public[PUB_PROPERTIES]):
        if owner(public, prop) == seat:
            return True
    return False


@njit(cache=True)
def bid_limit(public, seat, query):
    """The largest bid a seat may make in the auction of a D_BID query: its cash; for a Bamboozle card it
    must use at once while owning no title, its cash less the cash it must then stake."""
    money = cash(public, seat)
    if query[1] < 0 and query[5] != 0 and not owns_property(public, seat):
        return money - public[PUB_BAMBOOZLE_CASH]
    return money
