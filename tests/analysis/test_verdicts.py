"""Verdicts state size as well as sign, and intervals are printed with enough digits that their sign matches
the verdict."""
import re

import numpy as np
import pytest

from simkit.analysis.result import NEGLIGIBLE, negligible_of, parse_negligible, points, verdict
from simkit.errors import SimkitError
from simkit.reports.format import interval_text


def _printed(text):
    return [float(x) for x in re.findall(r"[-+]?\d[\d,]*\.?\d*", text.replace(",", ""))][-2:]


def test_printed_intervals_keep_the_sign_the_verdict_reads_over_random_intervals():
    rng = np.random.default_rng(26)
    for _ in range(4000):
        scale = 10.0 ** int(rng.integers(-7, 3))
        low = float(rng.normal() * scale)
        high = low + float(abs(rng.normal()) * scale * 10.0 ** int(rng.integers(-3, 3)))
        words = verdict(low, high)
        for text in (points((low + high) / 2, low, high).split("points")[1], interval_text((low + high) / 2, low, high, True)):
            shown_low, shown_high = _printed(text)
            if words.startswith("higher"):
                assert shown_low > 0, (low, high, text)
            elif words.startswith("lower"):
                assert shown_high < 0, (low, high, text)
            else:
                assert shown_low <= 0 <= shown_high, (low, high, text)


def test_three_verdict_phrases_with_the_negligible_threshold():
    win = negligible_of(NEGLIGIBLE, "win")
    assert verdict(0.01, 0.03, diff=0.02, negligible=win) == \
        "higher, significant and larger than negligible (0.5 points) at 95%"
    assert verdict(0.0001, 0.004, diff=0.002, negligible=win) == "higher, significant but negligible (0.5 points) at 95%"
    assert verdict(-0.01, 0.03, diff=0.01, negligible=win) == "no significant difference at 95%"
    assert negligible_of(parse_negligible(["length=2"]), "length", "turns") == (2.0, "2 turns")


def test_a_verdict_is_judged_once_and_every_rendering_reads_the_same_judgement():
    from simkit.analysis.result import LARGE, NOT_SIGNIFICANT, SMALL, judge, size_words

    win = negligible_of(NEGLIGIBLE, "win")
    rng = np.random.default_rng(261)
    seen = set()
    for _ in range(2000):
        low = float(rng.normal(0, 0.01))
        high = low + float(abs(rng.normal(0, 0.01)))
        diff = (low + high) / 2
        judged = judge(low, high, diff, win)
        seen.add(judged.size)
        assert judged.sign == (1 if low > 0 else -1 if high < 0 else 0)
        assert judged.small == (judged.sign != 0 and abs(diff) < win[0])
        assert size_words(low, high, diff, win) == judged.size
        text = verdict(low, high, "up", "down", diff=diff, negligible=win)
        assert text == judged.text("up", "down", threshold=win[1])
        assert text.startswith({1: "up, ", -1: "down, ", 0: "no significant"}[judged.sign])
        assert judged.size in text
    assert seen == {LARGE, SMALL, NOT_SIGNIFICANT}
    # without a threshold a significant difference is not sized
    assert judge(0.1, 0.2).text() == "higher, significant at 95%" and judge(0.1, 0.2).size == LARGE


@pytest.mark.parametrize("item", ["win=-1", "speed=1", "win", "win=abc", "length=inf"])
def test_a_bad_negligible_threshold_is_refused(item):
    with pytest.raises(SimkitError, match="--negligible"):
        parse_negligible([item])


def test_a_negative_negligible_threshold_is_one_line_and_writes_nothing(cli_error, tmp_path):
    line = cli_error(["compare", "wheedle", "--set-b", "scoring.false_stop=-10", "--games", "10", "--negligible",
                      "win=-0.5", "--out", str(tmp_path / "out")])
    assert "a threshold must be a number >= 0" in line and not (tmp_path / "out").exists()
