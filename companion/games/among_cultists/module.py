"""Among Cultists behind the game-module seam (companion.games.base): its engine, pack and sentences, named once.

There are no dice (the companion rolls none and reads none in the tray). What the published state adds: the hour the
round clock's hand points at, whether the round's event is still a stand-in, and the narrator's scripts of the
night and of the vote's countdown (with the default pause), which the page shows and the voice plays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from companion.errors import BadCommand
from companion.games.among_cultists import sentences, terminal
from companion.games.among_cultists.engine import COMMANDS, CULTISTS_MISSING, Command, Game, Setup
from companion.games.among_cultists.packs import AmongCultistsPacks, load_packs
from companion.games.base import Engine, GameModuleOf, Record, SetupLike, card_entries

if TYPE_CHECKING:
    from companion.pack_edits import BoxPacks


def _publish(view: Mapping[str, Any], game: Game) -> Mapping[str, Any]:
    event = view.get("event") or None
    names = sentences.Names.of_game(game)
    return {
        "clock": view["clock"],  # the engine's round clock (CLOCK): the hand's hour, XII for round 1 to IX
        # the round's event is a marker the owner has not filled in yet: the page says so instead of its words
        "stand_ins": bool(event and event.get("stand_in")),
        "night_script": sentences.night_script(game.setup, names, sentences.DEFAULT_PAUSE_S),
        "vote_script": sentences.vote_script(names),
        # what the companion knows of the roles: only a last cultist the host told of (never a role it was not told)
        "roles_note": sentences.roles_note(view, names),
        # what the phase under way asks of the table, the same sentence as the log's when it began (:33-37)
        "phase_words": sentences.phase_sentence(view["phase"], view.get("start_player"), names)
        if view["phase"] in ("movement", "event")
        else None,
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
    return {
        "setup": [("Cultists", view.get("cultists")), ("Seer", "yes" if view.get("seer") else "no")],
        "rounds": view.get("round"),
        "rounds_word": "rounds",
        "winner": view.get("winner"),
    }


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


class AmongCultistsModule(GameModuleOf[Game, sentences.Names]):
    """Among Cultists behind the seam."""

    engine_type = Game
    sentences = sentences
    terminal = terminal
    rules = "among-cultists"
    title = "Among Cultists"
    command_type = Command
    commands = COMMANDS
    started_keys = ("players", "cultists", "seer")
    # the host's choices in the new-game wizard
    setup_choices = MappingProxyType(
        {"cultists": "int", "seer": "bool", "points_needed": "int", "physical": "bool", "start_player": "int"}
    )
    script_kinds = MappingProxyType({"night": "The night", "vote": "The vote"})
    button_commands = ("night-done", "next-phase", "end-round")
    # the text gives no number of victory points (:57, :60) nor of cultists (:4, :9, :21): the host gives the box's,
    # there is no default
    required_choices = ("cultists", "points_needed")

    def setup_from_dict(self, data: Record) -> Setup:
        return Setup.from_dict({k: v for k, v in data.items() if k != "rules"})

    def setup_of(self, setup: SetupLike | Record) -> Setup:
        """A new game's setup: cultists 0 is only the stored form of before (Setup.from_dict), not a count a new
        game may be given, so it is refused as a setup without the count."""
        if isinstance(setup, Mapping) and setup.get("cultists") == 0 and not isinstance(setup.get("cultists"), bool):
            raise BadCommand(CULTISTS_MISSING)
        real = super().setup_of(setup)
        assert isinstance(real, Setup)
        return real

    def setup_options(self, packs: object) -> dict[str, object]:
        assert isinstance(packs, AmongCultistsPacks)
        return {"ac_events": card_entries(packs.events)}

    def new(self, setup: SetupLike, packs: object) -> Game:
        if not isinstance(setup, Setup) or not isinstance(packs, AmongCultistsPacks):
            raise BadCommand(
                f"{self.title} starts from its own setup and packs, not {setup!r} and {type(packs).__name__}."
            )
        return Game.new(setup, packs)

    def load_packs(self, folder: Path | None) -> AmongCultistsPacks:
        return load_packs(folder)

    def box_packs(self) -> BoxPacks:
        from companion.games.among_cultists.box import BOX

        return BOX

    def names(self, game: Engine) -> sentences.Names:
        return sentences.Names.of_game(self.engine(game))

    def publish(self, view: Record, game: Engine) -> Mapping[str, object]:
        return _publish(view, self.engine(game))

    def scripts(self, game: Engine, names: object, kind: str, pause_s: float, language: str) -> list[dict[str, object]]:
        return list(_scripts(self.engine(game), self.names_of(names), kind, pause_s, language))

    def setup_checklist(self, view: Record, names: object, hand: bool) -> list[dict[str, str]]:
        return sentences.setup_checklist(view, self.names_of(names), hand)

    def record_facts(self, view: Record) -> Mapping[str, object]:
        return _facts(view)

    def moments(self, view: Record, events: Sequence[Record]) -> Mapping[str, object]:
        return _moments(view, events)


MODULE = AmongCultistsModule()
