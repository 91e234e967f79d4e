"""Engine behaviour: deal (W2), trading moves (W3), false stops (W4), stalemates (W5), checking mode."""
import numpy as np
import pytest

from simkit import rng
from simkit.games.wheedle import engine
from simkit.games.wheedle.engine import TRACE_END, TRACE_START, trace_centre, trace_hands
from simkit.strategy import parse_lineup

from ..helpers import (
    events_of_round,
    per_game,
    per_seat,
    play_with_events,
    prepare,
    replay_round,
    simulate,
    trace_round_scores,
    wheedle,
)
from . import toy_strategies as toys

RANDOM_LINEUPS = {
    2: ["random", "random"],
    3: ["random", "random", "random"],
    4: ["random"] * 4,
    5: ["random"] * 5,
    6: ["random"] * 6,
}
MIXED_LINEUPS = {
    2: ["hair-trigger", "random"],
    3: ["blocker", "bluffer", "random"],
    4: ["hair-trigger", "threshold", "patient", "blocker"],
    5: ["contrarian", "small-first", "bluffer", "random", "collector"],
    6: ["blocker", "random", "contrarian", "bluffer", "small-first", "patient"],
}


def assert_trace_conserves_cards(prepared, trace):
    counts = prepared.counts
    hands = trace_hands(trace)
    assert (hands >= 0).all()
    centre = trace_centre(trace)
    total = hands.sum(axis=3) + (centre[..., None] == np.arange(counts.size))
    assert (total == counts).all(), "hands + centre must hold every card of every company"


@pytest.mark.parametrize("lineups", [RANDOM_LINEUPS, MIXED_LINEUPS], ids=["random", "mixed"])
@pytest.mark.parametrize("n", [4, 5, 6, 2, 3])
def test_cards_conserved_in_check_mode(lineups, n):
    # check=True asserts conservation inside the kernel after every move (AssertionError would surface)
    _, prepared, _, cols = simulate(lineups[n], 60, seed=100 + n, check=True, record=True)
    trace = cols["_trace"]
    assert trace.shape == (60, n, 2, n + 1, 9)
    assert_trace_conserves_cards(prepared, trace)
    hand_size = int(prepared.vector[engine.R_HAND])
    assert (trace_hands(trace, TRACE_START).sum(axis=3) == hand_size).all(), "everyone is dealt the same number of cards"
    assert len(cols["points"]) == 60 * n


def test_check_mode_detects_a_lost_card():
    _, prepared = prepare(4)
    hands = np.zeros((4, 9), np.int64)
    for c, count in enumerate(prepared.counts):
        hands[c % 4, c] = count
    engine._check_cards(hands, -1, prepared.counts, 4)  # every card in a hand, none in the centre: fine
    hands[0, 0] -= 1
    with pytest.raises(AssertionError, match="conserved"):
        engine._check_cards(hands, -1, prepared.counts, 4)
    engine._check_cards(hands, 0, prepared.counts, 4)  # the missing card is the centre card
    hands[0, 0] -= 5
    hands[1, 0] += 5
    with pytest.raises(AssertionError, match="negative"):
        engine._check_cards(hands, 0, prepared.counts, 4)


def w2_deal(prepared, seed, game):
    """The deal as W2 describes it: one shuffled deck per round, the centre card drawn first, then one card
    at a time starting at the dealer's left."""
    n = prepared.n_players
    hand = int(prepared.vector[engine.R_HAND])
    state = np.zeros(4, np.uint64)
    rng.seed_stream(state, seed, game, rng.DEAL)
    deck = np.repeat(np.arange(prepared.counts.size), prepared.counts).astype(np.int64)
    for rnd in range(prepared.rounds):
        rng.shuffle(state, deck)
        dealer = rnd % n
        hands = np.zeros((n, prepared.counts.size), np.int64)
        for i in range(n * hand):
            hands[(dealer + 1 + i) % n, deck[1 + i]] += 1
        yield hands, deck[0]


@pytest.mark.parametrize("n", [3, 5])
def test_deal_matches_w2_procedure(n):
    _, prepared, _, cols = simulate(MIXED_LINEUPS[n], 3, seed=42, first_game=10)
    trace = cols["_trace"]
    for g in range(3):
        for rnd, (hands, centre) in enumerate(w2_deal(prepared, 42, 10 + g)):
            assert np.array_equal(trace_hands(trace[g, rnd], TRACE_START), hands)
            assert trace_centre(trace[g, rnd], TRACE_START) == centre


def test_hands_do_not_depend_on_strategies():
    """W2 / common random numbers: another line-up (here rotated and changed) is dealt the same cards."""
    a = simulate(["hair-trigger", "threshold", "patient", "blocker"], 30, seed=5)[3]
    b = simulate(["blocker", "hair-trigger", "random", "never-stop"], 30, seed=5)[3]
    assert np.array_equal(a["_trace"][:, :, 0], b["_trace"][:, :, 0])
    assert not np.array_equal(a["_trace"][:, :, 1], b["_trace"][:, :, 1]), "play differs, so end hands differ"
    rotated = simulate(["threshold", "patient", "blocker", "hair-trigger"], 30, seed=5)[3]
    assert np.array_equal(a["_trace"][:, :, 0], rotated["_trace"][:, :, 0])
    c = simulate(["hair-trigger", "threshold", "patient", "blocker"], 30, seed=6)[3]
    assert not np.array_equal(a["_trace"][:, :, 0], c["_trace"][:, :, 0])


def test_result_columns_are_consistent():
    _, prepared, _, cols = simulate(MIXED_LINEUPS[5], 200, seed=8, record=False)
    n = 5
    rounds = np.stack([per_seat(cols, f"points_r{r + 1}", n) for r in range(n)], axis=2)
    points = per_seat(cols, "points", n)
    assert np.array_equal(rounds.sum(axis=2), points)
    assert np.array_equal(per_seat(cols, "stops", n), per_seat(cols, "good_stops", n) + per_seat(cols, "false_stops", n))
    assert (per_seat(cols, "offers_taken", n) <= per_seat(cols, "offers", n)).all()
    assert np.array_equal(per_seat(cols, "offers_taken", n).sum(axis=1), per_seat(cols, "offers_accepted", n).sum(axis=1))
    ticks = np.stack([per_game(cols, f"ticks_r{r + 1}", n) for r in range(n)], axis=1)
    stoppers = np.stack([per_game(cols, f"stopper_r{r + 1}", n) for r in range(n)], axis=1)
    assert np.array_equal(ticks.sum(axis=1), per_game(cols, "ticks", n))
    assert np.array_equal((stoppers < 0).sum(axis=1), per_game(cols, "stalemates", n))
    assert ((stoppers >= -1) & (stoppers < n)).all()
    # with the default options every round that is not a stalemate has exactly one stop, by its stopper
    stops = per_seat(cols, "stops", n)
    assert np.array_equal(stops.sum(axis=1), (stoppers >= 0).sum(axis=1))
    # winners: everyone holding the best total, ties shared
    winner = per_seat(cols, "winner", n)
    assert np.array_equal(winner, points == points.max(axis=1, keepdims=True))
    assert (winner.sum(axis=1) > 1).any(), "ties happen in 200 games and must give several winners"


def test_stalemate_when_nobody_stops():
    rules, prepared, _, cols = simulate(["never-stop"] * 4, 20, seed=3, sets=["options.max_ticks=5"])
    n = 4
    for r in range(prepared.rounds):
        assert (per_game(cols, f"stopper_r{r + 1}", n) == -1).all()
        assert (per_game(cols, f"ticks_r{r + 1}", n) == 5).all()
    assert (per_game(cols, "stalemates", n) == 4).all()
    assert (per_game(cols, "ticks", n) == 20).all()
    assert (per_seat(cols, "stops", n) == 0).all()
    # scored with no bonus or penalty: exactly the card points
    trace = cols["_trace"]
    for g in range(20):
        for r in range(prepared.rounds):
            expected = trace_round_scores(prepared, rules, trace, g, r, None)
            assert list(per_seat(cols, f"points_r{r + 1}", n)[g]) == expected


def test_stalemate_in_replay_text():
    game = wheedle()
    seats = parse_lineup("wheedle", ["never-stop"] * 4)
    _, prepared = prepare(4, ["options.max_ticks=3"])
    text = game.replay(prepared, seats, 1, 0)
    assert text.count("stalemate") >= 4


def test_false_stop_ends_the_round_by_default():
    always = toys.always_stop()
    rules, prepared, seats, cols = simulate([always] * 4, 30, seed=4)
    n = 4
    stoppers = np.stack([per_game(cols, f"stopper_r{r + 1}", n) for r in range(n)], axis=1)
    assert (stoppers >= 0).all()
    for r in range(n):
        assert (per_game(cols, f"ticks_r{r + 1}", n) == 1).all(), "the first move stops the round"
    assert (per_seat(cols, "stops", n).sum(axis=1) == n).all()
    false_stops = per_seat(cols, "false_stops", n).sum()
    assert false_stops > 0
    trace = cols["_trace"]
    for g in range(30):
        for r in range(n):
            expected = trace_round_scores(prepared, rules, trace, g, r, stoppers[g, r])
            assert list(per_seat(cols, f"points_r{r + 1}", n)[g]) == expected
            # nothing moved: the end hands are the dealt hands
            assert np.array_equal(trace[g, r, TRACE_END], trace[g, r, TRACE_START])


def test_false_stopper_may_not_stop_again_w4():
    always = toys.always_stop()
    seats = parse_lineup("wheedle", [always] * 4)
    rules, prepared = prepare(4, ["options.false_stop_ends_round=false", "options.max_ticks=40",
                                  "scoring.false_stop=-7"])
    illegal_stops = 0
    for g in range(8):
        out = play_with_events(prepared, seats, 9, g)
        for r in range(prepared.rounds):
            events = events_of_round(out, r)
            stopped_false = set()
            good = [ev for ev in events if ev[engine.EV_KIND] == engine.E_GOOD_STOP]
            for ev in events:
                kind, who = ev[engine.EV_KIND], int(ev[engine.EV_SEAT])
                if kind in (engine.E_FALSE_STOP, engine.E_GOOD_STOP):
                    assert who not in stopped_false, "a false stopper stopped again in the same round"
                if kind == engine.E_FALSE_STOP:
                    stopped_false.add(who)
                if kind == engine.E_ILLEGAL:
                    assert who in stopped_false, "only a seat that already false-stopped is refused a stop"
                    illegal_stops += 1
            stopper = int(out["round_stopper"][0, r])
            if good:
                assert stopper == good[0][engine.EV_SEAT]
            else:
                assert stopper == -1
                if len(stopped_false) == 4:
                    assert out["round_ticks"][0, r] == 40, "everyone false-stopped: the round runs to max_ticks"
            # penalty taken during the round, on top of the card points
            expected = trace_round_scores(prepared, rules, out["trace"], 0, r, stopper)
            for p in range(4):
                assert out["round_points"][0, p, r] == expected[p] + (-7 if p in stopped_false else 0)
    assert illegal_stops > 0


def test_w4_penalties_with_random_players():
    rules, prepared, _, cols = simulate(["random", "bluffer", "random", "hair-trigger"], 150, seed=21,
                                        sets=["options.false_stop_ends_round=false", "scoring.false_stop=-7",
                                              "options.max_ticks=300"])
    n = 4
    trace = cols["_trace"]
    difference = np.zeros((150, n), np.int64)
    for g in range(150):
        for r in range(prepared.rounds):
            stopper = per_game(cols, f"stopper_r{r + 1}", n)[g]
            expected = trace_round_scores(prepared, rules, trace, g, r, stopper)
            difference[g] += per_seat(cols, f"points_r{r + 1}", n)[g] - np.array(expected)
    false_stops = per_seat(cols, "false_stops", n)
    assert false_stops.sum() > 0
    assert np.array_equal(difference, -7 * false_stops)
    # W4: a false stop does not end the round, so rounds go on after it; a stopper is always a good stopper
    assert (per_seat(cols, "good_stops", n).sum(axis=1) == (np.stack(
        [per_game(cols, f"stopper_r{r + 1}", n) for r in range(n)], axis=1) >= 0).sum(axis=1)).all()


def test_w4_per_round_from_events():
    seats = parse_lineup("wheedle", ["random", "bluffer", "random", "random"])
    rules, prepared = prepare(4, ["options.false_stop_ends_round=false", "options.max_ticks=200"])
    seen_false = 0
    for g in range(10):
        out = play_with_events(prepared, seats, 17, g)
        for r in range(prepared.rounds):
            events = events_of_round(out, r)
            false = np.zeros(4, np.int64)
            for ev in events:
                if ev[engine.EV_KIND] == engine.E_FALSE_STOP:
                    false[ev[engine.EV_SEAT]] += 1
            assert (false <= 1).all()
            seen_false += false.sum()
            expected = trace_round_scores(prepared, rules, out["trace"], 0, r, out["round_stopper"][0, r])
            assert list(out["round_points"][0, :, r]) == [e - 5 * f for e, f in zip(expected, false)]
    assert seen_false > 0


def test_default_round_ends_at_the_stop():
    seats = parse_lineup("wheedle", ["random"] * 4)
    rules, prepared = prepare(4)
    for g in range(10):
        out = play_with_events(prepared, seats, 23, g)
        for r in range(prepared.rounds):
            events = events_of_round(out, r)
            stops = [i for i, ev in enumerate(events) if ev[engine.EV_KIND] in (engine.E_GOOD_STOP, engine.E_FALSE_STOP)]
            stopper = out["round_stopper"][0, r]
            if stopper >= 0:
                assert stops == [len(events) - 1], "the stop is the round's last move"
                assert events[-1][engine.EV_SEAT] == stopper
                assert out["round_ticks"][0, r] == events[-1][engine.EV_TICK] + 1
            else:
                assert stops == []


def offers(out):
    events = out["events"]
    return events[np.isin(events[:, engine.EV_KIND], [engine.E_OFFER_TAKEN, engine.E_OFFER_UNTAKEN])]


def test_no_one_sided_offers_without_gifts():
    seats = parse_lineup("wheedle", ["random"] * 4)
    _, allowed = prepare(4)
    _, banned = prepare(4, ["options.gifts_allowed=false"])
    one_sided_allowed = 0
    for g in range(6):
        ev = offers(play_with_events(banned, seats, 31, g))
        assert len(ev) > 0
        assert (ev[:, engine.EV_GIVE_COUNT] >= 1).all() and (ev[:, engine.EV_WANT_COUNT] >= 1).all()
        ev = offers(play_with_events(allowed, seats, 31, g))
        one_sided_allowed += ((ev[:, engine.EV_GIVE_COUNT] == 0) | (ev[:, engine.EV_WANT_COUNT] == 0)).sum()
    assert one_sided_allowed > 0, "with gifts allowed the random player does make one-sided offers"


@pytest.mark.parametrize("toy", ["gift_giver", "beggar"])
def test_engine_refuses_gifts_when_banned(toy):
    strategy = getattr(toys, toy)()
    lineup = [strategy, "random", "random", "random"]
    _, _, _, banned = simulate(lineup, 20, seed=2, sets=["options.gifts_allowed=false"], record=False)
    assert (per_seat(banned, "offers", 4)[:, 0] == 0).all()
    assert (per_seat(banned, "illegal_actions", 4)[:, 0] > 0).all()
    _, _, _, allowed = simulate(lineup, 20, seed=2, record=False)
    assert per_seat(allowed, "offers", 4)[:, 0].sum() > 0
    assert per_seat(allowed, "offers_taken", 4)[:, 0].sum() > 0


def test_offer_moves_cards_face_up():
    """Every taken offer moves exactly the announced cards; the event log accounts for the end hands."""
    seats = parse_lineup("wheedle", ["random", "hair-trigger", "blocker", "random", "contrarian"])
    _, prepared = prepare(5)
    for g in range(5):
        out = play_with_events(prepared, seats, 77, g)
        trace = out["trace"][0]
        for r in range(prepared.rounds):
            _, (hands, centre) = replay_round(prepared, out, r)
            assert np.array_equal(hands, trace_hands(trace[r], TRACE_END))
            assert centre == trace_centre(trace[r], TRACE_END)


def test_max_ticks_bounds_every_round():
    _, prepared, _, cols = simulate(["never-stop", "never-stop", "random"], 20, seed=1,
                                    sets=["options.max_ticks=50"], record=False)
    for r in range(prepared.rounds):
        assert (per_game(cols, f"ticks_r{r + 1}", 3) <= 50).all()


def test_replay_matches_the_batch():
    game = wheedle()
    lineup = ["hair-trigger", "threshold", "patient", "random"]
    _, prepared, seats, cols = simulate(lineup, 6, seed=13, record=False)
    for g in (0, 5):
        text = game.replay(prepared, seats, 13, g)
        final = text.split("== Final scores")[1]
        for p in range(4):
            assert f"seat {p} ({seats[p].label}): {per_seat(cols, 'points', 4)[g, p]} points" in final


def test_illegal_event_records_the_action_type():
    from simkit.games.wheedle.view import STOP

    always = toys.always_stop()
    seats = parse_lineup("wheedle", [always] * 4)
    _, prepared = prepare(4, ["options.false_stop_ends_round=false", "options.max_ticks=20"])
    out = play_with_events(prepared, seats, 9, 0)
    illegal = out["events"][out["events"][:, engine.EV_KIND] == engine.E_ILLEGAL]
    assert len(illegal) > 0
    assert (illegal[:, engine.EV_GIVE] == STOP).all()


def test_takers_are_asked_in_random_order():
    """W3: the players who could accept are asked in random order; the first to accept takes the offer."""
    giver = toys.gift_giver()  # gives one card away every move, and accepts everything
    seats = parse_lineup("wheedle", [giver] * 4)
    _, prepared = prepare(4, ["options.max_ticks=150", "options.rounds=1"])
    takers = np.zeros((4, 4), np.int64)
    for g in range(3):
        ev = offers(play_with_events(prepared, seats, 3, g))
        assert (ev[:, engine.EV_KIND] == engine.E_OFFER_TAKEN).all(), "someone always accepts a gift"
        np.add.at(takers, (ev[:, engine.EV_SEAT], ev[:, engine.EV_OTHER]), 1)
    assert np.diag(takers).sum() == 0
    for actor in range(4):
        share = takers[actor] / takers[actor].sum()
        others = [p for p in range(4) if p != actor]
        assert (share[others] > 0.2).all(), takers
