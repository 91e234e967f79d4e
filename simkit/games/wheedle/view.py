"""What a Wheedle strategy sees, and the Numba signatures of its two decisions.

A strategy's ``act`` is called on the ticks when its seat may act (W3) and writes one action into
``action``; its ``accept`` is called when another player's offer could be filled from its hand.
Both receive only: a copy of the seat's own hand (cards per company), the ``public`` vector below,
the ``seen`` table of public events, the seat's parameters, a private ``memory`` that persists
through the game, and the seat's own random stream. No argument carries another player's hand.
The rules as simulated, and the decisions W1-W8: docs/rules/wheedle.md.

Answers: ``act`` returns PASS, OFFER, SWAP or STOP. An offer fills A_GIVE, A_GIVE_COUNT, A_WANT,
A_WANT_COUNT (a company entry is -1 or a company, and a real company when its count is positive; counts
0..99); a swap fills A_GIVE; A_TYPE is not read. The engine checks every entry an action uses before
using it: an invalid answer is refused, counted in the seat's ``illegal_actions`` and played as a pass.
``accept`` answers yes or no.

public (int64 vector): the fields ``PUB_*`` below (the scoring values among them, and W8's
``PUB_FALSE_STOPPER_CARDS_SCORED``: 0 = "none", 1 = "scored"), then the printed card count of each company
(``company_cards``), then every seat's score from earlier rounds (``score_so_far``).
seen (int64 [3, players, companies]), reset each round, built from public events only:
  seen[NET, p, c]   cards of c that p received minus gave in exchanges and swaps (cards travel face up)
  seen[ASKED, p, c] offers by p that asked for c;  seen[OFFERED, p, c] offers by p that gave c.
"""
from numba import njit, types

from ...numba_tools import readonly_array, uncounted

# action / offer layout
ACTION_SIZE = 5
A_TYPE, A_GIVE, A_GIVE_COUNT, A_WANT, A_WANT_COUNT = range(ACTION_SIZE)
PASS, OFFER, SWAP, STOP = 0, 1, 2, 3
OFFER_FROM = 0  # in the offer vector passed to accept: [from seat, give company, k, want company, m]

SEEN_ROWS = 3    # seen[row, p, c]: its first axis
NET, ASKED, OFFERED = range(SEEN_ROWS)

PUBLIC_FIELDS = ("seat", "dealer", "players", "round", "rounds", "tick", "max_ticks", "centre", "can_stop",
                 "hand_size", "no_taker_streak", "my_no_taker_streak", "gifts_allowed", "stop_bonus", "false_stop",
                 "all_points", "majority_points", "bankrupt_points", "bankrupt_majority_scores",
                 "false_stop_ends_round", "companies", "false_stopper_cards_scored")
(PUB_SEAT, PUB_DEALER, PUB_PLAYERS, PUB_ROUND, PUB_ROUNDS, PUB_TICK, PUB_MAX_TICKS, PUB_CENTRE,
 PUB_CAN_STOP, PUB_HAND_SIZE, PUB_NO_TAKER_STREAK, PUB_MY_NO_TAKER_STREAK, PUB_GIFTS_ALLOWED,
 PUB_STOP_BONUS, PUB_FALSE_STOP, PUB_ALL_POINTS, PUB_MAJORITY_POINTS, PUB_BANKRUPT_POINTS,
 PUB_BANKRUPT_MAJORITY_SCORES, PUB_FALSE_STOP_ENDS_ROUND, PUB_COMPANIES,
 PUB_FALSE_STOPPER_CARDS_SCORED) = range(len(PUBLIC_FIELDS))
PUB_HEADER = len(PUBLIC_FIELDS)
MAX_COMPANIES = 24
MEMORY_SIZE = 8 + 4 * MAX_COMPANIES  # a strategy's own floats; zeroed at the start of each game

# What a strategy is shown is read-only (a write is a typing error when the strategy compiles); its memory,
# random stream and answer buffer are its own to write.
_shown = readonly_array(types.int64, 1)
_shown_seen = readonly_array(types.int64, 3)
_params = readonly_array(types.float64, 1)
_memory = types.Array(types.float64, 1, "A")
_rng_t = types.Array(types.uint64, 1, "A")
_answer = types.Array(types.int64, 1, "A")
ACT_SIGNATURE = types.int64(_shown, _shown, _shown_seen, _params, _memory, _rng_t, _answer)
ACCEPT_SIGNATURE = types.boolean(_shown, _shown, _shown_seen, _shown, _params, _memory, _rng_t)
DECISIONS = {"act": ACT_SIGNATURE, "accept": ACCEPT_SIGNATURE}

# The helpers below serve the engine and every strategy: each is compiled once, for the read-only arrays a
# strategy is shown, and without reference counting (they allocate nothing; with it, each array argument
# costs a call into the runtime and back). A writable array converts to a read-only one where they are called.
_I, _B, _F = types.int64, types.boolean, types.float64


@njit(cache=True)
def public_length(companies, players):
    return PUB_HEADER + companies + players


@uncounted(_I(_shown, _I))
def company_cards(public, company):
    """Printed number of cards of a company."""
    return public[PUB_HEADER + company]


@uncounted(_I(_shown, _I))
def score_so_far(public, seat):
    """A seat's total points from earlier rounds of this game."""
    return public[PUB_HEADER + public[PUB_COMPANIES] + seat]


@uncounted(_B(_I, _I))
def has_majority(held, cards):
    return 2 * held > cards


@uncounted(_B(_shown, _shown))
def holds_majorities(hand, counts):
    """The stop's qualification, the one place it is written (the engine judges a stop with it): the hand
    holds a majority of every company it holds cards of (an empty hand qualifies); ``counts``: each
    company's printed number of cards."""
    for c in range(hand.size):
        if hand[c] > 0 and not has_majority(hand[c], counts[c]):
            return False
    return True


@uncounted(_B(_shown, _shown))
def is_qualified(hand, public):
    """True if the hand shows a majority in every company held (an empty hand qualifies): holds_majorities
    with the card counts of ``public``."""
    return holds_majorities(hand, public[PUB_HEADER:PUB_HEADER + hand.size])


@uncounted(_I(_shown, _I, _shown, _I, _I, _I, _B))
def card_points(hand, centre, counts, all_points, majority_points, bankrupt_points, bankrupt_majority_scores):
    """Per-card points of one hand with ``centre`` the bankrupt company (W6); round_points decides whose cards
    score so."""
    points = 0
    for c in range(hand.size):
        held = hand[c]
        if held == 0:
            continue
        if held == counts[c]:
            points += all_points * held
        elif 2 * held > counts[c] and (c != centre or bankrupt_majority_scores):
            points += majority_points * held
        if c == centre:
            points += bankrupt_points * held
    return points


@uncounted(_I(_shown, _I, _I))
def false_stopper_card_points(hand, centre, bankrupt_points):
    """W8 ("none"): a round-ending false stopper's cards earn nothing, but its cards of the bankrupt
    company still cost ``bankrupt_points`` each (a deduction is not an earning)."""
    return bankrupt_points * hand[centre] if 0 <= centre < hand.size else 0


# A seat's part in how its round ended (round_points): it did not end it, or ended it by a stop with majorities
# shown in every company held, or by a false stop (one that ends the round: W4's default).
NO_STOP, GOOD_STOP, FALSE_STOP = 0, 1, 2


@njit(cache=True)
def cards_scored(part, false_stopper_cards_scored):
    """Whether a seat's cards score as anyone's at the round's end: all but W8's false stopper (under
    scoring.false_stopper_cards = "none", whose cards earn nothing but whose bankrupt cards still cost)."""
    return part != FALSE_STOP or false_stopper_cards_scored != 0


@uncounted(_I(_shown, _I, _shown, _I, _I, _I, _B, _I, _I, _I, _I))
def round_points(hand, centre, counts, all_points, majority_points, bankrupt_points, bankrupt_majority_scores,
                 false_stopper_cards_scored, stop_bonus, false_stop, part):
    """A seat's score for a round it ended with ``hand``, ``centre`` the bankrupt company and ``part`` its part
    in the round's end (NO_STOP, GOOD_STOP, FALSE_STOP): its cards (W6, W8), then the stop bonus or the
    false stop's penalty. The one round-end rule of the engine, stop_points, score_round and the replay."""
    if cards_scored(part, false_stopper_cards_scored):
        points = card_points(hand, centre, counts, all_points, majority_points, bankrupt_points,
                             bankrupt_majority_scores)
    else:
        points = false_stopper_card_points(hand, centre, bankrupt_points)
    if part == GOOD_STOP:
        points += stop_bonus
    elif part == FALSE_STOP:
        points += false_stop
    return points


@uncounted(_I(_shown, _shown, _B))
def stop_points(hand, public, qualified):
    """points_if_stopped (below) for a hand already known to be ``qualified`` (is_qualified) or not. A false stop
    that does not end the round (W4) costs its penalty now and the cards score at the round's end."""
    ends_round = qualified or public[PUB_FALSE_STOP_ENDS_ROUND] != 0
    part = (GOOD_STOP if qualified else FALSE_STOP) if ends_round else NO_STOP
    points = round_points(hand, public[PUB_CENTRE], public[PUB_HEADER:PUB_HEADER + public[PUB_COMPANIES]],
                          public[PUB_ALL_POINTS], public[PUB_MAJORITY_POINTS], public[PUB_BANKRUPT_POINTS],
                          public[PUB_BANKRUPT_MAJORITY_SCORES] != 0, public[PUB_FALSE_STOPPER_CARDS_SCORED],
                          public[PUB_STOP_BONUS], public[PUB_FALSE_STOP], part)
    return points if ends_round else points + public[PUB_FALSE_STOP]


@uncounted(_I(_shown, _shown))
def points_if_stopped(hand, public):
    """The round score this hand would get if its holder stopped now: card points plus the stop bonus, or
    for an unqualified hand the false-stop penalty plus what W8 leaves its cards (nothing but the bankrupt
    company's cost under ``scoring.false_stopper_cards = "none"``, when the false stop ends the round)."""
    return stop_points(hand, public, is_qualified(hand, public))


# Estimators of what the deal and the public flows say about the hands. Cards travel face up (W3), so the only
# hidden fact is the deal: each seat's current hand is exactly what it was dealt plus its public net flow
# seen[NET], and summing the flows over all seats gives back the card first turned up in the centre
# (a swap is the only move that takes a card from the centre or puts one there).

@uncounted(_I(_shown, _shown_seen))
def initial_centre(public, seen):
    """The company of the card turned up in the centre at the start of the round: the current centre card plus
    the net flow out of the centre, which is the seats' flows summed (exchanges between seats cancel out)."""
    companies = public[PUB_COMPANIES]
    for c in range(companies):
        out_of_centre = 0
        for p in range(public[PUB_PLAYERS]):
            out_of_centre += seen[NET, p, c]
        if out_of_centre + (1 if c == public[PUB_CENTRE] else 0) == 1:
            return c
    return public[PUB_CENTRE]


@uncounted(_F(_shown, _shown, _shown_seen, _I, _I, _I))
def dealt_estimate(hand, public, seen, seat, company, first_centre):
    """Cards of ``company`` dealt to ``seat`` this round (``first_centre``: initial_centre's answer, constant
    through a round): exact for the viewer's own seat (its hand minus its flows); for a rival, the cards the
    viewer was not dealt (less the first centre card) spread evenly over the rivals, except that a rival who has
    given away more than its share was dealt at least that many (the others share what is left)."""
    me = public[PUB_SEAT]
    mine = hand[company] - seen[NET, me, company]
    if seat == me:
        return float(mine)
    unseen = public[PUB_HEADER + company] - mine - (1 if first_centre == company else 0)
    even = unseen / (public[PUB_PLAYERS] - 1)
    floors, spread, excess = 0.0, 0.0, 0.0
    for p in range(public[PUB_PLAYERS]):
        if p != me:
            floor = max(0.0, -float(seen[NET, p, company]))
            floors += floor
            spread += max(floor, even)
            if p == seat:
                excess = max(floor, even) - floor
    own_floor = max(0.0, -float(seen[NET, seat, company]))
    left = max(0.0, unseen - floors)
    return own_floor + (excess * left / (spread - floors) if spread > floors else 0.0)


@uncounted(_F(_shown, _shown, _shown_seen, _I, _I, _I))
def holding_estimate(hand, public, seen, seat, company, first_centre):
    """Cards of ``company`` that ``seat`` holds now: dealt_estimate plus its public net flow (exact for the
    viewer's own seat). Over the rivals the estimates add up to exactly the cards that neither the viewer nor
    the centre holds, and none is below what the public flows prove the rival holds."""
    return max(0.0, dealt_estimate(hand, public, seen, seat, company, first_centre) + seen[NET, seat, company])
