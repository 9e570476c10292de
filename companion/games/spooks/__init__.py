"""Spooks: the pure core of a score keeper and rules reminder for the shedding card game (engine, sentences).

    from companion.games.spooks.engine import Game, Setup, Command, hand_points, follow
    from companion.games.spooks.module import MODULE

docs/spooks.md describes how the damaged rules text is read, and lists every gap and the reading chosen.
"""

RULES = "spooks"
