"""Whole Wheeler-Dealer (US) games: conservation laws in checking mode, the Exchange's odds, the clock."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.runner import make_batch
from simkit.strategy import registered

from ..golden import assert_golden

GAME = get_game("wheeler-dealer-us")


def play(players, games=300, seed=5, sets=(), check=True):
    batch = make_batch("wheeler-dealer-us", games, players, seed, sets=sets)
    return batch.play(0, games, check=check), batch


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_money_and_titles_conserved_with_random_players(level, n):
    # check=True asserts after every turn: players' cash = start + the bank's net payments, no title or
    # cash left with a bankrupt player, no unowned debt-ridden title (engine._check)
    columns, _ = play(["random"] * n, games=150, seed=level * 10 + n, sets=[f"game.level={level}"])
    assert len(columns["game"]) == 150 * n


@pytest.mark.parametrize("level", [1, 2])
def test_money_and_titles_conserved_with_every_shipped_strategy(level):
    names = list(registered("wheeler-dealer-us"))
    for start in range(0, len(names), 4):
        lineup = (names[start:start + 4] + names[:4])[:4]
        columns, _ = play(lineup, games=150, seed=start, sets=[f"game.level={level}"])
        assert (columns["illegal_actions"][np.isin(columns["seat"], range(4))] >= 0).all()


def test_exchange_wins_match_the_exact_two_dice_odds():
    columns, batch = play(["random"] * 4, games=3000, seed=11, check=False)
    rules = batch.rules
    for commodity in rules["commodity"]:
        key = "".join(ch if ch.isalnum() else "_" for ch in commodity["name"].lower()).strip("_")
        made, won = columns[f"invest_{key}"].sum(), columns[f"won_{key}"].sum()
        p = sum(6 - abs(t - 7) for t in commodity["wins"]) / 36
        assert made > 500, commodity["name"]
        sigma = np.sqrt(p * (1 - p) / made)
        assert abs(won / made - p) < 4.5 * sigma, (commodity["name"], won / made, p)   # false alarm rate ~1e-5


def test_level_one_uses_no_cards_and_no_bumps():
    columns, _ = play(["random"] * 4, games=200)
    assert columns["cards_used"].sum() == 0 and columns["bumps"].sum() == 0 and columns["bamboozles_won"].sum() == 0


def test_level_two_uses_cards_and_bumps():
    columns, _ = play(["random"] * 4, games=200, sets=["game.level=2"])
    assert columns["cards_used"].sum() > 0 and columns["bumps"].sum() > 0


def test_game_ends_with_the_last_card_or_the_last_player():
    columns, _ = play(["random"] * 3, games=300)
    ends = columns["end"].reshape(-1, 3)[:, 0]
    bankrupt = columns["bankrupt"].reshape(-1, 3)
    assert set(ends) <= {0, 1}
    assert (bankrupt[ends == 1].sum(axis=1) == 2).all()          # last player standing: two bankrupt
    assert (bankrupt.sum(axis=1) <= 2).all()


def test_clock_game_draws_exactly_the_deck():
    from simkit.strategy import parse_lineup

    batch = make_batch("wheeler-dealer-us", 1, ["random"] * 6, 2)   # six players: the clock runs fastest
    for game in range(100):
        text = GAME.replay(batch.prepared, parse_lineup("wheeler-dealer-us", ["random"] * 6), 2, game)
        if "the last Wheeler-Dealer card was drawn" in text:
            assert text.count("draws a Wheeler-Dealer card") == 60
            return
    pytest.fail("no game ended on the clock")


def test_last_player_standing_plays_past_the_deck():
    columns, _ = play(["random"] * 3, games=50, sets=["game.last_player_standing=true"])
    ends = columns["end"].reshape(-1, 3)[:, 0]
    assert set(ends) <= {1, 2} and (ends == 1).any()


def test_bankrupt_players_never_win_and_ties_are_shared():
    columns, _ = play(["random"] * 4, games=300)
    assert not (columns["bankrupt"] & columns["winner"]).any()
    winners = columns["winner"].reshape(-1, 4)
    worth = columns["net_worth"].reshape(-1, 4)
    alive = ~columns["bankrupt"].reshape(-1, 4)
    best = np.where(alive, worth, np.iinfo(np.int64).min).max(axis=1)
    assert (winners == (alive & (worth == best[:, None]))).all()


@pytest.mark.parametrize("setting, message", [
    ("game.deck_size=59", "deck_size"),
    ("game.min_investment=15000", "smallest commodity stake"),
    ("game.level=3", "game.level"),
    ("property.0.income=[1,2]", "income multiples"),
    ("commodity.Copper.wins=[1,13]", "2d6 totals"),
    ("corner.1.square=1", "already"),
    ("card.0.kind='joker'", "card.0.kind"),
    ("game.players_max=7", "game.players_max"),
    ("bamboozle.cash_stake=0", "bamboozle.cash_stake"),
    ("bamboozle.cash_stake='a lot'", "bamboozle.cash_stake"),
])
def test_bad_rule_data_is_refused_with_the_key(setting, message):
    with pytest.raises(SimkitError, match=message):
        GAME.prepare(GAME.rules(sets=[setting]), 4)


def test_player_count_outside_the_range():
    with pytest.raises(SimkitError, match="2, 3, 4, 5, 6"):
        make_batch("wheeler-dealer-us", 1, ["random"] * 7, 1)


def test_interpreter_plays_the_same_games():
    # `simkit bench` times the engine with NUMBA_DISABLE_JIT, where the engine's and the family's
    # intrinsics have pure-Python stand-ins: those must play exactly the compiled games
    script = ("import json, sys; from simkit.runner import make_batch; print(json.dumps([make_batch("
              "'wheeler-dealer-us', 2, None, 12345, sets=[f'game.level={level}']).play(7, 2, True)['net_worth']"
              ".tolist() for level in (1, 2)]))")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root, timeout=300,
                          env=dict(os.environ, NUMBA_DISABLE_JIT="1"))
    assert done.returncode == 0, done.stderr
    compiled = [make_batch("wheeler-dealer-us", 2, None, 12345, sets=[f"game.level={level}"]).play(7, 2, True)
                ["net_worth"].tolist() for level in (1, 2)]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == compiled


# Golden playthroughs: the default line-up's full transcript at each level, chosen for covering School, poaching,
# bankruptcy, auctions, loans, deals and (Level Two) Bamboozles, a card sale, bumps, saved cards and audits.
# Any change of behaviour shows here; regenerate with SIMKIT_REGOLD=1 after a deliberate one.
GOLDEN = {1: (2026, 94), 2: (2026, 35)}   # level: (seed, game)


@pytest.mark.parametrize("level", sorted(GOLDEN))
def test_golden_replay(level):
    from simkit.strategy import parse_lineup

    seed, game = GOLDEN[level]
    seats = parse_lineup("wheeler-dealer-us", list(GAME.default_lineup))
    prepared = GAME.prepare(GAME.rules(sets=[f"game.level={level}"]), len(seats))
    assert_golden(Path(__file__).with_name(f"golden_replay_level{level}.txt"), GAME.replay(prepared, seats, seed, game))
