"""Hand-built Wheeler-Dealer (US) situations, one engine step each (the rules and the decisions U1-U16 of
docs/rules/wheeler-dealer-us.md)."""
import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games.wheeler_dealer_us import GAME, board, cards, engine, money, state, view
from simkit.games.wheeler_dealer_us.play import net_worth
from simkit.games.wheeler_dealer_us.view import (
    BLOCK_COUNT_BITS,
    bamboozle_target_ok,
    held_titles,
    seat_net_worth,
    titles_fit,
    titles_net_worth,
)

from .harness import SC_ARG0, SC_ARG1, SC_MINE, SC_TARGET, Table

G_INCOME = (1500, 3000, 6000, 60000)   # G1's Income Multiples (data file)


def land_on(table, seat, pid):
    square = table.square_of(pid)
    table.place(seat, square)
    return board._land(table.ctx, seat, square)


# ---- net worth (rulebook example) --------------------------------------------------------------

def test_rulebook_net_worth_example():
    assert net_worth(0, ["A1", "A2", "E1", "G1", "G2", "G3"]) == 515_000


def test_net_worth_subtracts_payoffs_not_loans_and_keeps_market_value():
    # A1's payoff is $88,000 (its loan value is $55,000); being debt-ridden does not change market value
    assert net_worth(1_000, ["A1", "A2", "E1", "G1", "G2", "G3"], ["A1"]) == 515_000 + 1_000 - 88_000


def test_net_worth_rejects_unknown_and_unowned_debts():
    with pytest.raises(SimkitError):
        net_worth(0, ["Z9"])
    with pytest.raises(SimkitError):
        net_worth(0, ["A1"], ["A2"])


def test_seat_net_worth_on_a_table_in_play():
    # G1-G3: three of block G's four (costs 25,000 + 20,000 + 15,000, each counted x3); B1 and A1 alone; A1's
    # payoff 88,000 owed
    table = Table(players=2)
    table.own(1, "G1", "G2", "G3", "B1")
    table.own(1, "A1", debt=True)
    table.set_cash(1, 12_345)
    expected = 12_345 + 3 * (25_000 + 20_000 + 15_000) + 70_000 + 100_000 - 88_000
    assert seat_net_worth(table.public, table.prepared.table, 1) == expected
    assert net_worth(12_345, ["G1", "G2", "G3", "B1", "A1"], ["A1"]) == expected


def test_titles_net_worth_values_the_title_bits_a_caller_keeps():
    # the investor family passes its kept title bits: the same value as seat_net_worth, from those bits alone
    table = Table(players=3)
    table.own(1, "G1", "G2", "G3", "B1")
    table.own(1, "A1", debt=True)
    table.own(2, "G4", "E1")
    table.set_cash(1, 12_345)
    public, rule_table = table.public, table.prepared.table
    ids = table.prepared.properties
    assert titles_fit(public)
    bits = held_titles(public, 1)
    assert bits == sum(1 << ids.index(pid) for pid in ("G1", "G2", "G3", "B1", "A1"))
    assert held_titles(public, 0) == 0
    assert titles_net_worth(public, rule_table, 1, bits) == seat_net_worth(public, rule_table, 1) == \
        12_345 + 3 * (25_000 + 20_000 + 15_000) + 70_000 + 100_000 - 88_000
    # fewer bits value fewer titles: G3 dropped leaves G1 and G2 counted twice each
    g3 = 1 << ids.index("G3")
    assert titles_net_worth(public, rule_table, 1, bits & ~g3) == 12_345 + 2 * (25_000 + 20_000) + 70_000 + 100_000 - 88_000


def test_seat_net_worth_on_a_board_of_more_blocks_than_its_packed_counts_hold():
    # every property its own block (30 blocks): seat_net_worth counts block by block; one-property blocks are
    # worth their cost once
    rules = GAME.default_rules
    singles = [dict(entry, block=entry["id"], income=entry["income"][:1]) for entry in rules["property"]]
    prepared = GAME.prepare(dict(rules, property=singles), 2)
    assert len(prepared.blocks) * BLOCK_COUNT_BITS >= 63
    public = np.zeros(view.public_length(len(singles), 1), np.int64)
    public[view.PUB_PROPERTIES], public[view.PUB_BLOCKS] = len(singles), len(prepared.blocks)
    assert not titles_fit(public)
    costs = {entry["id"]: entry["cost"] for entry in singles}
    owned = ["G1", "G2", "B1", "A1"]
    assert net_worth(500, owned, ["A1"], rules=dict(rules, property=singles)) == \
        500 + sum(costs[pid] for pid in owned) - 88_000


# ---- rent by block ownership and the debt-ridden rule ---------------------------------------------

@pytest.mark.parametrize("held, debt, multiple", [
    (("G1",), (), G_INCOME[0]),
    (("G1", "G2"), (), G_INCOME[1]),
    (("G1", "G2", "G3", "G4"), (), G_INCOME[3]),            # whole block, none debt-ridden: the top multiple
    (("G1", "G2", "G3", "G4"), ("G2",), G_INCOME[2]),       # whole block with a debt-ridden title: one below
    (("G1", "G2", "G3"), ("G1",), G_INCOME[2]),             # a debt-ridden title still earns (U5)
])
def test_rent_follows_block_holdings(held, debt, multiple):
    table = Table(players=2, poach=0)
    table.own(1, *held)
    for pid in debt:
        table.own(1, pid, debt=True)
    table.set_cash(0, 1_000_000)
    before = table.cash(0), table.cash(1)
    land_on(table, 0, "G1")
    (_, seat, _, prop, die, rent, holder), = table.log(state.E_RENT)
    assert (seat, prop, holder) == (0, table.prop("G1"), 1) and 1 <= die <= 6
    assert rent == multiple * die
    assert (table.cash(0), table.cash(1)) == (before[0] - rent, before[1] + rent)
    assert table.conserved()


def test_own_property_pays_the_smallest_multiple_from_the_bank():
    table = Table(players=2)
    table.own(0, "G1", "G2", "G3", "G4")
    before = table.cash(0)
    land_on(table, 0, "G1")
    (_, _, _, _, die, amount, _), = table.log(state.E_OWN_INCOME)
    assert amount == G_INCOME[0] * die and table.cash(0) == before + amount


# ---- buying, auctions (U3) ---------------------------------------------------------------------------

def test_buy_at_cost():
    table = Table(players=3, buy=1)
    land_on(table, 0, "E1")
    assert table.owner("E1") == 0 and table.cash(0) == 100_000 - 15_000
    assert table.conserved()


def test_declined_property_goes_to_second_price_auction():
    table = Table(players=3, buy=0, bid=[40_000, 30_000, 10_000])
    land_on(table, 0, "E1")
    (_, winner, _, prop, price, _, _), = table.log(state.E_AUCTION)
    assert winner == 0 and table.owner("E1") == 0
    assert price == 30_000 + 1_000          # second-highest maximum plus the increment
    assert table.stats[0, state.S_DECLINED_THEN_WON] == 1


def test_single_bidder_pays_the_minimum_and_no_bid_leaves_it_unowned():
    table = Table(players=3, buy=0, bid=[0, 25_000, 50])
    land_on(table, 0, "E1")
    assert table.owner("E1") == 1 and table.cash(1) == 100_000 - 100
    table = Table(players=3, buy=0, bid=0)
    land_on(table, 0, "E1")
    assert table.owner("E1") == -1 and table.log(state.E_NO_BID)


def test_auction_ties_are_broken_at_random_and_pay_the_tied_maximum():
    winners = set()
    for seed in range(40):
        table = Table(players=3, seed=seed, buy=0, bid=[0, 20_000, 20_000])
        land_on(table, 0, "E1")
        winners.add(table.owner("E1"))
        winner = table.owner("E1")
        assert table.cash(winner) == 100_000 - 20_000
    assert winners == {1, 2}


def test_school_players_do_not_bid_on_a_declined_property():
    table = Table(players=3, buy=0, bid=[0, 50_000, 10_000])
    table.place(1, table.square("School"))
    table.public[view.seat_slot(1, view.S_ON_SCHOOL)] = 1
    land_on(table, 0, "E1")
    assert table.owner("E1") == 2


# ---- poaching (U7) ---------------------------------------------------------------------------------

def test_poaching_pays_the_bank_and_takes_the_title_debt_free():
    table = Table(players=2, poach=1)
    table.own(1, "G1", debt=True)
    land_on(table, 0, "G1")
    assert table.owner("G1") == 0 and not table.debt("G1")
    assert table.cash(0) == 100_000 - 16_000 and table.cash(1) == 100_000   # the owner gets nothing
    assert table.stats[0, state.S_POACHES] == 1 and table.stats[1, state.S_POACHED] == 1
    assert not table.log(state.E_RENT)


def test_declining_to_poach_pays_rent():
    table = Table(players=2, poach=0)
    table.own(1, "G1", debt=True)
    land_on(table, 0, "G1")
    assert table.owner("G1") == 1 and table.log(state.E_RENT)


# ---- bankruptcy (U6, U13) --------------------------------------------------------------------------

def test_bankrupt_to_a_player_hands_over_cash_and_titles_with_their_debts():
    table = Table(players=3, poach=0)
    table.own(1, "B1", "B2", "B3", "B4")
    table.own(0, "H1", debt=True)                   # nothing left to borrow on
    table.set_cash(0, 500)
    land_on(table, 0, "B1")
    assert table.public[view.seat_slot(0, view.S_ALIVE)] == 0
    assert table.owner("H1") == 1 and table.debt("H1")
    assert table.cash(0) == 0 and table.cash(1) == 100_500
    assert table.conserved()


def test_engine_borrows_before_declaring_bankruptcy():
    table = Table(players=2, poach=0)
    table.own(1, "G1")                               # rent at most 6 x $1,500
    table.own(0, "A1")                               # loan value $55,000
    table.set_cash(0, 0)
    land_on(table, 0, "G1")
    (_, _, _, _, die, rent, _), = table.log(state.E_RENT)
    assert table.debt("A1") and table.public[view.seat_slot(0, view.S_ALIVE)] == 1
    assert table.cash(0) == 55_000 - rent and table.conserved()


def test_bankrupt_to_the_bank_auctions_every_title_in_square_order():
    table = Table(players=3, bid=[0, 5_000, 3_000])
    table.own(0, "G1", "E1")
    table.own(0, "F1", debt=True)
    table.set_cash(0, 0)
    table.own(0, "G1", "E1", debt=True)
    money._bankrupt(table.ctx, 0, -1)
    sales = table.log(state.E_AUCTION)
    assert [row[3] for row in sales] == sorted(row[3] for row in sales)       # square order = index order here
    assert {table.prepared.properties[row[3]] for row in sales} == {"G1", "E1", "F1"}
    assert all(table.owner(pid) == 1 for pid in ("G1", "E1", "F1"))
    assert table.debt("F1")                                               # debts stay with a sold title
    assert table.conserved()


def test_unsold_debt_ridden_title_returns_to_the_bank_debt_free():
    table = Table(players=2, bid=0)
    table.own(0, "F1", debt=True)
    money._bankrupt(table.ctx, 0, -1)
    assert table.owner("F1") == -1 and not table.debt("F1")


# ---- the Exchange --------------------------------------------------------------------------------

def test_investment_pays_total_return_on_a_winning_total():
    table = Table(players=2, invest=0)   # Copper: any total but 7 pays $30,000 for $20,000
    for _ in range(30):
        before = table.cash(0)
        money._invest(table.ctx, 0, False, 0)
        (_, _, _, commodity, total, won, stake) = table.log(state.E_INVEST)[-1]
        assert commodity == 0 and stake == 20_000 and won == (total != 7)
        assert table.cash(0) == before - 20_000 + (30_000 if won else 0)


def test_unaffordable_choice_falls_back_to_the_cheapest_stake():
    table = Table(players=2, invest=11)  # Gold costs $100,000
    table.set_cash(0, 25_000)
    money._invest(table.ctx, 0, False, 0)
    assert table.log(state.E_INVEST)[-1][6] == 20_000
    assert table.stats[0, state.S_ILLEGAL] == 1


# ---- Level Two: bumping and cards --------------------------------------------------------------------

def level_two(**script):
    return Table(players=3, sets=["game.level=2"], **script)


def test_bump_moves_the_other_token_on_an_even_die_and_it_acts_there():
    moved = set()
    for seed in range(12):
        b1 = Table().square_of("B1")
        table = Table(players=2, sets=["game.level=2"], seed=seed, bump_seat=1, bump_square=b1, poach=0)
        table.own(0, "B1")
        table.place(0, 3)
        table.place(1, 3)
        engine._bump(table.ctx, 0)
        (_, _, _, _, _, die, _), = table.log(state.E_BUMP)
        moved.add(die % 2 == 0)
        if die % 2 == 0:
            assert table.position(1) == b1 and table.log(state.E_RENT)
        else:
            assert table.position(1) == 3 and not table.log(state.E_RENT)
    assert moved == {True, False}


def test_bump_onto_park_is_refused():
    table = Table(players=2, sets=["game.level=2"], bump_seat=1, bump_square=0)
    table.place(0, 3)
    table.place(1, 3)
    engine._bump(table.ctx, 0)
    assert table.position(1) == 3 and table.stats[0, state.S_ILLEGAL] == 1 and not table.log(state.E_BUMP)


def draw(table, seat=0):
    return cards._draw_card(table.ctx, seat)


def test_tax_audit_stake_parity_then_park():
    table = level_two()
    table.place(0, 5)
    table.next_card("tax_audit")
    before = table.cash(0)
    draw(table)
    (_, _, _, stake, parity, _, _), = table.log(state.E_AUDIT)
    (_, _, _, die, park, _, _), = table.log(state.E_PARK)
    assert stake % 10_000 == 0 and 1 <= stake // 10_000 <= 6
    assert table.cash(0) == before + (-stake if parity % 2 else stake) + park
    assert table.position(0) == table.square("Park / Start")


def test_master_key_cancels_a_tax_audit():
    table = level_two(reactive=1)
    key = table.next_card("master_key")
    table.public[view.saved_slot(table.public, 0, key)] = 1
    table.next_card("tax_audit")
    draw(table)
    assert not table.log(state.E_AUDIT) and table.public[view.saved_slot(table.public, 0, key)] == 0


@pytest.mark.parametrize("underhanded", [False, True])
def test_bamboozle_higher_die_takes_both_titles(underhanded):
    for seed in range(10):
        table = Table(players=2, sets=["game.level=2"], seed=seed, bamboozle=1)
        table.own(0, "H1")
        table.own(1, "A1", "A2")                 # a whole block: safe from a regular Bamboozle
        table.own(1, "E1")
        target = "A1" if underhanded else "E1"
        table.params[0, SC_MINE], table.params[0, SC_TARGET] = table.prop("H1"), table.prop(target)
        table.next_card("underhanded_bamboozle" if underhanded else "bamboozle")
        draw(table)
        (_, _, _, mine, prop, mine_roll, their_roll), = table.log(state.E_BAMBOOZLE)
        if mine_roll > their_roll:
            assert table.owner("H1") == 0 and table.owner(target) == 0
        elif their_roll > mine_roll:
            assert table.owner("H1") == 1 and table.owner(target) == 1
        else:
            assert table.owner("H1") == 0 and table.owner(target) == 1


def test_regular_bamboozle_cannot_target_a_whole_block():
    table = Table(players=2, sets=["game.level=2"], bamboozle=1, bid=0)
    table.own(0, "H1")
    table.own(1, "A1", "A2")
    table.params[0, SC_MINE], table.params[0, SC_TARGET] = table.prop("H1"), table.prop("A1")
    table.next_card("bamboozle")
    draw(table)
    assert not table.log(state.E_BAMBOOZLE) and table.owner("A1") == 1 and table.stats[0, state.S_ILLEGAL] == 1


def test_bamboozle_with_cash_when_owning_nothing():
    table = Table(players=2, sets=["game.level=2"], bamboozle=1, mine=-1)
    table.own(1, "E1")
    table.params[0, SC_TARGET] = table.prop("E1")
    table.next_card("bamboozle")
    draw(table)
    (_, _, _, _, _, mine_roll, their_roll), = table.log(state.E_BAMBOOZLE)
    if their_roll > mine_roll:
        assert table.cash(0) == 80_000 and table.cash(1) == 120_000
    elif mine_roll > their_roll:
        assert table.owner("E1") == 0 and table.cash(0) == 100_000


@pytest.mark.parametrize("amount", [-10_000, 5_000])
def test_taxi_moves_pays_or_collects_and_acts(amount):
    table = level_two(use_drawn=1, buy=1)
    e1 = table.square_of("E1")
    table.params[0, SC_ARG0] = e1
    table.next_card("taxi_service", amount)
    draw(table)
    assert table.position(0) == e1 and table.owner("E1") == 0
    assert table.cash(0) == 100_000 + amount - 15_000


def test_taxi_to_an_occupied_square_is_refused_and_the_card_saved():
    table = level_two(use_drawn=1)
    table.place(1, 12)
    table.params[0, SC_ARG0] = 12
    t = table.next_card("taxi_service", 5_000)
    draw(table)
    assert table.position(0) == 0 and table.public[view.saved_slot(table.public, 0, t)] == 1


def test_move_any_player_moves_without_acting():
    table = level_two(use_drawn=1, arg0=1)
    table.own(0, "B1")
    table.params[0, SC_ARG1] = table.square_of("B1")
    table.next_card("move_any_player")
    draw(table)
    assert table.position(1) == table.square_of("B1") and not table.log(state.E_RENT)


def test_easy_come_easy_go_advances_to_the_next_owned_property_and_pays():
    table = level_two(poach=0)
    table.own(1, "E2")
    table.place(0, 3)
    table.next_card("easy_come_easy_go")
    draw(table)
    assert table.position(0) == table.square_of("E2") and table.log(state.E_RENT)


def test_easy_come_easy_go_with_nobody_owning_property_is_discarded():
    table = level_two()
    table.place(0, 3)
    table.next_card("easy_come_easy_go")
    draw(table)
    assert table.position(0) == 3


def test_extra_turn_used_when_drawn():
    table = level_two(use_drawn=1)
    table.next_card("extra_turn")
    draw(table)
    assert table.extra_turns[0] == 1


def test_master_key_to_school_misses_the_next_turn():
    table = level_two(use_drawn=1, arg0=1)
    table.next_card("master_key")
    assert draw(table) is True
    assert table.position(0) == table.square("School")
    assert table.public[view.seat_slot(0, view.S_MISSES_TURN)] == 1


def test_combo_platter_as_a_free_taxi():
    table = level_two(use_drawn=1, arg0=0, buy=0, bid=0)
    table.params[0, SC_ARG1] = 13
    table.next_card("combo_platter")
    draw(table)
    assert table.position(0) == 13 and table.cash(0) == 100_000


@pytest.mark.parametrize("kind, amount", [("collect", 50_000), ("pay", 25_000)])
def test_money_cards(kind, amount):
    table = level_two()
    table.next_card(kind, amount)
    draw(table)
    assert table.cash(0) == 100_000 + (amount if kind == "collect" else -amount)


def test_pay_cash_percent_rounds_down():
    table = level_two()
    table.set_cash(0, 12_345)
    table.next_card("pay_cash_percent")
    draw(table)
    assert table.cash(0) == 12_345 - 1_234


def test_collect_per_pip_rolls_two_dice():
    table = level_two()
    table.next_card("collect_per_pip")
    draw(table)
    (_, _, _, amount, total, _, _), = table.log(state.E_COLLECT)
    assert 2 <= total <= 12 and amount == 1_000 * total and table.cash(0) == 100_000 + amount


def test_collect_from_each_player_skips_players_on_school():
    table = level_two()
    table.public[view.seat_slot(2, view.S_ON_SCHOOL)] = 1
    table.next_card("collect_from_each_player")
    draw(table)
    assert (table.cash(0), table.cash(1), table.cash(2)) == (102_000, 98_000, 100_000)


def test_level_one_discards_every_card():
    table = Table(players=2)
    table.next_card("pay", 25_000)
    draw(table)
    assert table.cash(0) == 100_000 and table.log(state.E_CARD)


def test_every_card_kind_in_the_data_is_covered_here():
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    kinds = {name.split(" ")[0] for name in Table().prepared.card_types}
    assert all(f'"{kind}"' in source for kind in kinds)
    assert np.all(Table().prepared.deck >= 0)


# ---- U16: School lasts until the token moves ---------------------------------------------------------

def go_to_school(table, seat):
    square = table.square("School")
    board._place(table.ctx, seat, square, True)
    return board._land(table.ctx, seat, square)


def school_restricts(table, seat, spare):
    """Every School restriction on ``seat`` checked once; ``spare``: an unowned title to auction."""
    # no bid on a declined property (seat 0 declines it; the School player's higher maximum is not asked)
    land_on(table, 0, spare)
    restricted = [table.owner(spare) != seat]
    # no deals: an offer to a player on School is refused and counted
    illegal = table.stats[0, state.S_ILLEGAL]
    engine._deals(table.ctx, 0)
    restricted.append(table.stats[0, state.S_ILLEGAL] == illegal + 1)
    # not moved by Move Any Player, not a Bamboozle victim
    restricted.append(not cards._move_any_ok(table.ctx, 0, seat, table.square_of("C1")))
    restricted.append(not bamboozle_target_ok(table.public, table.prepared.table, 0, table.prop("F4"), True))
    # pays nothing to collect_from_each_player
    before = table.cash(seat)
    table.next_card("collect_from_each_player")
    draw(table)
    restricted.append(table.cash(seat) == before)
    return restricted


def test_school_restrictions_last_from_the_landing_until_the_token_moves():
    table = level_two(buy=0, bid=[0, 50_000, 10_000], poach=0, invest=0)
    table.own(1, "F4")
    table.own(2, "D3")
    table.script_offer(0, view.DEAL_BUY, 1, theirs=table.prop("F4"), money=1_000)
    # the landing: the turn ends, the next one is missed
    assert go_to_school(table, 1) is True and table.on_school(1)
    assert school_restricts(table, 1, "E1") == [True] * 5
    # the missed turn: the token stays on School
    assert engine._misses_turn(table.ctx, 1) is True and table.on_school(1)
    assert school_restricts(table, 1, "E2") == [True] * 5           # the turns of the others after it
    # its next real turn: still on School until it moves (no offers), then free
    assert engine._misses_turn(table.ctx, 1) is False
    table.script_offer(1, view.DEAL_BUY, 2, theirs=table.prop("D3"), money=1_000)
    table.next_card("collect", 5_000)
    engine._turn(table.ctx, 1)
    assert not [row for row in table.log(state.E_DEAL) if row[1] == 1] and table.stats[1, state.S_ILLEGAL] == 0
    assert table.position(1) != table.square("School") and not table.on_school(1)
    assert school_restricts(table, 1, "E3") == [False] * 5
    assert table.conserved()


# ---- U16: the extra Exchange investment, once a turn per player ---------------------------------------

def test_extra_exchange_investment_is_once_a_turn_for_each_player():
    table = Table(players=3, invest=0)                 # Copper when raising money
    for seat in (1, 2):
        table.set_cash(seat, 30_000)
        table.script_raise(seat, (view.RAISE_EXCHANGE, 0))
        money._raise_money(table.ctx, seat, 200_000, 0)
    assert [row[1] for row in table.log(state.E_INVEST)] == [1, 2]   # the second player still may
    table.script_raise(1, (view.RAISE_EXCHANGE, 0))
    money._raise_money(table.ctx, 1, 200_000, 0)
    assert len(table.log(state.E_INVEST)) == 2 and table.stats[1, state.S_ILLEGAL] == 1   # not twice in a turn
    engine._turn(table.ctx, 0)                              # the next turn: each may again
    table.set_cash(1, 30_000)
    table.script_raise(1, (view.RAISE_EXCHANGE, 0))
    money._raise_money(table.ctx, 1, 200_000, 0)
    assert [row[1] for row in table.log(state.E_INVEST)][-1] == 1 and table.stats[1, state.S_ILLEGAL] == 1


# ---- U16: a bought Bamboozle card is used at once --------------------------------------------------

@pytest.mark.parametrize("buyer_plays", [False, True])
def test_a_bought_bamboozle_card_is_used_at_once(buyer_plays):
    table = level_two(bamboozle=[0, int(buyer_plays), 0], bid=[0, 5_000, 50_000])
    table.own(0, "E1")
    table.own(1, "H2", "H1")
    table.set_cash(2, 20_050)          # owns no title: could not pay the least bid and keep the cash stake
    table.params[1, SC_MINE], table.params[1, SC_TARGET] = table.prop("H2"), table.prop("E1")
    table.next_card("bamboozle")
    draw(table)
    (_, buyer, _, card, seller, price, _), = table.log(state.E_SALE)
    assert (buyer, card, seller, price) == (1, -1, 0, 100)         # the only bidder pays the least bid
    (_, player, _, mine, target, _, _), = table.log(state.E_BAMBOOZLE)
    assert player == 1 and target == table.prop("E1")
    # declined: refused, counted, and the engine stakes the buyer's cheapest title (H1) on the first target
    assert mine == table.prop("H2" if buyer_plays else "H1")
    assert table.stats[1, state.S_ILLEGAL] == (0 if buyer_plays else 1)
    assert table.stats[2, state.S_ILLEGAL] == 0                          # seat 2 was not asked
    assert any("buys a bamboozle card from seat 0" in line for line in table.replay())
    assert table.conserved()


# ---- U16: saved cards may be sold when raising money (U14) --------------------------------------------

def test_saved_cards_are_sold_by_sealed_bids_when_raising_money():
    table = level_two(bid=[0, 3_000, 1_000])
    extra = table.next_card("extra_turn")
    table.public[view.saved_slot(table.public, 0, extra)] = 1
    table.set_cash(0, 0)
    table.script_raise(0, (view.RAISE_SELL_CARD, extra))
    money._raise_money(table.ctx, 0, 1_500, -1)
    assert table.cash(0) == 2_000 and table.cash(1) == 100_000 - 2_000       # second maximum + $1,000
    assert table.public[view.saved_slot(table.public, 1, extra)] == 1
    assert table.public[view.saved_slot(table.public, 0, extra)] == 0
    # a player on School bids only as the creditor
    table.public[view.seat_slot(1, view.S_ON_SCHOOL)] = 1
    table.public[view.saved_slot(table.public, 0, extra)] = 1
    table.script_raise(0, (view.RAISE_SELL_CARD, extra))
    money._raise_money(table.ctx, 0, 5_000, -1)
    assert table.log(state.E_SALE)[-1][1] == 2
    table.public[view.saved_slot(table.public, 0, extra)] = 1
    table.script_raise(0, (view.RAISE_SELL_CARD, extra))
    money._raise_money(table.ctx, 0, 10_000, 1)
    assert table.log(state.E_SALE)[-1][1] == 1
    assert table.conserved()


def test_a_card_not_held_or_offered_twice_is_refused_and_the_raise_goes_on():
    table = level_two(bid=0)
    extra = table.next_card("extra_turn")
    table.public[view.saved_slot(table.public, 0, extra)] = 1
    table.own(0, "E1")
    table.set_cash(0, 0)
    table.script_raise(0, (view.RAISE_SELL_CARD, extra), (view.RAISE_SELL_CARD, extra), (view.RAISE_BORROW, table.prop("E1")))
    money._raise_money(table.ctx, 0, 5_000, -1)
    assert table.stats[0, state.S_ILLEGAL] == 1 and table.debt("E1")
    assert "nobody buys the extra_turn card; seat 0 (scripted) keeps it" in table.replay()


# ---- U13 as amended by U16: no borrowing when even every loan could not cover the debt -----------------

def test_a_debtor_who_could_not_cover_the_debt_by_borrowing_goes_bankrupt_without_borrowing():
    table = Table(players=2, poach=0)
    table.own(1, "B1", "B2", "B3", "B4")            # whole block: at least $160,000 rent
    table.own(0, "A1", "G1")                        # loans $55,000 + $12,000
    table.set_cash(0, 0)
    land_on(table, 0, "B1")
    assert table.public[view.seat_slot(0, view.S_ALIVE)] == 0 and not table.log(state.E_BORROW)
    assert table.owner("A1") == 1 and table.owner("G1") == 1
    assert not table.debt("A1") and not table.debt("G1")          # the titles as they were
    assert table.conserved()


def test_a_purchase_that_borrowing_could_not_pay_for_borrows_nothing():
    table = Table(players=2, buy=1, bid=0)
    table.own(0, "G1")                               # loan $12,000
    table.set_cash(0, 50_000)
    land_on(table, 0, "A1")                          # $100,000
    assert table.owner("A1") == -1 and not table.debt("G1") and not table.log(state.E_BORROW)


# ---- U16: a refused raise answer is counted and the strategy asked again ------------------------------

def test_an_illegal_raise_answer_is_counted_and_the_raise_goes_on():
    table = Table(players=2, poach=0)
    table.own(1, "G1")                               # rent at most 6 x $1,500
    table.own(0, "E1", "E2")
    table.set_cash(0, 0)
    table.script_raise(0, (view.RAISE_SELL, table.prop("G1")), (view.RAISE_BORROW, table.prop("E2")))
    land_on(table, 0, "G1")
    assert table.stats[0, state.S_ILLEGAL] == 1
    assert table.debt("E2") and not table.debt("E1")              # the second answer was played
    assert table.public[view.seat_slot(0, view.S_ALIVE)] == 1
    assert any("illegal answer to decision raise; refused (asked again)" in line for line in table.replay())


# ---- answers out of range are refused, counted, and the default played --------------------------------

def test_bids_outside_zero_to_cash_are_refused():
    table = Table(players=3, buy=0, bid=[0, 150_000, -5])
    land_on(table, 0, "E1")
    assert table.owner("E1") == -1 and table.stats[1, state.S_ILLEGAL] == 1 and table.stats[2, state.S_ILLEGAL] == 1


@pytest.mark.parametrize("decision, answer", [("buy", 2), ("buy", -1), ("poach", 7)])
def test_yes_no_answers_other_than_0_or_1_are_refused(decision, answer):
    table = Table(players=2, bid=0, **{decision: answer})
    table.own(1, "G1", debt=True)
    land_on(table, 0, "E1" if decision == "buy" else "G1")
    assert table.stats[0, state.S_ILLEGAL] == 1
    assert table.owner("E1") == -1 and table.owner("G1") == 1     # the default: no purchase, no poach


# ---- replay text ---------------------------------------------------------------------------------

def test_replay_a_failed_sale_keeps_the_title_with_the_seller():
    table = Table(players=3, bid=0)
    table.own(0, "E1")
    table.set_cash(0, 0)
    table.script_raise(0, (view.RAISE_SELL, table.prop("E1")))
    money._raise_money(table.ctx, 0, 5_000, -1)
    assert table.owner("E1") == 0
    assert "nobody bids on E1; seat 0 (scripted) keeps it" in table.replay()


def test_replay_announces_a_card_before_its_effect():
    table = level_two(use_drawn=1, buy=1)
    table.params[0, SC_ARG0] = table.square_of("E1")
    table.next_card("taxi_service", -10_000)
    draw(table)
    lines = table.replay()
    used = lines.index("seat 0 (scripted) uses taxi_service -10000")
    ride = lines.index("seat 0 (scripted) takes a taxi to E1 (-$10,000)")
    assert lines.index("seat 0 (scripted) draws a Wheeler-Dealer card: taxi_service -10000") < used < ride
    assert lines.index("seat 0 (scripted) buys E1 for $15,000") > ride
