"""The shipped Wheedle strategies behave as their docs say (strategies/wheedle.py; docs/rules/wheedle.md,
"Shipped strategies")."""
import numpy as np
import pytest

from simkit.games.wheedle import engine
from simkit.games.wheedle.view import ASKED, MEMORY_SIZE, NET, OFFERED, public_length
from simkit.strategies.wheedle import collector_accept
from simkit.strategy import parse_lineup, registered

from ..helpers import per_game, per_seat, play_with_events, prepare, simulate

OPPONENTS = ["random", "hair-trigger", "blocker", "contrarian", "bluffer"]


@pytest.mark.parametrize("sets", [(), ("options.gifts_allowed=false",), ("options.false_stop_ends_round=false",)],
                         ids=["default", "no-gifts", "w4"])
@pytest.mark.parametrize("name", sorted(registered("wheedle")))
def test_shipped_strategies_only_make_legal_moves(name, sets):
    for n in (2, 5):
        _, _, _, cols = simulate([name] + OPPONENTS[: n - 1], 25, seed=8, sets=sets, record=False)
        assert per_seat(cols, "illegal_actions", n).sum() == 0


def test_qualified_stoppers_never_false_stop():
    lineup = ["hair-trigger", "threshold", "patient", "blocker", "small-first", "contrarian"]
    _, _, _, cols = simulate(lineup, 100, seed=5, record=False)
    assert per_seat(cols, "false_stops", 6).sum() == 0
    assert (per_seat(cols, "good_stops", 6).sum(axis=0) > 0).all()


def test_never_stop_never_stops():
    _, _, _, cols = simulate(["never-stop", "hair-trigger", "never-stop", "random"], 60, seed=2, record=False)
    stops = per_seat(cols, "stops", 4)
    assert stops[:, [0, 2]].sum() == 0 and stops[:, 1].sum() > 0


@pytest.mark.parametrize("sets, bluffer, bluffs", [
    (('scoring.false_stopper_cards="scored"',), "bluffer", True),   # majorities still score: a bluff can pay
    ((), "bluffer", False),                        # W8 default: a bluff scores at most the -5, never bluff_points
    ((), "bluffer:bluff_points=-5", True),         # ... unless the bluffer accepts exactly that
    (("scoring.false_stop=3",), "bluffer:bluff_points=3", True),  # the penalty comes from the rules too
], ids=["scored", "none", "none-at-minus-5", "false-stop-3"])
def test_bluffer_reasons_with_the_rules_it_is_shown(sets, bluffer, bluffs):
    """The bluffer's stop rule reads W8 and the penalty from the public header, not from constants."""
    _, _, _, cols = simulate([bluffer, "never-stop", "never-stop", "never-stop"], 60, seed=2, sets=sets, record=False)
    false_stops = per_seat(cols, "false_stops", 4)[:, 0].sum()
    assert (false_stops > 0) == bluffs


def test_threshold_stops_at_its_points():
    points = 22
    rules, prepared, _, cols = simulate([f"threshold:points={points}", "never-stop", "never-stop", "never-stop"],
                                        80, seed=3)
    stopped = 0
    for r in range(prepared.rounds):
        stopper = per_game(cols, f"stopper_r{r + 1}", 4)
        ticks = per_game(cols, f"ticks_r{r + 1}", 4)
        early = (stopper == 0) & (ticks < 2000 - 16)  # late in a round a qualified hand stops anyway
        assert (per_seat(cols, f"points_r{r + 1}", 4)[early, 0] >= points).all()
        stopped += early.sum()
    assert stopped > 0


def test_target_revision_prevents_stalemates():
    """Spec: collectors that never revise their targets freeze; revision brings stalemates to about 0%."""
    _, _, _, revising = simulate(["hair-trigger"] * 4, 150, seed=1, record=False)
    _, _, _, frozen = simulate(["hair-trigger:revise_after=0"] * 4, 150, seed=1, record=False)
    revising_rate = per_game(revising, "stalemates", 4).sum() / (150 * 4)
    frozen_rate = per_game(frozen, "stalemates", 4).sum() / (150 * 4)
    assert revising_rate < 0.02
    assert frozen_rate > 5 * max(revising_rate, 0.01)


def test_default_lineup_rounds_end():
    _, prepared, _, cols = simulate(["hair-trigger", "threshold", "patient", "blocker"], 150, seed=9, record=False)
    ticks = np.concatenate([per_game(cols, f"ticks_r{r + 1}", 4) for r in range(prepared.rounds)])
    assert np.median(ticks) < 200
    assert per_game(cols, "stalemates", 4).sum() / ticks.size < 0.02


# ---- the blocker (collector with protect = 1): refuses only deals that would hand a rival a majority ----

AD, CC, GG, BB, TT = 0, 1, 3, 7, 8   # company indices of the default data


def blocker_answer(offer_give, k, offer_want, m, rival_net=0, strategy="blocker"):
    """The default blocker (seat 0 of 4) answering seat 1's offer, with the offer already public in
    ``seen`` as the engine shows it. Its hand: 5 Texas Tea, 5 Big Brother, 3 Genius Genetics (targets)
    and 1 Airy Dairies, 1 Crusoe's Cruises (junk)."""
    _, prepared = prepare(4)
    public = np.zeros(public_length(9, 4), np.int64)
    engine._fill_static_public(public, 0, 4, 0, 0, 4, 15, prepared.counts, prepared.vector, np.zeros(4, np.int64))
    hand = np.zeros(9, np.int64)
    hand[[TT, BB, GG, AD, CC]] = [5, 5, 3, 1, 1]
    seen = np.zeros((3, 4, 9), np.int64)
    seen[NET, 1, offer_want] = rival_net
    seen[NET, 2, offer_want] = -rival_net
    seen[ASKED, 1, offer_want] += m > 0          # the engine counts the offer before asking anyone
    seen[OFFERED, 1, offer_give] += k > 0
    offer = np.array([1, offer_give, k, offer_want, m], np.int64)
    blocker = parse_lineup("wheedle", [strategy])[0]
    return collector_accept(hand, public, seen, offer, blocker.vector(), np.zeros(MEMORY_SIZE),
                            np.array([1, 2, 3, 4], np.uint64))


def test_blocker_accepts_a_harmless_two_way_trade():
    # one Genius Genetics (a target) for one Airy Dairies (junk) from a rival with no public Airy Dairies
    assert blocker_answer(GG, 1, AD, 1)


def test_blocker_refuses_a_trade_that_hands_a_rival_a_majority():
    # the rival publicly received 2 Airy Dairies (of 5) already: one more is very likely its majority
    assert not blocker_answer(GG, 1, AD, 1, rival_net=2)
    # one that has publicly received 3 Crusoe's Cruises holds its majority already
    assert not blocker_answer(GG, 1, CC, 1, rival_net=3)
    # a collector without protection (same hand, same targets) takes both: the protection refuses them
    assert blocker_answer(GG, 1, AD, 1, rival_net=2, strategy="hair-trigger:sabotage=1")
    assert blocker_answer(GG, 1, CC, 1, rival_net=3, strategy="hair-trigger:sabotage=1")


def test_blocker_still_takes_gifts_and_refuses_junk():
    assert blocker_answer(GG, 1, AD, 0)          # a gift of a target
    assert not blocker_answer(AD, 1, CC, 1)      # junk in would spoil its majorities


def test_blocker_makes_two_way_trades_in_play():
    """Issue: every acceptance of the blocker used to be a gift. In the default line-up it now takes offers
    that give it cards and take some in exchange."""
    seats = parse_lineup("wheedle", ["hair-trigger", "threshold", "patient", "blocker"])
    _, prepared = prepare(4)
    two_way = gifts = 0
    for g in range(6):
        events = play_with_events(prepared, seats, 11, g)["events"]
        taken = events[(events[:, engine.EV_KIND] == engine.E_OFFER_TAKEN) & (events[:, engine.EV_OTHER] == 3)]
        both = (taken[:, engine.EV_GIVE_COUNT] > 0) & (taken[:, engine.EV_WANT_COUNT] > 0)
        two_way += both.sum()
        gifts += (~both).sum()
    assert two_way > 0 and gifts > 0
