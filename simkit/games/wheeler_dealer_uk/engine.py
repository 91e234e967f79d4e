"""The Wheeler Dealer (UK) engine: a batch of games in one Numba kernel (the rules as played, decisions K1-K7:
docs/rules/wheeler-dealer-uk.md).

The table every player sees (K7) is the engine's own state, the ``table`` vector of view.py; hidden are
the order of the three packs and of the Command pile, and the random streams. Each seat rolls its own
dice stream, so a strategy change alters other seats' dice only through what it changes on the board.

Every strategy answer is checked before use (view.py: out of range or naming a card the seat cannot use ->
refused, counted in illegal_actions, the decision's default played); no strategy value indexes an array
unchecked.

``play_batch`` validates nothing (rules.prepare did), allocates the batch's arrays (make_context) and runs the
private kernel ``_play``. Every helper takes ``ctx``: the engine's private int64 ``state`` vector, which finds
the batch's other arrays by their addresses (numba_tools' engine context, as in the US engine):
  state:  the engine's private fields (ST_*; ST_*_ADDRESS: where the other arrays are), the query, the pack
          heads, the per-seat counters of the game being played, the sets sold by size, then the Command pile:
          its order, the kind and the value of each card
  table:  the public table (view.py), which strategies are shown read-only
  packs:  [3, cards]: each pack as a ring (head in the state, size in the table)
  floats: per seat its parameters then its memory; rngs: per seat dice, per seat strategy, the deal, tie-breaks
  events: the replay log; fns: per decision and seat, a decision function's addresses
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from ... import rng
from ...columns import logged_events
from ...guard import deciding
from ...numba_tools import (EVENT_FIELDS, append_event, array_at, function_addresses, function_from_addresses,
                            kernel_context, readonly_c, store_addresses, unmanaged, vector_at, view)
from ...strategy import MAX_PARAMS
from .rules import (C_ADVANCE_TO_BLUE, C_BANK_BUYS_BEST, C_COLLECT, C_COLLECT_FROM_EACH, C_DISCARD_CHEAPEST,
                    C_FREE_CARD, C_MISS_TURN, C_MOVE, C_PAY, C_PAY_CASH_PERCENT, C_PAY_EACH, C_REDEEM_AT_RISK)
from .view import (BLUE, BORROW_FOR_COMMAND_REDEEM, BORROW_FOR_PAYMENT, BORROW_FOR_PURCHASE, BORROW_FOR_REDEEM,
                   BORROW_VOLUNTARY, COLOURS, DEAL_BUY, DEAL_RAID, DECISION_NAMES, DECISION_SIGNATURE, D_ANSWER,
                   D_BORROW, D_BUY, D_DEAL, D_ENTER, D_REDEEM, D_SELL, D_YELLOW, F_BANKRUPT, F_CARDS, F_CARD_VALUE,
                   F_CASH, F_CIRCLE, F_MISS, F_POSITION, F_RISK_CARDS, F_RISK_COST, F_SETS, H_ACTIVE, H_BLUE_BONUS,
                   H_BORROW_ON_SALE, H_BUY_MULTIPLE, H_COLOUR, H_COMMANDS, H_COMMODITIES, H_COPIES, H_DEAL_BOUGHT,
                   H_DEAL_USED, H_HELD, H_INNER_ENTRY, H_INNER_OPEN, H_INNER_SPACES, H_INNER_WEALTH, H_IN_PACK,
                   H_MIN_SET, H_ON_SALE, H_OUTER_SPACES, H_PACK_SIZE, H_PLAYERS, H_RAID_MULTIPLE, H_REDEEMABLE, H_RISK,
                   H_ROUND, H_SALE_OPEN, H_SEATS, H_TARGET, H_TURN_LIMIT, H_TURN_SEAT, INNER, MAX_SEATS, MAX_SET,
                   MEMORY_SIZE, OUTER, QUERY_SIZE, Q_COMMODITY, Q_CONTEXT, Q_FROM, Q_KIND, Q_PRICE, Q_SEAT, Q_SHORT,
                   REDEEM_COMMAND, REDEEM_VOLUNTARY, SALE_LOAN, SEAT_FIELDS, YELLOW, borrowable, colour, face,
                   handlers_charge, loan_value, part_up, redeem_cost, sale_loan, set_value, space, total_wealth)

COMMAND_CHAIN = 16   # a Command move that lands on another Command space, and so on, stops after this many

# per-seat counters; the last four count where a rule option came into play (GAME.rule_counters): outer blue
# bonuses paid, landings on an empty pack's colour (K6), sets of more than min_set cards sold, and loans taken
# to redeem an At Risk card (K7)
(S_SETS_SOLD, S_SET_CREDITS, S_LOANS, S_SALE_LOANS, S_REDEEMED, S_FORFEITED, S_BOUGHT_FROM_PLAYERS,
 S_SOLD_TO_PLAYERS, S_RAIDS, S_RAIDED, S_OFFERS_REFUSED, S_SPACE_BUYS, S_CHARGES, S_COMMANDS, S_FREE_CARDS, S_TURNS,
 S_BANKRUPT_ROUND, S_INNER_ROUND, S_ILLEGAL, S_BLUE_BONUSES, S_EMPTY_PACKS, S_LONG_SETS, S_REDEEM_LOANS) = range(23)
SEAT_STATS = ("sets_sold", "set_credits", "loans", "sale_loans", "redeemed", "forfeited", "bought_from_players",
              "sold_to_players", "raids", "raided", "offers_refused", "space_buys", "charges_paid", "commands",
              "free_cards", "turns", "bankrupt_round", "inner_round", "illegal_actions", "blue_bonuses",
              "empty_pack_landings", "long_sets", "redeem_loans")
N_STATS = len(SEAT_STATS)
END_TARGET, END_LAST_PLAYER, END_TURN_LIMIT = 0, 1, 2
LAST_ONES_OUT = -2

# state layout
ST_BANK_OUT, ST_BANK_IN, ST_EVENT_COUNT, ST_RECORD, ST_COMMAND_HEAD, ST_COMMAND_CARDS, ST_TURN = range(7)
ST_SALE_LOANS = 7                           # cards of the turn's seat borrowed on for a sale, not yet sold
(ST_TABLE_ADDRESS, ST_TABLE_LENGTH, ST_PACKS_ADDRESS, ST_PACK_CAPACITY, ST_FLOATS_ADDRESS, ST_RNGS_ADDRESS,
 ST_EVENTS_ADDRESS, ST_EVENT_CAPACITY, ST_FNS_ADDRESS) = range(8, 17)
ST_BANKRUPT_TURN = 17                       # per seat: the game turn it went bankrupt in
ST_QUERY = ST_BANKRUPT_TURN + MAX_SEATS
ST_HEADS = ST_QUERY + QUERY_SIZE
ST_STATS = ST_HEADS + 4
ST_SET_SIZES = ST_STATS + MAX_SEATS * N_STATS
ST_COMMANDS = ST_SET_SIZES + MAX_SET + 1      # order of the pile, then kind and value of each card
RNG_ROWS = 2 * MAX_SEATS + 2                # rows used: per seat dice (n), strategy (n), the deal, tie-breaks

# event log for replays (numba_tools.append_event): [round, seat, kind, a, b, c, d]; seat is the one acting
# (not always the turn's seat)
(E_TURN, E_MISSED, E_DEAL, E_REFUSED, E_RAID, E_REDEEM, E_SELL, E_LOAN, E_ENTER, E_ROLL, E_CARD, E_BUY,
 E_CHARGE, E_EMPTY_PACK, E_BONUS, E_COMMAND, E_PAY, E_FREE_CARD, E_DISCARD, E_BANK_BUYS, E_FORFEIT,
 E_BANKRUPT, E_WIN, E_END, E_ILLEGAL, E_YELLOW_COMMAND, E_CANNOT_RAISE, E_LOAN_TO_RISK, E_DEALT) = range(29)
# E_DEALT: a start-hand card, commodity and face value (so a replay shows the hands and wealth can be re-added)
# E_PAY: amount, payee (PAYEE_BANK, PAYEE_EACH or a seat), what for (PAY_*), a detail (PAY_*)
PAYEE_BANK, PAYEE_EACH = -1, -2
PAY_PLAIN = 0         # a Command card's payment; to each other player: detail = the total
PAY_CHARGE = 1        # the Handlers Charge
PAY_RAID_LOAN = 2     # a raided owner repays its loan + interest from the price; detail = the commodity
PAY_SALE_LOANS = 3    # the loans on cards of a set just sold, + interest; detail = the commodity
PAY_LAST_CASH = 4     # a bankrupt payer's last credits to an unpaid creditor
# E_CANNOT_RAISE: commodity, price, what it was for (WANT_*), the other seat of a deal
WANT_DEAL, WANT_CARD, WANT_REDEEM = 0, 1, 2

I = types.int64
_I64 = types.Array(types.int64, 1, "C")
CTX = _I64   # the state vector (numba_tools' engine context)


def _typed(*args, restype=types.none):
    # one explicit signature per helper: called with constants (event kinds, contexts), Numba would
    # otherwise compile a specialisation for every combination of literal values. Without reference
    # counting: the kernel's caller keeps every array alive, and the helpers allocate nothing
    return njit(restype(*args), cache=True, _nrt=False)


def _inline(func):
    return njit(inline="always", cache=True)(func)


# ---- the context: the batch's arrays, found through the state ---------------------------------------
_decision_function = function_from_addresses(DECISION_SIGNATURE)


@_inline
def _state(ctx):
    return ctx


@_inline
def _table(ctx):
    return vector_at(ctx[ST_TABLE_ADDRESS], ctx[ST_TABLE_LENGTH], np.int64)


@_inline
def _packs(ctx):
    return array_at(ctx[ST_PACKS_ADDRESS], len(COLOURS), ctx[ST_PACK_CAPACITY], np.int64)


@_inline
def _floats(ctx):
    return array_at(ctx[ST_FLOATS_ADDRESS], MAX_SEATS, MAX_PARAMS + MEMORY_SIZE, np.float64)


@_inline
def _rngs(ctx):
    return array_at(ctx[ST_RNGS_ADDRESS], RNG_ROWS, 4, np.uint64)


@_inline
def _events(ctx):
    return array_at(ctx[ST_EVENTS_ADDRESS], ctx[ST_EVENT_CAPACITY], EVENT_FIELDS, np.int64)


@_inline
def _decision(ctx, kind, seat):
    fns = array_at(ctx[ST_FNS_ADDRESS], len(DECISION_NAMES) * MAX_SEATS, 3, np.int64)
    at = kind * MAX_SEATS + seat
    return _decision_function(fns[at, 0], fns[at, 1], fns[at, 2])


# ---- small accessors of the table ---------------------------------------------------------------
@_inline
def _seat(table, seat, field):
    return table[H_SEATS] + seat * SEAT_FIELDS + field


@_inline
def _held(table, seat, c):
    return table[H_HELD] + seat * table[H_COMMODITIES] + c


@_inline
def _risk(table, seat, c):
    return table[H_RISK] + seat * table[H_COMMODITIES] + c


@_inline
def _stat(state, seat, stat):
    return ST_STATS + seat * N_STATS + stat


@_typed(_I64, I, I, I)
def _add_clean(table, seat, c, cards):
    """Clean cards of c in or (cards < 0) out of a seat's hand; keeps the seat's totals (view.py F_*)."""
    at = _held(table, seat, c)
    before = table[at]
    table[at] = before + cards
    table[_seat(table, seat, F_CARDS)] += cards
    table[_seat(table, seat, F_CARD_VALUE)] += cards * face(table, c)
    min_set = table[H_MIN_SET]
    table[_seat(table, seat, F_SETS)] += int(before + cards >= min_set) - int(before >= min_set)


@_typed(_I64, I, I, I)
def _add_at_risk(table, seat, c, cards):
    """Cards of c into or (cards < 0) out of a seat's At Risk zone; keeps the seat's totals."""
    table[_risk(table, seat, c)] += cards
    table[_seat(table, seat, F_RISK_CARDS)] += cards
    table[_seat(table, seat, F_CARD_VALUE)] += cards * face(table, c)
    table[_seat(table, seat, F_RISK_COST)] += cards * redeem_cost(table, c)


@_inline
def _log(ctx, seat, kind, a, b, c, d):
    if _state(ctx)[ST_RECORD] != 0:
        _write_event(ctx, seat, kind, a, b, c, d)


@_typed(CTX, I, I, I, I, I, I)
def _write_event(ctx, seat, kind, a, b, c, d):
    state = _state(ctx)
    state[ST_EVENT_COUNT] = append_event(_events(ctx), state[ST_EVENT_COUNT], _table(ctx)[H_ROUND], seat, kind, a, b,
                                         c, d)


@_typed(CTX, I, I, I, I, I, I, I, restype=I)
def _ask(ctx, kind, seat, context, commodity, price, short, other):
    """Put a question to a seat's strategy (view.py D_*)."""
    table, state = _table(ctx), _state(ctx)
    query = view(state, ST_QUERY, QUERY_SIZE)   # views without a slice's clamping of its bounds
    query[Q_SEAT] = seat
    query[Q_KIND] = kind
    query[Q_CONTEXT] = context
    query[Q_COMMODITY] = commodity
    query[Q_PRICE] = price
    query[Q_SHORT] = short
    query[Q_FROM] = other
    floats = _floats(ctx)[seat]
    deciding(seat, kind)
    return _decision(ctx, kind, seat)(readonly_c(table), readonly_c(view(floats, 0, MAX_PARAMS)),
                                      view(floats, MAX_PARAMS, MEMORY_SIZE), _rngs(ctx)[table[H_PLAYERS] + seat],
                                      readonly_c(query))


@_typed(CTX, I, I, I)
def _illegal(ctx, seat, kind, answer):
    """An answer the engine refuses: counted, logged; the caller plays the decision's default."""
    _state(ctx)[_stat(_state(ctx), seat, S_ILLEGAL)] += 1
    _log(ctx, seat, E_ILLEGAL, kind, answer, 0, 0)


@_typed(CTX, I, I, I, I, I, I, I, restype=I)
def _ask_yes_no(ctx, kind, seat, context, commodity, price, short, other):
    """A yes/no decision: 1 or 0; any other answer is refused and played as 0 (every yes/no default is 0)."""
    answer = _ask(ctx, kind, seat, context, commodity, price, short, other)
    if answer == 0 or answer == 1:
        return answer
    _illegal(ctx, seat, kind, answer)
    return 0


# ---- packs, money -------------------------------------------------------------------------------
@_typed(CTX, I)
def _to_pack_bottom(ctx, c):
    table, state, packs = _table(ctx), _state(ctx), _packs(ctx)
    pack = colour(table, c)
    size = table[table[H_PACK_SIZE] + pack]
    packs[pack, (state[ST_HEADS + pack] + size) % packs.shape[1]] = c
    table[table[H_PACK_SIZE] + pack] = size + 1
    table[table[H_IN_PACK] + c] += 1


@_typed(CTX, I, restype=I)
def _from_pack_top(ctx, pack):
    """The top card of a pack, taken off it; -1 if the pack is empty (K6)."""
    table, state, packs = _table(ctx), _state(ctx), _packs(ctx)
    size = table[table[H_PACK_SIZE] + pack]
    if size == 0:
        return -1
    head = state[ST_HEADS + pack]
    c = packs[pack, head]
    state[ST_HEADS + pack] = (head + 1) % packs.shape[1]
    table[table[H_PACK_SIZE] + pack] = size - 1
    table[table[H_IN_PACK] + c] -= 1
    return c


@_typed(CTX, I, I)
def _from_bank(ctx, seat, amount):
    table = _table(ctx)
    table[_seat(table, seat, F_CASH)] += amount
    _state(ctx)[ST_BANK_OUT] += amount


@_typed(CTX, I, I)
def _to_bank(ctx, seat, amount):
    table = _table(ctx)
    table[_seat(table, seat, F_CASH)] -= amount
    _state(ctx)[ST_BANK_IN] += amount


@_typed(CTX, I, I, I, types.boolean)
def _borrow(ctx, seat, c, context, for_sale):
    """K2: a loan of half face value on one clean card, which moves to the At Risk zone; or (``for_sale``, K7
    borrow_on_sale) a loan on a card of a set to be sold this turn, which stays in the hand and is repaid with
    interest from the sale."""
    table = _table(ctx)
    loan = loan_value(table, c)
    if context == BORROW_FOR_REDEEM or context == BORROW_FOR_COMMAND_REDEEM:
        _state(ctx)[_stat(_state(ctx), seat, S_REDEEM_LOANS)] += 1
    if for_sale:
        table[table[H_ON_SALE] + c] += 1
        _state(ctx)[ST_SALE_LOANS] += 1
        _from_bank(ctx, seat, loan)
        _log(ctx, seat, E_LOAN, c, loan, context, 1)
        return
    _add_clean(table, seat, c, -1)
    _add_at_risk(table, seat, c, 1)
    _from_bank(ctx, seat, loan)
    _state(ctx)[_stat(_state(ctx), seat, S_LOANS)] += 1
    _log(ctx, seat, E_LOAN, c, loan, context, 0)


@_typed(CTX, I)
def _unsold_to_risk(ctx, seat):
    """Cards borrowed on for a sale that the selling step did not sell go to the At Risk zone after all (the
    loan stands, as any At Risk loan)."""
    table, state = _table(ctx), _state(ctx)
    base = table[H_ON_SALE]
    for c in range(table[H_COMMODITIES]):
        cards = table[base + c]
        if cards > 0:
            table[base + c] = 0
            _add_clean(table, seat, c, -cards)
            _add_at_risk(table, seat, c, cards)
            state[_stat(state, seat, S_LOANS)] += cards
            _log(ctx, seat, E_LOAN_TO_RISK, c, cards, 0, 0)
    state[ST_SALE_LOANS] = 0


@_typed(CTX, I, I)
def _redeem(ctx, seat, c):
    table = _table(ctx)
    _to_bank(ctx, seat, redeem_cost(table, c))
    _add_at_risk(table, seat, c, -1)
    _add_clean(table, seat, c, 1)
    _state(ctx)[_stat(_state(ctx), seat, S_REDEEMED)] += 1
    _log(ctx, seat, E_REDEEM, c, redeem_cost(table, c), 0, 0)


@_typed(CTX, I, I, I, I, restype=types.boolean)
def _raise(ctx, seat, need, context, commodity):
    """Take loans until the seat's cash reaches ``need`` (to pay for ``commodity``, bought or redeemed, or -1);
    the seat picks the cards, and whether a loan is At Risk or (K7 borrow_on_sale) on a set to be sold. For a
    payment that must be made, a seat that stops while short borrows At Risk on its cheapest clean card
    (nobody goes bankrupt holding unpledged cards). True if the cash is there."""
    table = _table(ctx)
    n = table[H_COMMODITIES]
    cash_at = _seat(table, seat, F_CASH)
    while table[cash_at] < need:
        answer = _ask(ctx, D_BORROW, seat, context, commodity, need, need - table[cash_at], -1)
        for_sale = answer >= SALE_LOAN
        c = answer - SALE_LOAN if for_sale else answer
        if answer < -1 or (answer >= 0 and (c >= n or borrowable(table, seat, c) <= 0
                                            or (for_sale and not sale_loan(table, seat, c, commodity)))):
            _illegal(ctx, seat, D_BORROW, answer)
            c = -1
        if c < 0:
            for_sale = False
            if context != BORROW_FOR_PAYMENT:
                return False
            for d in range(n):
                if borrowable(table, seat, d) > 0 and (c < 0 or face(table, d) < face(table, c)):
                    c = d
            if c < 0:
                return False
        _borrow(ctx, seat, c, context, for_sale)
    return True


@_typed(CTX, I)
def _bankrupt(ctx, seat):
    """The seat leaves the game: its cards go to the bottom of their packs (loans on them, for a sale too, die
    with it), any cash left to the bank."""
    table, state = _table(ctx), _state(ctx)
    turn_seat = seat == table[H_TURN_SEAT]
    for c in range(table[H_COMMODITIES]):
        for _ in range(table[_held(table, seat, c)] + table[_risk(table, seat, c)]):
            _to_pack_bottom(ctx, c)
        _add_clean(table, seat, c, -table[_held(table, seat, c)])
        _add_at_risk(table, seat, c, -table[_risk(table, seat, c)])
        if turn_seat:
            table[table[H_ON_SALE] + c] = 0
    if turn_seat:
        state[ST_SALE_LOANS] = 0
    left = table[_seat(table, seat, F_CASH)]
    _to_bank(ctx, seat, left)
    table[_seat(table, seat, F_BANKRUPT)] = 1
    table[H_ACTIVE] -= 1
    state[_stat(state, seat, S_BANKRUPT_ROUND)] = table[H_ROUND] + 1
    state[ST_BANKRUPT_TURN + seat] = state[ST_TURN]
    _log(ctx, seat, E_BANKRUPT, left, 0, 0, 0)


@_typed(CTX, I, I, I, I)
def _pay_bank(ctx, seat, amount, reason, detail):
    """A payment to the bank that must be made (``reason``: PAY_*): raise money, or go bankrupt (the bank takes
    what there is)."""
    table = _table(ctx)
    if table[_seat(table, seat, F_CASH)] < amount and not _raise(ctx, seat, amount, BORROW_FOR_PAYMENT, -1):
        _bankrupt(ctx, seat)
        return
    _to_bank(ctx, seat, amount)
    _log(ctx, seat, E_PAY, amount, PAYEE_BANK, reason, detail)


@_typed(CTX, I, I, I)
def _pay_players(ctx, payer, payee, amount):
    """Pay ``amount`` to one player (payee >= 0) or to each other player (payee -1). A payer still short after
    raising money is bankrupt: its cash goes to the unpaid creditors in seat order (K7)."""
    table = _table(ctx)
    n = table[H_PLAYERS]
    creditors = 0
    for q in range(n):
        if q != payer and table[_seat(table, q, F_BANKRUPT)] == 0 and (payee < 0 or q == payee):
            creditors += 1
    if creditors == 0:
        return
    total = amount * creditors
    cash_at = _seat(table, payer, F_CASH)
    solvent = table[cash_at] >= total or _raise(ctx, payer, total, BORROW_FOR_PAYMENT, -1)
    for q in range(n):
        if q != payer and table[_seat(table, q, F_BANKRUPT)] == 0 and (payee < 0 or q == payee):
            paid = min(amount, table[cash_at])
            table[cash_at] -= paid
            table[_seat(table, q, F_CASH)] += paid
            if not solvent and paid > 0:
                _log(ctx, payer, E_PAY, paid, q, PAY_LAST_CASH, 0)
    if solvent:
        _log(ctx, payer, E_PAY, amount, payee if payee >= 0 else PAYEE_EACH, PAY_PLAIN, total)
    else:
        _bankrupt(ctx, payer)


@_typed(CTX, I, types.boolean)
def _redeem_step(ctx, seat, command):
    """Redeem At Risk cards one at a time as the seat chooses (loan + 10% each), borrowing when cash is short
    (K7). Only the cards At Risk when the step began can be redeemed (table H_REDEEMABLE): a card borrowed on
    to pay for a redeem stays At Risk, which also bounds the step. A redeem the seat cannot raise the money
    for ends the step. Under the Command card (``command``) the cards of the step left unredeemed are
    forfeit to their packs: the loan stands as paid by the card."""
    table, state = _table(ctx), _state(ctx)
    n = table[H_COMMODITIES]
    redeemable = view(table, table[H_REDEEMABLE], n)   # sections of the table, indexed from 0
    risk = view(table, _risk(table, seat, 0), n)
    left = 0
    for c in range(n):
        redeemable[c] = risk[c]
        left += risk[c]
    context = REDEEM_COMMAND if command else REDEEM_VOLUNTARY
    cash_at = _seat(table, seat, F_CASH)
    while left > 0:
        c = _ask(ctx, D_REDEEM, seat, context, -1, 0, 0, -1)
        if c == -1:
            break
        if c < -1 or c >= n or redeemable[c] <= 0:
            _illegal(ctx, seat, D_REDEEM, c)
            break
        cost = redeem_cost(table, c)
        if table[cash_at] < cost and not _raise(ctx, seat, cost, BORROW_FOR_COMMAND_REDEEM if command
                                                 else BORROW_FOR_REDEEM, c):
            _log(ctx, seat, E_CANNOT_RAISE, c, cost, WANT_REDEEM, -1)
            break
        _redeem(ctx, seat, c)
        redeemable[c] -= 1
        left -= 1
    if command:
        for c in range(n):
            for _ in range(redeemable[c]):
                _to_pack_bottom(ctx, c)
                state[_stat(state, seat, S_FORFEITED)] += 1
                _log(ctx, seat, E_FORFEIT, c, 0, 0, 0)
            _add_at_risk(table, seat, c, -redeemable[c])
    for c in range(n):
        redeemable[c] = 0


# ---- a turn -------------------------------------------------------------------------------------
@_typed(CTX, I, I)
def _deal(ctx, seat, answer):
    """K1: one deal before rolling: buy a clean card from a player at 3 x face (the seller may refuse) or
    raid an At Risk card at 2 x face (the owner must sell and repays its loan + 10% from the price)."""
    table, state = _table(ctx), _state(ctx)
    if answer < 0:   # the decoding below would give a negative commodity
        _illegal(ctx, seat, D_DEAL, answer)
        return
    kind, other, c = answer % 4, (answer // 4) % MAX_SEATS, answer // (4 * MAX_SEATS)
    if (kind not in (DEAL_BUY, DEAL_RAID) or other == seat or other >= table[H_PLAYERS] or c >= table[H_COMMODITIES]
            or table[_seat(table, other, F_BANKRUPT)] != 0
            or table[(_held(table, other, c) if kind == DEAL_BUY else _risk(table, other, c))] == 0):
        _illegal(ctx, seat, D_DEAL, answer)
        return
    table[H_DEAL_USED] = 1
    price = face(table, c) * (table[H_BUY_MULTIPLE] if kind == DEAL_BUY else table[H_RAID_MULTIPLE])
    if kind == DEAL_BUY and _ask_yes_no(ctx, D_ANSWER, other, 0, c, price, 0, seat) == 0:
        state[_stat(state, seat, S_OFFERS_REFUSED)] += 1
        _log(ctx, seat, E_REFUSED, other, c, price, 0)
        return
    if table[_seat(table, seat, F_CASH)] < price and not _raise(ctx, seat, price, BORROW_FOR_PURCHASE, c):
        _log(ctx, seat, E_CANNOT_RAISE, c, price, WANT_DEAL, other)
        return
    table[_seat(table, seat, F_CASH)] -= price
    table[_seat(table, other, F_CASH)] += price
    _add_clean(table, seat, c, 1)
    table[H_DEAL_BOUGHT] = 1
    if kind == DEAL_BUY:
        _add_clean(table, other, c, -1)
        state[_stat(state, seat, S_BOUGHT_FROM_PLAYERS)] += 1
        state[_stat(state, other, S_SOLD_TO_PLAYERS)] += 1
        _log(ctx, seat, E_DEAL, other, c, price, 0)
    else:   # the card arrives clean; the owner clears the loan from the price
        _add_at_risk(table, other, c, -1)
        state[_stat(state, seat, S_RAIDS)] += 1
        state[_stat(state, other, S_RAIDED)] += 1
        _log(ctx, seat, E_RAID, other, c, price, 0)
        _pay_bank(ctx, other, redeem_cost(table, c), PAY_RAID_LOAN, c)


@_typed(CTX, I, I)
def _turn_card(ctx, seat, pack):
    """Turn the top card of a pack: buy it at face value or pay the Handlers Charge (K6: empty pack, nothing)."""
    table, state = _table(ctx), _state(ctx)
    c = _from_pack_top(ctx, pack)
    if c < 0:
        state[_stat(state, seat, S_EMPTY_PACKS)] += 1
        _log(ctx, seat, E_EMPTY_PACK, pack, 0, 0, 0)
        return
    price = face(table, c)
    charge = handlers_charge(table, c)
    _log(ctx, seat, E_CARD, c, price, 0, 0)
    if _ask_yes_no(ctx, D_BUY, seat, 0, c, price, charge, -1) != 0:
        if table[_seat(table, seat, F_CASH)] >= price or _raise(ctx, seat, price, BORROW_FOR_PURCHASE, c):
            _to_bank(ctx, seat, price)
            _add_clean(table, seat, c, 1)
            state[_stat(state, seat, S_SPACE_BUYS)] += 1
            _log(ctx, seat, E_BUY, c, price, 0, 0)
            return
        _log(ctx, seat, E_CANNOT_RAISE, c, price, WANT_CARD, -1)
    _to_pack_bottom(ctx, c)
    state[_stat(state, seat, S_CHARGES)] += 1
    _log(ctx, seat, E_CHARGE, c, charge, 0, 0)
    _pay_bank(ctx, seat, charge, PAY_CHARGE, c)


@_typed(CTX, I, I, restype=I)
def _pick_card(ctx, seat, dearest):
    """The seat's cheapest (or dearest) clean card, ties at random (K7); -1 if it holds none."""
    table, rngs = _table(ctx), _rngs(ctx)
    best, ties = -1, 0
    for c in range(table[H_COMMODITIES]):
        if table[_held(table, seat, c)] == 0:
            continue
        if best < 0 or (face(table, c) > face(table, best) if dearest else face(table, c) < face(table, best)):
            best, ties = c, 1
        elif face(table, c) == face(table, best):
            ties += 1
            if rng.below(rngs[2 * table[H_PLAYERS] + 1], ties) == 0:
                best = c
    return best


@_typed(CTX, I, restype=types.boolean)
def _command(ctx, seat):
    """Draw a Command card and follow it (the card goes to the bottom of the pile at once). True if the
    token moved, so that it acts on its new space."""
    table, state = _table(ctx), _state(ctx)
    cards = state[ST_COMMAND_CARDS]
    head = state[ST_COMMAND_HEAD]
    card = state[ST_COMMANDS + head]
    state[ST_COMMAND_HEAD] = (head + 1) % cards
    kind, value = state[ST_COMMANDS + cards + card], state[ST_COMMANDS + 2 * cards + card]
    state[_stat(state, seat, S_COMMANDS)] += 1
    _log(ctx, seat, E_COMMAND, kind, value, 0, 0)
    cash_at = _seat(table, seat, F_CASH)
    if kind == C_COLLECT:
        _from_bank(ctx, seat, value)
    elif kind == C_PAY:
        _pay_bank(ctx, seat, value, PAY_PLAIN, 0)
    elif kind == C_PAY_CASH_PERCENT:
        _pay_bank(ctx, seat, part_up(table[cash_at], value * 100), PAY_PLAIN, 0)
    elif kind == C_COLLECT_FROM_EACH:
        for q in range(table[H_PLAYERS]):
            if q != seat and table[_seat(table, q, F_BANKRUPT)] == 0:
                _pay_players(ctx, q, seat, value)
    elif kind == C_PAY_EACH:
        _pay_players(ctx, seat, -1, value)
    elif kind == C_FREE_CARD:   # K7: counts as a purchase on a space
        c = _from_pack_top(ctx, value)
        if c >= 0:
            _add_clean(table, seat, c, 1)
            state[_stat(state, seat, S_FREE_CARDS)] += 1
            _log(ctx, seat, E_FREE_CARD, c, 0, 0, 0)
    elif kind == C_DISCARD_CHEAPEST or kind == C_BANK_BUYS_BEST:
        c = _pick_card(ctx, seat, 1 if kind == C_BANK_BUYS_BEST else 0)
        if c >= 0:
            _add_clean(table, seat, c, -1)
            _to_pack_bottom(ctx, c)
            if kind == C_BANK_BUYS_BEST:
                _from_bank(ctx, seat, face(table, c))
            _log(ctx, seat, E_BANK_BUYS if kind == C_BANK_BUYS_BEST else E_DISCARD, c, face(table, c), 0, 0)
    elif kind == C_MISS_TURN:
        table[_seat(table, seat, F_MISS)] += 1
    elif kind == C_MOVE or kind == C_ADVANCE_TO_BLUE:
        circle = table[_seat(table, seat, F_CIRCLE)]
        spaces = table[H_OUTER_SPACES] if circle == OUTER else table[H_INNER_SPACES]
        at = table[_seat(table, seat, F_POSITION)]
        if kind == C_MOVE:
            at = (at + value) % spaces
        else:
            for step in range(1, spaces + 1):
                if space(table, circle, (at + step) % spaces) == BLUE:
                    at = (at + step) % spaces
                    break
        table[_seat(table, seat, F_POSITION)] = at
        _log(ctx, seat, E_ROLL, 0, at, circle, 1)
        return True
    elif kind == C_REDEEM_AT_RISK:
        if table[_seat(table, seat, F_RISK_CARDS)] > 0:
            _redeem_step(ctx, seat, True)
    return False


@_typed(CTX, I)
def _act_on_space(ctx, seat):
    table = _table(ctx)
    for _ in range(COMMAND_CHAIN):
        circle = table[_seat(table, seat, F_CIRCLE)]
        colour_here = space(table, circle, table[_seat(table, seat, F_POSITION)])
        take_command = colour_here == BLUE
        if colour_here == BLUE and circle == OUTER:
            _from_bank(ctx, seat, table[H_BLUE_BONUS])
            _state(ctx)[_stat(_state(ctx), seat, S_BLUE_BONUSES)] += 1
            _log(ctx, seat, E_BONUS, table[H_BLUE_BONUS], 0, 0, 0)
        elif colour_here == YELLOW and circle == OUTER and _ask_yes_no(ctx, D_YELLOW, seat, 0, -1, 0, 0, -1) != 0:
            take_command = True
            _log(ctx, seat, E_YELLOW_COMMAND, 0, 0, 0, 0)
        if not take_command:
            _turn_card(ctx, seat, colour_here)
            return
        if not _command(ctx, seat) or table[_seat(table, seat, F_BANKRUPT)] != 0:
            return


@_typed(CTX, I)
def _turn(ctx, seat):
    table, state, rngs = _table(ctx), _state(ctx), _rngs(ctx)
    n = table[H_PLAYERS]
    commodities = table[H_COMMODITIES]
    cash_at = _seat(table, seat, F_CASH)
    table[H_TURN_SEAT] = seat
    state[_stat(state, seat, S_TURNS)] += 1
    if state[ST_RECORD] != 0:
        _log(ctx, seat, E_TURN, table[cash_at], total_wealth(table, seat), table[_seat(table, seat, F_POSITION)],
             table[_seat(table, seat, F_CIRCLE)])
    if table[_seat(table, seat, F_MISS)] > 0:
        table[_seat(table, seat, F_MISS)] -= 1
        _log(ctx, seat, E_MISSED, 0, 0, 0, 0)
        return
    table[H_DEAL_USED] = 0
    table[H_DEAL_BOUGHT] = 0
    # 1. before rolling: one deal, redeeming, selling sets, loans (K1, K2). Until the selling step, loans may
    # be on cards of a set to be sold (K7 borrow_on_sale)
    table[H_SALE_OPEN] = table[H_BORROW_ON_SALE]
    for q in range(n):
        if q != seat and table[_seat(table, q, F_CARDS)] + table[_seat(table, q, F_RISK_CARDS)] > 0:
            answer = _ask(ctx, D_DEAL, seat, 0, -1, 0, 0, -1)
            if answer != 0:
                _deal(ctx, seat, answer)
            break
    if table[H_DEAL_BOUGHT] == 0 and table[_seat(table, seat, F_RISK_CARDS)] > 0:
        _redeem_step(ctx, seat, False)
    table[H_SALE_OPEN] = 0
    min_set = table[H_MIN_SET]
    while table[_seat(table, seat, F_SETS)] > 0:
        answer = _ask(ctx, D_SELL, seat, 0, -1, 0, 0, -1)
        if answer == -1:
            break
        c, cards = answer // (MAX_SET + 1), answer % (MAX_SET + 1)
        if answer < 0 or c >= commodities or cards < min_set or cards > table[_held(table, seat, c)]:
            _illegal(ctx, seat, D_SELL, answer)
            break
        value = set_value(table, c, cards)
        _add_clean(table, seat, c, -cards)
        for _ in range(cards):
            _to_pack_bottom(ctx, c)
        _from_bank(ctx, seat, value)
        state[_stat(state, seat, S_SETS_SOLD)] += 1
        state[_stat(state, seat, S_SET_CREDITS)] += value
        state[ST_SET_SIZES + cards] += 1
        if cards > min_set:
            state[_stat(state, seat, S_LONG_SETS)] += 1
        repaid = min(cards, table[table[H_ON_SALE] + c])   # the cards borrowed on go first
        _log(ctx, seat, E_SELL, c, cards, value, repaid)
        if repaid > 0:
            table[table[H_ON_SALE] + c] -= repaid
            state[ST_SALE_LOANS] -= repaid
            state[_stat(state, seat, S_SALE_LOANS)] += repaid
            _pay_bank(ctx, seat, repaid * redeem_cost(table, c), PAY_SALE_LOANS, c)
            if table[_seat(table, seat, F_BANKRUPT)] != 0:   # a sale worth less than its loans (house multiples)
                return
    if state[ST_SALE_LOANS] > 0:
        _unsold_to_risk(ctx, seat)
    while table[_seat(table, seat, F_CARDS)] > 0:
        c = _ask(ctx, D_BORROW, seat, BORROW_VOLUNTARY, -1, 0, 0, -1)
        if c == -1:
            break
        if c < -1 or c >= commodities or table[_held(table, seat, c)] == 0:
            _illegal(ctx, seat, D_BORROW, c)
            break
        _borrow(ctx, seat, c, BORROW_VOLUNTARY, False)
    # 2. the inner circle (K3)
    circle = table[_seat(table, seat, F_CIRCLE)]
    if circle == OUTER and (table[H_INNER_OPEN] != 0 or total_wealth(table, seat) >= table[H_INNER_WEALTH]):
        if _ask_yes_no(ctx, D_ENTER, seat, 0, -1, 0, 0, -1) != 0:
            circle = INNER
            table[_seat(table, seat, F_CIRCLE)] = INNER
            table[_seat(table, seat, F_POSITION)] = table[H_INNER_ENTRY]
            table[H_INNER_OPEN] = 1
            state[_stat(state, seat, S_INNER_ROUND)] = table[H_ROUND] + 1
            _log(ctx, seat, E_ENTER, 0, 0, 0, 0)
    # 3. roll and move
    dice = rngs[seat]
    roll = 1 + rng.below(dice, 6)
    spaces = table[H_INNER_SPACES]
    if circle == OUTER:
        roll += 1 + rng.below(dice, 6)
        spaces = table[H_OUTER_SPACES]
    at = (table[_seat(table, seat, F_POSITION)] + roll) % spaces
    table[_seat(table, seat, F_POSITION)] = at
    _log(ctx, seat, E_ROLL, roll, at, circle, 0)
    _act_on_space(ctx, seat)


@njit(types.none(CTX, I, I), cache=True)   # counted: it allocates
def _check(ctx, start_cash, n_players):
    """Checking mode: cards and credits conserved, the table consistent with itself."""
    table, state, packs = _table(ctx), _state(ctx), _packs(ctx)
    cash = 0
    for p in range(n_players):
        if table[_seat(table, p, F_CASH)] < 0:
            raise AssertionError("wheeler-dealer-uk: a seat's cash is negative")
        cash += table[_seat(table, p, F_CASH)]
        cards, risk = 0, 0
        for c in range(table[H_COMMODITIES]):
            cards += table[_held(table, p, c)]
            risk += table[_risk(table, p, c)]
        if cards != table[_seat(table, p, F_CARDS)] or risk != table[_seat(table, p, F_RISK_CARDS)]:
            raise AssertionError("wheeler-dealer-uk: a seat's card counts are off")
        value, cost, sets = 0, 0, 0
        for c in range(table[H_COMMODITIES]):
            value += (table[_held(table, p, c)] + table[_risk(table, p, c)]) * face(table, c)
            cost += table[_risk(table, p, c)] * redeem_cost(table, c)
            sets += table[_held(table, p, c)] >= table[H_MIN_SET]
        if (value != table[_seat(table, p, F_CARD_VALUE)] or cost != table[_seat(table, p, F_RISK_COST)]
                or sets != table[_seat(table, p, F_SETS)]):
            raise AssertionError("wheeler-dealer-uk: a seat's card value, redeem cost or set count is off")
        if table[_seat(table, p, F_BANKRUPT)] != 0 and cards + risk + table[_seat(table, p, F_CASH)] != 0:
            raise AssertionError("wheeler-dealer-uk: a bankrupt seat still holds cards or cash")
    for c in range(table[H_COMMODITIES]):
        if table[table[H_ON_SALE] + c] != 0 or table[table[H_REDEEMABLE] + c] != 0:
            raise AssertionError("wheeler-dealer-uk: a loan on a set to be sold or a redeem step outlived its turn")
    if state[ST_SALE_LOANS] != 0:
        raise AssertionError("wheeler-dealer-uk: a loan on a set to be sold outlived its turn")
    if cash != start_cash * n_players + state[ST_BANK_OUT] - state[ST_BANK_IN]:
        raise AssertionError("wheeler-dealer-uk: credits not conserved against the bank")
    counted = np.zeros(table[H_COMMODITIES], np.int64)
    for pack in range(3):
        size = table[table[H_PACK_SIZE] + pack]
        for k in range(size):
            c = packs[pack, (state[ST_HEADS + pack] + k) % packs.shape[1]]
            if colour(table, c) != pack:
                raise AssertionError("wheeler-dealer-uk: a card is in the wrong pack")
            counted[c] += 1
    for c in range(table[H_COMMODITIES]):
        total = counted[c]
        for p in range(n_players):
            total += table[_held(table, p, c)] + table[_risk(table, p, c)]
        if counted[c] != table[table[H_IN_PACK] + c] or total != table[table[H_COPIES] + c]:
            raise AssertionError("wheeler-dealer-uk: cards not conserved (pack + hands + At Risk = copies)")


@njit(cache=True)
def _play(ctx, template, start_hand, start_cash, seed, first_game, n_games, check, out_wealth, out_cash,
          out_cards, out_bankrupt, out_winner, out_stats, out_rounds, out_end, out_first_inner):
    ctx = unmanaged(ctx)
    table, state, packs, floats, rngs = _table(ctx), _state(ctx), _packs(ctx), _floats(ctx), _rngs(ctx)
    n = template[H_PLAYERS]
    commodities = template[H_COMMODITIES]
    commands = state[ST_COMMAND_CARDS]
    deck = np.empty(packs.shape[1], np.int64)
    for g in range(n_games):
        game = first_game + g
        table[:] = template
        state[ST_BANK_OUT] = 0
        state[ST_BANK_IN] = 0
        state[ST_TURN] = 0
        state[ST_SALE_LOANS] = 0
        state[ST_STATS:ST_STATS + MAX_SEATS * N_STATS] = 0
        for p in range(n):
            rng.seed_stream(rngs[p], seed, game, rng.DICE + p)
            rng.seed_stream(rngs[n + p], seed, game, rng.STRATEGY + p)
            floats[p, MAX_PARAMS:] = 0.0
            state[_stat(state, p, S_BANKRUPT_ROUND)] = -1
            state[_stat(state, p, S_INNER_ROUND)] = -1
        deal_rng = rngs[2 * n]
        rng.seed_stream(deal_rng, seed, game, rng.DEAL)
        rng.seed_stream(rngs[2 * n + 1], seed, game, rng.TIE_BREAK)
        # shuffle each pack, deal the start hands one card at a time from seat 0, shuffle the Command pile
        for pack in range(3):
            size = 0
            for c in range(commodities):
                if template[template[H_COLOUR] + c] == pack:
                    for _ in range(template[template[H_COPIES] + c]):
                        deck[size] = c
                        size += 1
            rng.shuffle(deal_rng, deck[:size])
            packs[pack, :size] = deck[:size]
            state[ST_HEADS + pack] = 0
            table[table[H_PACK_SIZE] + pack] = size
            for k in range(size):
                table[table[H_IN_PACK] + deck[k]] += 1
            for _ in range(start_hand[pack]):
                for p in range(n):
                    c = _from_pack_top(ctx, pack)
                    _add_clean(table, p, c, 1)
                    _log(ctx, p, E_DEALT, c, face(table, c), 0, 0)
        order = state[ST_COMMANDS:ST_COMMANDS + commands]
        for k in range(commands):
            order[k] = k
        rng.shuffle(deal_rng, order)
        state[ST_COMMAND_HEAD] = 0
        table[H_COMMANDS] = commands
        # K7: seat i starts on outer blue space i mod (blue spaces), seat 0 first
        blues = 0
        for at in range(template[H_OUTER_SPACES]):
            blues += space(table, OUTER, at) == BLUE
        for p in range(n):
            table[_seat(table, p, F_CASH)] = start_cash
            k = p % blues
            for at in range(template[H_OUTER_SPACES]):
                if space(table, OUTER, at) == BLUE:
                    if k == 0:
                        table[_seat(table, p, F_POSITION)] = at
                        break
                    k -= 1
        table[H_ACTIVE] = n
        end = END_TURN_LIMIT
        winner = -1
        seat = 0
        while table[H_ROUND] < table[H_TURN_LIMIT]:
            table[H_TURN_SEAT] = seat
            _turn(ctx, seat)
            if check:
                _check(ctx, start_cash, n)
            if table[_seat(table, seat, F_BANKRUPT)] == 0 and total_wealth(table, seat) >= table[H_TARGET]:
                end, winner = END_TARGET, seat
                break
            if table[H_ACTIVE] <= 1:
                # the last one left wins; when one turn bankrupts the last two (a raid, then a charge),
                # those who went bankrupt in it share the win: they outlasted everyone else
                end, winner = END_LAST_PLAYER, LAST_ONES_OUT
                for p in range(n):
                    if table[_seat(table, p, F_BANKRUPT)] == 0:
                        winner = p
                break
            state[ST_TURN] += 1
            while True:
                seat += 1
                if seat == n:
                    seat = 0
                    table[H_ROUND] += 1
                if table[_seat(table, seat, F_BANKRUPT)] == 0:
                    break
        _log(ctx, winner, E_END, end, 0, 0, 0)
        best = -(1 << 62)
        for p in range(n):
            out_wealth[g, p] = total_wealth(table, p)
            out_cash[g, p] = table[_seat(table, p, F_CASH)]
            out_cards[g, p] = table[_seat(table, p, F_CARDS)] + table[_seat(table, p, F_RISK_CARDS)]
            out_bankrupt[g, p] = table[_seat(table, p, F_BANKRUPT)] != 0
            if not out_bankrupt[g, p]:
                best = max(best, out_wealth[g, p])
            for s in range(N_STATS):
                out_stats[g, p, s] = state[_stat(state, p, s)]
        for p in range(n):   # K4: the first to the target, the last one left, or the richest at the turn limit
            if winner == LAST_ONES_OUT:
                out_winner[g, p] = out_bankrupt[g, p] and state[ST_BANKRUPT_TURN + p] == state[ST_TURN]
            elif winner >= 0:
                out_winner[g, p] = p == winner
            else:
                out_winner[g, p] = not out_bankrupt[g, p] and out_wealth[g, p] == best
        out_rounds[g] = table[H_ROUND] + (1 if end != END_TURN_LIMIT else 0)
        out_end[g] = end
        first = -1
        for p in range(n):
            inner = state[_stat(state, p, S_INNER_ROUND)]
            if inner >= 0 and (first < 0 or inner < first):
                first = inner
        out_first_inner[g] = first


# ---- a batch's arrays, and the batch -------------------------------------------------------------------


def make_context(prepared, functions, params, event_capacity=0, record=False):
    """Allocate the arrays of one batch, ``(state, table, packs, floats, rngs, events, fns)``, for compiled rules
    (rules.UKRules), the decision functions of each seat (``functions[seat]``, in DECISION_NAMES order) and the
    seats' parameters (``params[seat]``). The caller keeps the arrays alive while the engine runs on
    ``kernel_context(arrays)``; ``_play`` sets up each game in them."""
    n, commands = prepared.n_players, prepared.commands
    cards = len(commands)
    state = np.zeros(ST_COMMANDS + 3 * cards, np.int64)
    state[ST_RECORD] = record
    state[ST_COMMAND_CARDS] = cards
    state[ST_COMMANDS + cards:ST_COMMANDS + 2 * cards] = commands[:, 0]
    state[ST_COMMANDS + 2 * cards:] = commands[:, 1]
    table = prepared.table.copy()
    copies = table[table[H_COPIES]:][:len(prepared.commodities)]
    colours = table[table[H_COLOUR]:][:len(prepared.commodities)]
    largest = max(int(copies[colours == k].sum()) for k in range(len(COLOURS)))
    packs = np.zeros((len(COLOURS), max(1, largest)), np.int64)
    floats = np.zeros((MAX_SEATS, MAX_PARAMS + MEMORY_SIZE))
    floats[:, :params.shape[1]] = params
    fns = function_addresses(DECISION_SIGNATURE, tuple(functions[min(seat, n - 1)][decision]
                                                       for decision in range(len(DECISION_NAMES))
                                                       for seat in range(MAX_SEATS)))
    arrays = (state, table, packs, floats, np.zeros((RNG_ROWS, 4), np.uint64),
              np.zeros((event_capacity, EVENT_FIELDS), np.int64), fns)
    store_addresses(state, (ST_TABLE_ADDRESS, ST_PACKS_ADDRESS, ST_FLOATS_ADDRESS, ST_RNGS_ADDRESS, ST_EVENTS_ADDRESS,
                            ST_FNS_ADDRESS), arrays[1:])
    state[ST_TABLE_LENGTH] = table.size
    state[ST_PACK_CAPACITY] = packs.shape[1]
    state[ST_EVENT_CAPACITY] = event_capacity
    return arrays


class StateParts(NamedTuple):
    """Named views of a batch's arrays (make_context): the places the kernel reads and writes, for Python
    (the result columns, and tests that set up a position by hand)."""

    table: np.ndarray           # view.py's public table
    packs: np.ndarray           # [pack, capacity]: each pack as a ring from its head
    heads: np.ndarray           # per pack: where its top card is in packs
    command_order: np.ndarray   # the Command pile: card indices, the next one at command_head
    command_head: np.ndarray    # [1]
    command_kinds: np.ndarray   # per Command card: its kind (rules.C_*)
    command_values: np.ndarray  # and its value
    stats: np.ndarray           # [seat, SEAT_STATS]
    set_sizes: np.ndarray       # sets sold by number of cards, summed over the batch
    bank: np.ndarray            # [2]: what the bank paid out, what it took in, this game
    event_count: np.ndarray     # [1]: events logged (beyond the log's capacity too)
    events: np.ndarray          # [capacity, EVENT_FIELDS]
    params: np.ndarray          # [seat, MAX_PARAMS]: each strategy's parameters
    memory: np.ndarray          # [seat, MEMORY_SIZE]: each strategy's memory
    rngs: np.ndarray            # [RNG_ROWS, 4]: per seat dice, per seat strategy, the deal, tie-breaks


def state_parts(arrays) -> StateParts:
    state, floats = arrays[0], arrays[3]
    cards = int(state[ST_COMMAND_CARDS])
    return StateParts(
        table=arrays[1], packs=arrays[2], heads=state[ST_HEADS:ST_HEADS + len(COLOURS)],
        command_order=state[ST_COMMANDS:ST_COMMANDS + cards], command_head=state[ST_COMMAND_HEAD:ST_COMMAND_HEAD + 1],
        command_kinds=state[ST_COMMANDS + cards:ST_COMMANDS + 2 * cards],
        command_values=state[ST_COMMANDS + 2 * cards:ST_COMMANDS + 3 * cards],
        stats=state[ST_STATS:ST_STATS + MAX_SEATS * N_STATS].reshape(MAX_SEATS, N_STATS),
        set_sizes=state[ST_SET_SIZES:ST_SET_SIZES + MAX_SET + 1], bank=state[ST_BANK_OUT:ST_BANK_IN + 1],
        event_count=state[ST_EVENT_COUNT:ST_EVENT_COUNT + 1], events=arrays[5],
        params=floats[:, :MAX_PARAMS], memory=floats[:, MAX_PARAMS:], rngs=arrays[4])


def play_batch(seed, first_game, n_games, prepared, functions, params, check=False, record=False, event_capacity=0):
    """Allocate outputs and run ``n_games`` games starting at global index ``first_game``, for compiled rules
    (rules.UKRules), each seat's decision functions (``functions[seat]``, in DECISION_NAMES order) and
    parameters (``params[seat]``). Validates nothing. ``record``: log events (at most ``event_capacity``)."""
    arrays = make_context(prepared, functions, params, event_capacity, record)
    n = prepared.n_players
    out = {name: np.zeros((n_games, n), np.int64) for name in ("wealth", "cash", "cards")}
    out.update(bankrupt=np.zeros((n_games, n), np.bool_), winner=np.zeros((n_games, n), np.bool_),
               stats=np.zeros((n_games, n, N_STATS), np.int64), rounds=np.zeros(n_games, np.int64),
               end=np.zeros(n_games, np.int64), first_inner=np.zeros(n_games, np.int64))
    _play(kernel_context(arrays), prepared.table, prepared.start_hand, prepared.start_cash, np.uint64(seed), first_game,
          n_games, check, out["wealth"], out["cash"], out["cards"], out["bankrupt"], out["winner"], out["stats"],
          out["rounds"], out["end"], out["first_inner"])
    parts = state_parts(arrays)
    out["set_sizes"] = parts.set_sizes.copy()
    out.update(logged_events(parts.events, parts.event_count[0]))
    return out
