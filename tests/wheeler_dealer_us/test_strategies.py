"""The shipped Wheeler-Dealer (US) strategies (strategies/wheeler_dealer_us/)
make only legal moves and do what their docs say. Decisions are asked directly on hand-built tables
(harness.Table); whole games check legality, the clock and that the presets play differently."""
import math

import numpy as np
import pytest

from simkit.games.wheeler_dealer_us.view import (
    A_BUMP_SEAT,
    A_BUMP_SQUARE,
    A_DEAL_CASH,
    A_DEAL_OTHER,
    A_DEAL_THEIRS,
    A_FINANCE_PROPERTY,
    A_RAISE_ITEM,
    A_RAISE_RESERVE,
    A_STAKE,
    A_TARGET,
    CARD_MASTER_KEY_SCHOOL,
    D_BAMBOOZLE,
    D_BUMP,
    D_BUY,
    D_CARD,
    D_DEAL_ANSWER,
    D_DEAL_OFFER,
    D_FINANCE,
    D_INVEST,
    D_RAISE,
    DEAL_BUY,
    FINANCE_DONE,
    FINANCE_REPAY,
    MEMORY_SIZE,
    OUT_SIZE,
    P_LOAN,
    PUB_COMMODITY_ROW,
    PUB_SEAT,
    Q_KIND,
    QUERY_SIZE,
    RAISE_BORROW,
    RAISE_EXCHANGE,
    RAISE_GIVE_UP,
    RAISE_SELL,
    X_INVEST,
    X_RETURN,
    X_WAYS,
)
from simkit.runner import make_batch
from simkit.strategy import registered

from .harness import SC_TARGET, Table

GAME = "wheeler-dealer-us"
SHIPPED = registered(GAME)
PRESETS = [name for name in SHIPPED if name != "random"]


class Asker:
    """Asks one decision of one shipped strategy on a Table, as the engine would."""

    def __init__(self, table, name, **overrides):
        self.table = table
        self.strategy = SHIPPED[name]
        self.params = self.strategy.param_vector(overrides)
        self.memory = np.zeros(MEMORY_SIZE)
        self.rng = np.ones(4, np.uint64)
        self.out = np.zeros(OUT_SIZE, np.int64)

    def __call__(self, decision, name, seat, *args):
        public = self.table.public
        public[PUB_SEAT] = seat
        query = np.zeros(QUERY_SIZE, np.int64)
        query[Q_KIND] = decision
        query[Q_KIND + 1:Q_KIND + 1 + len(args)] = args   # in the order of the decision's Q_* fields
        self.out[:] = 0
        return int(self.strategy.decisions[name](public, self.table.prepared.table, query, self.params, self.memory,
                                                 self.rng, self.out))


def play(lineup, games, seed=1, level=1):
    batch = make_batch(GAME, games, lineup, seed, sets=[f"game.level={level}"])
    return batch.play(0, games, check=True)


def per_seat(columns, name, n):
    return np.asarray(columns[name]).reshape(-1, n)


# ---- whole games -----------------------------------------------------------------------------------

@pytest.mark.parametrize("level", [1, 2])
def test_presets_make_no_illegal_action_at_any_player_count(level):
    for n in range(2, 7):
        for start in range(0, len(PRESETS), n):
            lineup = [PRESETS[(start + i) % len(PRESETS)] for i in range(n)]
            if n >= 3:
                lineup[-1] = "random"  # the baseline makes odd offers and sales the others must answer
            columns = play(lineup, 30, seed=10 * n + start, level=level)
            illegal = per_seat(columns, "illegal_actions", n)
            assert illegal[:, [i for i, s in enumerate(lineup) if s != "random"]].sum() == 0, lineup
            assert set(np.unique(columns["end"])) <= {0, 1}  # the card clock or the last player, never the cap


def test_presets_play_differently():
    lineup = ["kelly", "copper-only", "best-return", "cautious"]
    columns = play(lineup, 300, seed=4)
    worth = per_seat(columns, "net_worth", 4).mean(axis=0)
    bankrupt = per_seat(columns, "bankrupt", 4).mean(axis=0)
    assert len(set(np.round(worth, -3))) == 4
    assert bankrupt[2] > bankrupt[0]            # long shots ruin more often than Kelly
    deals = per_seat(play(["dealer", "builder", "kelly", "poacher"], 200, seed=6), "deals_offered", 4).sum(axis=0)
    assert deals[0] > 0 and deals[1] > 0 and deals[2] == 0 and deals[3] == 0


def test_copper_only_invests_only_in_copper():
    columns = play(["copper-only", "kelly", "copper-only"], 150, seed=3)
    names = [key[len("invest_"):] for key in columns if key.startswith("invest_")]
    for name in names:
        made = per_seat(columns, "invest_" + name, 3)[:, [0, 2]].sum()
        assert (made > 0) if name == "copper" else (made == 0), name


# ---- the Exchange ------------------------------------------------------------------------------------

def _kelly_pick(table, cash, worth, fraction):
    """Exhaustive Kelly over the Exchange rows: best expected log growth of ``worth``."""
    prepared = table.prepared
    row0 = int(table.public[PUB_COMMODITY_ROW])
    best, best_growth = -1, -math.inf
    for c in range(len(prepared.commodities)):
        stake, ret, ways = (int(prepared.table[row0 + c, col]) for col in (X_INVEST, X_RETURN, X_WAYS))
        p = ways / 36
        if stake > cash or stake >= worth or stake > max(fraction * worth, 20000) or p * ret <= stake:
            continue
        growth = p * math.log1p((ret - stake) / worth) + (1 - p) * math.log1p(-stake / worth)
        if growth > best_growth:
            best, best_growth = c, growth
    return best


def test_kelly_maximises_log_growth_of_net_worth():
    table = Table(players=2)
    ask = Asker(table, "kelly")
    table.own(0, "B1", "B2", "F1")  # properties count in the bankroll
    for cash in (20_000, 24_000, 45_000, 90_000, 250_000, 1_500_000, 4_000_000):
        table.set_cash(0, cash)
        worth = cash + 2 * (70_000 + 75_000) + 35_000
        choice = ask(D_INVEST, "invest", 0, 0)
        assert choice == _kelly_pick(table, cash, worth, 0.25), cash
    assert "Pork Bellies" not in table.prepared.commodities[choice]


def test_fixed_best_return_and_cautious_rules():
    table = Table(players=2)
    names = table.prepared.commodities
    table.set_cash(0, 200_000)
    assert names[Asker(table, "copper-only")(D_INVEST, "invest", 0, 0)] == "Copper"
    assert names[Asker(table, "best-return")(D_INVEST, "invest", 0, 0)] == "Crude Oil"   # best EV
    assert names[Asker(table, "cautious")(D_INVEST, "invest", 0, 0)] == "Wheat"          # 34/36 while poor
    table.set_cash(0, 400_000)
    assert names[Asker(table, "cautious")(D_INVEST, "invest", 0, 0)] == "Crude Oil"      # rich: best EV
    table.set_cash(0, 45_000)
    assert names[Asker(table, "best-return")(D_INVEST, "invest", 0, 0)] in ("Lumber", "Silver", "Cotton")


# ---- buying, borrowing, repaying --------------------------------------------------------------------

def test_never_borrow_declines_what_it_cannot_pay_and_builder_borrows_for_its_block():
    table = Table(players=2)
    table.own(0, "F1", "G1", "G2")
    table.set_cash(0, 40_000)
    f2 = table.prop("F2")  # $38,000: only the loans on G1, G2 would keep the next stake
    assert Asker(table, "kelly")(D_BUY, "buy", 0, f2) == 0
    assert Asker(table, "builder")(D_BUY, "buy", 0, f2) == 1
    a1 = table.prop("A1")  # $100,000, no block of mine: builder does not borrow for it
    assert Asker(table, "builder")(D_BUY, "buy", 0, a1) == 0


def test_finance_never_borrows_and_repays_whole_blocks_first():
    table = Table(players=2)
    table.own(0, "H1", "H2", "H3")
    table.own(0, "H3", debt=True)                    # whole block H, one debt: payoff $10,000
    table.own(0, "G3", debt=True)                    # a lone debt, cheaper: payoff $9,000
    table.own(0, "E1", debt=True)
    table.set_cash(0, 60_000)
    ask = Asker(table, "builder")
    assert ask(D_FINANCE, "finance", 0) == FINANCE_REPAY and ask.out[A_FINANCE_PROPERTY] == table.prop("H3")
    table.set_cash(0, 25_000)                        # any repayment would leave less than the reserve
    assert ask(D_FINANCE, "finance", 0) == FINANCE_DONE
    table.own(0, "G3", "E1", "H3")                   # no debts: nothing to do, and never a loan
    table.set_cash(0, 0)
    assert ask(D_FINANCE, "finance", 0) == FINANCE_DONE


@pytest.mark.parametrize("hopeless", [False, True])
def test_raise_never_offers_the_same_property_twice(hopeless):
    table = Table(players=3)
    table.own(0, "G1", "G3", "E1", debt=True)
    table.own(0, "C1")
    table.set_cash(0, 25_000)
    ask = Asker(table, "kelly")
    # a debt C1's loan covers, or one no borrowing could cover (U17(b): then kelly never asks to borrow)
    short = 500_000 - 25_000 if hopeless else int(table.prepared.table[table.prop("C1"), P_LOAN])
    actions, sold = [], []
    for step in range(8):  # Q_RAISE_STEPS: the steps taken in this raise
        action = ask(D_RAISE, "raise", 0, short, -1, step)
        actions.append(action)
        if action == RAISE_BORROW:
            assert ask.out[A_RAISE_ITEM] == table.prop("C1")
            table.own(0, "C1", debt=True)            # what the engine's borrowing does
        elif action == RAISE_SELL:
            assert ask.out[A_RAISE_ITEM] not in sold and ask.out[A_RAISE_RESERVE] >= 100
            sold.append(ask.out[A_RAISE_ITEM])                  # nobody bids: the title stays
        else:
            break
    assert (actions[0] == RAISE_BORROW) != hopeless and (RAISE_BORROW in actions) != hopeless and len(sold) == 4
    assert actions[-1] in (RAISE_EXCHANGE, RAISE_GIVE_UP)


# ---- dealing ---------------------------------------------------------------------------------------

def test_deal_answer_never_completes_a_rivals_block_or_breaks_mine():
    table = Table(players=2)
    table.own(1, "F1", "F2", "F3")
    table.own(0, "F4", "I1", "I2", "I3")
    f4, i1 = table.prop("F4"), table.prop("I1")
    rich_offer = 1_000_000
    table.set_cash(1, 2_000_000)
    assert Asker(table, "kelly")(D_DEAL_ANSWER, "deal_answer", 0, 1, DEAL_BUY, -1, f4, rich_offer) == 0
    assert Asker(table, "dealer")(D_DEAL_ANSWER, "deal_answer", 0, 1, DEAL_BUY, -1, f4, rich_offer) == 1
    assert Asker(table, "dealer")(D_DEAL_ANSWER, "deal_answer", 0, 1, DEAL_BUY, -1, i1, rich_offer) == 0
    assert Asker(table, "dealer")(D_DEAL_ANSWER, "deal_answer", 0, 1, DEAL_BUY, -1, f4, 60_000) == 0  # < 1.5 x


def test_builder_offers_a_premium_for_the_missing_piece():
    table = Table(players=2)
    table.own(0, "D1", "D2")
    table.own(1, "D3")
    table.set_cash(0, 300_000)
    ask = Asker(table, "builder")
    kind = ask(D_DEAL_OFFER, "deal_offer", 0, 0)
    assert kind == DEAL_BUY and ask.out[A_DEAL_OTHER] == 1 and ask.out[A_DEAL_THEIRS] == table.prop("D3")
    assert ask.out[A_DEAL_CASH] == int(1.5 * 56_000)


# ---- Level Two ---------------------------------------------------------------------------------------

def test_bump_sends_the_rival_to_my_best_paying_property():
    table = Table(players=3, sets=["game.level=2"])
    table.own(0, "C1", "C2", "C3")                   # whole block C: top multiples 75,000 / 90,000
    table.place(0, table.square_of("A1"))
    table.place(1, table.square_of("A1"))
    table.place(2, table.square_of("C2"))            # C2 is taken by a token
    ask = Asker(table, "kelly")
    assert ask(D_BUMP, "bump", 0) == 1
    assert ask.out[A_BUMP_SEAT] == 1 and ask.out[A_BUMP_SQUARE] == table.square_of("C3")
    assert Asker(table, "kelly", level2=0)(D_BUMP, "bump", 0) == 0


def test_bamboozle_stakes_the_least_valuable_property_on_an_eligible_target():
    table = Table(players=3, sets=["game.level=2"])
    table.own(0, "G3", "B1", "B2")
    table.own(2, "B3", "F4")                         # B3 would give me three Bs
    ask = Asker(table, "kelly")
    assert ask(D_BAMBOOZLE, "bamboozle", 0, 0) == 1
    assert ask.out[A_STAKE] == table.prop("G3") and ask.out[A_TARGET] == table.prop("B3")
    table = Table(players=3, sets=["game.level=2"])
    table.own(0, "G3", "E1")
    table.own(1, "A1", "A2")                         # a whole block: safe from a regular Bamboozle
    table.own(2, "H1")                               # worth less than my stake
    ask = Asker(table, "kelly")
    assert ask(D_BAMBOOZLE, "bamboozle", 0, 0) == 0
    assert ask(D_BAMBOOZLE, "bamboozle", 0, 1) == 1  # underhanded: A1 is fair game
    assert ask.out[A_STAKE] == table.prop("G3") and ask.out[A_TARGET] == table.prop("A1")


def test_master_key_skips_school():
    table = Table(players=2, sets=["game.level=2"])
    for name in PRESETS:
        assert Asker(table, name)(D_CARD, "card", 0, CARD_MASTER_KEY_SCHOOL, 0) == 1


# ---- rule amounts reach engine and strategies alike ------------------------------------------------

@pytest.mark.parametrize("name", ["kelly", "random"])
def test_bamboozle_cash_stake_set_by_a_house_rule_reaches_engine_and_strategy(name):
    from simkit.games.wheeler_dealer_us import cards, state
    from simkit.games.wheeler_dealer_us.view import PUB_BAMBOOZLE_CASH

    table = Table(players=2, sets=["game.level=2", "bamboozle.cash_stake=30000"], bamboozle=1, mine=-1)
    table.own(1, "A1")
    table.params[0, SC_TARGET] = table.prop("A1")
    assert table.public[PUB_BAMBOOZLE_CASH] == 30_000
    ask = Asker(table, name)
    table.set_cash(0, 25_000)                        # enough for the printed $20,000, not for $30,000
    assert ask(D_BAMBOOZLE, "bamboozle", 0, 0) == 0
    assert cards._bamboozle(table.ctx, 0, False, False) is False and table.stats[0, state.S_ILLEGAL] == 1
    table.set_cash(0, 40_000)
    for _ in range(20):                              # random declines now and then
        if ask(D_BAMBOOZLE, "bamboozle", 0, 0) == 1:
            break
    assert ask.out[A_STAKE] == -1 and ask.out[A_TARGET] == table.prop("A1")
    for _ in range(30):                              # until the stake is lost once
        assert cards._bamboozle(table.ctx, 0, False, False) is True
        (_, _, _, _, _, mine_roll, their_roll) = table.log(state.E_BAMBOOZLE)[-1]
        if their_roll > mine_roll:
            assert table.cash(0) == 10_000 and table.cash(1) == 130_000
            break
        table.own(1, "A1")
    else:
        pytest.fail("the stake was never lost")


def test_random_gives_only_legal_answers():
    # a small version of the campaign in the README (100,000 checked games a level at 2-6 players)
    for level in (1, 2):
        for n in range(2, 7):
            columns = play(["random"] * n, 200, seed=100 + 10 * level + n, level=level)
            assert columns["illegal_actions"].sum() == 0, (level, n)
