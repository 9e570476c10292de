"""Skeptics: the pure rules core (engine, dice, exact odds, data packs, tray settling, sentences).

    from companion.games.skeptics.engine import Game, Setup, Command
    from companion.games.skeptics.packs import load_packs
    from companion.games.skeptics.dice import Requirement, success_probability

docs/rules-engine.md describes the engine, docs/dice.md the dice, docs/packs.md the packs.
"""

RULES = "skeptics"
