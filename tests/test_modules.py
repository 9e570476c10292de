"""The game-module seam (companion/games/base.py): Skeptics and Elder Sign behind one interface, through the
service on a real SQLite file and through the terminal's console script."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from games import cards_told, numbers_copied
from test_game_cli import assert_clean_error, run, state_json

from companion.errors import BadCommand
from companion.games.base import DEFAULT_RULES, RULES, TrayDie, module_for, rules_of
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService

ELDER_SIGN_KEYS = (
    "rules",
    "clock",
    "turn",
    "doom",
    "doom_max",
    "elder_signs",
    "elder_signs_needed",
    "ancient_one_awake",
    "outcome",
)


def test_every_game_has_a_module_and_an_unknown_one_is_named() -> None:
    for rules in RULES:
        module = module_for(rules)
        assert module.rules == rules and module.title == RULES[rules][0]
    assert module_for(None).rules == DEFAULT_RULES == rules_of({"players": 2, "board": "asylum"})
    with pytest.raises(BadCommand, match="skeptics, elder-sign"):
        module_for("chess")


def test_an_elder_sign_game_is_played_undone_and_resumed_from_the_file(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    service = GameService(GameStore(db), load_packs(), rng=random.Random(3))
    state = service.new_game({"rules": "elder-sign", "players": 2, "seed": 7, "names": ["Ada", "Bo"]})
    assert service.rules == "elder-sign" and all(key in state for key in ELDER_SIGN_KEYS)
    numbers_copied(service._game, service)  # the stand-in cards' numbers, copied before the first turn
    assert service.state()["question"] is not None  # the setup's stand-in Mythos card, told before the turn ends
    assert all(a["label"] != "End the turn" for a in service.state()["legal"])
    cards_told(service._game, service)
    copied = len(service.history())
    state = service.state()
    assert state["rules"] == "elder-sign" and state["clock"] == "XII"
    assert state["legal"][0]["label"] == "End the turn"
    assert all("=" not in a["label"] for a in state["legal"])
    result = service.do("end-turn")
    assert result.state["clock"] == "III" and result.state["current_player"] == 1
    assert any("Ada" in (record.get("story") or "") for record in result.events)
    assert len(service.history()) == copied + 1 and service.history()[copied]["text"].startswith("Ada's turn ends")
    undone = service.undo()
    assert undone.state["clock"] == "XII" and undone.events[0]["text"].startswith("Undone: Ada's turn ends")
    service.redo()
    service.close()
    again = GameService(GameStore(db), load_packs(), rng=random.Random(3))
    resumed = again.resume_last()
    assert resumed is not None and resumed["rules"] == "elder-sign" and resumed["clock"] == "III"
    # a Skeptics game in the same file next to it: each is replayed by its own module
    skeptics = again.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 1})
    assert skeptics["rules"] == "skeptics" and "rules" not in again.store.game(skeptics["game_id"]).setup
    assert again.load_game(resumed["game_id"])["rules"] == "elder-sign"
    again.close()


def test_the_companion_rolls_elder_sign_dice_with_its_random(tmp_path: Path) -> None:
    service = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game({"rules": "elder-sign", "players": 1, "seed": 2})
    game = service._game
    assert game is not None
    numbers_copied(game, service)  # the stand-in cards' numbers, before the first turn
    count = len(game.next_roll_dice())
    name, args = module_for("elder-sign").virtual_roll(game, random.Random(5), None)
    assert name == "roll" and len(args["faces"].split(",")) == count
    outcome, result = service.roll_from_tray([TrayDie("blue", 3)], why="button")  # Skeptics' clue die
    assert result is None and outcome.tell and "green, yellow and red" in outcome.tell
    service.close()


@pytest.mark.slow
def test_the_terminal_plays_elder_sign_with_the_documented_spellings(tmp_path: Path) -> None:
    db = tmp_path / "es.sqlite"
    done = run("new", "--rules", "elder-sign", "--players", "2", "--seed", "9", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "Elder Sign" in done.stdout
    # the numbers printed on the stand-in cards, copied before the first turn (docs/elder-sign.md)
    first = state_json(db)["numbers_first"]
    assert first[0] == "set-ancient-one" and len(first) == 3  # the Ancient One's, then each player's investigator's
    for command in first:
        numbers = (
            ["doom=12", "elder_signs=13"] if command == "set-ancient-one" else ["sanity=5", "stamina=4", "clues=1"]
        )
        done = run("do", "--db", str(db), *command.split(), *numbers)
        assert done.returncode == 0, done.stderr
    assert state_json(db)["numbers_first"] == []
    # the setup's stand-in Mythos card is asked first, in this turn (docs/terminal.md, "Asked:"; :323)
    assert_clean_error(run("do", "--db", str(db), "end-turn"), 1, "card-did effect=nothing")
    told = 0
    while state_json(db)["question"] is not None:
        assert "card-did effect=nothing" in run("state", "--db", str(db)).stdout
        done = run("do", "--db", str(db), "card-did", "effect=nothing")
        assert done.returncode == 0, done.stderr
        told += 1
    done = run("do", "--db", str(db), "end-turn")
    assert done.returncode == 0, done.stderr
    state = state_json(db)
    assert all(key in state for key in ELDER_SIGN_KEYS) and state["rules"] == "elder-sign"
    assert state["clock"] == "III" and state["turn"] == 2
    assert state["doom_max"] == 12 and state["elder_signs_needed"] == 13
    history = run("history", "--db", str(db))
    entries = [line.split("(terminal)")[0] for line in history.stdout.splitlines() if line.strip()]
    assert len(entries) == len(first) + told + 1 and "turn ends" in entries[-1] and not any("=" in e for e in entries)
    listed = json.loads(run("list", "--db", str(db), "--json").stdout)
    assert listed[0]["setup"]["rules"] == "elder-sign"
    assert_clean_error(
        run("new", "--rules", "elder-sign", "--players", "2", "--ghost", "child", "--db", str(db)),
        2,
        "--ghost is not a choice of Elder Sign (it is for Skeptics)",
    )
    assert_clean_error(run("new", "--players", "2", "--db", str(db)), 2, "needs --board and --ghost")
    assert_clean_error(run("new", "--rules", "go", "--players", "2", "--db", str(db)), 2, "unknown rules 'go'")
    # the Skeptics spellings are unchanged
    done = run("new", "--players", "2", "--board", "asylum", "--ghost", "child", "--seed", "3", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert state_json(db)["rules"] == "skeptics"


def test_elder_sign_stand_in_dice_read_in_the_tray_become_the_roll(tmp_path: Path) -> None:
    """Stand-in pipped dice of three colours with a face map (docs/elder-sign.md, "The dice"), read by the camera."""
    from companion.games.elder_sign.dice import Colour, PipMap

    service = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game({"rules": "elder-sign", "players": 1, "seed": 2})
    numbers_copied(service._game, service)  # the stand-in cards' numbers, copied before the first turn
    card = service.state()["adventures"][0]["slot"]
    service.do("set-tasks", {"adventure": card, "tasks": "inv:6;lore:1,peril:1", "ordered": "false"})
    service.do("move", {"to": card})
    played = service.state()["history_length"]
    colours = service.state()["next_dice"]
    pips = [(i % 6) + 1 for i in range(len(colours))]

    def told(dice: list[TrayDie]) -> str:
        outcome, result = service.roll_from_tray(dice, why="button")
        assert result is None and outcome.command is None and outcome.tell
        return outcome.tell

    assert "this roll throws" in told([TrayDie(c, p) for c, p in zip(colours[:-1], pips)])
    assert "blue die" in told([TrayDie("blue", 3)] + [TrayDie(c, p) for c, p in zip(colours[1:], pips)])
    assert "could not be read" in told(
        [TrayDie(colours[0], None)] + [TrayDie(c, p) for c, p in zip(colours[1:], pips[1:])]
    )
    assert service.state()["history_length"] == played  # nothing was rolled by the refusals
    _, result = service.roll_from_tray([TrayDie(c, p) for c, p in zip(colours, pips)])
    assert result is not None
    rolled = next(e for e in result.events if e["type"] == "rolled")
    faces = PipMap.default()
    assert rolled["dice"] == [faces.face(Colour.parse(c), p).value for c, p in zip(colours, pips)]
    service.close()


def test_a_refusal_on_the_page_is_said_in_the_words_of_the_game_in_play(tmp_path: Path) -> None:
    """Elder Sign's refusals cite the rules text's lines (":211"); the page's words leave them and the spellings out."""
    service = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game({"rules": "elder-sign", "players": 1, "seed": 2})
    numbers_copied(service._game, service)  # the stand-in cards' numbers, copied before the first turn
    card = service.state()["adventures"][0]["slot"]
    service.do("set-tasks", {"adventure": card, "tasks": "inv:6;lore:1,peril:1", "ordered": "false"})
    service.do("move", {"to": card})
    with pytest.raises(Exception) as err:
        service.do("roll", {"faces": "inv1"})  # too few dice
    said = service.say(str(err.value))
    assert "faces=" in str(err.value) and "faces=" not in said and "=" not in said
    assert said == module_for("elder-sign").for_players(str(err.value))
    service.close()


def test_the_tables_button_plays_what_each_games_module_says(tmp_path: Path) -> None:
    """The one button through the service (GameService.press_button): Skeptics' end of the round, Elder Sign's end
    of the turn; Spooks is played on the phones, so the button is refused and nothing is played."""
    from companion.errors import IllegalCommand

    service = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(5))
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 3})
    events = service.press_button().events
    assert "round_ended" in [e["type"] for e in events] and service.history()[-1]["command"]["name"] == "end-round"
    service.new_game({"rules": "elder-sign", "players": 2, "seed": 3})
    numbers_copied(service._game, service)  # the stand-in cards' numbers, copied before the first turn
    played = service.state()["history_length"]
    with pytest.raises(IllegalCommand, match="card-did effect=nothing"):  # the setup's Mythos card is asked first
        service.press_button()
    assert service.state()["history_length"] == played
    cards_told(service._game, service)
    service.press_button()
    assert service.history()[-1]["command"]["name"] == "end-turn" and service.history()[-1]["source"] == "button"
    service.new_game({"rules": "spooks", "players": 3})
    with pytest.raises(IllegalCommand, match="played on the phones"):
        service.press_button()
    assert service.state()["history_length"] == 0
    service.close()


def test_each_games_part_of_the_box_is_its_own_and_reads_its_bundled_files() -> None:
    """Your box asks every game's module for its part (GameModule.box_packs): the parts the page fills in and
    the files they are kept in belong to one game each, and every game's bundled files read and check."""
    from companion.box import OTHER_FILES, Box

    parts = {rules: module_for(rules).box_packs() for rules in RULES}
    kept = {rules: part for rules, part in parts.items() if part is not None}
    assert parts["spooks"] is None and set(kept) == {"skeptics", "elder-sign", "among-cultists"}
    sections = [section for part in kept.values() for section in part.sections]
    assert len(sections) == len(set(sections))  # a part of the box is one game's
    for rules, part in kept.items():
        assert part.rules == rules
        texts = part.texts(None)
        assert all(part.holds(rel) for rel in texts) and set(part.files) <= set(texts)
        assert not any(other.holds(rel) for other in kept.values() if other is not part for rel in texts)
        assert type(part.parse({}, None)) is type(module_for(rules).load_packs(None))
        assert isinstance(part.view(None), dict) and part.view(None).keys() == part.view(part.parse({}, None)).keys()
    assert dict(OTHER_FILES) == {
        rel: rules for rules, part in kept.items() if rules != DEFAULT_RULES for rel in part.files
    }
    assert set(Box(None).texts()) == {rel for part in kept.values() for rel in part.texts(None)}
