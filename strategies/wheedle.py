"""Shipped Wheedle strategies (the families of docs/rules/wheedle.md, "Shipped strategies").

``collector`` is one parametrised family covering target choice, offer and accept rules and the
stopping rules; the other names are its presets. ``random`` is the W7 baseline. Every parameter is
declared with its range, kind and meaning (``simkit strategies wheedle`` prints them).
"""
import math

import numpy as np
from numba import types

from simkit import rng
from simkit.catalogue import ParamOrder
from simkit.games.wheedle.view import (
    A_GIVE,
    A_GIVE_COUNT,
    A_WANT,
    A_WANT_COUNT,
    ACCEPT_SIGNATURE,
    ACT_SIGNATURE,
    ASKED,
    MAX_COMPANIES,
    NET,
    OFFER,
    OFFER_FROM,
    OFFERED,
    PASS,
    PUB_CAN_STOP,
    PUB_CENTRE,
    PUB_COMPANIES,
    PUB_GIFTS_ALLOWED,
    PUB_HAND_SIZE,
    PUB_HEADER,
    PUB_MAX_TICKS,
    PUB_MY_NO_TAKER_STREAK,
    PUB_PLAYERS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_TICK,
    STOP,
    SWAP,
    is_qualified,
    stop_points,
)
from simkit.numba_tools import readonly_array, uncounted
from simkit.strategy import Param, Strategy, preset, register

# the collector's parameter vector, in order (COLLECTOR_PARAMS below declares each one)
COLLECTOR_ORDER = ParamOrder("targets offer_size revise_after drop_ticks protect dump_centre sabotage stop points "
                             "patience bluff_points bluff_after")
(P_TARGETS, P_OFFER_SIZE, P_REVISE_AFTER, P_DROP_TICKS, P_PROTECT, P_DUMP_CENTRE, P_SABOTAGE, P_STOP,
 P_POINTS, P_PATIENCE, P_BLUFF_POINTS, P_BLUFF_AFTER) = COLLECTOR_ORDER.indices()
TARGETS = ("closest", "small-first", "uncontested")                 # values of `targets`, in order
STOP_RULES = ("qualified", "threshold", "patience", "never", "bluff")  # values of `stop`, in order
TARGET_CLOSEST, TARGET_SMALL_FIRST, TARGET_UNCONTESTED = range(len(TARGETS))
STOP_QUALIFIED, STOP_THRESHOLD, STOP_PATIENCE, STOP_NEVER, STOP_BLUFF = range(len(STOP_RULES))

# memory layout: a few floats of state, then per-company scratch rows (no allocation per decision)
STATE_FLOATS = 8
M_ROUND, M_DROPPED, M_DROPPED_UNTIL, M_BEST, M_BEST_TICK, M_TARGETS_FOR, M_ADOPTED, M_ADOPTED_UNTIL = range(STATE_FLOATS)
KEYS, WANTED, JUNK, NEEDY = (STATE_FLOATS + i * MAX_COMPANIES for i in range(4))
assert MAX_COMPANIES <= 32   # choose_targets ranks companies by key * 32 + company

# The helpers and decisions are compiled once each, for one explicit signature (called with literal constants
# such as NEEDY, Numba would compile a specialisation per value), and without reference counting (_nrt=False;
# nothing here allocates): with it, every array argument costs a call into the runtime and back. Strategy.build
# keeps the decisions as compiled here, so the engine calls them directly.
I, F, B = types.int64, types.float64, types.boolean
SHOWN, SEEN, PARAMS = readonly_array(I, 1), readonly_array(I, 3), readonly_array(F, 1)
MEMORY, STATE, ANSWER = types.Array(F, 1, "A"), types.Array(types.uint64, 1, "A"), types.Array(I, 1, "A")


@uncounted(types.void(SHOWN, MEMORY))
def _reset_round(public, memory):
    if memory[M_ROUND] != public[PUB_ROUND] + 1:
        memory[M_ROUND] = public[PUB_ROUND] + 1
        memory[M_DROPPED] = -1
        memory[M_DROPPED_UNTIL] = -1
        memory[M_BEST] = -1e9
        memory[M_BEST_TICK] = 0
        memory[M_ADOPTED] = -1
        memory[M_ADOPTED_UNTIL] = -1
    if memory[M_DROPPED_UNTIL] < public[PUB_TICK]:
        memory[M_DROPPED] = -1
    if memory[M_ADOPTED_UNTIL] < public[PUB_TICK]:
        memory[M_ADOPTED] = -1


@uncounted(types.void(SHOWN, SHOWN, SEEN, PARAMS, MEMORY))
def choose_targets(hand, public, seen, params, memory):
    """Mark the companies to collect in memory[WANTED + c]: keep every majority held, then add companies
    by the target rule while the hand can hold their majorities. The centre's company may be a target:
    the centre card changes with every swap, and taking it is how a collector gets it."""
    n = public[PUB_COMPANIES]
    seat = public[PUB_SEAT]
    mode = int(params[P_TARGETS])
    if mode != TARGET_UNCONTESTED:  # targets depend on the hand alone: reuse them while it is unchanged
        key = np.int64(memory[M_DROPPED] + 2) + 31 * np.int64(memory[M_ADOPTED] + 2) + 997 * public[PUB_ROUND]
        for c in range(n):
            key = key * 31 + hand[c]
        key = float(key % 1000000007) + 1
        if memory[M_TARGETS_FOR] == key:
            return
        memory[M_TARGETS_FOR] = key
    for c in range(n):
        cards = public[PUB_HEADER + c]
        need = max(0, cards // 2 + 1 - hand[c])
        if mode == TARGET_SMALL_FIRST:
            key = cards * 100.0 + need
        elif mode == TARGET_UNCONTESTED:
            rivals = 0
            for p in range(public[PUB_PLAYERS]):
                if p != seat:
                    rivals += seen[ASKED, p, c] + max(0, seen[NET, p, c])
            key = rivals * 100.0 + need
        else:
            key = need * 100.0 - hand[c]
        if need == 0:
            key -= 1e6  # a majority already held is always kept
        if c == memory[M_ADOPTED]:
            key -= 2e6
        # the companies in ascending order of key, a tie to the lower index: keys are whole numbers, so
        # key * 32 + c (c < MAX_COMPANIES <= 32) sorts both at once; insertion sort, in the KEYS row
        ranked = key * 32.0 + c
        i = c
        while i > 0 and memory[KEYS + i - 1] > ranked:
            memory[KEYS + i] = memory[KEYS + i - 1]
            i -= 1
        memory[KEYS + i] = ranked
        memory[WANTED + c] = 0.0
    capacity = max(public[PUB_HAND_SIZE], hand.sum())
    used = 0
    for i in range(n):
        ranked = memory[KEYS + i]
        best = int(ranked - 32.0 * math.floor(ranked / 32.0))
        if best == memory[M_DROPPED]:
            continue
        cost = max(hand[best], public[PUB_HEADER + best] // 2 + 1)
        if used + cost <= capacity:
            memory[WANTED + best] = 1.0
            used += cost


@uncounted(B(SHOWN, SHOWN, PARAMS, MEMORY))
def _wants_to_stop(hand, public, params, memory):
    rule = int(params[P_STOP])
    if rule == STOP_NEVER:
        return False
    tick = public[PUB_TICK]
    qualified = is_qualified(hand, public)
    # the score of a stop now is worked out only for the rules that read it (the best so far: patience alone)
    if rule == STOP_PATIENCE:
        score = stop_points(hand, public, qualified)
        if score > memory[M_BEST]:
            memory[M_BEST] = score
            memory[M_BEST_TICK] = tick
    if not qualified:
        return rule == STOP_BLUFF and tick >= params[P_BLUFF_AFTER] and \
            stop_points(hand, public, False) >= params[P_BLUFF_POINTS]
    if tick >= public[PUB_MAX_TICKS] - 4 * public[PUB_PLAYERS]:
        return True  # a qualified hand stops before the round would end as a stalemate
    if rule == STOP_THRESHOLD:
        return stop_points(hand, public, True) >= params[P_POINTS]
    if rule == STOP_PATIENCE:
        return tick - memory[M_BEST_TICK] >= params[P_PATIENCE]
    return True


@uncounted(I(STATE, MEMORY, I, I))
def _pick(state, memory, row, n):
    """A uniformly random company whose flag memory[row + c] is set, or -1."""
    count = 0
    for c in range(n):
        count += memory[row + c] != 0
    if count == 0:
        return -1
    r = rng.below(state, count)
    for c in range(n):
        if memory[row + c] != 0:
            if r == 0:
                return c
            r -= 1
    return -1


@uncounted(ACT_SIGNATURE)
def collector_act(hand, public, seen, params, memory, state, action):
    _reset_round(public, memory)
    if public[PUB_CAN_STOP] and _wants_to_stop(hand, public, params, memory):
        return STOP
    n = public[PUB_COMPANIES]
    centre = public[PUB_CENTRE]
    seat = public[PUB_SEAT]
    choose_targets(hand, public, seen, params, memory)
    # target revision: after too many untaken offers in a row, adopt a company every rival is trying to
    # give away (a card nobody wants freezes the round), else drop the weakest target for a while
    if params[P_REVISE_AFTER] > 0 and public[PUB_MY_NO_TAKER_STREAK] >= params[P_REVISE_AFTER]:
        adopt, most = -1, 0
        for c in range(n):
            if memory[WANTED + c] or hand[c] <= most:
                continue
            dumped, asked = 0, 0
            for p in range(public[PUB_PLAYERS]):
                if p != seat:
                    dumped += seen[OFFERED, p, c]
                    asked += seen[ASKED, p, c]
            if dumped > 0 and asked == 0:
                adopt, most = c, hand[c]
        if adopt >= 0 and memory[M_ADOPTED] < 0:
            memory[M_ADOPTED] = adopt
            memory[M_ADOPTED_UNTIL] = public[PUB_TICK] + params[P_DROP_TICKS]
        else:
            weakest, worst = -1, -1
            for c in range(n):
                need = public[PUB_HEADER + c] // 2 + 1 - hand[c]
                if memory[WANTED + c] and need > worst and c != memory[M_ADOPTED]:
                    weakest, worst = c, need
            if worst > 0:
                memory[M_DROPPED] = weakest
                memory[M_DROPPED_UNTIL] = public[PUB_TICK] + params[P_DROP_TICKS]
        choose_targets(hand, public, seen, params, memory)
    for c in range(n):
        memory[JUNK + c] = hand[c] > 0 and not memory[WANTED + c]
        memory[NEEDY + c] = memory[WANTED + c] and hand[c] < public[PUB_HEADER + c] // 2 + 1
    # the centre card is one we collect: put junk there (a rival's company if sabotaging, else a single card)
    if memory[NEEDY + centre] and (params[P_DUMP_CENTRE] > 0 or params[P_SABOTAGE] > 0):
        best, best_key = -1, -1e9
        for c in range(n):
            if memory[JUNK + c] and c != centre:
                key = -hand[c] * 1.0
                if params[P_SABOTAGE] > 0:
                    for p in range(public[PUB_PLAYERS]):
                        if p != seat:
                            key += 10.0 * (seen[ASKED, p, c] + max(0, seen[NET, p, c]))
                if key > best_key:
                    best, best_key = c, key
        if best >= 0:
            action[A_GIVE] = best
            return SWAP
    gifts = public[PUB_GIFTS_ALLOWED] != 0
    size = max(1, int(params[P_OFFER_SIZE]))
    want = _pick(state, memory, NEEDY, n)
    give = _pick(state, memory, JUNK, n)
    if want < 0 and give < 0:
        # qualified (or nothing to do): try to complete a company we hold a majority of
        for c in range(n):
            memory[NEEDY + c] = memory[WANTED + c] and c != centre and 0 < hand[c] < public[PUB_HEADER + c]
        want = _pick(state, memory, NEEDY, n)
        if want < 0 or not gifts:
            return PASS
        action[A_WANT], action[A_WANT_COUNT] = want, 1
        return OFFER
    if want >= 0 and give >= 0 and (not gifts or public[PUB_MY_NO_TAKER_STREAK] % 2 == 0):
        need = public[PUB_HEADER + want] // 2 + 1 - hand[want]
        action[A_WANT], action[A_WANT_COUNT] = want, min(need, size)
        action[A_GIVE], action[A_GIVE_COUNT] = give, min(hand[give], size)
        return OFFER
    if gifts:
        # a two-sided offer needs a rival who both holds what we want and wants what we give; after one
        # finds no taker, split it: give the junk away, or ask for the card for nothing
        if give >= 0 and (want < 0 or rng.uniform(state) < 0.5):
            action[A_GIVE], action[A_GIVE_COUNT] = give, min(hand[give], size)
        else:
            need = public[PUB_HEADER + want] // 2 + 1 - hand[want]
            action[A_WANT], action[A_WANT_COUNT] = want, min(need, size)
        return OFFER
    if give >= 0:  # no gifts and nothing we lack: trade junk for a card of any company we collect
        for c in range(n):
            memory[NEEDY + c] = memory[WANTED + c] and hand[c] < public[PUB_HEADER + c]
        want = _pick(state, memory, NEEDY, n)
        if want >= 0:
            action[A_GIVE], action[A_GIVE_COUNT] = give, 1
            action[A_WANT], action[A_WANT_COUNT] = want, 1
            return OFFER
    return PASS


@uncounted(F(SHOWN, SHOWN, SEEN, I, I, I))
def rival_holding_after(hand, public, seen, rival, company, m):
    """Estimate, from public information only, how many cards of ``company`` a rival would hold after
    receiving ``m`` more: its hand is what it was dealt plus its public net flow (cards travel face up),
    and what it was dealt is estimated as its share of the cards we were not dealt."""
    n = public[PUB_COMPANIES]
    total = 0
    for c in range(n):
        total += public[PUB_HEADER + c]
    hand_size = public[PUB_HAND_SIZE]
    unseen = total - hand_size  # the other hands and the centre
    my_dealt = hand[company] - seen[NET, public[PUB_SEAT], company]
    dealt = (public[PUB_HEADER + company] - my_dealt) * hand_size / unseen if unseen > 0 else 0.0
    return max(dealt + seen[NET, rival, company], 0.0) + m


@uncounted(ACCEPT_SIGNATURE)
def collector_accept(hand, public, seen, offer, params, memory, state):
    _reset_round(public, memory)
    choose_targets(hand, public, seen, params, memory)
    give, k, want, m = offer[A_GIVE], offer[A_GIVE_COUNT], offer[A_WANT], offer[A_WANT_COUNT]
    if m > 0 and memory[WANTED + want]:
        return False  # never part with cards we collect
    if k > 0 and not memory[WANTED + give]:
        return False  # junk in would spoil our majorities
    if m > 0 and params[P_PROTECT] > 0:
        # refuse only a deal that would hand the rival a majority (protect - 1 cards of extra caution)
        holding = rival_holding_after(hand, public, seen, offer[OFFER_FROM], want, m)
        if 2 * (holding + params[P_PROTECT] - 1) > public[PUB_HEADER + want]:
            return False
    return k > 0 or m > 0


@uncounted(I(SHOWN, SHOWN, I, ANSWER))
def _random_legal(hand, public, target, action):
    """Walk the distinct legal actions of W7 in a fixed order; return their count, and when
    ``target`` >= 0 write the target-th one into ``action`` and return its type."""
    n = public[PUB_COMPANIES]
    centre = public[PUB_CENTRE]
    gifts = public[PUB_GIFTS_ALLOWED] != 0
    i = 0
    for give in range(-1, n):
        for k in range(0, 3):
            if (give < 0) != (k == 0) or (give >= 0 and hand[give] < k):
                continue
            for want in range(-1, n):
                for m in range(0, 3):
                    if (want < 0) != (m == 0) or k + m == 0 or (give >= 0 and give == want):
                        continue
                    if not gifts and (k == 0 or m == 0):
                        continue
                    if i == target:
                        action[A_GIVE], action[A_GIVE_COUNT], action[A_WANT], action[A_WANT_COUNT] = give, k, want, m
                        return OFFER
                    i += 1
    for c in range(n):
        if hand[c] > 0 and c != centre:
            if i == target:
                action[A_GIVE] = c
                return SWAP
            i += 1
    if public[PUB_CAN_STOP]:
        if i == target:
            return STOP
        i += 1
    if i == target:
        return PASS
    return i + 1


@uncounted(ACT_SIGNATURE)
def random_act(hand, public, seen, params, memory, state, action):
    count = _random_legal(hand, public, -1, action)
    return _random_legal(hand, public, rng.below(state, count), action)


@uncounted(ACCEPT_SIGNATURE)
def random_accept(hand, public, seen, offer, params, memory, state):
    return rng.uniform(state) < params[0]


COLLECTOR_PARAMS = COLLECTOR_ORDER.declare({
    "targets": Param(TARGET_CLOSEST, kind="choice", choices=TARGETS,
                     doc="which companies to collect: those closest to a majority, the small (5-card) ones first, "
                         "or those fewest rivals are asking for"),
    "offer_size": Param(1, 1, 20, "int", "most cards given or asked per side in one offer"),
    "revise_after": Param(6, 0, 100, "int", "untaken offers in a row before targets are revised (0: never)"),
    "drop_ticks": Param(200, 0, 5000, "int", "ticks a revision lasts (a target dropped, or a dumped company adopted)"),
    "protect": Param(0, 0, 10, "int", "refuse a deal that would hand the rival a majority, estimated from public "
                                      "flows (0: never refuse; each unit above 1 is a card of extra caution)"),
    "dump_centre": Param(1, kind="bool", doc="swap an unwanted card for the centre card when the centre's company "
                                             "is one we collect"),
    "sabotage": Param(0, kind="bool", doc="when swapping, bankrupt a company rivals collect"),
    "stop": Param(STOP_QUALIFIED, kind="choice", choices=STOP_RULES,
                  doc="when to stop: as soon as qualified; qualified with a round score of at least `points`; "
                      "qualified and `patience` ticks without improvement; never; or as qualified, and also "
                      "unqualified per `bluff_points`/`bluff_after`"),
    "points": Param(20, 0, 100, "int", "stop rule threshold: the least round score to stop at"),
    "patience": Param(20, 0, 2000, "int", "stop rule patience: ticks without improvement before stopping"),
    "bluff_points": Param(15, -100, 100, "int", "stop rule bluff: stop unqualified once what a false stop would "
                                                "score (its penalty and W8 included) reaches this"),
    "bluff_after": Param(100, 0, 2000, "int", "stop rule bluff: not before this tick of the round"),
})

collector = register(Strategy.build(
    "wheedle", "collector", act=collector_act, accept=collector_accept, params=COLLECTOR_PARAMS,
    doc="Collects the companies closest to a majority, trades junk for them, stops as soon as qualified; "
        "every parameter of the family can be set."))


hair_trigger = preset(collector, "hair-trigger", "Collector that stops the moment it shows majorities.", stop=STOP_QUALIFIED)
threshold = preset(collector, "threshold", "Collector that stops once qualified with a round score of at least `points`.",
                    stop=STOP_THRESHOLD, points=24)
patient = preset(collector, "patient", "Collector that stops once qualified and `patience` ticks passed without improvement.",
                  stop=STOP_PATIENCE)
never_stop = preset(collector, "never-stop", "Collector that never stops (rounds end by others or as stalemates).",
                     stop=STOP_NEVER)
bluffer = preset(collector, "bluffer", "Collector that also stops unqualified late in a round when what a false stop would "
                  "score (penalty and W8 included) reaches `bluff_points`.",
                  stop=STOP_BLUFF)
blocker = preset(collector, "blocker", "Collector that refuses deals that would hand a rival a majority and bankrupts "
                 "the companies rivals collect.",
                  protect=1, sabotage=1, stop=STOP_QUALIFIED)
small_first = preset(collector, "small-first", "Collector that targets the small (5-card) companies first.",
                      targets=TARGET_SMALL_FIRST)
contrarian = preset(collector, "contrarian", "Collector that targets the companies fewest rivals are asking for.",
                     targets=TARGET_UNCONTESTED)
# found by experiments/wheedle-tuned.toml (its fourth search: a best response to the rest of the default line-up);
# docs/tuning.md has the searches, the three before it, and the validation. points=40 is the search's value; the
# patience stop does not read it
tuned = preset(collector, "tuned", "Patient tuned by search (experiments/wheedle-tuned.toml) as a best response to "
                                   "hair-trigger, threshold and blocker: stops after 7 ticks without improvement "
                                   "instead of 20, and refuses deals that would hand a rival a majority.",
                stop=STOP_PATIENCE, points=40, patience=7, protect=1)
random = register(Strategy.build(
    "wheedle", "random", act=random_act, accept=random_accept,
    params={"accept": Param(0.5, 0.0, 1.0, doc="chance of accepting an offer it can fill")},
    doc="W7 baseline: uniform over every distinct legal action; accepts a fillable offer with probability `accept`."))
