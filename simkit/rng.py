"""Counter-based seeding and a xoshiro256** generator that runs inside Numba kernels.

Every random stream is a pure function of (master seed, game index, stream id), so a game's
result never depends on the number of workers, the chunk size or what other games did.
Streams are separate for separate kinds of chance (the deal, who acts, each seat's strategy),
so that changing one strategy or rule changes only what it must (common random numbers).
"""
import numpy as np
from numba import njit

from . import numba_cache  # noqa: F401  (installs the cache's locators before the kernels below)
from .guard import note_game

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U53 = 1.0 / 9007199254740992.0  # 2**-53

# Stream ids shared by every game; per-seat streams are STRATEGY + seat, DICE + seat (movement), and where a
# game rolls for other things too, EXCHANGE + seat and EXTRA_DICE + seat: a die that is rolled only sometimes
# (an investment, income on one's own square) must not shift the movement dice of a paired game.
DEAL = 0
TURN = 1
TIE_BREAK = 2
STRATEGY = 16
DICE = 32
EXCHANGE = 48
EXTRA_DICE = 64


@njit(cache=True)
def splitmix64(x):
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seed_stream(state, seed, game, stream):
    """Fill a 4-word xoshiro state from (seed, game index, stream id). Notes the game as the one being played
    (simkit.guard: what a crash or a stuck decision names)."""
    note_game(game)
    x = splitmix64(np.uint64(seed))
    x = splitmix64(x ^ np.uint64(game))
    x = splitmix64(x ^ (np.uint64(stream) * _GOLDEN))
    for i in range(4):
        x = splitmix64(x)
        state[i] = x


@njit(cache=True)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def next_u64(state):
    """xoshiro256** step."""
    result = _rotl(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit(cache=True)
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> np.uint64(11)) * _U53


@njit(cache=True)
def below(state, n):
    """An integer uniform on 0..n-1 (bias below n / 2**53, far under any test's resolution)."""
    return int(uniform(state) * n)


@njit(cache=True)
def shuffle(state, items):
    """Fisher-Yates in place."""
    for i in range(items.size - 1, 0, -1):
        j = below(state, i + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
