"""Dweebies ``expert``: expectation over the unseen cards for the next seats, then play-outs where a decision
is close.

Every (Dweebie, cell) move is valued one ply deep by ``expert_scores``: the cards it collects now, minus the
following seats' expected best collections (each seat holds a Dweebie with the hypergeometric chance
``hold_chance`` over the cards this seat has not seen), plus this seat's own best follow-up. When the best few
moves lie within ``gap`` cards of each other they are played out on determinisations of the unseen cards
with the rollout family's machinery (strategies/dweebies.py), and the best mean margin is played: in the
endgame (at most ``endgame`` cards left to play, on by default) always, to the end of the game and for the
best share of wins; before it only with ``samples`` > 0, for ``depth`` turns and the best margin.
"""
import numpy as np
from numba import njit

from simkit import rng
from simkit.games.dweebies.view import (
    COLLECT_MAY,
    PUB_CARDS,
    PUB_COLLECT,
    PUB_DWEEBIES,
    PUB_LEGAL,
    PUB_MIN_LINE,
    PUB_PILE,
    PUB_PLAYERS,
    PUB_SEAT,
    PUB_SIDE,
    PUB_SPLIT,
    PUB_SPLIT_RULE,
    SPLIT_SHORTEST_LINK,
    collected_by,
    collected_copies,
    copies_of,
    deal_unseen,
    hand_size_of,
    move_cell,
    move_collects,
    move_dweebie,
    pack_move,
    unseen,
    unseen_total,
)
from simkit.strategy import Param, Strategy, register

from .dweebies import MARGIN_TOTAL, POLICY_EXPERT, POLICY_GREEDY, _margin, play_out, playout_scratch, table_window
from .dweebies_value import (  # noqa: F401  (hold_chance: documented as importable from here)
    OPPONENTS_MAX,
    X_CANDIDATES,
    X_DEPTH,
    X_END_SAMPLES,
    X_ENDGAME,
    X_GAP,
    X_POLICY,
    X_SAMPLES,
    best_of,
    expert_scores,
    fill_chances,
    hold_chance,
    value_workspace,
)

EXPERT_POLICIES = ("greedy", "expert")
EXPERT_POLICY_GREEDY, EXPERT_POLICY_EXPERT = range(2)


WIN_TIE_BREAK = 1e-3   # an endgame play-out's margin, in wins a card: it only orders moves that win equally often


@njit(cache=True, _nrt=False)
def _win_share(scores, me):
    """This seat's share of the win at the end of a play-out: 1 / (seats tied on the most cards) if it is one of
    them, else 0."""
    best, ties = scores[me], 0
    for p in range(scores.size):
        if scores[p] > best:
            return 0.0
        if scores[p] == best:
            ties += 1
    return 1.0 / ties


@njit(cache=True)
def expert_place(hand, public, table, legal, params, memory, rng_state):
    """The expert's choice: every move valued by ``expert_scores`` from the chances the following seats hold
    each Dweebie (the deck's makeup less what this seat has seen); when the best few lie within ``gap`` of the
    best, they are played out on ``samples`` determinisations of the unseen cards (``view.deal_unseen``) for
    ``depth`` more turns, every seat playing ``policy``, and the one with the best mean margin (own cards
    collected minus the others' together; common random numbers across candidates) is played. In the endgame
    (at most ``endgame`` cards left in the hands and the pile) the play-outs use ``end_samples`` determinisations,
    run to the end of the game and score this seat's share of the win (``_win_share``), the margin breaking ties."""
    n_legal = public[PUB_LEGAL]
    players, dweebies, me = public[PUB_PLAYERS], public[PUB_DWEEBIES], public[PUB_SEAT]
    side, min_line = public[PUB_SIDE], public[PUB_MIN_LINE]
    may_decline = public[PUB_COLLECT] == COLLECT_MAY
    shortest_link = public[PUB_SPLIT_RULE] == SPLIT_SHORTEST_LINK
    samples, depth = int(params[X_SAMPLES]), int(params[X_DEPTH])
    n_search = int(params[X_CANDIDATES])
    sizes = np.empty(players, np.int64)
    in_hands = 0
    for p in range(players):
        sizes[p] = hand_size_of(public, p)
        in_hands += sizes[p]
    # the endgame: few cards are left to play (hands and pile), so the play-outs reach the end of the game and
    # score the share of the win rather than the margin
    to_play = in_hands + public[PUB_PILE]
    endgame = to_play <= params[X_ENDGAME]
    if endgame:
        samples, depth = int(params[X_END_SAMPLES]), to_play - 1
    # the window: every card, the cells the move and `depth` more turns can fill, the line ends beyond them that
    # expert_scores looks at, and an empty ring that line walks stop in
    margin = (depth + 1 if samples > 0 else 0) + 3
    base_grid, base_cells, base_on_table, n_base, span, top, left = table_window(table, public, legal, margin)
    size = span * span
    cards = public[PUB_CARDS]
    local_legal = np.empty(n_legal, np.int64)
    for i in range(n_legal):
        local_legal[i] = (legal[i] // side - top + margin) * span + legal[i] % side - left + margin
    split = public[PUB_SPLIT] != 0

    unseen_copies = np.empty(dweebies, np.int64)
    for d in range(dweebies):
        unseen_copies[d] = max(0, unseen(hand, public, d))
    chance = np.zeros((OPPONENTS_MAX, dweebies))
    n_opp = fill_chances(unseen_copies, unseen_total(hand, public), sizes, me, chance)
    room = 2 * dweebies * n_legal
    moves = np.empty(room, np.int64)
    scores = np.empty(room)
    value_ws = value_workspace(size, cards, dweebies)
    n = expert_scores(base_grid, span, base_cells, n_base, split, local_legal, n_legal, hand, chance, n_opp,
                      min_line, may_decline, params, moves, scores, value_ws)
    choice = best_of(scores, n, rng_state)

    if samples > 0 and n_search >= 2 and n >= 2:
        # the candidates worth a search: the best few within `gap` of the best
        order = np.argsort(-scores[:n], kind="mergesort")
        n_cand = 0
        while n_cand < min(n_search, n) and scores[order[n_cand]] >= scores[choice] - params[X_GAP]:
            n_cand += 1
        if n_cand >= 2:
            candidates = np.empty(n_cand, np.int64)
            candidates[0] = choice
            k = 1
            for j in range(n):
                if k == n_cand:
                    break
                if order[j] != choice:
                    candidates[k] = order[j]
                    k += 1
            total = np.zeros(n_cand)
            policy = POLICY_EXPERT if params[X_POLICY] == EXPERT_POLICY_EXPERT else POLICY_GREEDY
            ws = playout_scratch(size, cards, players, dweebies)
            dealt, pile, scores_now, sample_rng = ws[10], ws[12], ws[14], ws[15]
            copies = np.empty(dweebies, np.int64)
            base_taken = np.empty(dweebies, np.int64)
            for d in range(dweebies):
                copies[d] = copies_of(public, d)
                base_taken[d] = collected_copies(public, d)
            base_sizes = np.empty(players, np.int64)
            base_scores = np.empty(players, np.int64)
            stamp = 0
            for _ in range(samples):
                n_pile = deal_unseen(hand, public, rng_state, dealt, pile)
                for p in range(players):
                    base_sizes[p] = dealt[p].sum()
                    base_scores[p] = collected_by(public, p)
                for w in range(4):
                    sample_rng[w] = rng.next_u64(rng_state)
                for a in range(n_cand):
                    stamp = play_out(ws, base_grid, base_cells, base_on_table, base_taken, n_base, split, base_sizes,
                                     base_scores, n_pile, sample_rng, span, me, moves[candidates[a]], depth, policy,
                                     min_line, shortest_link, stamp, copies, params, value_ws)
                    if endgame:
                        total[a] += _win_share(scores_now, me) + WIN_TIE_BREAK * _margin(scores_now, me, MARGIN_TOTAL)
                    else:
                        total[a] += _margin(scores_now, me, MARGIN_TOTAL)
            choice = candidates[best_of(total, n_cand, rng_state)]
    move = moves[choice]
    x = move_cell(move)
    cell = (x // span + top - margin) * side + x % span + left - margin
    return pack_move(move_dweebie(move), cell, move_collects(move))


_EXPERT_PARAMS = {
    "defend": Param(1.5, 0.0, 5.0, doc="weight of the following seats' expected best collections (from the chance "
                                       "each holds each Dweebie) subtracted from a move's value"),
    "later": Param(0.5, 0.0, 1.0, doc="weight of each further seat's expected collection relative to the one before "
                                      "it (0: only the next seat)"),
    "follow": Param(0.5, 0.0, 3.0, doc="weight of this seat's best follow-up (the largest collection it then holds "
                                       "a card for, times the chance no following seat holds one)"),
    "pairs": Param(0.8, -5.0, 5.0, doc="bonus, in cards, for playing one of two or more copies held when the card "
                                       "collects nothing"),
    "candidates": Param(4, 0, 16, kind="int", doc="most moves played out in a search (below 2: no search)"),
    "samples": Param(0, 0, 256, kind="int", doc="determinisations of the unseen cards each searched move is played "
                                                "out on (0, the default: no search; the play-outs measured no "
                                                "stronger at 8 and cost 4-5 times as much)"),
    "depth": Param(4, 1, 30, kind="int", doc="turns played after the move in each play-out"),
    "gap": Param(1.0, 0.0, 20.0, doc="search only the moves whose one-ply value lies within gap cards of the best"),
    "policy": Param(EXPERT_POLICY_GREEDY, kind="choice", choices=EXPERT_POLICIES,
                    doc="what every seat plays in the play-outs: greedy (the largest collection now, else random) or "
                        "the expert's own one-ply choice"),
    "link": Param(1, kind="bool", doc="value a table a move leaves split by the collections at the cells that would "
                                      "join it (0: a split table offers nobody anything, as before 2026-12-02)"),
    "endgame": Param(8, 0, 216, kind="int", doc="once at most this many cards are left to play (hands and pile), "
                                                "the closest moves (candidates, gap) are played out to the end of "
                                                "the game on end_samples determinisations, every seat playing "
                                                "policy, and the best share of wins is played (0: never)"),
    "end_samples": Param(32, 1, 256, kind="int", doc="determinisations of the endgame search"),
}

expert = register(Strategy.build(
    "dweebies", "expert", place=expert_place, params=_EXPERT_PARAMS,
    doc="Values every move by the cards it collects, the following seats' expected best collections (hypergeometric "
        "chances over the unseen cards) and its own follow-up; in the endgame (the last `endgame` cards) it plays "
        "the closest few out to the end on determinisations of the unseen cards for the best share of wins, and "
        "with samples > 0 it searches so before the endgame too."))
