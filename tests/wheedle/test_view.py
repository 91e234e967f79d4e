"""What a strategy sees: its own hand and public information only (docs/rules/wheedle.md, "What a strategy sees")."""
import numpy as np
import pytest
from numba import types

from simkit.games.wheedle import engine
from simkit.games.wheedle.engine import trace_centre, trace_hands
from simkit.games.wheedle.view import (
    ACCEPT_SIGNATURE,
    ACT_SIGNATURE,
    NET,
    PUB_CAN_STOP,
    PUB_CENTRE,
    PUB_DEALER,
    PUB_MY_NO_TAKER_STREAK,
    PUB_NO_TAKER_STREAK,
    PUB_PLAYERS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_TICK,
    dealt_estimate,
    holding_estimate,
    initial_centre,
    public_length,
    score_so_far,
)
from simkit.strategy import parse_lineup

from ..helpers import events_of_round, play_with_events, prepare, replay_round
from . import toy_strategies as toys


def view(seat, hands, public=None, tick=17, centre=3, can_stop=1, streak=2, my_streak=1):
    n, companies = hands.shape
    hand_view = np.full(companies, -99, np.int64)
    public = np.zeros(public_length(companies, n), np.int64) if public is None else public
    engine._view(seat, hands, hand_view, public, tick, centre, can_stop, streak, my_streak)
    return hand_view, public


@pytest.mark.parametrize("seat", [0, 2, 3])
def test_view_is_own_hand_and_public_fields(seat):
    hands = np.arange(36, dtype=np.int64).reshape(4, 9)
    hand_view, public = view(seat, hands)
    assert np.array_equal(hand_view, hands[seat])
    assert (public[PUB_TICK], public[PUB_CENTRE], public[PUB_CAN_STOP], public[PUB_NO_TAKER_STREAK],
            public[PUB_MY_NO_TAKER_STREAK]) == (17, 3, 1, 2, 1)


def test_view_ignores_other_hands():
    gen = np.random.default_rng(0)
    hands = gen.integers(0, 9, size=(5, 9)).astype(np.int64)
    base_view, base_public = view(1, hands)
    for _ in range(20):
        other = hands.copy()
        rows = [p for p in range(5) if p != 1]
        other[rows] = gen.integers(0, 9, size=(4, 9))
        hand_view, public = view(1, other)
        assert np.array_equal(hand_view, base_view)
        assert np.array_equal(public, base_public)


def test_view_is_a_copy():
    hands = np.ones((4, 9), np.int64)
    hand_view, _ = view(0, hands)
    hand_view[:] = 7  # a strategy scribbling on its hand changes nothing in the engine
    assert (hands == 1).all()


@pytest.mark.parametrize("signature", [ACT_SIGNATURE, ACCEPT_SIGNATURE], ids=["act", "accept"])
def test_signature_has_no_all_hands_argument(signature):
    arrays = [arg for arg in signature.args if isinstance(arg, types.Array)]
    assert len(arrays) == len(signature.args), "every argument is an array"
    many = [i for i, arg in enumerate(signature.args) if arg.ndim > 1]
    assert many == [2], "the only multi-dimensional argument is `seen` (3, players, companies)"
    assert signature.args[2].ndim == 3 and signature.args[2].dtype == types.int64
    # everything else is one-dimensional: own hand, public vector, params, memory, rng state, action/offer
    assert all(arg.ndim == 1 for i, arg in enumerate(signature.args) if i != 2)


@pytest.fixture(scope="module")
def spied_games():
    """Four spies (random play that records its arguments) and the event log of the same games."""
    spy = toys.spy()
    seats = parse_lineup("wheedle", [spy, spy, spy, spy])
    rules, prepared = prepare(4, ["options.max_ticks=150"])
    games = []
    for g in range(3):
        toys.CALLS.clear()
        out = play_with_events(prepared, seats, 55, g)
        games.append((out, list(toys.CALLS)))
    return prepared, games


def test_spy_sees_exactly_its_own_hand_and_public_flows(spied_games):
    """Each call's hand equals the seat's true hand at that tick, and `seen` equals the flows recomputed
    from the public event log alone."""
    prepared, games = spied_games
    n = prepared.n_players
    checked = 0
    for out, calls in games:
        snapshots = {r: replay_round(prepared, out, r)[0] for r in range(prepared.rounds)}
        for call in calls:
            hands, centre, seen = snapshots[call["round"]][call["tick"]]
            seat = call["seat"]
            assert call["seen"].shape == (3, n, len(prepared.companies))
            assert np.array_equal(call["hand"], hands[seat])
            assert call["public"][PUB_CENTRE] == centre
            if call["kind"] == "act":
                assert np.array_equal(call["seen"], seen)
            else:
                # an offer's announcement is public before anyone answers it
                offer = call["offer"]
                assert offer[0] != seat
                extra = call["seen"] - seen
                assert extra[0].sum() == 0 and extra.sum() == int(offer[2] > 0) + int(offer[4] > 0)
            checked += 1
    assert checked > 300


def test_acts_once_per_tick_and_accept_only_when_fillable(spied_games):
    prepared, games = spied_games
    for out, calls in games:
        for r in range(prepared.rounds):
            acts = [c for c in calls if c["kind"] == "act" and c["round"] == r]
            assert [c["tick"] for c in acts] == list(range(out["round_ticks"][0, r]))
            events = events_of_round(out, r)
            actors = {int(ev[engine.EV_TICK]): int(ev[engine.EV_SEAT]) for ev in events
                      if ev[engine.EV_KIND] != engine.E_STALEMATE}
            assert all(actors[c["tick"]] == c["seat"] for c in acts)
        for c in calls:
            if c["kind"] == "accept":
                want, m = c["offer"][3], c["offer"][4]
                assert m == 0 or c["hand"][want] >= m, "asked to accept an offer it cannot fill"


def test_public_vector_fields(spied_games):
    prepared, games = spied_games
    n = prepared.n_players
    for out, calls in games:
        totals = np.zeros(n, np.int64)
        for r in range(prepared.rounds):
            for c in calls:
                if c["round"] != r:
                    continue
                public = c["public"]
                assert public[PUB_SEAT] == c["seat"]
                assert public[PUB_PLAYERS] == n and public[PUB_DEALER] == r % n and public[PUB_ROUND] == r
                assert [score_so_far(public, p) for p in range(n)] == list(totals)
            totals += out["round_points"][0, :, r]


def test_estimators_agree_with_the_deal_and_the_flows(spied_games):
    """initial_centre is the card first turned up; dealt_estimate is exact for the viewer's own seat; over the
    rivals the holding estimates add up to the cards neither the viewer nor the centre holds, none below what
    the flows prove; with no flows yet, the unseen cards are shared evenly."""
    prepared, games = spied_games
    n, companies, counts = prepared.n_players, len(prepared.companies), prepared.counts
    checked = 0
    for out, calls in games:
        trace = out["trace"][0]
        for call in calls:
            hand, public, seen, seat = call["hand"], call["public"], call["seen"], call["seat"]
            start = trace_hands(trace[call["round"]], engine.TRACE_START)
            first = initial_centre(public, seen)
            assert first == trace_centre(trace[call["round"]], engine.TRACE_START)
            for c in range(companies):
                assert dealt_estimate(hand, public, seen, seat, c, first) == start[seat, c]
                assert holding_estimate(hand, public, seen, seat, c, first) == hand[c]
                rivals = [holding_estimate(hand, public, seen, p, c, first) for p in range(n) if p != seat]
                left = counts[c] - hand[c] - (public[PUB_CENTRE] == c)
                assert sum(rivals) == pytest.approx(left)
                floors = [max(0, seen[NET, p, c]) for p in range(n) if p != seat]
                assert all(r >= f - 1e-9 for r, f in zip(rivals, floors))
                if not seen[NET].any():
                    assert rivals == pytest.approx([(counts[c] - hand[c] - (first == c)) / (n - 1)] * (n - 1))
            checked += 1
    assert checked > 300
