"""What a dice-race strategy sees and answers, and the rule checks the engine and strategies share.

``roll_again(public, params, memory, rng) -> answer`` is asked after every roll that neither busted nor
reached the target: ``ROLL`` rolls again, ``STOP`` banks the turn's points and passes the die. Any other
answer is illegal: the engine counts it in ``illegal_actions`` and stops the turn (the documented default).
The first roll of a turn is not a decision. A strategy receives only:
  public  int64 vector: the PUB_* fields below, then each seat's banked points (``banked_points``);
plus the seat's parameters, a private ``memory`` of floats zeroed at the start of each game, and its own
random stream.
"""
from numba import njit, types

from simkit.numba_tools import readonly_array

PUBLIC_FIELDS = ("seat", "players", "target", "faces", "bust_face", "round", "turn_points", "rolls", "last_roll")
(PUB_SEAT, PUB_PLAYERS, PUB_TARGET, PUB_FACES, PUB_BUST_FACE, PUB_ROUND, PUB_TURN_POINTS, PUB_ROLLS,
 PUB_LAST_ROLL) = range(len(PUBLIC_FIELDS))
PUB_HEADER = len(PUBLIC_FIELDS)
MEMORY_SIZE = 8

STOP, ROLL = 0, 1    # the answers

ROLL_AGAIN_SIGNATURE = types.int64(readonly_array(types.int64, 1), readonly_array(types.float64, 1),
                                   types.Array(types.float64, 1, "A"), types.Array(types.uint64, 1, "A"))
DECISIONS = {"roll_again": ROLL_AGAIN_SIGNATURE}


@njit(cache=True)
def public_length(players):
    return PUB_HEADER + players


@njit(cache=True)
def banked_points(public, seat):
    """The points ``seat`` has banked."""
    return public[PUB_HEADER + seat]


@njit(cache=True)
def busts(face, bust_face):
    """Whether a roll of ``face`` loses the turn's points (``bust_face`` 0: no face does)."""
    return face == bust_face


@njit(cache=True)
def is_answer(answer):
    return answer == STOP or answer == ROLL
