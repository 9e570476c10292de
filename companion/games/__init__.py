"""Games other than Skeptics, each in a package of its own (``companion.games.elder_sign``).

The game-module seam that puts them behind one interface is built elsewhere (issue 15); this package
only holds the games' pure rules cores.
"""
