"""Among Cultists: the pure rules core (engine, event pack, sentences and the narrator's scripts).

    from companion.games.among_cultists.engine import Game, Setup, Command
    from companion.games.among_cultists.packs import load_packs

docs/among-cultists.md describes how the review the rules come from is read, and lists where it is silent.
The companion keeps the round, the phase, the vote, the event and the score; it never knows who is a cultist.
"""

RULES = "among-cultists"
