"""Wheedle ``expert``: play driven by a value of the hand and by estimates of the rivals' holdings.

Every decision reads the same picture of the table, built from public facts only (view.py's estimators):
how many cards of each company each rival holds (what it was dealt, estimated from the deal's public facts,
plus its public flows), and from that each rival's round score if the round ended now.
- Targets: the companies whose majority is cheapest to reach, where a rival's estimated holding makes a
  company dearer (it will not give its cards up) and a rival's estimated majority rules it out.
- Trading: swap junk into the centre when the centre card is a target (bankrupting the company the rivals
  hold most of), offer one junk card (of the junk held most) for the target card fewest from its majority, or
  from all of it once the majority is held, ask for target cards for nothing, give junk away (at once when
  every target holds its majority: only the junk then keeps the hand from a stop).
- Raids: a junk card is swapped into the centre when bankrupting its company costs the rivals' estimated majorities
  far more than it costs us (the round scored as if it ended after the swap); and a stuck expert holding cards of
  the bankrupt company (nobody takes them) swaps other junk in, which moves the bankruptcy so they can go.
- Acceptance: a deal is taken only when it raises the hand's value by more than it raises the offerer's
  estimated round score (weighted). The weight, and the worth of a target still short of its majority, fade
  over the round, and a stuck expert drops a target it holds cards of: experts who all refuse each other the
  last card of a majority would otherwise freeze the round.
- Stopping: qualified, and the stop's score leads the best rival's estimated round score by a margin, or is
  large, or has not improved for a while; in the last round, whenever the game total would then lead.
"""
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
    MAX_COMPANIES,
    OFFER,
    OFFER_FROM,
    PASS,
    PUB_ALL_POINTS,
    PUB_BANKRUPT_POINTS,
    PUB_CAN_STOP,
    PUB_CENTRE,
    PUB_COMPANIES,
    PUB_GIFTS_ALLOWED,
    PUB_HAND_SIZE,
    PUB_HEADER,
    PUB_MAJORITY_POINTS,
    PUB_MAX_TICKS,
    PUB_MY_NO_TAKER_STREAK,
    PUB_PLAYERS,
    PUB_ROUND,
    PUB_ROUNDS,
    PUB_SEAT,
    PUB_TICK,
    STOP,
    SWAP,
    holding_estimate,
    initial_centre,
    is_qualified,
    score_so_far,
    stop_points,
)
from simkit.numba_tools import readonly_array, uncounted
from simkit.strategy import Param, Strategy, register

# the expert's parameter vector, in order (EXPERT_PARAMS below declares each one)
EXPERT_ORDER = ParamOrder("spare contest small junk partial rival ask_gift give_all stop_lead stop_points patience "
                          "revise_after drop_ticks sabotage thaw gather raid raid_margin unstick")
(P_SPARE, P_CONTEST, P_SMALL, P_JUNK, P_PARTIAL, P_RIVAL, P_ASK_GIFT, P_GIVE_ALL, P_STOP_LEAD, P_STOP_POINTS,
 P_PATIENCE, P_REVISE_AFTER, P_DROP_TICKS, P_SABOTAGE, P_THAW, P_GATHER, P_RAID, P_RAID_MARGIN,
 P_UNSTICK) = EXPERT_ORDER.indices()

# memory: a few floats of round state, then per-company rows
(M_ROUND, M_FIRST_CENTRE, M_BEST, M_BEST_TICK, M_DROPPED, M_DROPPED_UNTIL) = range(6)
WANTED, RIVAL_MAX, RIVAL_SUM, KEYS = (8 + i * MAX_COMPANIES for i in range(4))

I, F, B = types.int64, types.float64, types.boolean
SHOWN, SEEN, PARAMS = readonly_array(I, 1), readonly_array(I, 3), readonly_array(F, 1)
MEMORY, STATE, ANSWER = types.Array(F, 1, "A"), types.Array(types.uint64, 1, "A"), types.Array(I, 1, "A")


@uncounted(F(SHOWN, I, F, I))
def _points(public, company, held, centre):
    """Round points of ``held`` cards of a company (fractional for an estimate) if the round ended now."""
    cards = public[PUB_HEADER + company]
    if company == centre:
        return public[PUB_BANKRUPT_POINTS] * held
    if held >= cards:
        return public[PUB_ALL_POINTS] * held
    if 2 * held > cards:
        return public[PUB_MAJORITY_POINTS] * held
    return 0.0


@uncounted(types.void(SHOWN, SHOWN, SEEN, MEMORY))
def _survey(hand, public, seen, memory):
    """Start a round's memory once; then each rival company's largest and summed estimated holding."""
    if memory[M_ROUND] != public[PUB_ROUND] + 1:
        memory[M_ROUND] = public[PUB_ROUND] + 1
        memory[M_FIRST_CENTRE] = initial_centre(public, seen)
        memory[M_BEST] = -1e9
        memory[M_BEST_TICK] = 0
        memory[M_DROPPED] = -1
        memory[M_DROPPED_UNTIL] = -1
    if memory[M_DROPPED_UNTIL] < public[PUB_TICK]:
        memory[M_DROPPED] = -1
    first = int(memory[M_FIRST_CENTRE])
    seat = public[PUB_SEAT]
    for c in range(public[PUB_COMPANIES]):
        most, total = 0.0, 0.0
        for p in range(public[PUB_PLAYERS]):
            if p != seat:
                held = holding_estimate(hand, public, seen, p, c, first)
                most = max(most, held)
                total += held
        memory[RIVAL_MAX + c] = most
        memory[RIVAL_SUM + c] = total


@uncounted(types.void(SHOWN, SHOWN, PARAMS, MEMORY))
def _choose_targets(hand, public, params, memory):
    """memory[WANTED + c] = 1 for the companies to collect: every majority held, then the cheapest others
    while their majorities fit in the hand (hand size + `spare`). A company's cost is the cards it still
    needs plus `contest` per card the strongest rival is estimated to hold; one a rival is estimated to hold a
    majority of, or the one dropped after untaken offers, is not a target."""
    n = public[PUB_COMPANIES]
    for c in range(n):
        majority = public[PUB_HEADER + c] // 2 + 1
        need = max(0, majority - hand[c])
        key = need + params[P_CONTEST] * memory[RIVAL_MAX + c] + params[P_SMALL] * public[PUB_HEADER + c] / 10.0 \
            - 0.01 * hand[c]
        if need == 0:
            key -= 1e6   # a majority held is always kept
        elif memory[RIVAL_MAX + c] >= majority or c == memory[M_DROPPED]:
            key = np.inf
        memory[KEYS + c] = key
        memory[WANTED + c] = 0.0
    capacity = public[PUB_HAND_SIZE] + params[P_SPARE]
    used = 0
    for _ in range(n):   # the companies in ascending order of key (a tie to the lower index)
        best = 0
        for c in range(1, n):
            if memory[KEYS + c] < memory[KEYS + best]:
                best = c
        if memory[KEYS + best] == np.inf:
            break
        memory[KEYS + best] = np.inf
        cost = max(hand[best], public[PUB_HEADER + best] // 2 + 1)
        if used + cost <= capacity:
            memory[WANTED + best] = 1.0
            used += cost


@uncounted(F(SHOWN, PARAMS, MEMORY, I, I))
def _card_value(public, params, memory, company, held):
    """The hand's value of ``held`` cards of a company: their points at a majority, `partial` per card of a
    target short of one (fading, below), minus `junk` per card of a company we do not collect (it must go before
    we can stop)."""
    if held <= 0:
        return 0.0
    cards = public[PUB_HEADER + company]
    if company == public[PUB_CENTRE]:
        return _points(public, company, held, company)   # the bankrupt company's cost if the round ended now
    if held >= cards:
        return public[PUB_ALL_POINTS] * held
    if 2 * held > cards:
        return public[PUB_MAJORITY_POINTS] * held
    # cards gathered in one company are worth more than as many spread over several: any of them may become a
    # majority, and the cards rivals give away score for whoever holds them when someone stops (`gather` * held^2
    # / majority; with `junk` at 0 this is what makes the expert take such gifts)
    gathered = params[P_GATHER] * held * held / (cards // 2 + 1)
    if memory[WANTED + company]:
        # a target short of its majority keeps the hand from stopping like junk does: worth less as the round
        # goes on, and as much as junk once `thaw` ticks have passed (so stuck players give such cards up)
        fade = min(1.0, public[PUB_TICK] / params[P_THAW])
        return (params[P_PARTIAL] - (params[P_PARTIAL] + params[P_JUNK]) * fade) * held + gathered
    return -params[P_JUNK] * held + gathered


@uncounted(F(SHOWN, SHOWN, SEEN, MEMORY, I))
def _rival_round_points(hand, public, seen, memory, rival):
    """A rival's round points if the round ended now, from its estimated holdings."""
    first = int(memory[M_FIRST_CENTRE])
    centre = public[PUB_CENTRE]
    total = 0.0
    for c in range(public[PUB_COMPANIES]):
        total += _points(public, c, holding_estimate(hand, public, seen, rival, c, first), centre)
    return total


@uncounted(B(SHOWN, SHOWN, SEEN, PARAMS, MEMORY))
def _wants_to_stop(hand, public, seen, params, memory):
    """For a qualified hand: does stopping now beat waiting?"""
    tick = public[PUB_TICK]
    mine = stop_points(hand, public, True)
    if mine > memory[M_BEST]:
        memory[M_BEST] = mine
        memory[M_BEST_TICK] = tick
    if tick >= public[PUB_MAX_TICKS] - 4 * public[PUB_PLAYERS]:
        return True
    seat = public[PUB_SEAT]
    best_rival, best_rival_total = -1e9, -1e9
    for p in range(public[PUB_PLAYERS]):
        if p != seat:
            points = _rival_round_points(hand, public, seen, memory, p)
            best_rival = max(best_rival, points)
            best_rival_total = max(best_rival_total, score_so_far(public, p) + points)
    if public[PUB_ROUND] == public[PUB_ROUNDS] - 1 and score_so_far(public, seat) + mine > best_rival_total:
        return True  # the last round: a stop now wins the game as far as the estimates tell
    if mine - best_rival >= params[P_STOP_LEAD] or mine >= params[P_STOP_POINTS]:
        return True
    return tick - memory[M_BEST_TICK] >= params[P_PATIENCE]


@uncounted(I(SHOWN, SHOWN, PARAMS, MEMORY, STATE, I))
def _pick_junk(hand, public, params, memory, state, centre):
    """The junk to swap into the centre: a company we hold but do not collect (not the centre's), with
    `sabotage` the one the rivals hold most of (bankrupting it costs them), else the one we hold fewest of; -1
    if none."""
    best, best_key = -1, -1e18
    for c in range(public[PUB_COMPANIES]):
        if hand[c] > 0 and not memory[WANTED + c] and c != centre:
            key = -hand[c] + params[P_SABOTAGE] * memory[RIVAL_SUM + c] + 0.001 * rng.uniform(state)
            if key > best_key:
                best, best_key = c, key
    return best


@uncounted(I(SHOWN, SHOWN, SEEN, PARAMS, MEMORY))
def _pick_raid(hand, public, seen, params, memory):
    """A junk card to swap into the centre to bankrupt its company when that costs the rivals more than it costs
    us, as far as the estimates tell if the round ended now: the company whose swap scores best, our change in
    round points less `raid` times the rivals' summed change, if that beats `raid_margin`; -1 if none."""
    centre = public[PUB_CENTRE]
    if centre < 0 or params[P_RAID] <= 0:
        return -1
    first = int(memory[M_FIRST_CENTRE])
    seat = public[PUB_SEAT]
    best, best_gain = -1, params[P_RAID_MARGIN]
    for x in range(public[PUB_COMPANIES]):
        if hand[x] <= 0 or memory[WANTED + x] or x == centre:
            continue
        mine = _points(public, x, hand[x] - 1, x) + _points(public, centre, hand[centre] + 1, x) \
            - _points(public, x, hand[x], centre) - _points(public, centre, hand[centre], centre)
        theirs = 0.0
        for p in range(public[PUB_PLAYERS]):
            if p != seat:
                held_x = holding_estimate(hand, public, seen, p, x, first)
                held_c = holding_estimate(hand, public, seen, p, centre, first)
                theirs += _points(public, x, held_x, x) + _points(public, centre, held_c, x) \
                    - _points(public, x, held_x, centre) - _points(public, centre, held_c, centre)
        gain = mine - params[P_RAID] * theirs
        if gain > best_gain:
            best, best_gain = x, gain
    return best


@uncounted(I(SHOWN, SHOWN, MEMORY, STATE))
def _pick_give(hand, public, memory, state):
    """The junk to give away in an offer: the company we do not collect that we hold most of (the centre's
    first: its cards cost a point each if the round ends now), each count jittered by up to two cards; -1 if
    none. Giving the largest junk first was measured against giving the smallest (docs/games.md, "Wheedle's
    expert, measured")."""
    centre = public[PUB_CENTRE]
    best, best_key = -1, -1e18
    for c in range(public[PUB_COMPANIES]):
        if hand[c] > 0 and not memory[WANTED + c]:
            key = hand[c] + 2.0 * rng.uniform(state) + (3.0 if c == centre else 0.0)
            if key > best_key:
                best, best_key = c, key
    return best


@uncounted(B(SHOWN, SHOWN, MEMORY))
def _targets_all_held(hand, public, memory):
    """Every target holds its majority: what is left to do is to give the junk away (or complete a company)."""
    for c in range(public[PUB_COMPANIES]):
        if memory[WANTED + c] and 2 * hand[c] <= public[PUB_HEADER + c]:
            return False
    return True


@uncounted(ACT_SIGNATURE)
def expert_act(hand, public, seen, params, memory, state, action):
    _survey(hand, public, seen, memory)
    n = public[PUB_COMPANIES]
    centre = public[PUB_CENTRE]
    tick = public[PUB_TICK]
    streak = public[PUB_MY_NO_TAKER_STREAK]
    if params[P_REVISE_AFTER] > 0 and streak >= params[P_REVISE_AFTER] and memory[M_DROPPED] < 0:
        _choose_targets(hand, public, params, memory)
        # drop the target furthest from its majority, among those we hold cards of first: those cards turn into
        # junk to give away, which is what unblocks a table where each holds what another collects
        weakest, worst = -1, 0
        for c in range(n):
            need = public[PUB_HEADER + c] // 2 + 1 - hand[c]
            key = need + (100 if hand[c] > 0 else 0)
            if memory[WANTED + c] and need > 0 and key > worst:
                weakest, worst = c, key
        if weakest >= 0:
            memory[M_DROPPED] = weakest
            memory[M_DROPPED_UNTIL] = tick + params[P_DROP_TICKS]
    _choose_targets(hand, public, params, memory)
    if public[PUB_CAN_STOP] and is_qualified(hand, public) and _wants_to_stop(hand, public, seen, params, memory):
        return STOP
    # the centre card is a target we lack cards of: put junk there
    if memory[WANTED + centre] and hand[centre] < public[PUB_HEADER + centre] - 1:
        junk = _pick_junk(hand, public, params, memory, state, centre)
        if junk >= 0:
            action[A_GIVE] = junk
            return SWAP
    # stuck with cards of the bankrupt company that nobody takes (they cost whoever holds them): move the
    # bankruptcy to other junk, after which those cards can be given away
    if params[P_UNSTICK] > 0 and streak >= params[P_UNSTICK] and hand[centre] > 0 and not memory[WANTED + centre]:
        junk = _pick_junk(hand, public, params, memory, state, centre)
        if junk >= 0:
            action[A_GIVE] = junk
            return SWAP
    # a junk card whose company the rivals hold majorities of: bankrupt it
    raid = _pick_raid(hand, public, seen, params, memory)
    if raid >= 0:
        action[A_GIVE] = raid
        return SWAP
    # the target fewest cards from its majority, or from all of it once it holds the majority (a company held whole
    # scores double, and the rivals give such cards away: they hold too few to collect it), jittered by up to 1.5
    # cards so that asks spread over the targets; and junk to part with
    want, best_need = -1, 1e18
    for c in range(n):
        if memory[WANTED + c] and c != centre and hand[c] < public[PUB_HEADER + c]:
            need = public[PUB_HEADER + c] // 2 + 1 - hand[c]
            key = need if need > 0 else public[PUB_HEADER + c] - hand[c]
            key = key * 4 + rng.below(state, 4) + 6.0 * rng.uniform(state)
            if key < best_need:
                want, best_need = c, key
    give = _pick_give(hand, public, memory, state)
    gifts = public[PUB_GIFTS_ALLOWED] != 0
    if gifts and want >= 0 and give >= 0 and _targets_all_held(hand, public, memory):
        # every target holds its majority: only the junk keeps the hand from a stop, so give it away rather than
        # ask a card that completes a company for it (the rounds are a race to the first good stop)
        action[A_GIVE], action[A_GIVE_COUNT] = give, 1
        return OFFER
    if want >= 0 and give >= 0:
        # one-sided offers only once our offers keep finding no taker: among experts, who all gather cards and
        # refuse each other targets, they are what keeps a round from freezing
        if gifts and 2 * streak >= params[P_REVISE_AFTER] and rng.uniform(state) < params[P_ASK_GIFT]:
            if streak % 2 == 0:
                action[A_WANT], action[A_WANT_COUNT] = want, 1
            else:
                action[A_GIVE], action[A_GIVE_COUNT] = give, hand[give] if params[P_GIVE_ALL] else 1
            return OFFER
        action[A_GIVE], action[A_GIVE_COUNT] = give, 1
        action[A_WANT], action[A_WANT_COUNT] = want, 1
        return OFFER
    if not gifts:
        return PASS
    if give >= 0:
        action[A_GIVE], action[A_GIVE_COUNT] = give, hand[give] if params[P_GIVE_ALL] else 1
        return OFFER
    if want >= 0:
        action[A_WANT], action[A_WANT_COUNT] = want, 1
        return OFFER
    return PASS


@uncounted(ACCEPT_SIGNATURE)
def expert_accept(hand, public, seen, offer, params, memory, state):
    _survey(hand, public, seen, memory)
    _choose_targets(hand, public, params, memory)
    give, k, want, m = offer[A_GIVE], offer[A_GIVE_COUNT], offer[A_WANT], offer[A_WANT_COUNT]
    gain = 0.0
    if k > 0:
        gain += _card_value(public, params, memory, give, hand[give] + k) - \
            _card_value(public, params, memory, give, hand[give])
    if m > 0:
        gain += _card_value(public, params, memory, want, hand[want] - m) - \
            _card_value(public, params, memory, want, hand[want])
    if gain <= 0.0:
        return False
    # what the deal does for the offerer, from its estimated holdings
    rival = offer[OFFER_FROM]
    first = int(memory[M_FIRST_CENTRE])
    centre = public[PUB_CENTRE]
    theirs = 0.0
    if m > 0:
        held = holding_estimate(hand, public, seen, rival, want, first)
        theirs += _points(public, want, held + m, centre) - _points(public, want, held, centre)
    if k > 0:
        held = holding_estimate(hand, public, seen, rival, give, first)
        theirs += _points(public, give, max(0.0, held - k), centre) - _points(public, give, held, centre)
    # the weight of the offerer's gain fades over the round: players who all refuse each other the last card of
    # a majority would otherwise freeze the round until max_ticks (a stalemate: no stop bonus for anyone)
    weight = params[P_RIVAL] * max(0.0, 1.0 - public[PUB_TICK] / params[P_THAW])
    return gain > weight * theirs


EXPERT_PARAMS = EXPERT_ORDER.declare({
    "spare": Param(1, 0, 15, "int", "cards above the hand size that the targets' majorities may add up to"),
    "contest": Param(0.5, 0.0, 3.0, doc="target cost per card the strongest rival is estimated to hold"),
    "small": Param(-1.69, -3.0, 3.0, doc="target cost per 10 printed cards (negative: prefer big companies)"),
    "junk": Param(0.0, 0.0, 3.0, doc="value lost per card of a company not collected (it must go before a stop)"),
    "partial": Param(0.5, 0.0, 1.0, doc="value per card of a target short of its majority"),
    "rival": Param(1.5, 0.0, 3.0, doc="weight of the offerer's estimated gain in round points against ours "
                                      "when accepting"),
    "ask_gift": Param(0.15, 0.0, 1.0, doc="chance of offering a one-sided deal (ask a target card for nothing, "
                                        "or give junk away) instead of junk for a target card, once half of "
                                        "`revise_after` offers in a row found no taker"),
    "give_all": Param(0, kind="bool", doc="give away every card of a junk company at once (else one)"),
    "stop_lead": Param(-3.509, -20.0, 30.0, doc="stop when qualified and the stop's score leads the best rival's "
                                              "estimated round score by this"),
    "stop_points": Param(32, 0, 100, "int", "stop when qualified with a stop score of at least this"),
    "patience": Param(13, 0, 500, "int", "stop when qualified and the stop score has not improved for this many "
                                        "ticks"),
    "revise_after": Param(16, 0, 100, "int", "untaken offers in a row before the neediest target is dropped "
                                            "(0: never)"),
    "drop_ticks": Param(24, 0, 2000, "int", "ticks a dropped target stays dropped"),
    "sabotage": Param(1.142, 0.0, 5.0, doc="when choosing junk to swap or give, weight of the rivals' estimated "
                                         "holding of it (a swapped card bankrupts its company)"),
    "thaw": Param(484, 1, 2000, "int", "ticks over which the weight of the offerer's gain (`rival`) fades to 0 "
                                          "within a round"),
    "gather": Param(0.1, 0.0, 3.0, doc="value of cards short of a majority per held^2 / majority: deals that "
                                       "gather a company's cards in the hand are worth taking"),
    "raid": Param(0.5, 0.0, 3.0, doc="weight of the rivals' estimated loss of round points when a junk card is "
                                     "swapped into the centre to bankrupt its company (0: never)"),
    "raid_margin": Param(6.0, 0.0, 30.0, doc="the least net gain in round points (ours less `raid` times the "
                                             "rivals') for which such a swap is made"),
    "unstick": Param(30, 0, 100, "int", "untaken offers in a row after which an expert holding cards of the "
                                       "bankrupt company swaps other junk into the centre (0: never)"),
})

expert = register(Strategy.build(
    "wheedle", "expert", act=expert_act, accept=expert_accept, params=EXPERT_PARAMS,
    doc="Targets, trades and accepts by a value of the hand and the rivals' estimated holdings (from the deal's "
        "public facts and the flows); raids the rivals' majorities by swapping junk into the centre; stops from its "
        "lead over the rivals' estimated round and game scores."))
