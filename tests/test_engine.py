"""The engine's contract (docs/DESIGN.md, "The engine"): commands, setup, push/pop, replay, view.

The rules themselves are tested in tests/test_rules_*.py, section by section of the rulebook.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from games import PACKS
from games import new_game as new

from companion.errors import BadCommand, CompanionError, IllegalCommand
from companion.games.skeptics.engine import CLOCK, COMMANDS, Command, Game, Outcome, Setup

# -- Command -------------------------------------------------------------------------------------


def test_command_parse_str_and_dict_round_trip() -> None:
    for text in ("end-round", "summon success=true", "roll faces=eye,eye,blank keep=eye", "attempt action=prove set=2"):
        cmd = Command.parse(text)
        assert str(cmd) == text
        assert Command.parse(str(cmd)) == cmd
        assert Command.from_dict(json.loads(json.dumps(cmd.to_dict()))) == cmd


def test_command_args_stay_strings() -> None:
    cmd = Command.from_dict({"name": "summon", "args": {"success": True}})
    assert cmd.args["success"] == "true"
    assert Command("prove", {"set": 2}).args["set"] == "2"
    assert Command.parse("summon success=true").to_dict() == {"name": "summon", "args": {"success": "true"}}


def test_command_parse_quotes_values_with_spaces() -> None:
    cmd = Command("action", {"kind": "other thing"})
    assert Command.parse(str(cmd)) == cmd


@pytest.mark.parametrize("text", ["", "summon success", "summon =true", "prove set=1 set=2", "summon 'oops"])
def test_malformed_command_text_is_refused(text: str) -> None:
    with pytest.raises(BadCommand):
        Command.parse(text)


def test_command_is_immutable() -> None:
    cmd = Command.parse("prove set=1")
    with pytest.raises(AttributeError):
        cmd.name = "solve"  # type: ignore[misc]
    with pytest.raises(TypeError):
        cmd.args["set"] = "2"  # type: ignore[index]


# -- Setup ---------------------------------------------------------------------------------------


def test_setup_json_round_trip() -> None:
    for setup in (Setup(2, "museum", "shadow", 0, 99, True), Setup(4, "asylum", "child", 3, "table-7", False)):
        back = Setup.from_dict(json.loads(json.dumps(setup.to_dict())))
        assert back == setup


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"players": 5}, "1 to 4"),
        ({"players": 0}, "1 to 4"),
        ({"board": "castle"}, "asylum"),
        ({"ghost": "banshee"}, "poltergeist"),
        ({"special_items": 4}, "0 to 3"),
    ],
)
def test_bad_setup_is_refused_with_the_valid_values(kwargs: dict[str, object], word: str) -> None:
    base: dict[str, object] = {"players": 2, "board": "asylum", "ghost": "child"}
    base.update(kwargs)
    with pytest.raises(BadCommand) as info:
        Game.new(Setup.from_dict(base), PACKS)
    assert word in str(info.value)


def test_setup_from_dict_names_unknown_and_missing_fields() -> None:
    with pytest.raises(BadCommand, match="colour"):
        Setup.from_dict({"players": 2, "board": "asylum", "ghost": "child", "colour": "red"})
    with pytest.raises(BadCommand, match="ghost"):
        Setup.from_dict({"players": 2, "board": "asylum"})


# -- checked commands ----------------------------------------------------------------------------


def test_unknown_command_lists_the_commands() -> None:
    game = new()
    with pytest.raises(BadCommand) as info:
        game.push(Command.parse("teleport"))
    for name in COMMANDS:
        assert name in str(info.value)


def test_unknown_argument_lists_the_valid_ones() -> None:
    game = new()
    with pytest.raises(BadCommand) as info:
        game.push("action kind=move speed=2")
    assert "kind" in str(info.value) and "speed" in str(info.value)


def test_missing_argument_is_named() -> None:
    with pytest.raises(BadCommand, match="kind="):
        new().push("action")


def test_bad_value_lists_the_choices() -> None:
    with pytest.raises(BadCommand) as info:
        new().push("action kind=dance")
    for kind in ("move", "pickup", "give", "other"):
        assert kind in str(info.value)


def test_errors_are_companion_errors_and_leave_the_state_alone() -> None:
    game = new()
    game.push("end-round")
    before = game.state.copy()
    view = game.view()
    for text in ("prove set=1", "summon success=true", "move-ghost to=3", "teleport", "prove set=99", "solve"):
        with pytest.raises(CompanionError):
            game.push(text)
        assert game.state == before
        assert game.view() == view
        assert len(game.history) == 1


def test_check_and_is_legal_change_nothing() -> None:
    game = new()
    assert game.is_legal("end-turn")
    assert not game.is_legal("solve")
    game.check("end-round")
    assert game.view()["clock"] == "XII"
    with pytest.raises(IllegalCommand):
        game.check("solve")


def test_the_legal_actions_kept_per_state_are_those_worked_out_afresh() -> None:
    """The legal actions are worked out once per state: after a pop (undo) the state's list comes back, the same
    as a game replayed to that state works out, and a caller's changes to the list it got never reach the next."""
    game = new()
    game.push("action kind=move")
    before = [action.to_dict() for action in game.legal_actions()]
    game.push("attempt action=search need=eye:1")
    after = [action.to_dict() for action in game.legal_actions()]
    assert after != before and any(action["name"] == "roll" for action in after)
    game.pop()
    got = game.legal_actions()
    assert [action.to_dict() for action in got] == before
    assert [a.to_dict() for a in Game.replay(game.setup, PACKS, game.history).legal_actions()] == before
    got.clear()
    assert [action.to_dict() for action in game.legal_actions()] == before


# -- push / pop / replay -------------------------------------------------------------------------


def test_pop_restores_the_state_before_and_puts_the_card_back_on_top() -> None:
    game = new(players=1)
    for _ in range(3):
        game.push("end-round")
    top = game.state.room_deck[-1]
    before = game.state.copy()
    events = game.push("end-round")  # IX -> XII: the Ghost Hour draws the top room card
    assert any(e["type"] == "room_drawn" and e["room"] == top for e in events)
    assert game.state.room_deck[-1] != top
    assert game.pop() == Command.parse("end-round")
    assert game.state == before
    assert game.state.room_deck[-1] == top
    # drawing again gives the very same card
    again = game.push("end-round")
    assert again == events


def test_pop_with_no_history_is_refused() -> None:
    with pytest.raises(IllegalCommand, match="nothing to undo"):
        new().pop()


def test_replay_gives_the_same_state_and_history() -> None:
    game = new(players=2, seed=42)
    script = ["end-round", "reveal-clue", "solve", "summon success=true", "pull success=true", "end-turn", "timer"]
    for text in script:
        game.push(text)
    again = Game.replay(game.setup, PACKS, [c.to_dict() for c in game.history])
    assert again.state == game.state
    assert again.history == game.history
    assert again.view() == game.view()
    assert Game.replay(game.setup, PACKS, script).state == game.state


def test_replay_stops_on_a_refused_command() -> None:
    with pytest.raises(IllegalCommand):
        Game.replay(Setup(2, "asylum", "child", seed=1), PACKS, ["end-turn", "solve"])


def test_same_seed_same_decks_other_seed_other_decks() -> None:
    a, b = new(seed=5), new(seed=5)
    assert a.state == b.state
    orders = {tuple(new(seed=s).state.room_deck) for s in range(6)}
    assert len(orders) > 1


# -- view ------------------------------------------------------------------------------------------

VIEW_FIELDS = (
    "board ghost players current_player actions_left clock round hour ghost_room ghost_reason room_deck_left "
    "rooms_revealed rooms_unseen room_cards_discarded_unseen red_markers environment_active environment "
    "summon_dice timers clues_revealed clues_solved evidence seance_symbols icon_sets ghost_mode seance_used "
    "seance_active pull_pending attempt final_round outcome outcome_reason history_length"
).split()


def test_view_has_the_design_fields_and_is_json() -> None:
    game = new()
    view = game.view()
    for name in VIEW_FIELDS:
        assert name in view, name
    assert set(view["ghost"]) >= {"id", "name", "difficulty"}
    assert view["clock"] in CLOCK
    assert json.loads(json.dumps(view)) == view
    for item in view["icon_sets"]:
        assert set(item) >= {"index", "need", "text", "proven"}


def test_view_keeps_removed_cards_secret_until_the_end() -> None:
    game = new(players=4)
    removed = list(game.state.removed_rooms)
    assert len(removed) == 11
    view = game.view()
    assert "removed_rooms" not in view
    assert view["rooms_unseen"] == list(range(1, 21))
    game.push("end-round")
    game._state.outcome = Outcome("lost", "test")  # only to look at the end view
    assert game.view()["removed_rooms"] == removed


def test_history_length_follows_push_and_pop() -> None:
    game = new()
    game.push("end-turn")
    game.push("end-turn")
    assert game.view()["history_length"] == 2
    game.pop()
    assert game.view()["history_length"] == 1


def test_importing_the_engine_needs_no_hardware_or_web_library() -> None:
    code = (
        "import sys, companion.games.skeptics.engine, companion.games.skeptics.packs\n"
        "bad = [m for m in ('cv2', 'gpiozero', 'luma', 'flask', 'waitress', 'numpy') if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
