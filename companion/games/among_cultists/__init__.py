"""Among Cultists: the pure rules core (engine, event pack, sentences and the narrator's scripts).

    from companion.games.among_cultists.engine import Game, Setup, Command
    from companion.games.among_cultists.packs import load_packs

docs/among-cultists.md describes how the review the rules come from is read, and lists where it is silent.
The companion keeps the round, the phase, the vote, the event and the score; it is told no role but
the last cultist's, once a vote put that player out and the card was shown (:52).
"""

RULES = "among-cultists"
