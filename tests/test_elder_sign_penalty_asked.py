"""The next player's turn waits for the penalty of the adventure the end of the turn before failed (engine.PENALTY_FIRST):
"When I fail an Adventure card, I have to face the penalties ... After that, I move on to the Advance the Clock step"
(elder-sign-rules.txt:219), and only after the clock "it's the next player's turn" (:323). A turn ended with its attempt
at a card not filled in yet failing asks the host about the penalty as the turn ends, so the question stands under the
next player's turn: a fresh player was offered "Go to an adventure" there. Its move, rolls and end are now neither
offered nor accepted, the refusal naming what to answer first; the table's corrections are played. The question names
whose sanity or stamina the penalty costs (the investigator who failed, not the one whose turn it is now). A game stored
when the next player moved with it still asked reopens as it was played (a real SQLite file written by main's code
before, Reading.PENALTY_ASKED)."""

from __future__ import annotations

import json
from pathlib import Path

from test_elder_sign_findings import stand_in_attempt
from test_elder_sign_midnight_asked import offered, refused, reopened, told_then_moved

from companion.games.elder_sign.engine import Game, Reading
from companion.games.elder_sign.module import MODULE

DATA = Path(__file__).parent / "data"
OLD_FILE = DATA / "elder-sign-penalty-asked.sqlite"  # written by main (bbfb726) before this change (see its .json)
OLD = json.loads((DATA / "elder-sign-penalty-asked.json").read_text())
TURN = {"move", "roll", "end-turn", "first-aid", "lost-found"}
MISSED = "green:inv1,green:inv1,green:inv1,green:inv1,green:lore,green:lore"  # no peril: the card's peril:3 not met


def ended_with_the_attempt_failed() -> Game:
    """Player 1 rolls at the stand-in adventure in place 1, misses, and ends the turn: the attempt fails there."""
    game = stand_in_attempt("peril:3")
    game.push(f"roll faces={MISSED}")
    game.push("end-turn")
    return game


def test_the_next_turn_waits_for_the_penalty_and_the_penalty_is_the_failed_investigators() -> None:
    game = ended_with_the_attempt_failed()
    view = game.view()
    assert view["current_player"] == 1  # player 2's turn
    assert (view["question"]["part"], view["question"]["player"]) == ("penalty", 0)
    assert not TURN & offered(game), offered(game)
    assert "card-did" in offered(game)
    for command in ("move to=1", "move to=entrance", "end-turn"):
        message = refused(game, command)
        assert "what the adventure in place 1 did is still asked" in message, message
        assert ":219" in message and "card-did effect=nothing" in message, message
    said = MODULE.for_players(refused(game, "move to=2"), MODULE.names(game), 1)  # the page's words of it
    assert "still asked" in said and "effect=" not in said, said
    game.push("doom n=1")  # a correction of the table is not the turn: it is played
    sanity = [inv["sanity"] for inv in game.view()["investigators"]]
    game.push("card-did effect=sanity n=-1")
    after = [inv["sanity"] for inv in game.view()["investigators"]]
    assert after == [sanity[0] - 1, sanity[1]]  # the one who failed pays it, not the one whose turn it is
    assert not TURN & offered(game)  # the card may have done more: still asked
    told_then_moved(game, 1, "2")


def test_the_penalty_question_names_whose_sanity_or_stamina_it_costs() -> None:
    game = ended_with_the_attempt_failed()
    names = game.view()["player_names"]
    asked = str(MODULE.publish(game.view(), game)["card_question"])
    assert "as its penalty?" in asked, asked
    assert f"sanity or stamina it costs is {names[0]}'s" in asked, asked
    assert names[1] not in asked, asked  # not the one whose turn it is now
    # the same card's terror asked in the turn itself names the one whose roll showed it (:202), as the penalty does
    terror = stand_in_attempt("peril:3")
    terror.push("roll faces=green:terror,green:inv1,green:inv1,green:inv1,green:inv1,green:inv1")
    assert terror.view()["question"]["part"] == "terror"
    roller = terror.view()["player_names"][terror.view()["current_player"]]
    asked = str(MODULE.publish(terror.view(), terror)["card_question"])
    assert f"sanity or stamina it costs is {roller}'s, whose roll showed the terror." in asked, asked


def test_a_game_stored_with_a_move_under_the_penalty_question_reopens_as_played(tmp_path: Path) -> None:
    """The file (written by main's code before): Bo moved with Ada's penalty still asked, and it was told after."""
    commands = OLD["commands"]
    assert commands.index("end-turn") < commands.index("move to=2") < commands.index("card-did effect=sanity n=-1")
    with reopened(tmp_path, OLD_FILE, OLD, Reading.PENALTY_ASKED) as game:
        # played on, as the companion plays now: the next failed turn's penalty holds the turn after it
        game.push("set-tasks adventure=2 tasks=peril:3 ordered=false")
        game.push(f"roll faces={MISSED}")
        game.push("end-turn")
        assert game.view()["question"]["part"] == "penalty"
        assert "is still asked" in refused(game, "move to=1")


def test_the_refusals_waiting_for_a_card_question_say_how_to_tell_it_from_one_place() -> None:
    """How to tell an open card question is one clause (engine.TELL_ASKED), in each refusal that waits for one."""
    from companion.games.elder_sign import engine

    for refusal in (engine.ASKED_BEFORE_ENDING, engine.MIDNIGHT_FIRST, engine.PENALTY_FIRST):
        assert engine.TELL_ASKED in refusal, refusal
    source = Path(engine.__file__).read_text()
    assert source.count("when the card did nothing (more)") == 1  # written once: TELL_ASKED
