"""The Wheeler-Dealer (US) engine: a batch of games in one Numba kernel (the rules as it plays them, with
the decisions U1-U17: docs/rules/wheeler-dealer-us.md).

The table everyone sees (U12) is the engine's state itself, the ``public`` vector of view.py; hidden
are only the deck order and the random streams. Each seat has its own dice stream, so a strategy
change alters other seats' dice only through what it changes on the board (common random numbers).
Strategies arrive as a table of first-class function addresses, decision-major (decision * MAX_SEATS +
seat).

The engine is in layers, each module importing only those before it: state.py (the state's layout, the
context, the event log, asking strategies, dice, cash and titles), auctions.py (sealed bids), money.py
(loans, the Exchange, paying, raising money, bankruptcy), board.py (landing on a square, rent), cards.py
(Level Two's cards), and this module: the turn, the game and the batch. ``play_batch`` validates nothing,
allocates and runs the private kernel ``_play``; the rules every strategy may check too (legal loans,
Bamboozles, rent multiples, occupied squares) are view.py's, and the engine calls those functions.
"""
import numpy as np
from numba import njit, types

from ... import rng
from ...columns import logged_events
from ...numba_tools import CTX, ContextGame, context_helper, kernel_context
from ...numba_tools import unmanaged as _unmanaged
from ...strategy import MAX_PARAMS
from .auctions import R_AUCTION_INCREMENT
from .board import R_CITY_HALL_PERCENT, R_PARK_PER_PIP, R_SCHOOL_PER_PIP, R_TRADE_FAIR_EXTRA, _land, _place
from .cards import R_AUDIT_PER_PIP, R_BAMBOOZLE_CASH, R_LEVEL, _draw_card, _master_key_type, _saved_use_ok, _use_saved
from .money import R_AUCTION_MIN, _borrow, _invest, _pay_check, _repay
from .rules import R_DECK_SIZE, R_MIN_INVEST, R_PARK_SQUARE, R_SCHOOL_SQUARE, RULE_DATA
from .state import (
    _I64,
    DECK_ROW,
    DICE_ROW,
    E_BUMP,
    E_CARD_USED,
    E_DEAL,
    E_DEAL_TERMS,
    E_DOUBLES,
    E_END,
    E_MISSED,
    E_MOVE,
    E_TURN,
    END_CLOCK,
    END_LAST_PLAYER,
    END_TURN_LIMIT,
    EXCHANGE_ROW,
    EXTRA_DICE_ROW,
    MODE_CHECK,
    N_STATS,
    S_BANKRUPT_TURN,
    S_BUMPS,
    S_CARDS_USED,
    S_DEALS_ACCEPTED,
    S_DEALS_OFFERED,
    S_DOUBLES_BONUSES,
    S_RENT_PAID,
    S_RENT_RECEIVED,
    S_TURNS,
    ST_BANK,
    ST_END,
    ST_EXTRA,
    ST_FLOATS_ADDRESS,
    ST_INVEST_AT,
    ST_MODE,
    ST_NEXT_SEAT,
    ST_PUBLIC,
    ST_RNGS_ADDRESS,
    ST_STATS,
    ST_WON_AT,
    STRATEGY_ROW,
    TIE_ROW,
    USED_SKIP_SCHOOL,
    USED_STEP5,
    B,
    I,
    _add_cash,
    _alive,
    _cash,
    _count,
    _decide,
    _deck,
    _die,
    _floats,
    _held_in_block,
    _illegal,
    _invest_at,
    _log,
    _members,
    _on_school,
    _out,
    _public,
    _rngs,
    _rules,
    _set_owner,
    _state,
    _table,
    _transfer,
    _won_at,
    make_context,
    none,
    state_parts,
)
from .view import (
    A_BUMP_SEAT,
    A_BUMP_SQUARE,
    A_DEAL_CASH,
    A_DEAL_MINE,
    A_DEAL_OTHER,
    A_DEAL_THEIRS,
    A_FINANCE_PROPERTY,
    B_KIND,
    CARD_MASTER_KEY_SCHOOL,
    CARD_STEP5,
    D_BUMP,
    D_CARD,
    D_DEAL_ANSWER,
    D_DEAL_OFFER,
    D_FINANCE,
    DEAL_BUY,
    DEAL_SELL,
    DEAL_SWAP,
    FINANCE_BORROW,
    FINANCE_DONE,
    FINANCE_REPAY,
    MAX_BLOCK,
    MAX_MONEY,
    MAX_SEATS,
    P_BLOCK_SIZE,
    PUB_ACTIVE,
    PUB_AUCTION_INCREMENT,
    PUB_AUCTION_MIN,
    PUB_AUDIT_PER_PIP,
    PUB_BAMBOOZLE_CASH,
    PUB_BLOCKS,
    PUB_CARD_ROW,
    PUB_CARD_TYPES,
    PUB_CARDS_LEFT,
    PUB_CITY_HALL_PERCENT,
    PUB_COMMODITIES,
    PUB_COMMODITY_ROW,
    PUB_LAST_CARD_DRAWN,
    PUB_LEVEL,
    PUB_MIN_INVEST,
    PUB_PARK_PER_PIP,
    PUB_PARK_SQUARE,
    PUB_PLAYERS,
    PUB_PROPERTIES,
    PUB_SCHOOL_PER_PIP,
    PUB_SCHOOL_SQUARE,
    PUB_SQUARE_ROW,
    PUB_SQUARES,
    PUB_TRADE_FAIR_EXTRA,
    PUB_TURN,
    S_ALIVE,
    S_CASH,
    S_EXTRA_EXCHANGE,
    S_MISSES_TURN,
    S_POSITION,
    SQ_PARK,
    debt_slot,
    left_slot,
    occupied,
    owner_slot,
    saved_slot,
    seat_net_worth,
    seat_slot,
)

# The rule options this module plays: their slots in the rule vector (rules.RULE_DATA declares them).
R_DEALS_PER_TURN = RULE_DATA.slot("game.deals_per_turn")
R_DOUBLES_BONUS = RULE_DATA.slot("game.doubles_bonus_per_pip")
R_MAX_TURNS = RULE_DATA.slot("game.max_turns")
R_START_CASH = RULE_DATA.slot("game.start_cash")

# ---- a turn (steps 1-6) -------------------------------------------------------------------------------


@context_helper(none, I)
def _finance(ctx, seat):
    """U13: borrowing and repaying at the start of the turn and after step five; a refused answer is
    counted and the strategy asked again (at most 2 x properties + 2 answers)."""
    public = _public(ctx)
    for _ in range(2 * public[PUB_PROPERTIES] + 2):
        action = _decide(ctx, D_FINANCE, seat, 0, 0, 0, 0, 0)
        prop = _out(ctx)[A_FINANCE_PROPERTY]
        if action == FINANCE_DONE:
            return
        if action == FINANCE_BORROW:
            done = _borrow(ctx, seat, prop)
        elif action == FINANCE_REPAY:
            done = _repay(ctx, seat, prop)
        else:
            done = False
        if not done:
            _illegal(ctx, seat, D_FINANCE)


@context_helper(B, I, I, I, I, I, I)
def _deal_ok(ctx, seat, kind, other, mine, theirs, money):
    """U4: a legal offer to one other player in the game and not on School; nothing given for nothing."""
    public, rules = _public(ctx), _rules(ctx)
    n = public[PUB_PROPERTIES]
    if not (0 <= other < public[PUB_PLAYERS]) or other == seat or not _alive(public, other) or _on_school(public, other):
        return False
    if not (-MAX_MONEY <= money <= MAX_MONEY):
        return False
    if kind == DEAL_SELL or kind == DEAL_SWAP:
        if not (0 <= mine < n and public[owner_slot(mine)] == seat):
            return False
    if kind == DEAL_BUY or kind == DEAL_SWAP:
        if not (0 <= theirs < n and public[owner_slot(theirs)] == other):
            return False
    if kind == DEAL_BUY:
        return money >= rules[R_AUCTION_MIN] and _cash(public, seat) >= money
    if kind == DEAL_SELL:
        return -money >= rules[R_AUCTION_MIN] and _cash(public, other) >= -money
    if kind == DEAL_SWAP:
        return (money >= 0 and _cash(public, seat) >= money) or (money < 0 and _cash(public, other) >= -money)
    return False


@context_helper(none, I)
def _deals(ctx, seat):
    """U4: up to deals_per_turn offers, each to one other player not on School; nothing owed or given. A
    player whose token still rests on School (U16: until its move) makes none. A refused offer is counted
    and the next one asked."""
    public, rules = _public(ctx), _rules(ctx)
    if _on_school(public, seat):
        return
    for k in range(rules[R_DEALS_PER_TURN]):
        kind = _decide(ctx, D_DEAL_OFFER, seat, k, 0, 0, 0, 0)
        if kind == 0:
            return
        out = _out(ctx)
        other, mine, theirs, money = out[A_DEAL_OTHER], out[A_DEAL_MINE], out[A_DEAL_THEIRS], out[A_DEAL_CASH]
        if not _deal_ok(ctx, seat, kind, other, mine, theirs, money):
            _illegal(ctx, seat, D_DEAL_OFFER)
            continue
        if kind == DEAL_BUY:
            mine = -1
        elif kind == DEAL_SELL:
            theirs = -1
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_DEALS_OFFERED] += 1
        answer = _decide(ctx, D_DEAL_ANSWER, other, seat, kind, mine, theirs, money)
        if answer != 0 and answer != 1:
            _illegal(ctx, other, D_DEAL_ANSWER)
        accepted = answer == 1
        _log(ctx, seat, E_DEAL, other, kind, mine, theirs)
        _log(ctx, seat, E_DEAL_TERMS, money, 1 if accepted else 0, 0, 0)
        if accepted:
            _state(ctx)[ST_STATS + (seat) * N_STATS + S_DEALS_ACCEPTED] += 1
            if mine >= 0:
                _set_owner(public, mine, other)
            if theirs >= 0:
                _set_owner(public, theirs, seat)
            _transfer(ctx, seat, money, other)


@context_helper(none, I)
def _bump(ctx, seat):
    """Level Two: the last play of a turn, onto a square with other tokens (not School, not by the
    player who drew the last card)."""
    public, table = _public(ctx), _table(ctx)
    here = public[seat_slot(seat, S_POSITION)]
    if public[PUB_LAST_CARD_DRAWN] or _on_school(public, seat) or not occupied(public, here, seat):
        return
    answer = _decide(ctx, D_BUMP, seat, 0, 0, 0, 0, 0)
    if answer == 0:
        return
    target, square = _out(ctx)[A_BUMP_SEAT], _out(ctx)[A_BUMP_SQUARE]
    if answer != 1:
        _illegal(ctx, seat, D_BUMP)
        return
    if (target < 0 or target >= public[PUB_PLAYERS] or target == seat or not _alive(public, target)
            or public[seat_slot(target, S_POSITION)] != here or square < 0 or square >= public[PUB_SQUARES]
            or table[public[PUB_SQUARE_ROW] + square, B_KIND] == SQ_PARK or occupied(public, square, -1)):
        _illegal(ctx, seat, D_BUMP)
        return
    die = _die(ctx, EXTRA_DICE_ROW + seat)
    _log(ctx, seat, E_BUMP, target, square, die, 0)
    if die % 2 == 0:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_BUMPS] += 1
        _place(ctx, target, square, True)
        _land(ctx, target, square)


@context_helper(none, I)
def _turn(ctx, seat):
    """One full turn (steps 1-6). Returns nothing; bankruptcies and School end it early."""
    public, rules = _public(ctx), _rules(ctx)
    level2 = rules[R_LEVEL] >= 2
    public[PUB_ACTIVE] = seat
    for other in range(public[PUB_PLAYERS]):  # U16: one extra Exchange investment a turn per player
        public[seat_slot(other, S_EXTRA_EXCHANGE)] = 0
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_TURNS] += 1
    _log(ctx, seat, E_TURN, public[seat_slot(seat, S_POSITION)], _cash(public, seat), 0, 0)
    _deals(ctx, seat)
    _finance(ctx, seat)
    # 1. invest, compulsory: raise the smallest stake first (U6)
    if _cash(public, seat) < rules[R_MIN_INVEST]:
        if not _pay_check(ctx, seat, rules[R_MIN_INVEST]):
            return
    _invest(ctx, seat, False, 0)
    # 2. roll and move
    d1, d2 = _die(ctx, DICE_ROW + seat), _die(ctx, DICE_ROW + seat)
    square = public[seat_slot(seat, S_POSITION)] + d1 + d2
    while square >= public[PUB_SQUARES]:  # round the board by subtracting: a division costs more
        square -= public[PUB_SQUARES]
    _log(ctx, seat, E_MOVE, d1, d2, square, 0)
    if d1 == d2:
        _add_cash(ctx, seat, rules[R_DOUBLES_BONUS] * (d1 + d2), True)
        _log(ctx, seat, E_DOUBLES, rules[R_DOUBLES_BONUS] * (d1 + d2), 0, 0, 0)
        _count(ctx, seat, S_DOUBLES_BONUSES)
    _place(ctx, seat, square, True)
    # 3. the square
    if _land(ctx, seat, square) or not _alive(public, seat):
        return  # School ends the turn at once, no card
    # 4. draw
    if _draw_card(ctx, seat) or not _alive(public, seat):
        return
    # 5. one saved card
    if level2:
        choice = _decide(ctx, D_CARD, seat, CARD_STEP5, -1, 0, 0, 0)
        if choice != -1:
            if (0 <= choice < public[PUB_CARD_TYPES] and public[saved_slot(public, seat, choice)] > 0
                    and _saved_use_ok(ctx, seat, choice)):
                public[saved_slot(public, seat, choice)] -= 1
                if _use_saved(ctx, seat, choice, USED_STEP5) or not _alive(public, seat):
                    return
            else:
                _illegal(ctx, seat, D_CARD)
    _finance(ctx, seat)
    if level2:
        _bump(ctx, seat)


@context_helper(B, I)
def _misses_turn(ctx, seat):
    """The turn after a School landing is missed (U17(a): a pending extra turn is that turn), unless the seat
    plays a saved Master Key (Level Two). U16: the token stays on School, under its restrictions, until its
    next real turn moves it."""
    public = _public(ctx)
    if not public[seat_slot(seat, S_MISSES_TURN)]:
        return False
    public[seat_slot(seat, S_MISSES_TURN)] = 0
    key = _master_key_type(ctx)
    if _rules(ctx)[R_LEVEL] >= 2 and key >= 0 and public[saved_slot(public, seat, key)] > 0:
        answer = _decide(ctx, D_CARD, seat, CARD_MASTER_KEY_SCHOOL, key, 0, 0, 0)
        if answer == 1:
            public[saved_slot(public, seat, key)] -= 1
            _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
            _log(ctx, seat, E_CARD_USED, key, USED_SKIP_SCHOOL, 0, 0)
            return False
        if answer != 0:
            _illegal(ctx, seat, D_CARD)
    _log(ctx, seat, E_MISSED, 0, 0, 0, 0)
    return True


# ---- a game, a batch ----------------------------------------------------------------------------------


@context_helper(none, I)
def _check(ctx, start_total):
    public = _public(ctx)
    total = 0
    for seat in range(public[PUB_PLAYERS]):
        total += _cash(public, seat)
        if not _alive(public, seat) and _cash(public, seat) != 0:
            raise AssertionError("wheeler-dealer-us: a bankrupt player holds cash")
    if total != start_total + _state(ctx)[ST_BANK]:
        raise AssertionError("wheeler-dealer-us: money not conserved (players' cash != start + bank's net payments)")
    paid, received = 0, 0
    for seat in range(public[PUB_PLAYERS]):
        paid += _state(ctx)[ST_STATS + seat * N_STATS + S_RENT_PAID]
        received += _state(ctx)[ST_STATS + seat * N_STATS + S_RENT_RECEIVED]
    if paid != received:
        raise AssertionError("wheeler-dealer-us: rent paid != rent received over the seats (U17(d))")
    for prop in range(public[PUB_PROPERTIES]):
        holder = public[owner_slot(prop)]
        if holder >= 0 and not _alive(public, holder):
            raise AssertionError("wheeler-dealer-us: a bankrupt player still holds a title")
        if holder < 0 and public[debt_slot(public, prop)]:
            raise AssertionError("wheeler-dealer-us: an unowned property is debt-ridden")


@njit(types.none(CTX, _I64, types.uint64, I), cache=True)
def _new_game(ctx, deck_template, seed, game):
    """Reset every piece of state for game ``game``: the table, the shuffled deck, the streams, the counters."""
    state, rngs = _state(ctx), _rngs(ctx)
    public, rules, deck = _public(ctx), _rules(ctx), _deck(ctx)
    n_players, n_commodities = public[PUB_PLAYERS], public[PUB_COMMODITIES]
    n_props, n_blocks = public[PUB_PROPERTIES], public[PUB_BLOCKS]
    n_card_types, n_squares = public[PUB_CARD_TYPES], public[PUB_SQUARES]
    public[:] = 0
    public[PUB_PLAYERS] = n_players
    public[PUB_LEVEL] = rules[R_LEVEL]
    public[PUB_PROPERTIES] = n_props
    public[PUB_BLOCKS] = n_blocks
    public[PUB_COMMODITIES] = n_commodities
    public[PUB_CARD_TYPES] = n_card_types
    public[PUB_SQUARES] = n_squares
    public[PUB_COMMODITY_ROW] = n_props
    public[PUB_CARD_ROW] = n_props + n_commodities
    public[PUB_SQUARE_ROW] = n_props + n_commodities + n_card_types
    public[PUB_MIN_INVEST] = rules[R_MIN_INVEST]
    public[PUB_AUCTION_MIN] = rules[R_AUCTION_MIN]
    public[PUB_AUCTION_INCREMENT] = rules[R_AUCTION_INCREMENT]
    public[PUB_SCHOOL_SQUARE] = rules[R_SCHOOL_SQUARE]
    public[PUB_PARK_SQUARE] = rules[R_PARK_SQUARE]
    public[PUB_PARK_PER_PIP] = rules[R_PARK_PER_PIP]
    public[PUB_SCHOOL_PER_PIP] = rules[R_SCHOOL_PER_PIP]
    public[PUB_CITY_HALL_PERCENT] = rules[R_CITY_HALL_PERCENT]
    public[PUB_TRADE_FAIR_EXTRA] = rules[R_TRADE_FAIR_EXTRA]
    public[PUB_AUDIT_PER_PIP] = rules[R_AUDIT_PER_PIP]
    public[PUB_BAMBOOZLE_CASH] = rules[R_BAMBOOZLE_CASH]
    public[PUB_CARDS_LEFT] = rules[R_DECK_SIZE]
    for prop in range(n_props):
        public[owner_slot(prop)] = -1
    for seat in range(n_players):
        public[seat_slot(seat, S_CASH)] = rules[R_START_CASH]
        public[seat_slot(seat, S_POSITION)] = rules[R_PARK_SQUARE]
        public[seat_slot(seat, S_ALIVE)] = 1
        rng.seed_stream(rngs[DICE_ROW + seat], seed, game, rng.DICE + seat)
        rng.seed_stream(rngs[STRATEGY_ROW + seat], seed, game, rng.STRATEGY + seat)
        rng.seed_stream(rngs[EXCHANGE_ROW + seat], seed, game, rng.EXCHANGE + seat)
        rng.seed_stream(rngs[EXTRA_DICE_ROW + seat], seed, game, rng.EXTRA_DICE + seat)
    rng.seed_stream(rngs[DECK_ROW], seed, game, rng.DEAL)
    rng.seed_stream(rngs[TIE_ROW], seed, game, rng.TIE_BREAK)
    deck[:] = deck_template
    rng.shuffle(rngs[DECK_ROW], deck)
    for i in range(deck.size):
        public[left_slot(public, deck[i])] += 1
    _floats(ctx)[:, MAX_PARAMS:] = 0.0
    state[ST_BANK] = 0
    state[ST_EXTRA:ST_EXTRA + MAX_SEATS] = 0
    state[ST_STATS:ST_STATS + MAX_SEATS * N_STATS] = 0
    for seat in range(MAX_SEATS):
        state[ST_STATS + seat * N_STATS + S_BANKRUPT_TURN] = -1
    state[state[ST_INVEST_AT]:state[ST_WON_AT] + MAX_SEATS * n_commodities] = 0   # investments and wins
    state[ST_NEXT_SEAT] = 0  # U10
    state[ST_END] = -1


@context_helper(B, I)
def _play_on(ctx, goes):
    """Play the game on from the go of seat ST_NEXT_SEAT until the card clock, the last player standing or the
    turn limit (ST_END: how it ended); with ``goes`` >= 0, for at most that many goes, each a live seat's turn with
    the extra turns it earns, or the turn it misses (the game is then left before the next go, the seat to play
    in ST_NEXT_SEAT). Returns True once the game is over."""
    state, public, rules = _state(ctx), _public(ctx), _rules(ctx)
    n_players = public[PUB_PLAYERS]
    start_total = rules[R_START_CASH] * n_players
    check = (state[ST_MODE] & MODE_CHECK) != 0
    seat = state[ST_NEXT_SEAT]
    end = END_CLOCK
    while True:
        alive = 0
        for other in range(n_players):
            alive += public[seat_slot(other, S_ALIVE)]
        if alive <= 1:
            end = END_LAST_PLAYER
            break
        if public[PUB_TURN] >= rules[R_MAX_TURNS]:
            end = END_TURN_LIMIT
            break
        if _alive(public, seat):
            if goes == 0:
                state[ST_NEXT_SEAT] = seat
                return False
            goes -= 1
            play = not _misses_turn(ctx, seat)
            if play:
                public[PUB_TURN] += 1
                _turn(ctx, seat)
                # extra turns are played at once, none after the last card; U17(a): for a player sent to
                # School the pending extra turn is the turn it misses (one turn lost, never two)
                while state[ST_EXTRA + seat] > 0 and _alive(public, seat) and not public[PUB_LAST_CARD_DRAWN]:
                    state[ST_EXTRA + seat] -= 1
                    if _misses_turn(ctx, seat):
                        continue
                    public[PUB_TURN] += 1
                    _turn(ctx, seat)
                state[ST_EXTRA + seat] = 0
                if check:
                    _check(ctx, start_total)
                if public[PUB_LAST_CARD_DRAWN]:
                    break
        seat = seat + 1 if seat + 1 < n_players else 0
    state[ST_END] = end
    return True


@njit(cache=True)
def _record_game(ctx, g, out_net_worth, out_cash, out_props, out_blocks, out_debts, out_bankrupt, out_winner,
                 out_stats, out_invest, out_won, out_turns, out_end):
    """Row ``g`` of the outputs for the game just ended in ``ctx``."""
    ctx = _unmanaged(ctx)
    state, table = _state(ctx), _table(ctx)
    public = _public(ctx)
    n_players = public[PUB_PLAYERS]
    n_props, n_blocks, n_commodities = public[PUB_PROPERTIES], public[PUB_BLOCKS], public[PUB_COMMODITIES]
    end = state[ST_END]
    if (state[ST_MODE] & MODE_CHECK) != 0:
        _check(ctx, _rules(ctx)[R_START_CASH] * n_players)
    members = _members(ctx)
    best = -(1 << 62)
    for seat in range(n_players):
        worth = seat_net_worth(public, table, seat)
        out_net_worth[g, seat] = worth
        if _alive(public, seat) and worth > best:
            best = worth
    for seat in range(n_players):
        alive_seat = _alive(public, seat)
        out_cash[g, seat] = _cash(public, seat)
        out_bankrupt[g, seat] = not alive_seat
        out_winner[g, seat] = alive_seat and out_net_worth[g, seat] == best  # U15: ties shared
        props, debts, blocks = 0, 0, 0
        for prop in range(n_props):
            if public[owner_slot(prop)] == seat:
                props += 1
                debts += public[debt_slot(public, prop)]
        for block in range(n_blocks):
            size = table[members[block * MAX_BLOCK], P_BLOCK_SIZE]
            blocks += _held_in_block(public, members, seat, block) == size
        out_props[g, seat] = props
        out_debts[g, seat] = debts
        out_blocks[g, seat] = blocks
        for k in range(N_STATS):
            out_stats[g, seat, k] = state[ST_STATS + seat * N_STATS + k]
        for c in range(n_commodities):
            out_invest[g, seat, c] = state[_invest_at(ctx, seat, c)]
            out_won[g, seat, c] = state[_won_at(ctx, seat, c)]
    out_turns[g] = public[PUB_TURN]
    out_end[g] = end
    _log(ctx, -1, E_END, end, 0, 0, 0)


@njit(cache=True)
def _play(ctx, deck_template, seed, first_game, n_games, check, out_net_worth, out_cash, out_props, out_blocks,
          out_debts, out_bankrupt, out_winner, out_stats, out_invest, out_won, out_turns, out_end):
    ctx = _unmanaged(ctx)
    state = _state(ctx)
    if check:
        state[ST_MODE] |= MODE_CHECK
    for g in range(n_games):
        _new_game(ctx, deck_template, seed, first_game + g)
        _play_on(ctx, -1)
        _record_game(ctx, g, out_net_worth, out_cash, out_props, out_blocks, out_debts, out_bankrupt, out_winner,
                     out_stats, out_invest, out_won, out_turns, out_end)
    if check:
        state[ST_MODE] &= ~MODE_CHECK


def _outputs(n_games, n, c):
    """The output arrays of ``n_games`` games of ``n`` players and ``c`` commodities, in _record_game's order."""
    return {
        "net_worth": np.zeros((n_games, n), np.int64), "cash": np.zeros((n_games, n), np.int64),
        "properties": np.zeros((n_games, n), np.int64), "blocks": np.zeros((n_games, n), np.int64),
        "debt_ridden": np.zeros((n_games, n), np.int64), "bankrupt": np.zeros((n_games, n), np.bool_),
        "winner": np.zeros((n_games, n), np.bool_),
        "stats": np.zeros((n_games, n, N_STATS), np.int64),
        "invest": np.zeros((n_games, n, c), np.int64), "won": np.zeros((n_games, n, c), np.int64),
        "turns": np.zeros(n_games, np.int64), "end": np.zeros(n_games, np.int64),
    }


def play_batch(seed, first_game, n_games, prepared, functions, params, check=False, record=False, event_capacity=0):
    """Allocate outputs and run ``n_games`` games starting at global index ``first_game``, for compiled rules
    (rules.USRules), each seat's decision functions (``functions[seat]``, in DECISION_NAMES order) and
    parameters (``params[seat]``). Validates nothing. ``record``: log events (at most ``event_capacity``)."""
    arrays = make_context(prepared, functions, params, event_capacity, record)
    out = _outputs(n_games, prepared.n_players, len(prepared.commodities))
    _play(kernel_context(arrays), prepared.deck, np.uint64(seed), first_game, n_games, check, *out.values())
    parts = state_parts(arrays)
    out["landings"] = parts.landings.copy()
    out.update(logged_events(parts.events, parts.event_count[0]))
    return out


class GameState(ContextGame):
    """One game stopped before a go (a seat's turn with the extra turns it earns, or a turn it misses), to be
    copied and played on (numba_tools.ContextGame: ``copy()``, ``step(goes)``, ``over``, ``next_seat``): a search
    plays copies forward from a decision. Holds the batch arrays of one game (make_context): the state vector,
    whose public table is what every seat sees, the deck order, the seats' strategy memories and every random
    stream; the table and the decision functions are read only, shared. Made by ``start``; stepping a copy
    plays the same game, down to the last random number, as play_batch plays it."""

    written = ((3, ST_FLOATS_ADDRESS), (4, ST_RNGS_ADDRESS))   # (state, table, fns, floats, rngs, events)
    next_seat_field, end_field = ST_NEXT_SEAT, ST_END
    play_on = staticmethod(_play_on)

    @property
    def turn(self) -> int:
        """Turns played so far (the public turn counter: a go with an extra turn counts two)."""
        return int(state_parts(self.arrays).public[PUB_TURN])

    def result(self) -> dict:
        """The game's outputs as ``play_batch`` gives them for one game (once ``over``)."""
        self._check_over()
        out = _outputs(1, int(self.arrays[0][ST_PUBLIC + PUB_PLAYERS]),
                       int(self.arrays[0][ST_PUBLIC + PUB_COMMODITIES]))
        _record_game(kernel_context(self.arrays), 0, *out.values())
        out["landings"] = state_parts(self.arrays).landings.copy()
        return out


def start(seed, game, prepared, functions, params, check=False) -> GameState:
    """Game ``game`` of the stream ``seed`` (the game play_batch plays at that index), before its first go;
    ``prepared``, ``functions`` and ``params`` as play_batch takes them. ``check``: checking mode's
    conservation checks after every go."""
    arrays = make_context(prepared, functions, params)
    if check:
        arrays[0][ST_MODE] |= MODE_CHECK
    _new_game(kernel_context(arrays), prepared.deck, np.uint64(seed), game)
    return GameState(arrays)
