"""The Wheedle engine: a batch of games in one Numba kernel (the rules as simulated, and the decisions
W1-W8 cited here: docs/rules/wheedle.md).

``play_batch`` validates nothing and allocates the output arrays; the private kernel ``_play``
is a pure function of (seed, game indices, rule arrays, strategies). Strategies arrive as a tuple of
first-class functions, one per seat padded to MAX_SEATS, so one cached compilation serves every
line-up and every user strategy.
"""
import numpy as np
from numba import njit

from ... import rng
from ...guard import deciding
from ...numba_tools import readonly
from . import SEAT_STATS
from .rules import (
    R_ALL_POINTS,
    R_BANKRUPT_MAJORITY_SCORES,
    R_BANKRUPT_POINTS,
    R_FALSE_STOP,
    R_FALSE_STOP_ENDS_ROUND,
    R_FALSE_STOPPER_CARDS_SCORED,
    R_GIFTS,
    R_HAND,
    R_MAJORITY_POINTS,
    R_MAX_TICKS,
    R_ROUNDS,
    R_STOP_BONUS,
)
from .view import (
    A_GIVE,
    A_GIVE_COUNT,
    A_WANT,
    A_WANT_COUNT,
    ACTION_SIZE,
    ASKED,
    FALSE_STOP,
    GOOD_STOP,
    MEMORY_SIZE,
    NET,
    NO_STOP,
    OFFER,
    OFFER_FROM,
    OFFERED,
    PASS,
    PUB_ALL_POINTS,
    PUB_BANKRUPT_MAJORITY_SCORES,
    PUB_BANKRUPT_POINTS,
    PUB_CAN_STOP,
    PUB_CENTRE,
    PUB_COMPANIES,
    PUB_DEALER,
    PUB_FALSE_STOP,
    PUB_FALSE_STOP_ENDS_ROUND,
    PUB_FALSE_STOPPER_CARDS_SCORED,
    PUB_GIFTS_ALLOWED,
    PUB_HAND_SIZE,
    PUB_HEADER,
    PUB_MAJORITY_POINTS,
    PUB_MAX_TICKS,
    PUB_MY_NO_TAKER_STREAK,
    PUB_NO_TAKER_STREAK,
    PUB_PLAYERS,
    PUB_ROUND,
    PUB_ROUNDS,
    PUB_SEAT,
    PUB_STOP_BONUS,
    PUB_TICK,
    SEEN_ROWS,
    STOP,
    SWAP,
    cards_scored,
    holds_majorities,
    public_length,
)
from .view import round_points as view_round_points

MAX_SEATS = 6
MAX_OFFER_COUNT = 99   # no company has more cards (rules.toml: company cards 1..99)

# the per-seat counters' places, by name (SEAT_STATS, the result columns in order, is declared with their
# meanings in __init__.py)
S_STOPS = SEAT_STATS.index("stops")
S_GOOD_STOPS = SEAT_STATS.index("good_stops")
S_FALSE_STOPS = SEAT_STATS.index("false_stops")
S_OFFERS = SEAT_STATS.index("offers")
S_OFFERS_TAKEN = SEAT_STATS.index("offers_taken")
S_ACCEPTED = SEAT_STATS.index("offers_accepted")
S_SWAPS = SEAT_STATS.index("swaps")
S_ILLEGAL = SEAT_STATS.index("illegal_actions")
S_PLAYED_ON = SEAT_STATS.index("false_stops_played_on")
S_GIFT_OFFERS = SEAT_STATS.index("gift_offers")
S_FALSE_STOPS_ENDING = SEAT_STATS.index("false_stops_ending_round")
S_ALL_CARDS = SEAT_STATS.index("companies_all_held")
S_MAJORITIES = SEAT_STATS.index("majorities_scored")
S_BANKRUPT_CARDS = SEAT_STATS.index("bankrupt_cards")
S_BANKRUPT_MAJORITIES = SEAT_STATS.index("bankrupt_majorities")
# The kernel counts all but two: every false stop either ends its round or is played on, as the rule
# options.false_stop_ends_round says, so play_batch splits false_stops between those two afterwards
# (_derive_counters) and the tick loop pays nothing for them.

# event log (replay): one row per move
EVENT_FIELDS = 10
EV_GAME, EV_ROUND, EV_TICK, EV_KIND, EV_SEAT, EV_GIVE, EV_GIVE_COUNT, EV_WANT, EV_WANT_COUNT, EV_OTHER = range(EVENT_FIELDS)
# the recorded hands (record=True): trace[game, round, TRACE_START or TRACE_END, seat, company] holds each seat's
# cards per company as the round was dealt and as it ended; the row after the seats holds the centre card
# in its column TRACE_CENTRE (tests read it through trace_hands and trace_centre below)
TRACE_START, TRACE_END = 0, 1
TRACE_CENTRE = 0
EVENT_KINDS = ("pass", "offer_taken", "offer_untaken", "swap", "good_stop", "false_stop", "illegal", "stalemate")
(E_PASS, E_OFFER_TAKEN, E_OFFER_UNTAKEN, E_SWAP, E_GOOD_STOP, E_FALSE_STOP, E_ILLEGAL, E_STALEMATE) = range(len(EVENT_KINDS))


@njit(cache=True, _nrt=False)
def _check_cards(hands, centre, counts, n_players):
    for c in range(counts.size):
        total = 1 if centre == c else 0
        for p in range(n_players):
            if hands[p, c] < 0:
                raise AssertionError("wheedle: a hand holds a negative number of cards")
            total += hands[p, c]
        if total != counts[c]:
            raise AssertionError("wheedle: cards not conserved (61 = hands + centre)")


@njit(cache=True, _nrt=False)
def _deal(deck, deal_rng, hands, n_players, dealer, hand_size):
    """W2: the dealer draws the centre card first, then deals one card at a time from the dealer's left."""
    rng.shuffle(deal_rng, deck)
    hands[:, :] = 0
    for i in range(n_players * hand_size):
        hands[(dealer + 1 + i) % n_players, deck[1 + i]] += 1
    return deck[0]


@njit(cache=True, _nrt=False)
def _fill_static_public(public, seat, n_players, dealer, rnd, rounds, hand_size, counts, rules, totals):
    public[PUB_SEAT] = seat
    public[PUB_DEALER] = dealer
    public[PUB_PLAYERS] = n_players
    public[PUB_ROUND] = rnd
    public[PUB_ROUNDS] = rounds
    public[PUB_MAX_TICKS] = rules[R_MAX_TICKS]
    public[PUB_HAND_SIZE] = hand_size
    public[PUB_GIFTS_ALLOWED] = rules[R_GIFTS]
    public[PUB_STOP_BONUS] = rules[R_STOP_BONUS]
    public[PUB_FALSE_STOP] = rules[R_FALSE_STOP]
    public[PUB_ALL_POINTS] = rules[R_ALL_POINTS]
    public[PUB_MAJORITY_POINTS] = rules[R_MAJORITY_POINTS]
    public[PUB_BANKRUPT_POINTS] = rules[R_BANKRUPT_POINTS]
    public[PUB_BANKRUPT_MAJORITY_SCORES] = rules[R_BANKRUPT_MAJORITY_SCORES]
    public[PUB_FALSE_STOP_ENDS_ROUND] = rules[R_FALSE_STOP_ENDS_ROUND]
    public[PUB_FALSE_STOPPER_CARDS_SCORED] = rules[R_FALSE_STOPPER_CARDS_SCORED]
    public[PUB_COMPANIES] = counts.size
    for c in range(counts.size):
        public[PUB_HEADER + c] = counts[c]
    for p in range(n_players):
        public[PUB_HEADER + counts.size + p] = totals[p]


@njit(cache=True, _nrt=False)
def _view(seat, hands, hand_view, public, tick, centre, can_stop, streak, my_streak):
    """The only way hidden state reaches a strategy: its own hand, copied, and public fields."""
    for c in range(hand_view.size):     # an element loop: an array assignment would need the runtime
        hand_view[c] = hands[seat, c]
    public[PUB_TICK] = tick
    public[PUB_CENTRE] = centre
    public[PUB_CAN_STOP] = can_stop
    public[PUB_NO_TAKER_STREAK] = streak
    public[PUB_MY_NO_TAKER_STREAK] = my_streak


@njit(cache=True, _nrt=False)
def _offer_is_legal(action, hand, n_companies, gifts_allowed):
    """Every entry of an offer answer is checked before the engine uses any of it: company entries are
    -1 or a company (and a real company when its count is positive), counts lie in 0..MAX_OFFER_COUNT,
    the offerer holds what it gives, the two sides differ, and gifts only when the rules allow them."""
    give, k, want, m = action[A_GIVE], action[A_GIVE_COUNT], action[A_WANT], action[A_WANT_COUNT]
    if k < 0 or m < 0 or k > MAX_OFFER_COUNT or m > MAX_OFFER_COUNT or k + m == 0:
        return False
    if give < -1 or give >= n_companies or want < -1 or want >= n_companies:
        return False
    if not gifts_allowed and (k == 0 or m == 0):
        return False
    if k > 0 and (give < 0 or hand[give] < k):
        return False
    if m > 0 and want < 0:
        return False
    if k > 0 and m > 0 and give == want:
        return False
    return True


@njit(cache=True, _nrt=False)
def seat_round_points(hand, centre, counts, rules, part):
    """view.round_points with the scoring values of the rule vector ``rules`` (the R_* layout)."""
    return view_round_points(hand, centre, counts, rules[R_ALL_POINTS], rules[R_MAJORITY_POINTS],
                             rules[R_BANKRUPT_POINTS], rules[R_BANKRUPT_MAJORITY_SCORES] != 0,
                             rules[R_FALSE_STOPPER_CARDS_SCORED], rules[R_STOP_BONUS], rules[R_FALSE_STOP], part)


@njit(cache=True, _nrt=False)
def _count_scoring(stats, hand, centre, counts):
    """The scoring values a hand scored by card_points brought into play (counters only, no points)."""
    for c in range(hand.size):
        held = hand[c]
        if held == 0:
            continue
        if held == counts[c]:
            stats[S_ALL_CARDS] += 1
        elif 2 * held > counts[c]:
            stats[S_BANKRUPT_MAJORITIES if c == centre else S_MAJORITIES] += 1
        if c == centre:
            stats[S_BANKRUPT_CARDS] += held


@njit(cache=True, _nrt=False)
def _trace_hands(trace, hands, centre):
    """trace[seat, company] = hands; the last row's first entry is the centre card."""
    for p in range(hands.shape[0]):
        for c in range(hands.shape[1]):
            trace[p, c] = hands[p, c]
    trace[hands.shape[0], TRACE_CENTRE] = centre


@njit(cache=True, _nrt=False)
def _log(events, count, game, rnd, tick, kind, seat, give, k, want, m, other):
    i = count[0]
    if i < events.shape[0]:
        events[i, EV_GAME] = game
        events[i, EV_ROUND] = rnd
        events[i, EV_TICK] = tick
        events[i, EV_KIND] = kind
        events[i, EV_SEAT] = seat
        events[i, EV_GIVE] = give
        events[i, EV_GIVE_COUNT] = k
        events[i, EV_WANT] = want
        events[i, EV_WANT_COUNT] = m
        events[i, EV_OTHER] = other
    count[0] = i + 1


def _work_arrays(n_players, counts):
    """The kernel's working state, allocated by its caller: the kernel allocates nothing, so it is compiled
    without reference counting (every array view it makes or hands a strategy would otherwise cost an atomic
    increment and decrement), and arrays from the caller reach the strategies uncounted."""
    n_companies = counts.size
    int_arrays = [np.zeros(shape, np.int64) for shape in (
        counts.sum(), (n_players, n_companies), n_companies, (n_players, public_length(n_companies, n_players)),
        (SEEN_ROWS, n_players, n_companies), ACTION_SIZE, ACTION_SIZE, n_players - 1, n_players, n_players, n_players,
        n_players)]
    return (*int_arrays, np.zeros((n_players, MEMORY_SIZE)), np.zeros(4, np.uint64), np.zeros(4, np.uint64),
            np.zeros((n_players, 4), np.uint64))


# the state of a game between two ticks, beside the work arrays (GameState.scalars)
GAME_SCALARS = 8
G_ROUND, G_TICK, G_CENTRE, G_STREAK, G_STOPPER, G_STOPPED_GOOD, G_DEALT, G_OVER = range(GAME_SCALARS)


@njit(cache=True, _nrt=False)
def _start_game(seed, game, counts, work, scalars):
    """Seed a game's streams and clear its state: the next _advance deals its first round."""
    (deck, hands, hand_view, public, seen, action, offer, order, totals, round_points, can_stop, my_streak, memory,
     deal_rng, turn_rng, strategy_rng) = work
    rng.seed_stream(deal_rng, seed, game, rng.DEAL)
    rng.seed_stream(turn_rng, seed, game, rng.TURN)
    for p in range(strategy_rng.shape[0]):
        rng.seed_stream(strategy_rng[p], seed, game, rng.STRATEGY + p)
    memory[:, :] = 0.0
    totals[:] = 0
    i = 0
    for c in range(counts.size):
        for _ in range(counts[c]):
            deck[i] = c
            i += 1
    scalars[:] = 0
    scalars[G_STOPPER] = -1


@njit(cache=True, _nrt=False)
def _advance(g, n_players, counts, rules, acts, accepts, params, check, record, out_points, out_round_points,
             out_seat_stats, out_round_ticks, out_round_stopper, out_winner, events, event_count, trace, work, scalars,
             budget):
    """Play game ``g`` (its row of the outputs) on from the state in ``work`` and ``scalars``: to its end, or with
    ``budget`` >= 0 for at most that many ticks, each a decision of the seat drawn to act (the state is then
    left between two ticks). Returns True once the game is over."""
    n_companies = counts.size
    hand_size = rules[R_HAND]
    rounds = rules[R_ROUNDS]
    max_ticks = rules[R_MAX_TICKS]
    gifts_allowed = rules[R_GIFTS] != 0
    false_stop_ends = rules[R_FALSE_STOP_ENDS_ROUND] != 0

    (deck, hands, hand_view, public, seen, action, offer, order, totals, round_points, can_stop, my_streak, memory,
     deal_rng, turn_rng, strategy_rng) = work
    rnd, tick, centre, streak = scalars[G_ROUND], scalars[G_TICK], scalars[G_CENTRE], scalars[G_STREAK]
    stopper, stopped_good, dealt = scalars[G_STOPPER], scalars[G_STOPPED_GOOD] != 0, scalars[G_DEALT] != 0
    while rnd < rounds:
        dealer = rnd % n_players
        if not dealt:
            centre = _deal(deck, deal_rng, hands, n_players, dealer, hand_size)
            if record:
                _trace_hands(trace[g, rnd, TRACE_START], hands, centre)
            for p in range(n_players):
                _fill_static_public(public[p], p, n_players, dealer, rnd, rounds, hand_size, counts, rules, totals)
            seen[:, :, :] = 0
            round_points[:] = 0
            can_stop[:] = 1
            my_streak[:] = 0
            streak = 0
            stopper = -1
            stopped_good = False
            tick = 0
            dealt = True
        while tick < max_ticks and stopper < 0:
            if budget == 0:
                scalars[G_ROUND], scalars[G_TICK], scalars[G_CENTRE], scalars[G_STREAK] = rnd, tick, centre, streak
                scalars[G_STOPPER], scalars[G_STOPPED_GOOD], scalars[G_DEALT] = stopper, stopped_good, 1
                return False
            budget -= 1
            actor = rng.below(turn_rng, n_players)
            _view(actor, hands, hand_view, public[actor], tick, centre, can_stop[actor], streak, my_streak[actor])
            action[:] = 0
            deciding(actor, 0)
            kind = acts[actor](readonly(hand_view), readonly(public[actor]), readonly(seen), readonly(params[actor]),
                               memory[actor], strategy_rng[actor], action)
            attempted = kind
            if kind == OFFER:
                if not _offer_is_legal(action, hands[actor], n_companies, gifts_allowed):
                    kind = -1
                    if (action[A_GIVE_COUNT] == 0) != (action[A_WANT_COUNT] == 0):
                        out_seat_stats[g, actor, S_GIFT_OFFERS] += 1
                else:
                    give, k = action[A_GIVE], action[A_GIVE_COUNT]
                    want, m = action[A_WANT], action[A_WANT_COUNT]
                    # a legal offer gives or asks for something (k + m > 0), so one zero side makes it a gift
                    if k == 0:
                        give = -1
                        out_seat_stats[g, actor, S_GIFT_OFFERS] += 1
                    if m == 0:
                        want = -1
                        out_seat_stats[g, actor, S_GIFT_OFFERS] += 1
                    out_seat_stats[g, actor, S_OFFERS] += 1
                    if k > 0:
                        seen[OFFERED, actor, give] += 1
                    if m > 0:
                        seen[ASKED, actor, want] += 1
                    offer[OFFER_FROM] = actor
                    offer[A_GIVE] = give
                    offer[A_GIVE_COUNT] = k
                    offer[A_WANT] = want
                    offer[A_WANT_COUNT] = m
                    # W3: the players who could accept are asked in random order
                    n = 0
                    for p in range(n_players):
                        if p != actor:
                            order[n] = p
                            n += 1
                    rng.shuffle(turn_rng, order)
                    taker = -1
                    for j in range(n_players - 1):
                        p = order[j]
                        if m > 0 and hands[p, want] < m:
                            continue
                        _view(p, hands, hand_view, public[p], tick, centre, can_stop[p], streak, my_streak[p])
                        deciding(p, 1)
                        if accepts[p](readonly(hand_view), readonly(public[p]), readonly(seen), readonly(offer),
                                      readonly(params[p]), memory[p], strategy_rng[p]):
                            taker = p
                            break
                    if taker >= 0:
                        if k > 0:
                            hands[actor, give] -= k
                            hands[taker, give] += k
                            seen[NET, actor, give] -= k
                            seen[NET, taker, give] += k
                        if m > 0:
                            hands[taker, want] -= m
                            hands[actor, want] += m
                            seen[NET, taker, want] -= m
                            seen[NET, actor, want] += m
                        out_seat_stats[g, actor, S_OFFERS_TAKEN] += 1
                        out_seat_stats[g, taker, S_ACCEPTED] += 1
                        streak = 0
                        my_streak[actor] = 0
                    else:
                        streak += 1
                        my_streak[actor] += 1
                    if record:
                        _log(events, event_count, g, rnd, tick, E_OFFER_TAKEN if taker >= 0 else E_OFFER_UNTAKEN,
                             actor, give, k, want, m, taker)
            elif kind == SWAP:
                give = action[A_GIVE]  # the only entry a swap reads
                if give < 0 or give >= n_companies or give == centre or hands[actor, give] == 0:
                    kind = -1
                else:
                    hands[actor, give] -= 1
                    hands[actor, centre] += 1
                    seen[NET, actor, give] -= 1
                    seen[NET, actor, centre] += 1
                    if record:
                        _log(events, event_count, g, rnd, tick, E_SWAP, actor, give, 1, centre, 1, -1)
                    centre = give
                    out_seat_stats[g, actor, S_SWAPS] += 1
            elif kind == STOP:
                if can_stop[actor] == 0:
                    kind = -1
                else:
                    out_seat_stats[g, actor, S_STOPS] += 1
                    good = holds_majorities(hands[actor], counts)
                    if record:
                        _log(events, event_count, g, rnd, tick, E_GOOD_STOP if good else E_FALSE_STOP,
                             actor, -1, 0, -1, 0, -1)
                    if good:
                        out_seat_stats[g, actor, S_GOOD_STOPS] += 1
                        stopper = actor
                        stopped_good = True
                    else:
                        out_seat_stats[g, actor, S_FALSE_STOPS] += 1
                        if false_stop_ends:
                            stopper = actor
                        else:
                            # W4: the penalty is taken now, trading goes on, no second stop this round
                            round_points[actor] += rules[R_FALSE_STOP]
                            can_stop[actor] = 0
            elif kind == PASS:
                if record:
                    _log(events, event_count, g, rnd, tick, E_PASS, actor, -1, 0, -1, 0, -1)
            else:
                kind = -1
            if kind == -1:
                out_seat_stats[g, actor, S_ILLEGAL] += 1
                if record:
                    _log(events, event_count, g, rnd, tick, E_ILLEGAL, actor, attempted, action[A_GIVE],
                     action[A_GIVE_COUNT], action[A_WANT], action[A_WANT_COUNT])
            if check:
                _check_cards(hands, centre, counts, n_players)
            tick += 1

        # W5: nobody stopped within max_ticks -> stalemate, no stop bonus or penalty
        if stopper < 0 and record:
            _log(events, event_count, g, rnd, tick, E_STALEMATE, -1, -1, 0, -1, 0, -1)
        for p in range(n_players):
            part = NO_STOP if p != stopper else GOOD_STOP if stopped_good else FALSE_STOP
            round_points[p] += seat_round_points(hands[p], centre, counts, rules, part)
            if cards_scored(part, rules[R_FALSE_STOPPER_CARDS_SCORED]):
                _count_scoring(out_seat_stats[g, p], hands[p], centre, counts)
        for p in range(n_players):
            totals[p] += round_points[p]
            out_round_points[g, p, rnd] = round_points[p]
        out_round_ticks[g, rnd] = tick
        out_round_stopper[g, rnd] = stopper
        if record:
            _trace_hands(trace[g, rnd, TRACE_END], hands, centre)
        rnd += 1
        dealt = False

    best = totals[0]
    for p in range(1, n_players):
        best = max(best, totals[p])
    for p in range(n_players):
        out_points[g, p] = totals[p]
        out_winner[g, p] = totals[p] == best
    scalars[G_ROUND], scalars[G_DEALT], scalars[G_OVER] = rnd, 0, 1
    return True


@njit(cache=True, _nrt=False)
def _play(seed, first_game, n_games, n_players, counts, rules, acts, accepts, params, check, record,
          out_points, out_round_points, out_seat_stats, out_round_ticks, out_round_stopper, out_winner,
          events, event_count, trace, work, scalars):
    for g in range(n_games):
        _start_game(seed, first_game + g, counts, work, scalars)
        _advance(g, n_players, counts, rules, acts, accepts, params, check, record, out_points, out_round_points,
                 out_seat_stats, out_round_ticks, out_round_stopper, out_winner, events, event_count, trace, work,
                 scalars, -1)


def _padded(functions):
    """Each seat's (act, accept) as the kernel takes them: all acts, then all accepts, each padded to MAX_SEATS
    so that the kernel's type, and so its cache entry, does not depend on the player count."""
    pad = MAX_SEATS - len(functions)
    acts = tuple(act for act, _ in functions)
    accepts = tuple(accept for _, accept in functions)
    return acts + (acts[0],) * pad, accepts + (accepts[0],) * pad


def _derive_counters(seat_stats, rules):
    """Fill the two counters the kernel leaves to its caller: a false stop ends its round or is played on
    (W4) as options.false_stop_ends_round says for the whole game, so each is the false stops or none."""
    ends = rules[R_FALSE_STOP_ENDS_ROUND] != 0
    seat_stats[..., S_FALSE_STOPS_ENDING] = seat_stats[..., S_FALSE_STOPS] if ends else 0
    seat_stats[..., S_PLAYED_ON] = 0 if ends else seat_stats[..., S_FALSE_STOPS]


def play_batch(seed, first_game, n_games, prepared, functions, params, check=False, record=False, event_capacity=0):
    """Allocate outputs and run ``n_games`` games starting at global index ``first_game``, for compiled rules
    (rules.WheedleRules), each seat's decision functions (``functions[seat]``: act, accept) and parameters
    (``params[seat]``). Validates nothing. ``record``: log events (at most ``event_capacity``)."""
    counts, rules = prepared.counts, prepared.vector
    n_players = len(functions)
    rounds = int(rules[R_ROUNDS])
    acts, accepts = _padded(functions)
    out = {
        "points": np.zeros((n_games, n_players), np.int64),
        "round_points": np.zeros((n_games, n_players, rounds), np.int64),
        "seat_stats": np.zeros((n_games, n_players, len(SEAT_STATS)), np.int64),
        "round_ticks": np.zeros((n_games, rounds), np.int64),
        "round_stopper": np.zeros((n_games, rounds), np.int64),
        "winner": np.zeros((n_games, n_players), np.bool_),
    }
    events = np.zeros((event_capacity, EVENT_FIELDS), np.int64)
    event_count = np.zeros(1, np.int64)
    # trace[g, round, TRACE_START|TRACE_END, seat (the last row: the centre card), company]
    trace = np.zeros((n_games if record else 0, rounds, 2, n_players + 1, counts.size), np.int64)
    _play(np.uint64(seed), first_game, n_games, n_players, counts, rules, acts, accepts, params, check, record,
          out["points"], out["round_points"], out["seat_stats"], out["round_ticks"], out["round_stopper"],
          out["winner"], events, event_count, trace, _work_arrays(n_players, counts), np.zeros(GAME_SCALARS, np.int64))
    _derive_counters(out["seat_stats"], rules)
    out["events"] = events[: min(event_count[0], event_capacity)]
    out["events_lost"] = max(0, int(event_count[0]) - event_capacity)
    out["trace"] = trace
    return out


class GameState:
    """One game stopped between two ticks, to be copied and played on (steppable play: a search plays copies
    forward from a decision). Holds everything the kernel carries from tick to tick, the seats' strategy
    memories and random streams included, and the game's outputs so far (``result``). Made by ``start_game``."""

    def __init__(self, seed, game, counts, rules, acts, accepts, params, check, arrays):
        self.seed, self.game, self.counts, self.rules, self.check = seed, game, counts, rules, check
        self.acts, self.accepts, self.params = acts, accepts, params
        self.arrays = arrays   # (outputs..., work arrays..., scalars): every array the kernel writes

    def copy(self) -> "GameState":
        """An independent copy: playing it on changes nothing in this one."""
        return GameState(self.seed, self.game, self.counts, self.rules, self.acts, self.accepts, self.params,
                         self.check, tuple(a.copy() for a in self.arrays))

    @property
    def over(self) -> bool:
        return bool(self.arrays[-1][G_OVER])

    @property
    def round(self) -> int:
        return int(self.arrays[-1][G_ROUND])

    @property
    def tick(self) -> int:
        """The tick about to be played in the current round."""
        return int(self.arrays[-1][G_TICK])

    def step(self, ticks: int = -1) -> bool:
        """Play on for at most ``ticks`` ticks (-1: to the end of the game); True once the game is over."""
        (points, round_points, seat_stats, round_ticks, round_stopper, winner, *work, scalars) = self.arrays
        if self.over:
            return True
        return bool(_advance(0, points.shape[1], self.counts, self.rules, self.acts, self.accepts, self.params,
                             self.check, False, points, round_points, seat_stats, round_ticks, round_stopper, winner,
                             _NO_EVENTS, _NO_EVENT_COUNT, _NO_TRACE, tuple(work), scalars, int(ticks)))

    def result(self) -> dict:
        """The game's outputs as ``play_batch`` gives them for one game (final once ``over``)."""
        names = ("points", "round_points", "seat_stats", "round_ticks", "round_stopper", "winner")
        result = {name: array.copy() for name, array in zip(names, self.arrays)}
        _derive_counters(result["seat_stats"], self.rules)
        return result


_NO_EVENTS = np.zeros((0, EVENT_FIELDS), np.int64)
_NO_TRACE = np.zeros((0, 1, 2, 1, 1), np.int64)
_NO_EVENT_COUNT = np.zeros(1, np.int64)    # stepping never records, so it is never written


def start_game(seed, game, prepared, functions, params, check=False) -> GameState:
    """Game ``game`` of the stream ``seed`` (the same game ``play_batch`` plays at that index), before its first
    deal; ``prepared``/``functions``/``params`` as play_batch takes them."""
    counts, rules = prepared.counts, prepared.vector
    n_players = len(functions)
    rounds = int(rules[R_ROUNDS])
    acts, accepts = _padded(functions)
    outputs = (np.zeros((1, n_players), np.int64), np.zeros((1, n_players, rounds), np.int64),
               np.zeros((1, n_players, len(SEAT_STATS)), np.int64), np.zeros((1, rounds), np.int64),
               np.zeros((1, rounds), np.int64), np.zeros((1, n_players), np.bool_))
    work = _work_arrays(n_players, counts)
    scalars = np.zeros(GAME_SCALARS, np.int64)
    _start_game(np.uint64(seed), game, counts, work, scalars)
    return GameState(np.uint64(seed), game, counts, rules, acts, accepts, params, check, (*outputs, *work, scalars))


def trace_hands(trace, when=slice(None)):
    """The seats' hands (seat, company) in a trace or a slice of one that keeps its last three axes; ``when``:
    TRACE_START, TRACE_END or both."""
    return trace[..., when, : trace.shape[-2] - 1, :]


def trace_centre(trace, when=slice(None)):
    """The centre card in a trace or a slice of one that keeps its last three axes (as trace_hands)."""
    return trace[..., when, trace.shape[-2] - 1, TRACE_CENTRE]
