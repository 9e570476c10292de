"""Elder Sign: the pure rules core (engine, dice, exact odds, data packs, sentences).

    from companion.games.elder_sign.engine import Game, Setup, Command
    from companion.games.elder_sign.packs import load_packs
    from companion.games.elder_sign.odds import task_odds, card_odds

docs/elder-sign.md describes how the rules text is read, and lists where it is silent or garbled.
"""

RULES = "elder-sign"
