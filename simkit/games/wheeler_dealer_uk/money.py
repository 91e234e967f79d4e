"""The Wheeler Dealer (UK) engine's packs and money: drawing and returning cards, the bank, loans and redeeming
(K2, K7), raising money when short, paying, bankruptcy."""
from numba import types

from ...numba_tools import context_helper, view
from .state import (
    E_BANKRUPT,
    E_CANNOT_RAISE,
    E_FORFEIT,
    E_LOAN,
    E_LOAN_TO_RISK,
    E_PAY,
    E_REDEEM,
    PAY_LAST_CASH,
    PAY_PLAIN,
    PAYEE_BANK,
    PAYEE_EACH,
    S_BANKRUPT_ROUND,
    S_FORFEITED,
    S_LOANS,
    S_REDEEM_LOANS,
    S_REDEEMED,
    ST_BANK_IN,
    ST_BANK_OUT,
    ST_BANKRUPT_TURN,
    ST_HEADS,
    ST_SALE_LOANS,
    ST_TURN,
    WANT_REDEEM,
    I,
    _add_at_risk,
    _add_clean,
    _ask,
    _held,
    _illegal,
    _log,
    _packs,
    _risk,
    _seat,
    _stat,
    _state,
    _table,
)
from .view import (
    BORROW_FOR_COMMAND_REDEEM,
    BORROW_FOR_PAYMENT,
    BORROW_FOR_REDEEM,
    D_BORROW,
    D_REDEEM,
    F_BANKRUPT,
    F_CASH,
    H_ACTIVE,
    H_COMMODITIES,
    H_IN_PACK,
    H_ON_SALE,
    H_PACK_SIZE,
    H_PLAYERS,
    H_REDEEMABLE,
    H_ROUND,
    H_TURN_SEAT,
    REDEEM_COMMAND,
    REDEEM_VOLUNTARY,
    SALE_LOAN,
    borrowable,
    colour,
    face,
    loan_value,
    redeem_cost,
    sale_loan,
)


# ---- packs, money -------------------------------------------------------------------------------
@context_helper(types.none, I)
def _to_pack_bottom(ctx, c):
    table, state, packs = _table(ctx), _state(ctx), _packs(ctx)
    pack = colour(table, c)
    size = table[table[H_PACK_SIZE] + pack]
    packs[pack, (state[ST_HEADS + pack] + size) % packs.shape[1]] = c
    table[table[H_PACK_SIZE] + pack] = size + 1
    table[table[H_IN_PACK] + c] += 1


@context_helper(I, I)
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


@context_helper(types.none, I, I)
def _from_bank(ctx, seat, amount):
    table = _table(ctx)
    table[_seat(table, seat, F_CASH)] += amount
    _state(ctx)[ST_BANK_OUT] += amount


@context_helper(types.none, I, I)
def _to_bank(ctx, seat, amount):
    table = _table(ctx)
    table[_seat(table, seat, F_CASH)] -= amount
    _state(ctx)[ST_BANK_IN] += amount


@context_helper(types.none, I, I, I, types.boolean)
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


@context_helper(types.none, I)
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


@context_helper(types.none, I, I)
def _redeem(ctx, seat, c):
    table = _table(ctx)
    _to_bank(ctx, seat, redeem_cost(table, c))
    _add_at_risk(table, seat, c, -1)
    _add_clean(table, seat, c, 1)
    _state(ctx)[_stat(_state(ctx), seat, S_REDEEMED)] += 1
    _log(ctx, seat, E_REDEEM, c, redeem_cost(table, c), 0, 0)


@context_helper(types.boolean, I, I, I, I)
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


@context_helper(types.none, I)
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


@context_helper(types.none, I, I, I, I)
def _pay_bank(ctx, seat, amount, reason, detail):
    """A payment to the bank that must be made (``reason``: PAY_*): raise money, or go bankrupt (the bank takes
    what there is)."""
    table = _table(ctx)
    if table[_seat(table, seat, F_CASH)] < amount and not _raise(ctx, seat, amount, BORROW_FOR_PAYMENT, -1):
        _bankrupt(ctx, seat)
        return
    _to_bank(ctx, seat, amount)
    _log(ctx, seat, E_PAY, amount, PAYEE_BANK, reason, detail)


@context_helper(types.none, I, I, I)
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


@context_helper(types.none, I, types.boolean)
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
