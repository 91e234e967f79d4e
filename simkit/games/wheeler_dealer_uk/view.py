"""What a Wheeler Dealer (UK) strategy sees and decides (K7: holdings, cash and At Risk cards are public;
the order of the packs and of the Command pile is not). The rules as played: docs/rules/wheeler-dealer-uk.md.

Every decision point is a function with one signature::

    decide(table, params, memory, rng, query) -> int64

- ``table`` (C-ordered int64 vector): the game as every player sees it, which is the engine's own live
  array: read it, never write it. Use the accessors below: rule values (``H_*`` header fields), each
  commodity's ``face``, ``colour`` and copies, the set multiples, the boards, and per seat its ``cash``,
  ``held`` (clean cards per commodity; ``hand``: all of them as one vector), ``at_risk`` (cards per
  commodity in its At Risk zone), position, circle and flags, and ``in_pack`` (copies of each commodity in
  its pack now); for the seat whose turn it is, ``on_sale`` (cards borrowed on as part of a set to be sold
  this turn) and ``redeemable`` (the At Risk cards the redeem step or Command under way may still redeem;
  ``redeemable_cards``: as one vector).
- ``query`` (int64 vector): ``query[Q_SEAT]`` is the seat being asked, ``query[Q_KIND]`` the decision
  (``D_*``), the rest its arguments (documented at each ``D_*``).
- ``params``, ``memory`` (the seat's floats, zeroed at the start of each game) and its own random stream.

Every answer is checked before the engine uses it: an answer outside its documented values (or one that
names a card the seat cannot use) is refused, counted in the seat's ``illegal_actions`` and the decision's
default is played: no deal, refuse the offer, stop redeeming / selling / borrowing, stay out of the inner
circle, decline the card, a yellow card. A yes/no answer must be 0 or 1; "-1 to stop" means exactly -1.
"""
from pathlib import Path

from numba import njit, types

from ...numba_tools import readonly_array, uncounted
from ...rules import RuleLayout

MAX_SEATS = 6
MAX_COMMODITIES = 64
MAX_SET = 16          # the most copies of one commodity
MEMORY_SIZE = 128
QUERY_SIZE = 8

# ---- decision points (query[Q_KIND]) and their answers ----
D_DEAL = 0      # before rolling: return pack_deal(DEAL_BUY or DEAL_RAID, other seat, commodity), or 0 for none
D_ANSWER = 1    # query[Q_FROM] offers query[Q_PRICE] (3 x face) for one clean query[Q_COMMODITY]: 1 sells, 0 refuses
D_REDEEM = 2    # return a commodity with a redeemable card (redeemable(table, c) > 0) to redeem it (pays its
                # redeem_cost, borrowing if short), -1 to stop; query[Q_CONTEXT] = REDEEM_COMMAND for the
                # Command card: the cards left unredeemed are forfeit
D_SELL = 3      # return pack_sale(commodity, cards) to sell a set of >= min_set clean cards, -1 to stop
D_BORROW = 4    # return a commodity c to borrow At Risk on one of its cards (borrowable(table, seat, c) > 0), or
                # pack_sale_loan(c) to borrow on a card of a set to be sold this turn (K7 borrow_on_sale: legal
                # when sale_loan(table, seat, c, query[Q_COMMODITY]); the card stays in the hand, the sale repays
                # the loan + interest; not sold in this turn's selling step, it goes At Risk), -1 to stop;
                # query[Q_CONTEXT]: BORROW_VOLUNTARY (before rolling), BORROW_FOR_PURCHASE (buying
                # query[Q_COMMODITY]: cash must reach query[Q_PRICE], query[Q_SHORT] credits short; stopping
                # drops the purchase), BORROW_FOR_REDEEM / BORROW_FOR_COMMAND_REDEEM (redeeming a
                # query[Q_COMMODITY] before rolling / for the Command card; stopping drops that redeem and ends
                # the step), BORROW_FOR_PAYMENT (a payment that must be made, query[Q_SHORT] short: if the seat
                # stops while short, the engine borrows on its cheapest card, and bankrupts it when none is left)
D_ENTER = 5     # the inner circle is open to the seat: 1 enters now (K3: no way back), 0 stays out
D_BUY = 6       # a turned card query[Q_COMMODITY] at query[Q_PRICE]: 1 buys (raising money if short),
                # 0 pays the Handlers Charge query[Q_SHORT] and the card goes to the bottom of its pack
D_YELLOW = 7    # on an outer yellow space: 0 turns a yellow card, 1 takes a Command card
DECISION_NAMES = ("deal", "answer", "redeem", "sell", "borrow", "enter", "buy", "yellow")

Q_SEAT, Q_KIND, Q_CONTEXT, Q_COMMODITY, Q_PRICE, Q_SHORT, Q_FROM = range(7)
SALE_LOAN = MAX_COMMODITIES   # borrow answers SALE_LOAN + c: a loan on a card of c of a set to be sold
DEAL_NONE, DEAL_BUY, DEAL_RAID = 0, 1, 2
REDEEM_VOLUNTARY, REDEEM_COMMAND = 0, 1
BORROW_VOLUNTARY, BORROW_FOR_PURCHASE, BORROW_FOR_PAYMENT, BORROW_FOR_REDEEM, BORROW_FOR_COMMAND_REDEEM = range(5)

COLOURS = ("red", "green", "yellow")   # the packs' colours, in the order the rule data's colour codes count
PACKS = len(COLOURS)
RED, GREEN, YELLOW, BLUE = range(PACKS + 1)   # BLUE: the spaces with no pack
SPACE_CODES = "RGYB"
OUTER, INNER = 0, 1

# ---- table header: the rule vector, then its other fields by name, H_<NAME> the place of each ----
# The header opens with the rule vector, derived from the rule data: a slot per option whose allowed values
# rules.toml declares, in the file's order, coded as RuleLayout.vector codes them (a fraction in ten-thousandths,
# basis points), so an option added there has its place with no line here or in rules.py; whoever reads it names
# it, RULE_DATA.slot(key). The rules strategies read are named here.
RULE_DATA = RuleLayout(Path(__file__).with_name("rules.toml"))
H_MIN_SET = RULE_DATA.slot("game.min_set")
H_BUY_MULTIPLE = RULE_DATA.slot("game.buy_from_player_multiple")
H_RAID_MULTIPLE = RULE_DATA.slot("game.at_risk_buy_multiple")
H_LOAN_BP = RULE_DATA.slot("game.at_risk_loan_fraction")
H_INTEREST_BP = RULE_DATA.slot("game.at_risk_interest")
H_HANDLERS_BP = RULE_DATA.slot("game.handlers_charge")
H_BLUE_BONUS = RULE_DATA.slot("game.blue_outer_bonus")
H_TURN_LIMIT = RULE_DATA.slot("game.turn_limit")
H_BORROW_ON_SALE = RULE_DATA.slot("game.borrow_on_sale")   # K7
# After the rule vector: what prepare derives from the rest of the rule data and the player count, then the
# game's live fields (tests/test_layouts.py checks the constants against these names).
HEADER_FIELDS = ("players", "commodities", "level", "target", "inner_wealth", "outer_spaces", "inner_spaces",
                 "inner_entry", "round", "turn_seat", "inner_open", "active", "commands", "deal_used", "deal_bought",
                 "face", "colour", "copies", "multiple", "outer", "inner", "seats", "held", "risk", "in_pack",
                 "pack_size", "sale_open", "on_sale", "redeemable")
(H_PLAYERS, H_COMMODITIES, H_LEVEL, H_TARGET, H_INNER_WEALTH, H_OUTER_SPACES, H_INNER_SPACES, H_INNER_ENTRY,
 H_ROUND, H_TURN_SEAT, H_INNER_OPEN, H_ACTIVE, H_COMMANDS, H_DEAL_USED, H_DEAL_BOUGHT, H_FACE, H_COLOUR, H_COPIES,
 H_MULTIPLE, H_OUTER, H_INNER, H_SEATS, H_HELD, H_RISK, H_IN_PACK, H_PACK_SIZE, H_SALE_OPEN, H_ON_SALE,
 H_REDEEMABLE) = range(RULE_DATA.size, RULE_DATA.size + len(HEADER_FIELDS))
# H_ROUND counts from 0 (results and replays say round H_ROUND + 1). H_DEAL_USED: 1 once the turn's seat has made
# (or had refused) its one deal this turn; H_DEAL_BOUGHT: 1 when that deal bought a card, which bars redeeming
# for the rest of the turn (K7), 0 otherwise (both reset at the start of every turn). H_SALE_OPEN: 1 while the
# turn's loans may be on a set to be sold (the deal and redeem steps before rolling, with the rule
# game.borrow_on_sale on). H_ON_SALE, H_REDEEMABLE: sections of one entry per commodity, for the seat whose turn
# it is (see on_sale and redeemable).
HEADER = RULE_DATA.size + len(HEADER_FIELDS)   # the sections H_FACE ... H_REDEEMABLE point to follow the header
# per seat fields (seat_field): cash, flags, position, cards (clean, At Risk), the face value of all its cards,
# what redeeming its At Risk cards would cost, and how many commodities it holds a sellable set of
SEAT_FIELD_NAMES = ("cash", "bankrupt", "circle", "position", "miss", "cards", "risk_cards", "card_value", "risk_cost",
                    "sets")
(F_CASH, F_BANKRUPT, F_CIRCLE, F_POSITION, F_MISS, F_CARDS, F_RISK_CARDS, F_CARD_VALUE, F_RISK_COST,
 F_SETS) = range(len(SEAT_FIELD_NAMES))
SEAT_FIELDS = len(SEAT_FIELD_NAMES)

# What a strategy is shown (the table, its parameters, the query) is read-only: a write is a typing error when
# the strategy compiles. Its memory and random stream are its own to write; the answer is the return value.
# C-ordered, as the engine keeps them (numba_tools.readonly_c): indexing them needs no strides.
TABLE = readonly_array(types.int64, 1, "C")        # the table and the query, as a strategy is shown them
PARAMS = readonly_array(types.float64, 1, "C")
MEMORY = types.Array(types.float64, 1, "C")
RNG = types.Array(types.uint64, 1, "C")
DECISION_SIGNATURE = types.int64(TABLE, PARAMS, MEMORY, RNG, TABLE)
DECISIONS = {name: DECISION_SIGNATURE for name in DECISION_NAMES}

# The accessors and rule checks below serve the engine and every strategy: each is compiled once, for the
# read-only table a strategy is shown, and without reference counting (they allocate nothing; with it, every
# array argument of a call that is not inlined costs a call into the runtime and back). The engine's writable
# table converts to a read-only one where they are called.
_I, _B = types.int64, types.boolean


@uncounted(_I(TABLE, _I))
def face(table, c):
    return table[table[H_FACE] + c]


@uncounted(_I(TABLE, _I))
def colour(table, c):
    return table[table[H_COLOUR] + c]


@uncounted(_I(TABLE, _I))
def copies(table, c):
    """Copies of a commodity in the game."""
    return table[table[H_COPIES] + c]


@uncounted(_I(TABLE, _I, _I))
def multiple(table, c, cards):
    """The set multiple for selling ``cards`` cards of commodity c (the data's set_multiple_rule)."""
    return table[table[H_MULTIPLE] + colour(table, c) * (MAX_SET + 1) + min(cards, MAX_SET)]


@uncounted(_I(TABLE, _I, _I))
def set_value(table, c, cards):
    """What the bank pays for a set of ``cards`` cards of c (0 below the minimum set)."""
    if cards < table[H_MIN_SET]:
        return 0
    return multiple(table, c, cards) * face(table, c) * cards


@uncounted(_I(TABLE, _I, _I))
def space(table, circle, position):
    """The colour of a space (RED, GREEN, YELLOW or BLUE)."""
    return table[table[H_OUTER if circle == OUTER else H_INNER] + position]


@uncounted(_I(TABLE, _I, _I))
def seat_field(table, seat, field):
    return table[table[H_SEATS] + seat * SEAT_FIELDS + field]


@uncounted(_I(TABLE, _I))
def cash(table, seat):
    return table[table[H_SEATS] + seat * SEAT_FIELDS + F_CASH]


@uncounted(_I(TABLE, _I, _I))
def held(table, seat, c):
    """Clean cards of c the seat holds (At Risk cards are not counted, K2)."""
    return table[table[H_HELD] + seat * table[H_COMMODITIES] + c]


@njit(inline="always", cache=True)   # inlined where it is called: a function compiled on its own cannot
def hand(table, seat):                 # return a view without reference counting
    """The seat's clean cards, one entry per commodity (``hand(table, seat)[c] == held(table, seat, c)``): a view
    of the table for a loop over every commodity, which then indexes one vector from 0."""
    start = table[H_HELD] + seat * table[H_COMMODITIES]
    return table[start:start + table[H_COMMODITIES]]


@uncounted(_I(TABLE, _I, _I))
def at_risk(table, seat, c):
    return table[table[H_RISK] + seat * table[H_COMMODITIES] + c]


@uncounted(_I(TABLE, _I))
def in_pack(table, c):
    """Copies of c in its pack now (the order of the pack is hidden)."""
    return table[table[H_IN_PACK] + c]


@uncounted(_I(TABLE, _I))
def pack_size(table, pack):
    return table[table[H_PACK_SIZE] + pack]


@uncounted(_I(_I, _I))
def part_down(amount, basis_points):
    """A share of an amount paid by the bank: rounded down (K7)."""
    return amount * basis_points // 10000


@uncounted(_I(_I, _I))
def part_up(amount, basis_points):
    """A share of an amount paid to the bank: rounded up (K7)."""
    return (amount * basis_points + 9999) // 10000


@uncounted(_I(TABLE, _I))
def loan_value(table, c):
    """The At Risk loan on one card of c: half its face value."""
    return part_down(face(table, c), table[H_LOAN_BP])


@uncounted(_I(TABLE, _I))
def redeem_cost(table, c):
    """What redeeming one At Risk card of c costs: the loan plus 10% interest."""
    loan = loan_value(table, c)
    return loan + part_up(loan, table[H_INTEREST_BP])


@uncounted(_I(TABLE, _I))
def handlers_charge(table, c):
    return part_up(face(table, c), table[H_HANDLERS_BP])


@uncounted(_I(TABLE, _I))
def total_wealth(table, seat):
    """K4: cash + face value of every card held, At Risk ones included, - what redeeming them all would cost."""
    return cash(table, seat) + seat_field(table, seat, F_CARD_VALUE) - seat_field(table, seat, F_RISK_COST)


@uncounted(_I(TABLE, _I))
def on_sale(table, c):
    """Clean cards of c that the turn's seat has borrowed on as part of a set to be sold this turn (K7
    borrow_on_sale): still in its hand and counted by ``held``; the sale repays each loan + interest, and any
    not sold in this turn's selling step go to the At Risk zone then."""
    return table[table[H_ON_SALE] + c]


@uncounted(_I(TABLE, _I))
def redeemable(table, c):
    """At Risk cards of c that the turn's seat may still redeem in the redeem step (or Command) under way: those
    At Risk when it began (a card borrowed on to pay for redeeming stays At Risk)."""
    return table[table[H_REDEEMABLE] + c]


@njit(inline="always", cache=True)   # as hand
def redeemable_cards(table):
    """``redeemable`` for every commodity, as a view (like ``hand``)."""
    return table[table[H_REDEEMABLE]:table[H_REDEEMABLE] + table[H_COMMODITIES]]


@uncounted(_I(TABLE, _I, _I))
def borrowable(table, seat, c):
    """Clean cards of c the seat may borrow on now (those already borrowed on for a sale excepted)."""
    cards = held(table, seat, c)
    if seat == table[H_TURN_SEAT]:
        cards -= on_sale(table, c)
    return cards


@uncounted(_B(TABLE, _I, _I, _I))
def sale_loan(table, seat, c, incoming):
    """May the seat borrow on a card of c now as part of a set to be sold (pack_sale_loan; K7 borrow_on_sale)?
    Only the turn's seat, in its deal and redeem steps (to pay for the deal or a redeem), and only when c is a
    set that can be sold this turn once the card being paid for (commodity ``incoming``, or -1) arrives."""
    if table[H_SALE_OPEN] == 0 or seat != table[H_TURN_SEAT] or borrowable(table, seat, c) <= 0:
        return False
    return held(table, seat, c) + (1 if c == incoming else 0) >= table[H_MIN_SET]


@uncounted(_I(_I, _I, _I))
def pack_deal(kind, seat, c):
    return kind + 4 * (seat + MAX_SEATS * c)


@uncounted(types.UniTuple(_I, 3)(_I))
def unpack_deal(deal):
    """(kind, seat, commodity) of a deal answer as pack_deal packs it."""
    return deal % 4, (deal // 4) % MAX_SEATS, deal // (4 * MAX_SEATS)


@uncounted(_I(_I))
def pack_sale_loan(c):
    """The borrow answer for a loan on a card of c as part of a set to be sold this turn (K7 borrow_on_sale)."""
    return SALE_LOAN + c


@uncounted(_I(_I, _I))
def pack_sale(c, cards):
    return c * (MAX_SET + 1) + cards
