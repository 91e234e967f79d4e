"""simkit.rng: counter-based streams and the xoshiro256** generator (used inside kernels, callable from Python)."""
import numpy as np
import pytest

from simkit import rng


def stream(seed, game, stream_id):
    state = np.zeros(4, np.uint64)
    rng.seed_stream(state, seed, game, stream_id)
    return state


def draws(state, count=16):
    return [int(rng.next_u64(state)) for _ in range(count)]


def test_same_key_same_numbers():
    assert draws(stream(7, 3, rng.DEAL)) == draws(stream(7, 3, rng.DEAL))


@pytest.mark.parametrize("other", [(8, 3, rng.DEAL), (7, 4, rng.DEAL), (7, 3, rng.TURN), (7, 3, rng.STRATEGY + 1)])
def test_different_seed_game_or_stream_differ(other):
    first = draws(stream(7, 3, rng.DEAL))
    second = draws(stream(*other))
    assert first != second
    # not merely shifted copies of each other either
    assert not set(first) & set(second)


def test_strategy_streams_of_seats_differ():
    values = [tuple(draws(stream(1, 0, rng.STRATEGY + seat), 4)) for seat in range(6)]
    assert len(set(values)) == 6


def test_uniform_in_unit_interval():
    state = stream(11, 0, 0)
    values = np.array([rng.uniform(state) for _ in range(5000)])
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 0.02


@pytest.mark.parametrize("n", [2, 7, 10])
def test_below_is_uniform_chi_square(n):
    state = stream(2024, 5, rng.TURN)
    samples = 20_000
    values = np.array([rng.below(state, n) for _ in range(samples)])
    assert values.min() >= 0 and values.max() <= n - 1
    observed = np.bincount(values, minlength=n)
    expected = samples / n
    chi2 = ((observed - expected) ** 2 / expected).sum()
    # df = n - 1 <= 9; the 0.1% critical value for 9 df is 27.9: this threshold is generous
    assert chi2 < 40, (observed, chi2)


def test_below_one_is_always_zero():
    state = stream(3, 3, 3)
    assert {rng.below(state, 1) for _ in range(100)} == {0}


def test_shuffle_is_a_permutation():
    state = stream(5, 0, rng.DEAL)
    items = np.repeat(np.arange(9), [5, 5, 5, 7, 7, 7, 7, 9, 9]).astype(np.int64)
    before = items.copy()
    rng.shuffle(state, items)
    assert sorted(items.tolist()) == sorted(before.tolist())
    assert not np.array_equal(items, before)


def test_shuffle_positions_are_uniform():
    state = stream(9, 1, rng.DEAL)
    first = np.zeros(5, np.int64)
    for _ in range(5000):
        items = np.arange(5, dtype=np.int64)
        rng.shuffle(state, items)
        assert sorted(items.tolist()) == [0, 1, 2, 3, 4]
        first[items[0]] += 1
    expected = 1000
    chi2 = ((first - expected) ** 2 / expected).sum()
    assert chi2 < 30, first


def test_shuffle_is_reproducible():
    a = np.arange(20, dtype=np.int64)
    b = np.arange(20, dtype=np.int64)
    rng.shuffle(stream(1, 2, 3), a)
    rng.shuffle(stream(1, 2, 3), b)
    assert np.array_equal(a, b)
