"""The Wheeler Dealer (UK) engine: a batch of games in one Numba kernel (the rules as played, decisions K1-K7:
docs/rules/wheeler-dealer-uk.md).

The table every player sees (K7) is the engine's own state, the ``table`` vector of view.py; hidden are
the order of the three packs and of the Command pile, and the random streams. Each seat rolls its own
dice stream, so a strategy change alters other seats' dice only through what it changes on the board.

Every strategy answer is checked before use (view.py: out of range or naming a card the seat cannot use ->
refused, counted in illegal_actions, the decision's default played); no strategy value indexes an array
unchecked.

``play_batch`` validates nothing (rules.prepare did), allocates the batch's arrays (make_context) and runs the
private kernel ``_play``: for each game, set it up (``_new_game``), play it on (``_play_on``), record its row
(``_record_game``); ``start`` and ``GameState`` stop a game between two turns, copy it and play it on with the
same kernel. The engine is in layers, each module importing only those before it: state.py (the layout of the
batch's arrays and the context every helper takes, the log, asking strategies, a seat's cards), money.py (the
packs, the bank, loans, raising money, paying, bankruptcy), turn.py (a turn), and this module.
"""
import numpy as np
from numba import njit, types

from ... import rng
from ...columns import logged_events
from ...numba_tools import CTX, ContextGame, kernel_context, unmanaged, view
from ...strategy import MAX_PARAMS
from .money import _from_pack_top
from .state import (
    _I64,
    E_DEALT,
    E_END,
    END_LAST_PLAYER,
    END_TARGET,
    END_TURN_LIMIT,
    LAST_ONES_OUT,
    N_STATS,
    S_BANKRUPT_ROUND,
    S_INNER_ROUND,
    ST_BANK_IN,
    ST_BANK_OUT,
    ST_BANKRUPT_TURN,
    ST_CHECK,
    ST_COMMAND_CARDS,
    ST_COMMAND_HEAD,
    ST_COMMANDS,
    ST_END,
    ST_FLOATS_ADDRESS,
    ST_HEADS,
    ST_NEXT_SEAT,
    ST_PACKS_ADDRESS,
    ST_RNGS_ADDRESS,
    ST_SALE_LOANS,
    ST_START_CASH,
    ST_STATS,
    ST_TABLE_ADDRESS,
    ST_TURN,
    ST_WINNER,
    I,
    _add_clean,
    _floats,
    _held,
    _log,
    _packs,
    _risk,
    _rngs,
    _seat,
    _stat,
    _state,
    _table,
    make_context,
    state_parts,
)
from .turn import _turn
from .view import (
    BLUE,
    F_BANKRUPT,
    F_CARD_VALUE,
    F_CARDS,
    F_CASH,
    F_POSITION,
    F_RISK_CARDS,
    F_RISK_COST,
    F_SETS,
    H_ACTIVE,
    H_COLOUR,
    H_COMMANDS,
    H_COMMODITIES,
    H_COPIES,
    H_IN_PACK,
    H_MIN_SET,
    H_ON_SALE,
    H_OUTER_SPACES,
    H_PACK_SIZE,
    H_PLAYERS,
    H_REDEEMABLE,
    H_ROUND,
    H_TARGET,
    H_TURN_LIMIT,
    H_TURN_SEAT,
    MAX_SEATS,
    MEMORY_SIZE,
    OUTER,
    PACKS,
    colour,
    face,
    redeem_cost,
    space,
    total_wealth,
)


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
    for pack in range(PACKS):
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


@njit(types.none(CTX, _I64, _I64, I, types.uint64, I), cache=True)
def _new_game(ctx, template, start_hand, start_cash, seed, game):
    """Set up game ``game`` in the batch's arrays: the table, the streams, the packs shuffled and the start hands
    dealt one card at a time from seat 0, the Command pile shuffled, the seats on their blue spaces (K7)."""
    table, state, packs, floats, rngs = _table(ctx), _state(ctx), _packs(ctx), _floats(ctx), _rngs(ctx)
    n = template[H_PLAYERS]
    commodities = template[H_COMMODITIES]
    commands = state[ST_COMMAND_CARDS]
    for i in range(table.size):   # an element loop: the helpers run without the runtime
        table[i] = template[i]
    state[ST_BANK_OUT] = 0
    state[ST_BANK_IN] = 0
    state[ST_TURN] = 0
    state[ST_SALE_LOANS] = 0
    for i in range(ST_STATS, ST_STATS + MAX_SEATS * N_STATS):
        state[i] = 0
    for p in range(n):
        rng.seed_stream(rngs[p], seed, game, rng.DICE + p)
        rng.seed_stream(rngs[n + p], seed, game, rng.STRATEGY + p)
        for i in range(MAX_PARAMS, MAX_PARAMS + MEMORY_SIZE):
            floats[p, i] = 0.0
        state[_stat(state, p, S_BANKRUPT_ROUND)] = -1
        state[_stat(state, p, S_INNER_ROUND)] = -1
    deal_rng = rngs[2 * n]
    rng.seed_stream(deal_rng, seed, game, rng.DEAL)
    rng.seed_stream(rngs[2 * n + 1], seed, game, rng.TIE_BREAK)
    for pack in range(PACKS):
        size = 0
        for c in range(commodities):
            if template[template[H_COLOUR] + c] == pack:
                for _ in range(template[template[H_COPIES] + c]):
                    packs[pack, size] = c
                    size += 1
        rng.shuffle(deal_rng, view(packs[pack], 0, size))
        state[ST_HEADS + pack] = 0
        table[table[H_PACK_SIZE] + pack] = size
        for k in range(size):
            table[table[H_IN_PACK] + packs[pack, k]] += 1
        for _ in range(start_hand[pack]):
            for p in range(n):
                c = _from_pack_top(ctx, pack)
                _add_clean(table, p, c, 1)
                _log(ctx, p, E_DEALT, c, face(table, c), 0, 0)
    order = view(state, ST_COMMANDS, commands)
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
    state[ST_START_CASH] = start_cash
    state[ST_NEXT_SEAT] = 0
    state[ST_END] = -1
    state[ST_WINNER] = -1


@njit(types.boolean(CTX, I), cache=True)   # counted: checking mode allocates
def _play_on(ctx, turns):
    """Play the game on from the turn of seat ST_NEXT_SEAT until a seat reaches the target, one is left or the
    turn limit (ST_END: how it ended, ST_WINNER: who won); with ``turns`` >= 0, for at most that many turns (the
    game is then left before the next turn, its seat in ST_NEXT_SEAT). Returns True once the game is over."""
    table, state = _table(ctx), _state(ctx)
    n = table[H_PLAYERS]
    check = state[ST_CHECK] != 0
    end = END_TURN_LIMIT
    winner = -1
    seat = state[ST_NEXT_SEAT]
    while table[H_ROUND] < table[H_TURN_LIMIT]:
        if turns == 0:
            state[ST_NEXT_SEAT] = seat
            return False
        turns -= 1
        table[H_TURN_SEAT] = seat
        _turn(ctx, seat)
        if check:
            _check(ctx, state[ST_START_CASH], n)
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
    state[ST_END] = end
    state[ST_WINNER] = winner
    return True


@njit(cache=True)
def _record_game(ctx, g, out_wealth, out_cash, out_cards, out_bankrupt, out_winner, out_stats, out_rounds, out_end,
                 out_first_inner):
    """Row ``g`` of the outputs for the game just ended in ``ctx``."""
    ctx = unmanaged(ctx)
    table, state = _table(ctx), _state(ctx)
    n = table[H_PLAYERS]
    end, winner = state[ST_END], state[ST_WINNER]
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


@njit(cache=True)
def _play(ctx, template, start_hand, start_cash, seed, first_game, n_games, check, out_wealth, out_cash,
          out_cards, out_bankrupt, out_winner, out_stats, out_rounds, out_end, out_first_inner):
    ctx = unmanaged(ctx)
    _state(ctx)[ST_CHECK] = check
    for g in range(n_games):
        _new_game(ctx, template, start_hand, start_cash, seed, first_game + g)
        _play_on(ctx, -1)
        _record_game(ctx, g, out_wealth, out_cash, out_cards, out_bankrupt, out_winner, out_stats, out_rounds,
                     out_end, out_first_inner)


def _outputs(n_games, n):
    """The output arrays of ``n_games`` games of ``n`` players, in _record_game's order."""
    out = {name: np.zeros((n_games, n), np.int64) for name in ("wealth", "cash", "cards")}
    out.update(bankrupt=np.zeros((n_games, n), np.bool_), winner=np.zeros((n_games, n), np.bool_),
               stats=np.zeros((n_games, n, N_STATS), np.int64), rounds=np.zeros(n_games, np.int64),
               end=np.zeros(n_games, np.int64), first_inner=np.zeros(n_games, np.int64))
    return out


def play_batch(seed, first_game, n_games, prepared, functions, params, check=False, record=False, event_capacity=0):
    """Allocate outputs and run ``n_games`` games starting at global index ``first_game``, for compiled rules
    (rules.UKRules), each seat's decision functions (``functions[seat]``, in DECISION_NAMES order) and
    parameters (``params[seat]``). Validates nothing. ``record``: log events (at most ``event_capacity``)."""
    arrays = make_context(prepared, functions, params, event_capacity, record)
    out = _outputs(n_games, prepared.n_players)
    _play(kernel_context(arrays), prepared.table, prepared.start_hand, prepared.start_cash, np.uint64(seed), first_game,
          n_games, check, *out.values())
    parts = state_parts(arrays)
    out["set_sizes"] = parts.set_sizes.copy()
    out.update(logged_events(parts.events, parts.event_count[0]))
    return out


class GameState(ContextGame):
    """One game stopped between two turns, to be copied and played on (numba_tools.ContextGame: ``copy()``,
    ``step(turns)``, ``over``, ``next_seat``): a search plays copies forward from a decision. Holds the batch
    arrays of one game (make_context): the state vector (the pack heads, the Command pile, the counters), the
    public table, the packs, the seats' strategy memories and every random stream. Made by ``start``; stepping
    a copy plays the same game, down to the last random number, as play_batch plays it."""

    written = ((1, ST_TABLE_ADDRESS), (2, ST_PACKS_ADDRESS), (3, ST_FLOATS_ADDRESS), (4, ST_RNGS_ADDRESS))
    next_seat_field, end_field = ST_NEXT_SEAT, ST_END
    play_on = staticmethod(_play_on)

    @property
    def turn(self) -> int:
        """Turns played so far (a missed turn counts)."""
        return int(self.arrays[0][ST_TURN])

    def result(self) -> dict:
        """The game's outputs as ``play_batch`` gives them for one game (once ``over``)."""
        self._check_over()
        out = _outputs(1, int(self.arrays[1][H_PLAYERS]))
        _record_game(kernel_context(self.arrays), 0, *out.values())
        out["set_sizes"] = state_parts(self.arrays).set_sizes.copy()
        return out


def start(seed, game, prepared, functions, params, check=False) -> GameState:
    """Game ``game`` of the stream ``seed`` (the game play_batch plays at that index), dealt, before its first
    turn; ``prepared``, ``functions`` and ``params`` as play_batch takes them. ``check``: checking mode's
    conservation checks after every turn."""
    arrays = make_context(prepared, functions, params)
    arrays[0][ST_CHECK] = check
    _new_game(kernel_context(arrays), prepared.table, prepared.start_hand, prepared.start_cash, np.uint64(seed), game)
    return GameState(arrays)
