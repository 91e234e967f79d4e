"""Rule activity counters (GAME.rule_counters): each game's counters match an independent count from its event
log (or its recorded hands) on seeded games, every rule option names a counter that is a result column, and a
counter moves when its option changes what happens."""
from collections import Counter

import numpy as np
import pytest

from simkit.games import EVERY_GAME, PLAYER_COUNTS_ONLY, get_game
from simkit.numba_tools import EV_A, EV_B, EV_C, EV_D, EV_KIND, EV_SEAT
from simkit.rules import rule_options
from simkit.strategy import parse_lineup


def _columns_of_one_game(game, lineup, sets, seed, n_games=3):
    seats = parse_lineup(game.name, lineup)
    prepared = game.prepare(game.rules(sets=list(sets)), len(seats))
    return prepared, seats, game.simulate(prepared, seats, seed, 0, n_games, check=True)


def _per_seat(columns, name, n):
    return np.asarray(columns[name]).reshape(-1, n)


@pytest.mark.parametrize("name", ["wheedle", "dweebies", "wheeler-dealer-uk", "wheeler-dealer-us"])
def test_every_rule_option_names_a_counter_that_is_a_result_column(name):
    game = get_game(name)
    lineup = list(game.default_lineup)
    _, _, columns = _columns_of_one_game(game, lineup, (), seed=1, n_games=1)
    for option in rule_options(game.rules_path):
        counter = game.rule_counter(option.key)
        assert counter is not None, f"{name}: {option.key} names no counter"
        assert counter in (EVERY_GAME, PLAYER_COUNTS_ONLY) or counter in columns, (option.key, counter)
    assert set(game.rule_counters) <= {o.key for o in rule_options(game.rules_path)} | {
        key for key in game.rule_counters if key.count(".") == 1 and key.split(".")[0] in game.rule_counters}


# ---- Wheedle: from the event log and the recorded end-of-round hands ------------------------------------

def _wheedle_derived(prepared, out, rules_vector):
    from simkit.games.wheedle import engine as E
    from simkit.games.wheedle.view import OFFER

    n = prepared.n_players
    counts = prepared.counts
    derived = {name: np.zeros(n, np.int64) for name in E.SEAT_STATS}
    events = out["events"]
    ended_by_false_stop = {}
    for i, ev in enumerate(events):
        kind, seat = ev[E.EV_KIND], ev[E.EV_SEAT]
        if kind == E.E_FALSE_STOP:
            later = events[i + 1:]
            same_round = later[(later[:, E.EV_GAME] == ev[E.EV_GAME]) & (later[:, E.EV_ROUND] == ev[E.EV_ROUND])]
            if len(same_round):    # anything after it in its round, a stalemate included: the round went on
                derived["false_stops_played_on"][seat] += 1
            else:
                derived["false_stops_ending_round"][seat] += 1
                ended_by_false_stop[int(ev[E.EV_ROUND])] = int(seat)
        if kind in (E.E_OFFER_TAKEN, E.E_OFFER_UNTAKEN) and (ev[E.EV_GIVE_COUNT] == 0) != (ev[E.EV_WANT_COUNT] == 0):
            derived["gift_offers"][seat] += 1
        # a refused offer logs what was attempted: OFFER, then give, k, want, m
        if kind == E.E_ILLEGAL and ev[E.EV_GIVE] == OFFER and (ev[E.EV_WANT] == 0) != (ev[E.EV_OTHER] == 0):
            derived["gift_offers"][seat] += 1
    w8_none = rules_vector[E.R_FALSE_STOPPER_CARDS_SCORED] == 0
    for rnd in range(prepared.rounds):
        hands = E.trace_hands(out["trace"][0, rnd], E.TRACE_END)
        centre = int(E.trace_centre(out["trace"][0, rnd], E.TRACE_END))
        for p in range(n):
            if w8_none and ended_by_false_stop.get(rnd) == p:
                continue    # W8: its cards scored nothing
            whole = hands[p] == counts
            majority = (hands[p] > 0) & ~whole & (2 * hands[p] > counts)
            derived["companies_all_held"][p] += int(whole[hands[p] > 0].sum())
            derived["majorities_scored"][p] += int(np.delete(majority, centre).sum())
            derived["bankrupt_majorities"][p] += int(majority[centre])
            derived["bankrupt_cards"][p] += int(hands[p, centre])
    return derived


@pytest.mark.parametrize("sets", [(), ("options.false_stop_ends_round=false", "scoring.false_stopper_cards=scored"),
                                  ("options.gifts_allowed=false",), ("options.max_ticks=6",)],
                         ids=["default", "w4-played-on", "no-gifts", "short-rounds"])
def test_wheedle_counters_match_the_event_log(sets):
    from simkit.games.wheedle import engine as E

    from .helpers import play_with_events

    game = get_game("wheedle")
    seats = parse_lineup("wheedle", ["bluffer", "random", "hair-trigger", "collector:stop=4:bluff_points=-20:bluff_after=0"])
    prepared = game.prepare(game.rules(sets=list(sets)), len(seats))
    checked = Counter()
    for g in range(4):
        out = play_with_events(prepared, seats, 11, g)
        derived = _wheedle_derived(prepared, out, prepared.vector)
        stats = out["seat_stats"][0]
        kinds = out["events"][:, E.EV_KIND]
        for name, kind in (("false_stops", E.E_FALSE_STOP), ("good_stops", E.E_GOOD_STOP)):
            derived[name] = np.bincount(out["events"][kinds == kind, E.EV_SEAT], minlength=len(seats))
        for name in ("false_stops", "good_stops", "false_stops_played_on", "false_stops_ending_round", "gift_offers",
                     "companies_all_held", "majorities_scored", "bankrupt_majorities", "bankrupt_cards"):
            assert list(stats[:, E.SEAT_STATS.index(name)]) == list(derived[name]), (name, g)
            checked[name] += int(derived[name].sum())
        # stalemates (a per-game column): rounds whose stopper is none, against the log's stalemate events
        stalemates = int((kinds == E.E_STALEMATE).sum())
        assert int((out["round_stopper"][0] < 0).sum()) == stalemates, g
        checked["stalemates"] += stalemates
    # the games exercised what they check
    assert checked["companies_all_held"] + checked["majorities_scored"] + checked["bankrupt_cards"] > 0
    assert checked["good_stops"] + checked["false_stops"] > 0
    if sets and sets[0].startswith("options.false_stop"):
        assert checked["false_stops_played_on"] > 0 and checked["false_stops_ending_round"] == 0
    elif sets and sets[0].startswith("options.max_ticks"):
        assert checked["stalemates"] > 0
    elif not sets:
        assert checked["false_stops_ending_round"] > 0 and checked["gift_offers"] > 0 and checked["stalemates"] == 0


def test_wheedle_w4_counter_moves_with_its_option():
    game = get_game("wheedle")
    lineup = ["bluffer", "random", "hair-trigger", "collector:stop=4:bluff_points=-20:bluff_after=0"]
    counts = {}
    for value in ("true", "false"):
        _, _, columns = _columns_of_one_game(game, lineup, [f"options.false_stop_ends_round={value}"], 2, 6)
        counts[value] = int(np.sum(columns["false_stops_played_on"]))
    assert counts["true"] == 0 and counts["false"] > 0


# ---- Dweebies: from the event log ------------------------------------------------------------------------

@pytest.mark.parametrize("sets", [(), ("game.collect=may",), ("game.split_rule=free",)], ids=["default", "may", "free"])
def test_dweebies_counters_match_the_event_log(sets):
    from simkit.games.dweebies import engine as E
    from simkit.games.dweebies.play import _kernel_inputs

    from .dweebies.toy_strategies import DECLINER

    game = get_game("dweebies")
    seats = parse_lineup("dweebies", [DECLINER, "greedy", "random", "greedy-defensive"])
    prepared = game.prepare(game.rules(sets=list(sets)), len(seats))
    functions, params = _kernel_inputs(seats)
    cards = int(prepared.copies.sum())
    checked = Counter()
    for g in range(6):
        out = E.play_batch(8, g, 1, prepared, functions, params, check=True, record=True,
                           event_capacity=cards * (4 * cards + 12))
        assert out["events_lost"] == 0
        events = out["events"]
        stats = out["stats"][0]
        for p in range(len(seats)):
            mine = events[events[:, E.EV_SEAT] == p]
            derived = {
                "two_card_lines": int(((mine[:, E.EV_KIND] == E.E_COLLECT) & (mine[:, E.EV_B] == 2)).sum()),
                "declined": int((mine[:, E.EV_KIND] == E.E_DECLINE).sum()),
                "link_placements": int(((mine[:, E.EV_KIND] == E.E_PLACE) & (mine[:, E.EV_B] == 1)).sum()),
            }
            for name, value in derived.items():
                assert stats[p, E.SEAT_STATS.index(name)] == value, (name, g, p)
                checked[name] += value
    assert checked["two_card_lines"] > 0 and checked["link_placements"] > 0
    assert (checked["declined"] > 0) == ("game.collect=may" in sets)


def test_dweebies_min_line_counter_moves_with_its_option():
    game = get_game("dweebies")
    lines = {}
    for value in (2, 3):
        _, _, columns = _columns_of_one_game(game, ["greedy", "random", "pair-keeper"], [f"game.min_line={value}"], 5,
                                             10)
        lines[value] = int(np.sum(columns["two_card_lines"]))
    assert lines[2] > 0 and lines[3] == 0


def _check_seats(events, stats, names, seats, derive, checked):
    """Each seat's counters against ``derive(its events, their kinds)`` (name -> count); adds to ``checked``."""
    for p in range(seats):
        mine = events[events[:, EV_SEAT] == p]
        for name, value in derive(mine, mine[:, EV_KIND]).items():
            assert stats[p, names.index(name)] == value, (name, p)
            checked[name] += value


# ---- Wheeler Dealer (UK): from the event log --------------------------------------------------------------

@pytest.mark.parametrize("sets", [("game.start_cash=2000", "game.borrow_on_sale=false"),
                                  ("game.borrow_on_sale=true", "game.turn_limit=40")],
                         ids=["poor", "sale-loans-turn-limit"])
def test_uk_counters_match_the_event_log(sets):
    from simkit.games.wheeler_dealer_uk import state as E
    from simkit.games.wheeler_dealer_uk.play import _play
    from simkit.games.wheeler_dealer_uk.view import BORROW_FOR_COMMAND_REDEEM, BORROW_FOR_REDEEM

    game = get_game("wheeler-dealer-uk")
    seats = parse_lineup(game.name, ["raider", "hold-for-5", "random", "cautious"])
    prepared = game.prepare(game.rules(sets=list(sets)), len(seats))
    min_set = game.default_rules["game"]["min_set"]
    checked = Counter()
    ends = Counter()
    for g in range(3):
        out = _play(prepared, seats, 21, g, 1, True, record=True, event_capacity=400_000)
        assert out["events_lost"] == 0
        events = out["events"]
        _check_seats(events, out["stats"][0], E.SEAT_STATS, len(seats), lambda mine, kinds: {
            "blue_bonuses": int((kinds == E.E_BONUS).sum()),
            "empty_pack_landings": int((kinds == E.E_EMPTY_PACK).sum()),
            "long_sets": int(((kinds == E.E_SELL) & (mine[:, EV_B] > min_set)).sum()),
            "redeem_loans": int(((kinds == E.E_LOAN)
                                 & np.isin(mine[:, EV_C], (BORROW_FOR_REDEEM, BORROW_FOR_COMMAND_REDEEM))).sum()),
            "sets_sold": int((kinds == E.E_SELL).sum()),
            # a loan on a card of a set sold this turn (EV_D 1) stays in the hand: not an At Risk loan unless the
            # set went unsold and the card moved to the At Risk zone after all
            "loans": int(((kinds == E.E_LOAN) & (mine[:, EV_D] == 0)).sum())
            + int(mine[kinds == E.E_LOAN_TO_RISK, EV_B].sum()),
            "sale_loans": int(mine[kinds == E.E_SELL, EV_D].sum()),
            "redeemed": int((kinds == E.E_REDEEM).sum()),
            "bought_from_players": int((kinds == E.E_DEAL).sum()),
            "raids": int((kinds == E.E_RAID).sum()),
            "charges_paid": int((kinds == E.E_CHARGE).sum()),
            "commands": int((kinds == E.E_COMMAND).sum()),
        }, checked)
        # entered_inner (per seat) and target_reached / turn_limit_reached (per game): what the result columns
        # are made of, against the log's entries to the inner circle and its end event
        entered = set(events[events[:, EV_KIND] == E.E_ENTER, EV_SEAT].tolist())
        assert [int(r > 0) for r in out["stats"][0][:, E.S_INNER_ROUND]] == [int(p in entered) for p in range(len(seats))]
        checked["entered_inner"] += len(entered)
        end_events = events[events[:, EV_KIND] == E.E_END]
        assert len(end_events) == 1 and int(out["end"][0]) == int(end_events[0, EV_A])
        ends[int(end_events[0, EV_A])] += 1
    assert checked["blue_bonuses"] > 0 and checked["long_sets"] > 0 and checked["sets_sold"] > 0
    assert checked["loans"] > 0 and checked["charges_paid"] > 0 and checked["commands"] > 0
    if "game.borrow_on_sale=true" in sets:
        assert checked["sale_loans"] > 0 and ends[E.END_TURN_LIMIT] > 0
    else:
        assert checked["sale_loans"] == 0


def test_uk_counters_move_with_their_options():
    game = get_game("wheeler-dealer-uk")
    lineup = ["hold-for-5", "set-at-3", "cautious"]
    _, _, on = _columns_of_one_game(game, lineup, ["game.borrow_on_sale=true"], 3, 20)
    _, _, off = _columns_of_one_game(game, lineup, ["game.borrow_on_sale=false"], 3, 20)
    assert np.sum(on["sale_loans"]) > 0 and np.sum(off["sale_loans"]) == 0
    _, _, capped = _columns_of_one_game(game, lineup, ["game.turn_limit=5"], 3, 4)
    assert np.all(capped["turn_limit_reached"] == 1) and np.all(capped["target_reached"] == 0)


# ---- Wheeler-Dealer (US): from the event log --------------------------------------------------------------

@pytest.mark.parametrize("level", [1, 2])
def test_us_counters_match_the_event_log(level):
    from simkit.games.wheeler_dealer_us import engine
    from simkit.games.wheeler_dealer_us import state as S
    from simkit.games.wheeler_dealer_us.play import _kernel_inputs
    from simkit.games.wheeler_dealer_us.view import COMBO_BAMBOOZLE

    game = get_game("wheeler-dealer-us")
    seats = parse_lineup(game.name, ["kelly", "random", "poacher", "builder"])
    # a turn limit that some of the games reach, so that turn_limit_reached is checked both ways
    prepared = game.prepare(game.rules(sets=[f"game.level={level}", "game.max_turns=50"]), len(seats))
    trade_fair = prepared.squares.index("Trade Fair")
    checked = Counter()
    ends = Counter()
    for g in range(3):
        out = engine.play_batch(31, g, 1, prepared, *_kernel_inputs(seats), check=True, record=True,
                                event_capacity=200_000)
        assert out["events_lost"] == 0

        def derive(mine, kinds):
            counts = {
                "doubles_bonuses": int((kinds == S.E_DOUBLES).sum()),
                "park_visits": int((kinds == S.E_PARK).sum()),
                "city_hall_visits": int((kinds == S.E_CITY_HALL).sum()),
                "school_stays": int((kinds == S.E_SCHOOL).sum()),
                "tax_audits": int((kinds == S.E_AUDIT).sum()),
                "bamboozles": int((kinds == S.E_BAMBOOZLE).sum()),
                "cash_bamboozles": int(((kinds == S.E_BAMBOOZLE) & (mine[:, EV_A] < 0)).sum()),
                # won at an auction of the bank's property or of a player's (logged under the winner)
                "auctions_won": int(np.isin(kinds, (S.E_AUCTION, S.E_SALE)).sum()),
                "deals_offered": int((kinds == S.E_DEAL).sum()),
                # a card is used when it is played (logged as used) or when its Bamboozle is played; a Combo
                # Platter played as a Bamboozle is logged as used, then as the Bamboozle: one card
                "cards_used": int((kinds == S.E_CARD_USED).sum()) + int((kinds == S.E_BAMBOOZLE).sum())
                - int(((kinds == S.E_CARD_USED) & (mine[:, EV_B] == S.USED_AS_COMBO + COMBO_BAMBOOZLE)).sum()),
            }
            if level == 1:   # no cards and no bumps: a token lands only where its roll takes it
                counts["trade_fair_visits"] = int(((kinds == S.E_MOVE) & (mine[:, EV_C] == trade_fair)).sum())
            return counts

        _check_seats(out["events"], out["stats"][0], S.SEAT_STATS, len(seats), derive, checked)
        end_events = out["events"][out["events"][:, EV_KIND] == S.E_END]
        assert len(end_events) == 1 and int(out["end"][0]) == int(end_events[0, EV_A])
        ends[int(end_events[0, EV_A])] += 1
    assert checked["doubles_bonuses"] > 0 and checked["park_visits"] > 0 and checked["school_stays"] > 0
    assert checked["auctions_won"] > 0 and checked["deals_offered"] > 0
    if level == 2:
        assert checked["tax_audits"] + checked["bamboozles"] > 0 and checked["cards_used"] > 0
    else:
        assert checked["tax_audits"] == checked["bamboozles"] == checked["cards_used"] == 0
        assert checked["trade_fair_visits"] > 0


def test_us_max_turns_counter_moves_with_its_option():
    game = get_game("wheeler-dealer-us")
    lineup = ["kelly", "copper-only", "builder"]
    _, _, capped = _columns_of_one_game(game, lineup, ["game.max_turns=5"], 3, 3)
    _, _, free = _columns_of_one_game(game, lineup, [], 3, 3)
    assert np.all(capped["turn_limit_reached"] == 1) and np.all(free["turn_limit_reached"] == 0)


def test_rules_options_names_each_counter():
    from click.testing import CliRunner

    from simkit.cli import cli

    result = CliRunner().invoke(cli, ["rules", "wheedle", "--options"], catch_exceptions=False)
    assert "scoring.false_stop = -5  [rulebook]  (counter: false_stops)" in result.output
    assert "options.false_stop_ends_round = true  [W4]  (counter: false_stops)" in result.output
