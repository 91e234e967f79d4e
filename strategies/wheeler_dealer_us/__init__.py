"""Shipped Wheeler-Dealer (US) strategies (the rules they play: docs/rules/wheeler-dealer-us.md).

Every decision point is one Numba function with the signature of
``simkit.games.wheeler_dealer_us.view.DECISION_SIGNATURE``; a strategy is twelve of them plus
parameters. ``random`` (random_player.py) is the baseline: uniform over the legal answers at every
decision. ``investor`` (investor.py, with paying.py and level_two.py, valuing things by valuation.py) is
one parametrised family (Exchange rule, buying and bidding, borrowing and poaching, dealing, Level Two bumps
and cards); the other names are its presets, below. Parameter values are floats; flags are 0 or 1.
"""
# registered in this order (`simkit strategies` lists them so): the baseline, the family, its presets
# isort: off
from simkit.strategy import preset
from simkit.strategies.wheeler_dealer_us.random_player import random  # noqa: F401  (simkit.strategies.wheeler_dealer_us:random)
from simkit.strategies.wheeler_dealer_us.investor import investor
from simkit.strategies.wheeler_dealer_us.valuation import (BORROW_ANY, BORROW_BLOCKS, BORROW_NEVER, INVEST_BEST_RETURN,
                                                           INVEST_CAUTIOUS, INVEST_FIXED, INVEST_KELLY)
# isort: on

kelly = preset(investor, "kelly", "Invests by the Kelly criterion (best expected log growth of net worth, at most "
                "`fraction` of it at stake); buys with one stake in reserve; no borrowing to buy, no offers.",
                invest_rule=INVEST_KELLY, fraction=0.25)
copper_only = preset(investor, "copper-only", "Always invests in Copper (the cheapest stake when it can't pay Copper); "
                      "otherwise the family's defaults: buys with one stake in reserve, bids 80% of worth.",
                      invest_rule=INVEST_FIXED, commodity=0)
best_return = preset(investor, "best-return", "Always takes the best expected return at the Exchange (long shots once "
                      "it can pay them); buys and bids with no reserve, borrows to buy anything, repays late.",
                      invest_rule=INVEST_BEST_RETURN, reserve=0, bid_fraction=1.0, borrow_rule=BORROW_ANY,
                      repay_first=0)
cautious = preset(investor, "cautious", "Safest odds until rich, a large cash reserve, low bids, poaches only clear "
                   "bargains, repays at once; never sells to a rival who would complete a block.",
                   invest_rule=INVEST_CAUTIOUS, rich=300000, reserve=40000, bid_fraction=0.5, block_buy=0,
                   poach_ratio=0.7, sell_premium=3.0)
builder = preset(investor, "builder", "Builds blocks: values block progress highly, buys and borrows for properties that "
                  "advance its blocks, repays whole blocks first, offers 1.5 x cost for the missing pieces.",
                  block_weight=1.5, block_buy=1, borrow_rule=BORROW_BLOCKS, repay_first=1, bid_fraction=1.0,
                  premium=1.5, sell_premium=2.5, protect=1)
poacher = preset(investor, "poacher", "Keeps cash to poach: buys and bids only with two stakes in reserve and bids low, "
                  "then poaches whenever the payoff is below 1.5 x the worth; never borrows to buy.",
                  reserve=40000, block_buy=0, bid_fraction=0.5, poach_ratio=1.5, borrow_rule=BORROW_NEVER,
                  repay_first=1)
dealer = preset(investor, "dealer", "Deals hard: offers 2.5 x cost or swaps for the pieces its blocks miss, sells "
                 "anything (even a rival's last piece) for 1.5 x its worth.",
                 premium=2.5, swaps=1, sell_premium=1.5, protect=0, block_weight=1.2)
# found by experiments/us-tuned.toml (a search from builder against kelly, copper-only and poacher): see
# docs/tuning.md for the search and its validation on fresh seeds
tuned = preset(investor, "tuned", "Builder tuned by search (experiments/us-tuned.toml) as a best response to kelly, "
                "copper-only and poacher: almost no cash reserve ($269, not $20,000), bids 59% of worth (not 100%), "
                "poaches below 1.18 x worth.",
                fraction=0.2289, reserve=269, block_weight=1.643, block_buy=1, bid_fraction=0.5884,
                borrow_rule=BORROW_BLOCKS, repay_first=1, poach_ratio=1.18, premium=1.645, sell_premium=2.262, protect=1)
# the strongest player, its own decisions beside the family's: expert.py
from simkit.strategies.wheeler_dealer_us.expert import expert  # noqa: E402,F401  (registers `expert`, which builds on the families above)
