"""simkit: Monte Carlo strategy analysis for Wheedle, Dweebies and Wheeler Dealer."""
__version__ = "0.1.0"
