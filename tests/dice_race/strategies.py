"""The dice race's strategies (the game's ``strategies_modules``), registered on import like a shipped module.

``holder`` is one family: roll again until the turn's points reach ``hold``. Its presets are ``cautious``
(hold at 6) and ``stop-at-target`` (never stops: rolls until it busts or wins). ``random`` rolls again with
probability ``roll_chance``.
"""
from numba import njit

from simkit import rng
from simkit.games.dice_race.view import PUB_TURN_POINTS, ROLL, STOP
from simkit.strategy import Param, Strategy, preset, register

P_HOLD = 0
P_ROLL_CHANCE = 0


@njit(cache=True)
def hold_at(public, params, memory, rng_state):
    return ROLL if public[PUB_TURN_POINTS] < params[P_HOLD] else STOP


@njit(cache=True)
def random_roll(public, params, memory, rng_state):
    return ROLL if rng.uniform(rng_state) < params[P_ROLL_CHANCE] else STOP


register(Strategy.build("dice-race", "random", roll_again=random_roll,
                        params={"roll_chance": Param(0.5, 0.0, 1.0, "float", "chance of rolling again after a roll")},
                        doc="Rolls again with probability roll_chance."))
holder = register(Strategy.build(
    "dice-race", "holder", roll_again=hold_at,
    params={"hold": Param(15, 1, 1000, "int", "turn points at which it stops and banks")},
    doc="Rolls until the turn's points reach hold, then banks them."))
preset(holder, "cautious", "Banks as soon as the turn holds 6 points.", hold=6)
preset(holder, "stop-at-target", "Never banks: rolls until it busts or reaches the target.", hold=1000)
