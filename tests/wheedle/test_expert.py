"""The Wheedle `expert` (strategies/wheedle_expert.py): registered, legal, and stronger than simple play in small
seeded runs (the measured strength, seat-rotated on 20,000+ games: docs/strategies.md)."""
import numpy as np

from simkit import rng
from simkit.strategy import registered

from ..helpers import per_seat, simulate
from . import toy_strategies as toys


def test_expert_is_registered_with_declared_parameters():
    expert = registered("wheedle")["expert"]
    assert set(expert.decisions) == {"act", "accept"}
    assert expert.params and all(name in expert.declared for name in expert.params)


def test_expert_beats_passive_players_and_never_false_stops():
    """Against players who only pass, the expert trades with the centre alone; it stops only when qualified."""
    _, _, _, cols = simulate(["expert", toys.passer(), toys.passer(), toys.passer()], 40, seed=3,
                             sets=["options.max_ticks=300"])
    points = per_seat(cols, "points", 4)
    assert per_seat(cols, "illegal_actions", 4).sum() == 0
    assert per_seat(cols, "false_stops", 4)[:, 0].sum() == 0
    assert points[:, 0].mean() > points[:, 1:].mean() + 5


def test_expert_wins_more_than_its_share_among_tuned_players():
    """Each seat in turn among three `tuned` players: well above the quarter an equal player would win."""
    wins = []
    for seat in range(4):
        lineup = ["tuned"] * 4
        lineup[seat] = "expert"
        _, _, _, cols = simulate(lineup, 60, seed=10 + seat, record=False)
        assert per_seat(cols, "illegal_actions", 4).sum() == 0
        wins.append(per_seat(cols, "winner", 4)[:, seat].mean())
    assert np.mean(wins) > 0.4


def _readonly(array):
    array = np.array(array, np.int64)
    array.flags.writeable = False
    return array


def _expert_view(hand, centre=0, tick=20, players=4, hand_size=None, seed=5, my_streak=0, net=None, params=None):
    """The expert's inputs for seat 0 holding ``hand`` in a round of the default rules: no flows yet unless ``net``
    gives seen[NET] (players x companies), untaken offers in a row ``my_streak``, parameters ``params`` set."""
    from simkit.games import get_game
    from simkit.games.wheedle import engine
    from simkit.games.wheedle.view import MEMORY_SIZE, public_length

    game = get_game("wheedle")
    prepared = game.prepare(game.default_rules, players)
    counts = prepared.counts
    hands = np.zeros((players, counts.size), np.int64)
    hands[0] = hand
    public = np.zeros(public_length(counts.size, players), np.int64)
    hand_size = int(np.sum(hand)) if hand_size is None else hand_size
    engine._fill_static_public(public, 0, players, 0, 0, players, hand_size, counts, prepared.vector,
                               np.zeros(players, np.int64))
    hand_view = np.zeros(counts.size, np.int64)
    engine._view(0, hands, hand_view, public, tick, centre, 1, my_streak, my_streak)
    seen = np.zeros((3, players, counts.size), np.int64)
    if net is not None:
        seen[0] = net
    seen.flags.writeable = False
    params = registered("wheedle")["expert"].param_vector(params or {})
    params.flags.writeable = False
    state = np.zeros(4, np.uint64)
    rng.seed_stream(state, seed, 0, 0)
    return _readonly(hand_view), _readonly(public), seen, params, np.zeros(MEMORY_SIZE), state, counts


def test_pick_give_is_the_largest_junk_and_the_centre_s_first():
    from simkit.strategies.wheedle_expert import WANTED, _pick_give

    hand, public, _, _, memory, state, counts = _expert_view([1, 3, 0, 4, 0, 0, 0, 5, 0], centre=2)
    memory[WANTED + 3] = memory[WANTED + 7] = 1.0   # companies 3 and 7 are targets: 0 and 1 are junk
    assert _pick_give(hand, public, memory, state) == 1
    hand, public, _, _, memory, state, _ = _expert_view([2, 1, 0, 4, 0, 0, 0, 5, 0], centre=1)
    memory[WANTED + 3] = memory[WANTED + 7] = 1.0
    assert _pick_give(hand, public, memory, state) == 1   # the centre's card costs a point: it goes first
    memory[WANTED + 0] = memory[WANTED + 1] = 1.0
    assert _pick_give(hand, public, memory, state) == -1


def test_expert_gives_junk_away_once_every_target_holds_its_majority():
    """Majorities of a 9 (Texas Tea), a 7 and a 5 plus one junk card: the expert gives the junk away for nothing
    instead of offering it for a card that would complete a company (it cannot stop while it holds it)."""
    from simkit.games.wheedle.view import A_GIVE, A_GIVE_COUNT, A_WANT_COUNT, OFFER, is_qualified
    from simkit.strategies.wheedle_expert import expert_act

    hand = [3, 0, 0, 4, 0, 0, 0, 0, 5]
    hand[1] = 1     # one card of a 5-card company: junk
    view = _expert_view(hand, centre=5)
    hand_view, public = view[0], view[1]
    assert not is_qualified(hand_view, public)
    action = np.zeros(5, np.int64)
    assert expert_act(*view[:6], action) == OFFER
    assert (action[A_GIVE], action[A_GIVE_COUNT], action[A_WANT_COUNT]) == (1, 1, 0)


def test_expert_asks_for_the_last_card_of_a_company_before_a_distant_majority():
    """4 of a 5-card company (one card from holding it whole, which scores double), 4 of a 7 and one junk card, with
    room for one more target (a 5-card company it holds none of, 3 cards from its majority): it asks for the card
    that completes the first company (the asks are jittered by up to 1.5 cards, hence most of the draws)."""
    from simkit.games.wheedle.view import A_GIVE, A_WANT, A_WANT_COUNT, OFFER
    from simkit.strategies.wheedle_expert import expert_act

    completing = 0
    for seed in range(20):
        view = _expert_view([4, 0, 0, 4, 0, 0, 0, 0, 1], centre=5, hand_size=13, seed=seed)
        action = np.zeros(5, np.int64)
        assert expert_act(*view[:6], action) == OFFER
        assert action[A_GIVE] == 8 and action[A_WANT_COUNT] == 1
        completing += action[A_WANT] == 0
    assert completing >= 15


def test_expert_raids_a_company_a_rival_holds_a_majority_of():
    """Seat 1 received six cards of a 9-card company in public (from seats 2 and 3) and the expert holds one card of
    it as junk: swapped into the centre, it bankrupts seat 1's majority (an estimated 8 cards: -16 points to it).
    With `raid` 1 the expert swaps it in; with `raid` 0 (no raids) it offers it instead."""
    from simkit.games.wheedle.view import A_GIVE, OFFER, SWAP
    from simkit.strategies.wheedle_expert import expert_act

    net = np.zeros((4, 9), np.int64)
    net[1, 7], net[2, 7], net[3, 7] = 6, -3, -3
    for raid, expected in ((1.0, SWAP), (0.0, OFFER)):
        view = _expert_view([3, 0, 0, 4, 0, 0, 0, 1, 5], centre=5, net=net, params={"raid": raid})
        action = np.zeros(5, np.int64)
        assert expert_act(*view[:6], action) == expected
        assert action[A_GIVE] == 7


def test_a_stuck_expert_moves_the_bankruptcy_off_the_cards_it_holds():
    """Holding a card of the centre's company (nobody takes it: it costs a point) and other junk, after `unstick`
    untaken offers in a row the expert swaps the other junk into the centre; before that it offers."""
    from simkit.games.wheedle.view import A_GIVE, OFFER, SWAP
    from simkit.strategies.wheedle_expert import expert_act

    unstick = int(registered("wheedle")["expert"].params["unstick"])
    assert unstick > 0
    for streak, expected in ((unstick, SWAP), (unstick - 1, OFFER)):
        view = _expert_view([3, 0, 0, 4, 0, 1, 0, 1, 5], centre=5, my_streak=streak)
        action = np.zeros(5, np.int64)
        assert expert_act(*view[:6], action) == expected
        if expected == SWAP:
            assert action[A_GIVE] == 7
