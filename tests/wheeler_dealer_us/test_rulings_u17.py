"""Ruling U17 (docs/rules/wheeler-dealer-us.md): the four faults of the second rules audit, each replayed from
the game the audit found it in, and the engine steps behind them."""
import numpy as np

from simkit.games import get_game
from simkit.games.wheeler_dealer_us import engine, money, state, view
from simkit.games.wheeler_dealer_us.play import _kernel_inputs
from simkit.strategy import parse_lineup

from .harness import Table
from .test_scenarios import draw, land_on

GAME = get_game("wheeler-dealer-us")


def replay(seed, game, lineup, level=2):
    seats = parse_lineup("wheeler-dealer-us", lineup)
    prepared = GAME.prepare(GAME.rules(sets=[f"game.level={level}"]), len(seats))
    return GAME.replay(prepared, seats, seed, game).splitlines()


def recorded(seed, game, lineup, level=2):
    """The result columns and the event log of one game, played without the checking mode (whose laws the
    tests check themselves)."""
    seats = parse_lineup("wheeler-dealer-us", lineup)
    prepared = GAME.prepare(GAME.rules(sets=[f"game.level={level}"]), len(seats))
    return engine.play_batch(seed, game, 1, prepared, *_kernel_inputs(seats), record=True, event_capacity=100_000)


def turn(lines, number):
    """The lines of turn ``number``, from its heading to the next turn's heading (missed turns included)."""
    start = next(i for i, line in enumerate(lines) if line.startswith(f"== Turn {number}:"))
    end = next(i for i, line in enumerate(lines) if line.startswith(f"== Turn {number + 1}:"))
    return lines[start:end]


# ---- U17(a): a pending extra turn is the turn missed at School ------------------------------------------

def test_an_extra_turn_pending_at_school_is_the_turn_missed():
    # turn 41: seat 3 uses an extra turn and goes to School with the Master Key in it; it misses that
    # extra turn only, and plays its own next turn (turn 45) in order
    lines = replay(31, 402, ["random"] * 6)
    assert "   seat 3 (random) takes an extra turn" in turn(lines, 41)
    assert "   seat 3 (random) goes to School with the Master Key" in turn(lines, 41)
    assert turn(lines, 41).count("== seat 3 (random) misses its turn (School)") == 1
    assert [line for line in lines if line.startswith("== Turn 45:")] == ["== Turn 45: seat 3 (random) on School "
                                                                          "with $40,415"]


def test_a_master_key_plays_the_extra_turn_missed_at_school():
    table = Table(players=2, sets=["game.level=2"], reactive=1)
    key = table.next_card("master_key")
    table.public[view.saved_slot(table.public, 0, key)] = 1
    table.public[view.seat_slot(0, view.S_MISSES_TURN)] = 1
    assert not engine._misses_turn(table.ctx, 0)            # the key is turned in: the extra turn is played
    assert table.public[view.saved_slot(table.public, 0, key)] == 0


# ---- U17(c): a usable Bamboozle is used or sold, never thrown away -----------------------------------------

def test_an_unsold_usable_bamboozle_is_used():
    # turn 48: copper-only draws an Underhanded Bamboozle, every title of kelly a target; nobody buys it
    lines = turn(replay(122, 111, ["kelly", "copper-only"]), 48)
    unsold = lines.index("   nobody buys the underhanded_bamboozle card")
    assert lines[unsold + 1].startswith("   seat 1 (copper-only) bamboozles ")
    assert not any("illegal answer" in line for line in lines)


def test_declining_a_usable_bamboozle_again_is_refused_and_the_default_played():
    table = Table(players=2, sets=["game.level=2"], bamboozle=0, bid=0)
    table.own(0, "H1")
    table.own(1, "E1")
    table.next_card("bamboozle")
    draw(table)
    (_, _, _, mine, target, _, _), = table.log(state.E_BAMBOOZLE)
    assert (mine, target) == (table.prop("H1"), table.prop("E1"))        # my cheapest title, the first target
    assert table.stats[0, state.S_ILLEGAL] == 1 and not table.log(state.E_CARD_DISCARDED)


def test_a_bamboozle_that_can_be_neither_used_nor_sold_is_discarded():
    table = Table(players=2, sets=["game.level=2"], bamboozle=0, bid=0)
    table.own(0, "H1")
    table.next_card("bamboozle")
    draw(table)
    assert not table.log(state.E_BAMBOOZLE) and len(table.log(state.E_CARD_DISCARDED)) == 1
    assert table.stats[0, state.S_ILLEGAL] == 0
    assert "seat 0 (scripted) discards bamboozle" in table.replay()


# ---- U17(d): rent paid and received are the money that changed hands ----------------------------------------

def rent_re_derived(out, players):
    """Each seat's rent paid and received, re-derived from the event log: a rent owed is followed by its payment
    in full or by the payer's bankruptcy, which hands over the payer's cash."""
    paid, received, owed = [0] * players, [0] * players, {}
    for _, seat, kind, a, b, c, d in out["events"][:, :7].tolist():
        if kind == state.E_RENT:
            owed[seat] = (c, d)
        elif seat in owed and kind in (state.E_PAY, state.E_BANKRUPT):
            rent, holder = owed.pop(seat)
            if kind == state.E_PAY:
                assert (a, b) == (rent, holder)
                moved = rent
            else:
                assert a == holder
                moved = b
            paid[seat] += moved
            received[holder] += moved
    return paid, received


def test_rent_paid_and_received_balance_when_rent_bankrupts_the_payer():
    # turn 20: dealer owes $660,000 rent to builder and goes bankrupt; both columns count the cash handed over
    lineup = ["random", "tuned", "dealer", "builder"]
    out = recorded(1, 9, lineup)
    assert out["bankrupt"][0, 2]
    paid, received = rent_re_derived(out, 4)
    assert out["stats"][0, :, state.S_RENT_PAID].tolist() == paid
    assert out["stats"][0, :, state.S_RENT_RECEIVED].tolist() == received
    assert sum(paid) == sum(received)


def test_rent_columns_count_what_a_bankrupt_payer_hands_over_after_raising():
    table = Table(players=2, poach=0, bid=[0, 5_000])
    table.own(1, "B1", "B2", "B3", "B4")            # whole block: at least $160,000 rent
    table.own(0, "E1")
    table.set_cash(0, 7_000)
    table.script_raise(0, (view.RAISE_SELL, table.prop("E1")))
    land_on(table, 0, "B1")
    (_, _, _, creditor, handed, _, _), = table.log(state.E_BANKRUPT)
    assert creditor == 1 and handed > 7_000                # the sale of E1 raised cash before the bankruptcy
    assert table.stats[0, state.S_RENT_PAID] == handed and table.stats[1, state.S_RENT_RECEIVED] == handed


# ---- U17(b): borrowing is closed to a hopeless debtor; sales to players stay open ------------------------

def test_a_hopeless_debtor_does_not_borrow():
    # turn 35: dealer owes $240,000 rent, far beyond its cash and every loan it could take; it sells and gambles
    lines = turn(replay(1, 3, ["random", "tuned", "dealer", "builder"]), 35)
    owed = lines.index("   seat 2 (dealer) lands on E3 of seat 1 (tuned), rolls 4, owes $240,000 rent")
    assert not any("seat 2 (dealer) borrows" in line for line in lines[owed:])
    assert any("from seat 2 (dealer) for" in line for line in lines[owed:])            # sales stay open


def test_a_borrow_answer_on_a_hopeless_debt_is_refused_and_sales_stay_open():
    table = Table(players=2, bid=[0, 5_000])
    table.own(0, "E1", "E2")                        # loans $9,000 + $9,000 at most
    table.set_cash(0, 0)
    short = 100_000
    assert not view.raise_may_borrow(table.public, table.prepared.table, 0, short)
    assert view.raise_may_borrow(table.public, table.prepared.table, 0, 1_000)
    table.script_raise(0, (view.RAISE_BORROW, table.prop("E1")), (view.RAISE_SELL, table.prop("E2")))
    money._raise_money(table.ctx, 0, short, -1)
    assert not table.debt("E1") and table.stats[0, state.S_ILLEGAL] == 1
    assert table.owner("E2") == 1 and table.cash(0) > 0
    assert np.all(table.stats[:, state.S_LOANS] == 0)
