"""Among Cultists behind the game-module seam (companion.games.base): its engine, pack and sentences, named once.

There are no dice (``virtual_roll`` and ``tray_roll`` are None). What the published state adds: the hour the
round clock's hand points at, whether the round's event is still a stand-in, and the narrator's scripts of the
night and of the vote's countdown (with the default pause), which the page shows and the voice plays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.among_cultists import sentences
from companion.games.among_cultists.engine import Command, Game, Setup
from companion.games.among_cultists.packs import load_packs
from companion.games.base import GameModule, sentences_of


def _publish(view: Mapping[str, Any], game: Game) -> Mapping[str, Any]:
    event = view.get("event") or None
    names = sentences.Names.of_game(game)
    return {
        "clock": view["clock"],  # the engine's round clock (CLOCK): the hand's hour, XII for round 1 to IX
        # the round's event is a marker the owner has not filled in yet: the page says so instead of its words
        "stand_ins": bool(event and event.get("placeholder")),
        "night_script": sentences.night_script(game.setup, names, sentences.DEFAULT_PAUSE_S),
        "vote_script": sentences.vote_script(names),
    }


def _scripts(game: Game, names: Any, kind: str, pause_s: float, language: str) -> list[dict[str, Any]]:
    """The scripts the companion reads out (GameService.narrate): the night, with the host's pause, and the vote's
    countdown (its pace is fixed: the whole table points at once)."""
    if kind == "night":
        return sentences.night_script(game.setup, names, pause_s, language)
    if kind == "vote":
        return sentences.vote_script(names, language)
    raise KeyError(kind)


# -- the games record (companion.record): Among Cultists has no dice, so no odds and no luck --------------------


def _facts(view: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"setup": [("Cultists", view.get("cultists")), ("Seer", "yes" if view.get("seer") else "no")],
            "rounds": view.get("round"), "rounds_word": "rounds", "winner": view.get("winner")}


def _moments(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    names = list(view.get("player_names") or [])

    def name(seat: Any) -> str:
        return names[seat - 1] if isinstance(seat, int) and 0 < seat <= len(names) else f"seat {seat}"

    marks = []
    for event in events:
        if event.get("type") == "vote" and event.get("seat"):
            marks.append(f"Voted out: {name(event.get('seat'))}")
        elif event.get("type") == "found_dead":
            marks.append(f"Found dead: {name(event.get('seat'))}")
    return {"clock": view.get("clock"), "marks": marks, "values": {"Points": view.get("points")}}


MODULE = GameModule(
    rules="among-cultists",
    title="Among Cultists",
    game=Game,
    setup=Setup,
    command=Command,
    load_packs=load_packs,
    **sentences_of(sentences),
    publish=_publish,
    started_keys=("players", "cultists", "seer"),
    # the host's choices in the new-game wizard (cultists 0 or left out: from the player count)
    setup_choices={"cultists": "int", "seer": "bool", "points_needed": "int", "physical": "bool",
                   "start_player": "int"},
    virtual_roll=None,
    tray_roll=None,
    scripts=_scripts,
    script_kinds={"night": "The night", "vote": "The vote"},
    button_commands=("night-done", "next-phase", "end-round"),
    record_facts=_facts,
    moments=_moments,
)
