"""Wheedle round scoring (rulebook "Scoring the Game"; W6 and W8 in docs/rules/wheedle.md) through score_round."""
import pytest

from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.games.wheedle.play import score_round

TT, FF, HC, CC, GG, PP, AD, BB, NS = ("Texas Tea Oil Co.", "Fats Foods", "Hard Cell Phones", "Crusoe's Cruises",
                                      "Genius Genetics", "Perpetual Plastics", "Airy Dairies",
                                      "Big Brother Broadcasting", "N Securities")


def rules(*sets):
    return get_game("wheedle").rules(sets=list(sets))


def test_rulebook_example_good_stop():
    # W8: 9 Texas Tea (all: 18) + 3 of 5 Fats Foods (majority: 3) + stop bonus 5
    assert score_round([{TT: 9, FF: 3}], AD, stopper=0) == [26]


def test_rulebook_example_false_stop():
    # W8: 3 of 7 Hard Cell Phones is no majority, so none of the twelve cards earn points: just the -5
    assert score_round([{TT: 9, HC: 3}], AD, stopper=0) == [-5]


def test_rulebook_example_false_stop_scored_reading():
    # W8 "scored" (the earlier reading): the false stopper's Texas Tea scores as anyone's: 18 - 5
    assert score_round([{TT: 9, HC: 3}], AD, stopper=0, rules=rules('scoring.false_stopper_cards="scored"')) == [13]


def test_w8_false_stopper_still_pays_for_bankrupt_cards():
    # the centre is Hard Cell Phones: its 3 cards cost 3 even though the hand earns nothing
    assert score_round([{TT: 9, HC: 3}], HC, stopper=0) == [-3 - 5]
    assert score_round([{TT: 9, HC: 3}], HC, stopper=0, rules=rules('scoring.false_stopper_cards="scored"')) == [18 - 3 - 5]
    # a majority of the bankrupt company does not qualify a hand that lacks one elsewhere: no +1s for it
    # even under W6's house rule, and no Texas Tea points either
    w6 = rules("options.bankrupt_majority_scores=true")
    assert score_round([{PP: 4, HC: 2}], PP, stopper=0, rules=w6) == [-4 - 5]


def test_w8_only_the_false_stopper_loses_its_cards():
    hands = [{TT: 9, HC: 3}, {HC: 4, CC: 5}, {PP: 2}]
    assert score_round(hands, PP, stopper=0) == [-5, 4 + 10, -2]
    assert score_round(hands, PP, stopper=1) == [18, 14 + 5, -2]


def test_rulebook_examples_at_a_table():
    hands = [{TT: 9, FF: 3}, {HC: 4, CC: 5}, {HC: 3, FF: 2}]
    assert score_round(hands, AD, stopper=0) == [26, 4 + 10, 0]
    assert score_round(hands, AD, stopper=2) == [21, 14, -5]
    assert score_round(hands, AD, stopper=None) == [21, 14, 0]
    assert score_round([{TT: 9, HC: 3}, {HC: 4}], AD, stopper=0) == [-5, 4]


def test_all_of_a_company_scores_two_per_card():
    assert score_round([{CC: 5}], AD) == [10]


@pytest.mark.parametrize("held, points", [(3, 0), (4, 4), (5, 5), (6, 6), (7, 14)])
def test_majority_of_seven(held, points):
    assert score_round([{GG: held}], AD) == [points]


@pytest.mark.parametrize("company, cards", [(AD, 5), (GG, 7), (BB, 9)])
def test_majority_thresholds(company, cards):
    half = cards // 2
    assert score_round([{company: half}], PP) == [0]
    assert score_round([{company: half + 1}], PP) == [half + 1]


def test_bankrupt_cards_cost_one_each():
    assert score_round([{PP: 2}], PP) == [-2]
    # a card of the bankrupt company never counts for "all" (the centre holds one)
    assert score_round([{PP: 6, CC: 5}], PP) == [-6 + 10]


def test_w6_bankrupt_majority_default_scores_nothing():
    assert score_round([{PP: 4}], PP) == [-4]
    assert score_round([{PP: 4}], PP, rules=rules("options.bankrupt_majority_scores=false")) == [-4]


def test_w6_bankrupt_majority_option_adds_the_plus_ones():
    assert score_round([{PP: 4}], PP, rules=rules("options.bankrupt_majority_scores=true")) == [0]
    assert score_round([{PP: 5, CC: 5}], PP, rules=rules("options.bankrupt_majority_scores=true")) == [10]


def test_bankrupt_majority_counts_for_qualifying():
    # stopper holding 4 of 7 of the bankrupt company shows a majority: +5, cards -4
    assert score_round([{PP: 4}], PP, stopper=0) == [1]


def test_empty_hand_qualifies():
    assert score_round([{}, {TT: 9}], AD, stopper=0) == [5, 18]


def test_stopper_none_is_no_bonus():
    hands = [{TT: 9, HC: 3}, {FF: 3}]
    assert score_round(hands, AD, stopper=None) == [18, 3]
    assert score_round(hands, AD) == [18, 3]


def test_stop_points_come_from_the_rules():
    r = rules("scoring.stop_bonus=7", "scoring.false_stop=-11", "scoring.all_cards=3", "scoring.majority=2",
              "scoring.bankrupt=-4")
    assert score_round([{TT: 9, FF: 3}], AD, stopper=0, rules=r) == [27 + 6 + 7]
    assert score_round([{TT: 9, HC: 3}], AD, stopper=0, rules=r) == [-11]
    assert score_round([{TT: 9, HC: 3}], HC, stopper=0, rules=r) == [-12 - 11]
    assert score_round([{PP: 3}], PP, rules=r) == [-12]


def test_unknown_company_in_hand():
    with pytest.raises(SimkitError, match="Texas Tea Oil"):
        score_round([{"Texas Tea": 9}], AD)


def test_unknown_centre():
    with pytest.raises(SimkitError, match="Moon Rocks"):
        score_round([{TT: 9}], "Moon Rocks")


def test_too_many_cards():
    with pytest.raises(SimkitError, match="more cards"):
        score_round([{CC: 5}, {CC: 1}], AD)
    with pytest.raises(SimkitError, match="more cards"):
        score_round([{TT: 10}], AD)


def test_centre_card_counts_against_the_company():
    # 5 Crusoe's in hands plus one in the centre is 6 of 5
    with pytest.raises(SimkitError, match="more cards"):
        score_round([{CC: 5}], CC)


def test_negative_count_rejected():
    with pytest.raises(SimkitError):
        score_round([{PP: -1}], PP)


def test_stopper_minus_one_is_not_the_last_seat():
    hands = [{TT: 9}, {HC: 3}]
    try:
        points = score_round(hands, AD, stopper=-1)
    except SimkitError:
        return
    assert points == score_round(hands, AD, stopper=None)


@pytest.mark.parametrize("sets", [(), ("options.bankrupt_majority_scores=true", "scoring.false_stop=-9"),
                                  ('scoring.false_stopper_cards="scored"', "scoring.bankrupt=-3")],
                         ids=["default", "house", "w8-scored"])
def test_strategy_helpers_agree_with_score_round(sets):
    """points_if_stopped / is_qualified (what strategies use) match the engine's scoring on random deals."""
    import numpy as np

    from simkit.games.wheedle import engine
    from simkit.games.wheedle.view import PUB_CENTRE, is_qualified, points_if_stopped, public_length

    game = get_game("wheedle")
    r = game.rules(sets=list(sets))
    prepared = game.prepare(r, 4)
    names = prepared.companies
    gen = np.random.default_rng(1)
    deck = np.repeat(np.arange(9), prepared.counts)
    public = np.zeros(public_length(9, 4), np.int64)
    engine._fill_static_public(public, 0, 4, 0, 0, 4, 15, prepared.counts, prepared.vector, np.zeros(4, np.int64))
    qualified_seen = 0
    for _ in range(300):
        gen.shuffle(deck)
        centre = int(deck[0])
        size = int(gen.integers(0, 31))
        hand = np.bincount(deck[1:1 + size], minlength=9).astype(np.int64)
        public[PUB_CENTRE] = centre
        as_dict = [{names[c]: int(hand[c]) for c in range(9) if hand[c]}]
        assert points_if_stopped(hand, public) == score_round(as_dict, names[centre], 0, rules=r)[0]
        expected_q = all(hand[c] == 0 or 2 * hand[c] > prepared.counts[c] for c in range(9))
        assert is_qualified(hand, public) == expected_q
        qualified_seen += expected_q
    assert qualified_seen > 0


@pytest.mark.parametrize("value", ['"some"', "1", "true", '""'])
def test_false_stopper_cards_is_validated(value):
    with pytest.raises(SimkitError, match=r'scoring.false_stopper_cards must be "none" or "scored"'):
        get_game("wheedle").prepare(rules(f"scoring.false_stopper_cards={value}"), 4)


def test_w4_false_stopper_keeps_its_cards_whatever_w8_says():
    """Under W4 (false_stop_ends_round = false) a false stop does not end the round: the stopper takes the
    penalty, trades on and its end-of-round hand scores as anyone's; points_if_stopped says the same."""
    import numpy as np

    from simkit.games.wheedle import engine
    from simkit.games.wheedle.view import PUB_CENTRE, points_if_stopped, public_length

    game = get_game("wheedle")
    hand = np.zeros(9, np.int64)
    names = game.prepare(rules(), 4).companies
    hand[names.index(TT)], hand[names.index(HC)] = 9, 3
    for sets, expected in [((), -5), (("options.false_stop_ends_round=false",), 18 - 5),
                           (('scoring.false_stopper_cards="scored"',), 18 - 5)]:
        prepared = game.prepare(rules(*sets), 4)
        public = np.zeros(public_length(9, 4), np.int64)
        engine._fill_static_public(public, 0, 4, 0, 0, 4, 15, prepared.counts, prepared.vector, np.zeros(4, np.int64))
        public[PUB_CENTRE] = names.index(AD)
        assert points_if_stopped(hand, public) == expected, sets


def test_fuzz_draws_both_w8_readings():
    from simkit.fuzz import NumpyPick, draw_case

    drawn = {draw_case("wheedle", NumpyPick(0, case)).rules["scoring"]["false_stopper_cards"] for case in range(40)}
    assert drawn == {"none", "scored"}
