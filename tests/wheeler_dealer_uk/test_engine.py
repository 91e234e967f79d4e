"""Whole Wheeler Dealer (UK) games: conservation of cards and credits in checking mode, the end of a game
(K4), start positions (K7), results, illegal answers, the replay."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simkit.games.wheeler_dealer_uk import engine as E
from simkit.games.wheeler_dealer_uk import state as S
from simkit.games.wheeler_dealer_uk import turn as T
from simkit.games.wheeler_dealer_uk.view import DEAL_RAID, DECISION_NAMES, MAX_SEATS, pack_deal, total_wealth
from simkit.numba_tools import EV_A, EV_B, EV_C, EV_KIND, EV_SEAT, EV_TIME
from simkit.runner import make_batch
from simkit.strategy import kernel_inputs, parse_lineup, registered

from ..golden import assert_golden
from .harness import GAME, Position
from .scripted import CHEAT

SHIPPED = sorted(registered("wheeler-dealer-uk"))
GOLDEN = Path(__file__).with_name("golden_replay.txt")


def play(lineup, n_games=40, seed=3, sets=(), check=True):
    seats = parse_lineup(GAME.name, lineup)
    prepared = GAME.prepare(GAME.rules(sets=list(sets)), len(seats))
    return prepared, GAME.simulate(prepared, seats, seed, 0, n_games, check=check)


def recorded(prepared, seats, seed, game, check):
    """One game played with its event log (engine.play_batch, as a replay plays it)."""
    return E.play_batch(seed, game, 1, prepared, *kernel_inputs(seats, DECISION_NAMES, MAX_SEATS), check=check,
                        record=True, event_capacity=400_000)


def per_seat(columns, name, n):
    return np.asarray(columns[name]).reshape(-1, n)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("sets", [(), ("game.level=2",), ("game.level=3", 'game.set_multiple_rule="size"'),
                                  ('game.set_multiple_rule="size_capped"', "game.turn_limit=30")],
                         ids=["level1", "level2", "level3-size", "capped-limit"])
def test_cards_and_credits_conserved_in_check_mode(players, sets):
    lineup = [SHIPPED[(players * 3 + i) % len(SHIPPED)] for i in range(players)]
    _, columns = play(lineup, 30, seed=players, sets=sets)   # _check raises on any violation, every turn
    assert (per_seat(columns, "winner", players).sum(axis=1) >= 1).all()


def test_check_mode_notices_a_lost_card():
    t = Position(2)
    t.give(0, "Tea")                                          # not taken from any pack
    with pytest.raises(AssertionError, match="cards not conserved"):
        E._check(t.ctx, 10000, 2)


def test_check_mode_notices_credits_from_nowhere():
    t = Position(2)
    with pytest.raises(AssertionError, match="credits"):
        E._check(t.ctx, 9000, 2)


def test_how_games_end_k4():
    prepared, columns = play(list(GAME.default_lineup), 300, seed=5, check=False)
    n = 4
    end, rounds = per_seat(columns, "end", n)[:, 0], per_seat(columns, "rounds", n)[:, 0]
    wealth, winner = per_seat(columns, "wealth", n), per_seat(columns, "winner", n)
    bankrupt = per_seat(columns, "bankrupt", n)
    target = prepared.table[E.H_TARGET]
    assert (winner.sum(axis=1)[end != S.END_TURN_LIMIT] == 1).all()
    assert (wealth[winner & (end == S.END_TARGET)[:, None]] >= target).all()
    assert (bankrupt.sum(axis=1)[end == S.END_LAST_PLAYER] == n - 1).all()
    assert not (winner & bankrupt).any() and (wealth[bankrupt] == 0).all()
    assert {S.END_TARGET, S.END_LAST_PLAYER} <= set(end)
    assert (rounds >= 1).all()


def test_the_turn_limit_ends_games_flagged_and_the_richest_wins():
    _, columns = play(["cautious"] * 3, 40, sets=("game.turn_limit=6",), check=True)
    end, rounds = per_seat(columns, "end", 3)[:, 0], per_seat(columns, "rounds", 3)[:, 0]
    assert (end == S.END_TURN_LIMIT).all() and (rounds == 6).all()
    wealth, winner = per_seat(columns, "wealth", 3), per_seat(columns, "winner", 3)
    assert (winner == (wealth == wealth.max(axis=1, keepdims=True))).all()
    assert (per_seat(columns, "turns", 3) == 6).all()


def test_seats_start_on_outer_blue_spaces_seat_zero_first_k7():
    seats = parse_lineup(GAME.name, ["set-at-3"] * 6)
    prepared = GAME.prepare(GAME.rules(), 6)
    events = recorded(prepared, seats, 4, 0, True)["events"]
    turns = events[events[:, EV_KIND] == S.E_TURN]           # a: cash, b: wealth, c: position
    assert list(turns[:6, EV_SEAT]) == [0, 1, 2, 3, 4, 5]
    assert list(turns[:6, EV_C]) == [0, 8, 16, 24, 0, 8]     # blue spaces of the default board, i mod 4
    assert turns[0, EV_A] == 8250                             # start cash, no bonus for the start space


def test_start_hands_are_four_red_and_four_green():
    t_prepared = GAME.prepare(GAME.rules(), 3)
    out = recorded(t_prepared, parse_lineup(GAME.name, ["cautious"] * 3), 2, 0, True)
    first = out["events"][out["events"][:, EV_KIND] == S.E_TURN][0]
    assert first[EV_B] - first[EV_A] in range(4 * 500 + 4 * 2000, 4 * 1000 + 4 * 10000 + 1)   # wealth - cash = 8 cards


def test_illegal_answers_are_refused_and_the_game_goes_on():
    _, columns = play([CHEAT, "set-at-3", "random"], 20, seed=9)
    illegal = per_seat(columns, "illegal_actions", 3)
    assert (illegal[:, 0] > 0).all() and illegal[:, 1:].sum() == 0


def test_shipped_strategies_answer_legally():
    for name in SHIPPED:
        lineup = [name] + [SHIPPED[(i + SHIPPED.index(name)) % len(SHIPPED)] for i in (1, 2, 3)]
        _, columns = play(lineup, 30, seed=4)
        assert per_seat(columns, "illegal_actions", 4).sum() == 0, name


def test_total_wealth_counts_at_risk_cards_less_their_redeem_cost():
    t = Position(2)
    t.set_cash(0, 1000)
    t.give(0, "Tin")
    t.give(0, "Carrots", 1, at_risk=True)
    assert total_wealth(t.table, 0) == 1000 + 10000 + 550 - (275 + 28)   # 27.5 interest rounds up


def test_replay_matches_the_batch():
    lineup = list(GAME.default_lineup)
    seats = parse_lineup(GAME.name, lineup)
    prepared = GAME.prepare(GAME.rules(), 4)
    text = GAME.replay(prepared, seats, 6, 3)
    _, columns = play(lineup, 4, seed=6, check=False)
    for p in range(4):
        wealth = per_seat(columns, "wealth", 4)[3, p]
        if not per_seat(columns, "bankrupt", 4)[3, p]:
            assert re.search(rf"seat {p} \([^)]*\): wealth {wealth:,}", text)
    assert "== Game over" in text and text.count("round ") >= per_seat(columns, "turns", 4)[3].sum()


def test_when_one_turn_bankrupts_the_last_two_they_share_the_win():
    """Found by the fuzz campaign (simkit fuzz, seed 2026, case 57): a free raid bankrupts its victim, then a
    Handlers Charge the raider. The game used to wait forever for a solvent next seat."""
    rules = {"game": {"level": 2, "set_multiple_rule": "size", "start_cash": 2000, "turn_limit": 10,
                      "buy_from_player_multiple": 1, "at_risk_buy_multiple": 0, "blue_outer_bonus": 0,
                      "at_risk_loan_fraction": 0.05, "at_risk_interest": 2.0, "handlers_charge": 0.25,
                      "set_multiple_size": {"3": 2, "4": 3, "5": 6, "6": 5}}}
    from simkit.runner import make_batch

    batch = make_batch(GAME.name, 1, ["hold-for-5", "hold-for-5", "hold-for-5", "set-at-3"], 2083, rules=rules)
    columns = batch.play(18, 1, True)
    assert columns["bankrupt"].all() and (columns["end"] == S.END_LAST_PLAYER).all()
    winners = columns["winner"]
    assert winners.sum() == 2 and (columns["bankrupt_round"][winners] == columns["bankrupt_round"].max()).all()
    assert "share the win" in GAME.replay(batch.prepared, list(batch.seats), 2083, 18)


# ---- rounds count from 1 (like rounds and the replay) ---------------------------------------------

def test_bankrupt_and_inner_rounds_count_from_one_like_the_replay():
    lineup = ["raider", "set-at-3", "random", "hold-for-5"]
    seats = parse_lineup(GAME.name, lineup)
    prepared = GAME.prepare(GAME.rules(), 4)
    columns = GAME.simulate(prepared, seats, 8, 0, 12)
    bankrupt_round = per_seat(columns, "bankrupt_round", 4)
    inner_round = per_seat(columns, "inner_round", 4)
    seen = set()
    for game in range(12):
        events = recorded(prepared, seats, 8, game, False)["events"]
        for p in range(4):
            for kind, column, name in ((S.E_BANKRUPT, bankrupt_round, "bankrupt"), (S.E_ENTER, inner_round, "inner")):
                rows = events[(events[:, EV_KIND] == kind) & (events[:, EV_SEAT] == p)]
                assert column[game, p] == (rows[0, EV_TIME] + 1 if len(rows) else -1)   # event rounds count from 0
                if len(rows):
                    seen.add(name)
        entered = inner_round[game][inner_round[game] > 0]
        assert per_seat(columns, "first_inner_round", 4)[game, 0] == (entered.min() if len(entered) else -1)
    assert seen == {"bankrupt", "inner"} and (per_seat(columns, "rounds", 4) >= 1).all()


# ---- replay text ----------------------------------------------------------------------------------

def hand_replay(t):
    """The replay text of a hand-built Position's event log."""
    from simkit.games.wheeler_dealer_uk.replay import format_replay

    n = t.n
    out = {"events": t.logged(), "winner": np.zeros((1, n), bool),
           "bankrupt": np.array([[t.bankrupt(p) for p in range(n)]]), "wealth": np.zeros((1, n), np.int64),
           "cash": np.array([[t.cash(p) for p in range(n)]]), "events_lost": 0}
    seats = parse_lineup(GAME.name, [CHEAT] * n)
    return format_replay(t.prepared, seats, 0, 0, out).splitlines()


def test_replay_names_who_pays_whom_and_how_much_each_receives():
    t = Position(4)
    t.set_commands([("collect_from_each_player", 1000), ("pay_each_player", 700)])
    t.set_cash(3, 200)
    t.give(3, "Potatoes")                                # a 250 loan: 450 in all, short of 1,000
    t.log_turn(0)
    T._command(t.ctx, 0)
    T._command(t.ctx, 0)
    lines = hand_replay(t)
    assert "   seat 1 (cheat) pays 1,000 to seat 0 (cheat)" in lines
    assert "   seat 3 (cheat) takes an At Risk loan of 250 on a Potatoes (to make a payment)" in lines
    assert "   seat 3 (cheat) pays its last 450 credits to seat 0 (cheat)" in lines
    assert "   seat 3 (cheat) goes BANKRUPT: its cards go to the bottom of their packs" in lines
    assert "   pays 700 to each other player (1,400 in all)" in lines        # seat 3 is out: two creditors


def test_replay_says_when_a_wanted_card_or_deal_cannot_be_paid_for_and_who_repays_a_raided_loan():
    t = Position(3, sets=("board.outer=BRRRRRRRRRRRR",))
    t.set_cash(0, 100)
    t.set_pack("green", ["Tin"])
    t.give(1, "Cotton", 1, at_risk=True)
    t.log_turn(0)
    t.script(0, "buy", [1])
    T._turn_card(t.ctx, 0, 1)
    t.set_cash(0, 10000)
    T._deal(t.ctx, 0, pack_deal(DEAL_RAID, 1, t.c("Cotton")))
    lines = hand_replay(t)
    assert "   wants the Tin but cannot raise 10,000" in lines
    assert "   declines it: Handlers Charge 1,000, the card goes to the bottom of its pack" in lines
    assert "   seat 1 (cheat) repays its loan on the Cotton + interest from the price: 2,200 to the bank" in lines


def test_replay_of_a_turn_limit_end_names_the_richest():
    seats = parse_lineup(GAME.name, ["cautious"] * 3)
    prepared = GAME.prepare(GAME.rules(sets=["game.turn_limit=3"]), 3)
    text = GAME.replay(prepared, seats, 2, 0)
    _, columns = play(["cautious"] * 3, 1, seed=2, sets=("game.turn_limit=3",))
    winner = int(np.flatnonzero(per_seat(columns, "winner", 3)[0])[0])
    assert (f"== Game over: 3 rounds played, the turn limit (game.turn_limit): the richest player left wins; "
            f"seat {winner} (cautious) wins") in text


@pytest.mark.parametrize("game", range(4))
def test_replay_shows_the_dealt_hands_so_wealth_can_be_re_added(game):
    seats = parse_lineup(GAME.name, list(GAME.default_lineup))
    prepared = GAME.prepare(GAME.rules(), 4)
    lines = GAME.replay(prepared, seats, 7, game).splitlines()
    dealt = lines[lines.index(next(line for line in lines if line.startswith("== The deal"))) + 1:][:4]
    for seat, line in enumerate(dealt):
        cards, wealth = re.fullmatch(rf"   seat {seat} \([^)]*\): (.*); wealth (.*)", line).groups()
        faces = [int(card.rsplit(" ", 1)[1].replace(",", "")) for card in cards.split(", ")]
        assert len(faces) == int(prepared.start_hand.sum())
        assert wealth == f"{int(prepared.start_cash):,} + {sum(faces):,} = {int(prepared.start_cash) + sum(faces):,}"
    # seat 0 moves first: its first turn's wealth is the dealt wealth, re-added from the text
    first = next(line for line in lines if line.startswith("round 1, seat 0"))
    assert first.endswith(f"total wealth {dealt[0].rsplit(' = ', 1)[1]}")


def test_golden_replay_level_2():
    """A seeded level-2 game of the default line-up, in full; regenerate with SIMKIT_REGOLD=1 after a deliberate
    change of behaviour (and read the difference)."""
    seats = parse_lineup(GAME.name, list(GAME.default_lineup))
    assert_golden(GOLDEN, GAME.replay(GAME.prepare(GAME.rules(sets=["game.level=2"]), 4), seats, 1, 136))


def test_interpreter_plays_the_same_games():
    # `simkit bench` times the engine with NUMBA_DISABLE_JIT, where numba_tools' engine context finds the
    # arrays and decision functions by their addresses in Python: that must play exactly the compiled games
    script = ("import json; from simkit.runner import make_batch; print(json.dumps(make_batch("
              "'wheeler-dealer-uk', 2, None, 12345).play(3, 2, True)['wealth'].tolist()))")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root, timeout=300,
                          env=dict(os.environ, NUMBA_DISABLE_JIT="1"))
    assert done.returncode == 0, done.stderr
    compiled = make_batch("wheeler-dealer-uk", 2, None, 12345).play(3, 2, True)["wealth"].tolist()
    assert json.loads(done.stdout.strip().splitlines()[-1]) == compiled
