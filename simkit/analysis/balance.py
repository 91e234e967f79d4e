"""The balance report card of a rule set: seat advantage, game length and limits, the half-time
leader, score spread, and whether one strategy of the line-up dominates.

The line-up (default: the game's) is played under every seat rotation on common seeds, so seat
effects and strategy effects separate. Game-specific facts come from optional fields of the game's
registry entry (``Game.length_column``, ``limit_hit``, ``half_time_score``); a game that does not
declare one is reported as not recording it, never guessed.
"""
from __future__ import annotations

from ..errors import SimkitError
from .activity import first_lines, probe_strategies
from .card import _card, _compare_cards
from .play import batches, deals_for, play, play_many
from .result import Analysis, parse_negligible
from .retune import RETUNE_BUDGET, retune_lineups, retune_targets, retuned_report


def balance(game: str, players=None, sets=(), rules=None, games: int = 10_000, seed: int = 0, players_b=None,
            sets_b=(), retune=None, retune_params=None, retune_budget=None, workers: int = 1, storage=None,
            study_name: str = "balance", negligible=()) -> Analysis:
    """Balance report card of a rule set (defaults plus ``rules``/``sets``) for a line-up of shipped or
    user strategies. ``games`` are split over the seat rotations. Tables: seats, strategies,
    head_to_head, length (distribution), spread; ``findings`` says what they mean in words.

    With ``players_b`` (another line-up, same number of seats) and/or ``sets_b`` (rule changes for B only,
    after ``sets``), an A/B card instead: both sides play the same deals in every seat order, and the
    findings and tables give the paired change B - A in each seat's advantage, in the strategy spread (the
    best strategy's win rate minus the worst's; bootstrap interval over deals), in each strategy's win
    rate, in game length and in the share of games that hit a limit, all with 95% intervals, each significant
    one sized against ``negligible`` (``METRIC=VALUE`` thresholds, result.parse_negligible).

    retune (with ``sets_b``): "all" or the strategies of the line-up to re-tune under rules A and under rules
    B (``retune_params``, ``retune_budget`` per strategy and rule set, as ``tune``'s params and budget;
    simkit.analysis.retune); the card then gives each headline change for fixed and for re-tuned players
    side by side. storage/study_name: where those searches keep their state (see ``tune``)."""
    thresholds = parse_negligible(negligible)
    side_a = batches(game, players, seed, sets, rules, rotate_seats=True)
    spec = side_a[0].game
    n = len(side_a[0].seats)
    deals = deals_for(games, n, True)
    if deals < 2:
        raise SimkitError(f"--games {games}: a balance card needs at least {2 * n} games at {n} players")
    side_b = None
    if players_b is not None or sets_b:
        side_b = batches(game, players_b if players_b is not None else players, seed, [*sets, *sets_b], rules,
                         rotate_seats=True)
        if len(side_b[0].seats) != n:
            raise SimkitError(f"line-ups A and B must have the same number of seats, not {n} and {len(side_b[0].seats)}")
    targets = None
    if retune is not None:
        targets = retune_targets(side_a[0].seats, retune, retune_params, players_b)
        if not sets_b:
            raise SimkitError("--retune compares two rule sets: give the change as --set-b KEY=VALUE")
    setup = {"negligible": thresholds,
             "game": game, "players": [s.label for s in side_a[0].seats], "sets": list(sets), "rules": rules,
             "seed": seed, "deals": deals, "games": deals * n}
    if side_b is None:
        card = _card(spec, side_a, play(side_a, 0, deals, workers, keep="all"), deals)
        first = first_lines(spec, spec.default_rules, side_a[0].rules, [card["frame"]],
                            probe_strategies(game, players, seed, sets, rules))
        return Analysis("balance", f"{spec.title}: balance report card", game, card["tables"], first + card["findings"],
                        {**setup, "rules_effective": side_a[0].rules}, players=n, details=("length",))
    frames = play_many([side_a, side_b], 0, deals, workers, keep="all")    # both sides' chunks in one pool
    cards = [_card(spec, side, frame, deals) for side, frame in zip((side_a, side_b), frames)]
    tables, findings = _compare_cards(spec, cards, deals, n, seed, thresholds)
    findings = first_lines(spec, side_a[0].rules, side_b[0].rules, frames,
                           probe_strategies(game, players, seed, [*sets, *sets_b], rules),
                           defaults=spec.default_rules) + findings
    setup.update(players_b=[s.label for s in side_b[0].seats], sets_b=list(sets_b))
    details = ("changes", "length", "seat_advantage_a", "seat_advantage_b")
    if targets is not None:
        retuned = retune_lineups(game, side_a[0].seats, targets, retune_params, retune_budget or RETUNE_BUDGET, sets,
                                 sets_b, rules, seed, deals * n, workers, storage, study_name)
        more, lines, more_details = retuned_report(spec, (side_a, side_b), tables["changes"], retuned, deals, seed,
                                                   thresholds, workers)
        tables = {"retuned": more.pop("retuned"), **tables, **more}
        findings += lines
        details += ("seats", "spread", "strategies", *more_details)
        setup["retune"] = {"strategies": targets, "params": retune_params, "budget": str(retune_budget or RETUNE_BUDGET),
                           "tuned_a": [retuned.tuned["A", t].best_spec for t in targets],
                           "tuned_b": [retuned.tuned["B", t].best_spec for t in targets]}
    return Analysis("balance", f"{spec.title}: balance report card, A against B", game, tables, findings, setup,
                    players=n, details=details)
