"""Did a changed rule come into play, and were any seat's answers refused? The first lines of every analysis.

A rule change that never acts in the games played cannot show an effect, however many games are played:
"identical" then means "untested", not "harmless". Each game's engine counts, per game and seat, where
each rule option came into play (Game.rule_counters); these sentences read those counters from the rows an
analysis played, and when a change never acted they name the shipped strategies that do bring it into play
(measured on a few games with each in the first seat).
"""
from __future__ import annotations

from simkit.reports.format import rule_value

from ..games import EVERY_GAME, PLAYER_COUNTS_ONLY
from ..results import iter_parts
from ..rules import changed_values
from ..strategy import registered
from .play import REFUSED, batches, play_many

PROBE_GAMES = 40     # games per shipped strategy when looking for ones that bring an unused rule into play


def _games_in_play(frames, counter: str) -> tuple[int, int, dict]:
    """(games where ``counter`` was above 0 for some seat, games played, per strategy the mean count per
    game) over ``frames`` (each one side of an analysis: rows per game and seat)."""
    in_play = total = 0
    by_strategy: dict = {}
    for frame in frames:
        if frame is None or frame.empty or counter not in frame:
            continue
        keys = ["rotation", "game"] if "rotation" in frame else ["game"]
        per_game = frame.groupby(keys, observed=True)[counter].max()
        in_play += int((per_game > 0).sum())
        total += len(per_game)
        if "strategy" in frame:
            for label, mean in frame.groupby("strategy", observed=True)[counter].mean().items():
                by_strategy[label] = max(by_strategy.get(label, 0.0), float(mean))
    return in_play, total, by_strategy


def rule_activity(game, changes, frames, probe=None, played=()) -> list[str]:
    """One sentence per changed rule value: in how many of the games played it came into play (its counter
    above 0 for some seat), and, when it never did, that the analysis cannot tell whether the rule matters and
    which shipped strategies bring it into play (``probe(key, counter)`` -> their names, or None to skip).

    changes: (dotted key, value A, value B) triples, or (key, description) pairs for a varied key; frames:
    the rows played (each with the game's counter columns); played: the effective rule sets the changed
    values were played under. A key that none of them reads (Game.unread_key: e.g. another UK level's table) is said to
    have never come into play, with the reason and the key that is read, whatever its counter shows: the
    counter counts the option in the game played, not the table that was changed."""
    lines = []
    for change in changes:
        key = change[0]
        said = f"{key}: {_show(change[1])} -> {_show(change[2])}" if len(change) == 3 else f"{key} ({change[1]})"
        unread = [game.unread_key(rules, key) for rules in played]
        if unread and all(unread):
            lines.append(f"Rule change {said} never came into play: {unread[-1]}.")
            continue
        counter = game.rule_counter(key)
        if counter is None:
            lines.append(f"Rule change {said}: {game.name} counts no activity for this key, so whether it came "
                         "into play is not known.")
            continue
        if counter == EVERY_GAME:
            lines.append(f"Rule change {said} came into play in every game (a value every game uses).")
            continue
        if counter == PLAYER_COUNTS_ONLY:
            lines.append(f"Rule change {said} only bounds the player counts allowed; it changes no game played.")
            continue
        in_play, total, by_strategy = _games_in_play(frames, counter)
        if total == 0:
            continue
        if in_play:
            active = sorted(((mean, label) for label, mean in by_strategy.items() if mean > 0), reverse=True)
            who = ", ".join(f"{label} {mean:.2g}" for mean, label in active[:4])
            lines.append(f"Rule change {said} came into play in {in_play:,} of the {total:,} games played ({counter} per game "
                         f"and seat: {who}).")
            continue
        text = (f"Rule change {said} came into play in 0 of the {total:,} games played (no seat of this line-up ever reached "
                f"it: {counter} was 0 throughout); this analysis cannot tell you whether the rule matters")
        found = probe(key, counter) if probe is not None else None
        if found:
            text += f"; shipped strategies that do bring it into play: {', '.join(found)}"
        elif found is not None:
            text += "; no shipped strategy brought it into play in a first seat either"
        lines.append(text + ".")
    return lines


def probe_strategies(game_name: str, players, seed: int, sets=(), rules=None, games: int = PROBE_GAMES):
    """A ``probe`` for rule_activity: each shipped strategy of the game in the first seat of ``players``
    (the game's default line-up when None), ``games`` games under the given rules; returns
    probe(key, counter) -> the names of those whose seat's counter was above 0 (at most six)."""
    def probe(key, counter):
        base = batches(game_name, players, seed, sets, rules)[0]
        rest = [seat.label for seat in base.seats[1:]]
        names = [name for name in registered(game_name) if name not in {s.label for s in base.seats}]
        groups = [batches(game_name, [name, *rest], seed, sets, rules) for name in names]
        frames = play_many(groups, 0, games)
        return [name for name, frame in zip(names, frames)
                if counter in frame and frame.loc[frame["seat"] == 0, counter].sum() > 0][:6]

    return probe


def refused_answers(frames, counts: str | None = None) -> list[str]:
    """One sentence naming every strategy whose answers the engine refused (illegal_actions), with how
    often (per game played by it); empty when none was. ``counts``: a column giving each row's number of
    seats played, when rows are totals already."""
    totals: dict = {}
    for frame in frames:
        if frame is None or frame.empty or REFUSED not in frame or "strategy" not in frame:
            continue
        if counts is None:
            grouped = frame.groupby("strategy", observed=True)[REFUSED].agg(["sum", "count"])
        else:
            grouped = frame.set_index("strategy")[[REFUSED, counts]].set_axis(["sum", "count"], axis=1)
        for label, row in grouped.iterrows():
            done = totals.get(label, (0, 0))
            totals[label] = (done[0] + int(row["sum"]), done[1] + int(row["count"]))
    named = [f"{label} ({refused:,} in {games:,} games, {refused / games:.2g} per game)"
             for label, (refused, games) in totals.items() if refused > 0]
    if not named:
        return []
    return ["Refused answers (illegal_actions, each replaced by the engine's default): " + "; ".join(named)
            + ". Results for these seats measure the defaults as much as the strategy."]


def refused_in_run(directory) -> list[str]:
    """refused_answers for a run directory, read part by part (a game without the column: nothing to say)."""
    import pandas as pd

    try:
        totals = [frame.groupby("strategy", observed=True)[REFUSED].agg(["sum", "count"])
                  for frame in iter_parts(directory, ["strategy", REFUSED])]
    except (KeyError, ValueError, OSError):   # parts without an illegal_actions column
        return []
    if not totals:
        return []
    summed = pd.concat(totals).groupby(level=0).sum().rename(columns={"sum": REFUSED, "count": "seats"})
    return refused_answers([summed.rename_axis("strategy").reset_index()], counts="seats")


def _show(value) -> str:
    """A rule value as the headline prints it (simkit.reports.format.rule_value), long lists cut short."""
    text = rule_value(value)
    return text if len(text) <= 40 else text[:37] + "..."


def first_lines(game, rules_a: dict | None, rules_b: dict | None, frames, probe=None, changes=None, played=None,
                defaults: dict | None = None) -> list[str]:
    """What an analysis says first: any seat whose answers were refused, then each rule change and whether
    it came into play. ``changes`` defaults to every value that differs between ``rules_a`` and ``rules_b``.
    A changed value is used, if at all, where ``rules_b`` are played (the rules of an analysis of one rule set,
    B of an A/B comparison), so a changed key ``rules_b`` never read changed nothing, whether A reads it or not;
    ``played`` names those rule sets instead (a sweep's or a search's).

    defaults: for an A/B analysis, the game's default rules: the values that A already changes from them (its
    ``--set``, played on both sides) are reported first, each judged where A or B reads it."""
    if changes is None:
        changes = changed_values(rules_a, rules_b) if rules_a is not None and rules_b is not None else []
    if played is None:
        played = [rules_b] if rules_b is not None else []
    shared = []
    if defaults is not None and rules_a is not None:
        named = {change[0] for change in changes}
        shared = rule_activity(game, [c for c in changed_values(defaults, rules_a) if c[0] not in named], frames,
                               probe, [rules for rules in (rules_a, rules_b) if rules is not None])
    return refused_answers(frames) + shared + rule_activity(game, changes, frames, probe, played)
