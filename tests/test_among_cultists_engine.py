"""Among Cultists' rules engine, rule by rule; every test cites the lines of seance-deduction-rules-de.txt it checks
(":52" is line 52). Where the review is silent the test names the reading of docs/among-cultists.md instead.

The event packs are the bundled stand-ins or small packs from the same loader; expectations are worked out from
the review and those packs, not copied from a run.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.errors import BadCommand, IllegalCommand
from companion.games.among_cultists.engine import (
    CLOCK,
    COMMANDS,
    ROUNDS,
    Command,
    Game,
    Setup,
    stored_cultists,
)
from companion.games.among_cultists.packs import AmongCultistsPacks, load_packs, parse_pack_texts

TWO_EVENTS = """
[[events]]
id = "storm"
name = "Storm"
text = "The lights flicker."

[[events]]
id = "fog"
name = "Fog"
text = "Nobody sees far."
"""


# the victory points a table of these tests plays to: the host's number, for the text gives none (:57, :60)
GOAL = 5


@pytest.fixture(scope="module")
def packs() -> AmongCultistsPacks:
    return load_packs()


def new(packs: AmongCultistsPacks, **setup: Any) -> Game:
    setup.setdefault("players", 5)
    setup.setdefault("cultists", 1)  # the host's number from the box's table (:4): the text gives none
    setup.setdefault("points_needed", GOAL)
    return Game.new(Setup(**setup), packs)


def to_action(game: Game) -> None:
    """From the night (or a round's movement phase) to the action phase, with the event drawn."""
    if game.view()["phase"] == "night":
        game.push("night-done")
    game.push("next-phase")
    game.push("draw-event")
    game.push("next-phase")
    assert game.view()["phase"] == "action"


def play_rounds(game: Game, n: int) -> None:
    for _ in range(n):
        to_action(game)
        game.push("end-round")


# -- the setup (:3-15) -------------------------------------------------------------------------------------------


def test_the_cultists_are_the_hosts_number_and_have_no_default(packs: AmongCultistsPacks) -> None:
    # :4 "anhand der Tabelle in der Anleitung", :9 and :21 "falls mit zwei Kultisten gespielt wird": a game has one or
    # two, by a table the review does not give; the host gives the box's number, and a setup without one is refused
    # saying what to give, never played with a count the companion chose
    assert Setup(players=4).cultists is None and Setup(players=7).cultists is None
    for setup in (Setup(players=7, points_needed=GOAL), Setup.from_dict({"players": 7, "points_needed": GOAL})):
        with pytest.raises(BadCommand, match="how many cultists play, 1 or 2.*box's table"):
            Game.new(setup, packs)
    assert new(packs, players=7, cultists=1).view()["cultists"] == 1
    assert new(packs, players=4, cultists=2).view()["cultists"] == 2


def test_a_setup_stored_with_cultists_0_reads_as_the_count_of_before() -> None:
    # the companion of before stored 0 as "by the number of players": one with 4-6, two with 7 or 8
    assert [Setup.from_dict({"players": p, "cultists": 0}).cultists for p in range(4, 9)] == [1, 1, 1, 2, 2]
    assert [stored_cultists(p) for p in range(4, 9)] == [1, 1, 1, 2, 2]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"players": 3}, "4 to 8 players"),
        ({"players": 9}, "4 to 8 players"),
        ({"players": 5, "cultists": 3}, "1 or 2 cultists"),
        ({"players": 5, "cultists": True}, "1 or 2 cultists"),
        ({"players": 5, "points_needed": 0}, "points_needed"),
        ({"players": 5, "start_player": 6}, "start_player"),
        ({"players": 4, "names": ("Ann", "Bo")}, "one name per seat"),
        ({"players": 4, "names": ("Ann", "Bo", "ann", "Cy")}, "same name"),
        ({"players": 4, "seer": "yes"}, "true or false"),
    ],
)
def test_a_setup_that_cannot_be_played_is_refused_with_what_to_give(
    packs: AmongCultistsPacks, fields: dict[str, Any], words: str
) -> None:
    with pytest.raises(BadCommand, match=words):
        Game.new(Setup(**{"cultists": 1, "points_needed": GOAL, **fields}), packs)


def test_the_setup_round_trips_through_its_stored_form_and_names_its_rules() -> None:
    setup = Setup(players=6, cultists=1, seer=True, seed="x", points_needed=7, names=tuple("ABCDEF"), start_player=3)
    stored = setup.to_dict()
    assert stored["rules"] == "among-cultists" and stored["cultists"] == 1
    assert Setup.from_dict(json.loads(json.dumps(stored))) == setup
    with pytest.raises(BadCommand, match="unknown setup field"):
        Setup.from_dict({"players": 5, "ghost": "child"})
    with pytest.raises(BadCommand, match="lacks players"):
        Setup.from_dict({})


def test_the_points_needed_are_the_hosts_number_and_have_no_default(packs: AmongCultistsPacks) -> None:
    # the review gives no threshold (:57 "genug Siegpunkte", :60 "ausreichend viele"): the host gives the box's
    # number, and a setup without one is refused saying what to give, never played to a number the companion chose
    assert Setup(players=5).points_needed is None
    for setup in (Setup(players=5, cultists=1), Setup.from_dict({"players": 5, "cultists": 1})):
        with pytest.raises(BadCommand, match="rules text gives no number"):
            Game.new(setup, packs)
    assert new(packs, points_needed=9).view()["points_needed"] == 9
    assert Setup.from_dict({"players": 5, "cultists": 1, "points_needed": 3}).points_needed == 3


def test_the_start_player_holds_the_knife_from_the_setup(packs: AmongCultistsPacks) -> None:
    # :15: the start player is chosen and given the knife
    assert new(packs).view()["start_player"] == 1
    assert new(packs, start_player=4).view()["start_player"] == 4


# -- the night (:18-24) ------------------------------------------------------------------------------------------


def test_the_game_begins_with_the_night_and_only_its_end_is_offered(packs: AmongCultistsPacks) -> None:
    # :18: the night phase opens the séance
    game = new(packs)
    view = game.view()
    assert view["phase"] == "night" and view["round"] == 1
    assert [a.name for a in game.legal_actions() if a.group == "round"] == ["night-done"]
    with pytest.raises(IllegalCommand, match="night comes first"):
        game.push("next-phase")
    with pytest.raises(IllegalCommand, match="night"):
        game.push("vote seat=none")
    assert game.setup_events[0]["type"] == "night_started"


def test_the_night_comes_only_once(packs: AmongCultistsPacks) -> None:
    # :18 "Das passiert nur einmal im ganzen Spiel"
    game = new(packs)
    events = game.push("night-done")
    assert [e["type"] for e in events] == ["night_ended", "round_started", "phase_started"]
    assert game.view()["phase"] == "movement"
    with pytest.raises(IllegalCommand, match="only once"):
        game.push("night-done")


# -- the rounds and their four phases (:26-31) -------------------------------------------------------------------


def test_every_round_has_the_four_phases_in_order(packs: AmongCultistsPacks) -> None:
    # :26-31: movement, event, action, clean-up
    game = new(packs)
    game.push("night-done")
    seen = [game.view()["phase"]]
    for command in ("next-phase", "draw-event", "next-phase", "next-phase"):
        game.push(command)
        seen.append(game.view()["phase"])
    assert seen == ["movement", "event", "event", "action", "cleanup"]
    with pytest.raises(IllegalCommand, match="end the round"):
        game.push("next-phase")
    game.push("end-round")
    assert (game.view()["round"], game.view()["phase"]) == (2, "movement")


def test_the_game_lasts_at_most_ten_rounds(packs: AmongCultistsPacks) -> None:
    # :26 "maximal 10 Runden", :57 "Falls es die 10. Runde war, endet das Spiel"
    game = new(packs)
    assert game.view()["rounds"] == ROUNDS == 10
    play_rounds(game, 9)
    assert game.view()["round"] == 10 and game.outcome is None
    play_rounds(game, 1)
    assert game.view()["phase"] == "over" and game.outcome is not None


def test_the_movement_order_starts_with_the_start_player(packs: AmongCultistsPacks) -> None:
    # :34 "in Spielerreihenfolge"; everyone moves, so no single player is current
    game = new(packs, players=5, start_player=4)
    assert game.view()["order"] == [4, 5, 1, 2, 3] and game.view()["current_player"] is None


# -- the event (:36-37) ------------------------------------------------------------------------------------------


def test_the_event_is_drawn_in_the_event_phase_once_and_shown_until_the_clean_up(packs: AmongCultistsPacks) -> None:
    # :37: one marker from the bag; its effect lasts the current round only
    game = new(packs)
    game.push("night-done")
    with pytest.raises(IllegalCommand, match="event phase"):
        game.push("draw-event")
    game.push("next-phase")
    with pytest.raises(IllegalCommand, match="not drawn yet"):
        game.push("next-phase")
    (drawn,) = game.push("draw-event")
    assert drawn["type"] == "event_drawn" and drawn["id"] in packs.events and drawn["stand_in"] is True
    event = game.view()["event"]
    assert event == {"id": drawn["id"], "name": drawn["name"], "text": drawn["text"], "stand_in": True}
    with pytest.raises(IllegalCommand, match="already"):
        game.push("draw-event")
    game.push("next-phase")
    assert game.view()["event"] == event  # still shown in the action phase
    game.push("end-round")
    assert game.view()["event"] is None


def test_the_bag_is_seeded_draws_no_marker_twice_and_refills_when_empty() -> None:
    # :37 "aus dem Beutel gezogen"; the refill is the reading of docs/among-cultists.md
    small = parse_pack_texts({"events.toml": TWO_EVENTS})

    def drawn(seed: int, rounds: int) -> tuple[list[str], list[str]]:
        game = Game.new(Setup(cultists=1, points_needed=GOAL, players=4, seed=seed), small)
        names, kinds = [], []
        game.push("night-done")
        for _ in range(rounds):
            game.push("next-phase")
            events = game.push("draw-event")
            kinds += [e["type"] for e in events]
            names.append(game.view()["event"]["id"])
            game.push("next-phase")
            game.push("end-round")
        return names, kinds

    first, kinds = drawn(3, 5)
    assert sorted(first[:2]) == ["fog", "storm"] and sorted(first[2:4]) == ["fog", "storm"]
    assert kinds.count("events_refilled") == 2  # before rounds 3 and 5
    assert drawn(3, 5)[0] == first
    orders = {tuple(drawn(seed, 2)[0]) for seed in range(12)}
    assert len(orders) == 2  # both orders happen: the seed shuffles


def test_the_host_enters_the_marker_the_table_drew_by_id_or_by_name(packs: AmongCultistsPacks) -> None:
    # :37: the table may draw from the box's own bag; the companion only records it
    small = parse_pack_texts({"events.toml": TWO_EVENTS})
    game = Game.new(Setup(cultists=1, points_needed=GOAL, players=4, seed=1), small)
    game.push("night-done")
    game.push("next-phase")
    game.push("event id=fog")
    assert game.view()["event"] == {"id": "fog", "name": "Fog", "text": "Nobody sees far.", "stand_in": False}
    assert game.view()["events_left"] == 1  # the marker left the companion's bag too
    game.push("next-phase")
    game.push("end-round")
    game.push("next-phase")
    game.push('event name="Blood Moon"')
    assert game.view()["event"] == {"id": None, "name": "Blood Moon", "text": "", "stand_in": False}
    game.pop()
    game.push("event name=storm")  # a name of the pack is that marker
    assert game.view()["event"]["id"] == "storm" and game.view()["events_left"] == 0
    game.pop()
    with pytest.raises(BadCommand, match="unknown event 'gale'"):
        game.push("event id=gale")
    with pytest.raises(BadCommand, match="either"):
        game.push("event")


def test_a_table_drawing_from_its_own_bag_enters_every_event(packs: AmongCultistsPacks) -> None:
    game = new(packs, physical=True)
    game.push("night-done")
    game.push("next-phase")
    assert game.view()["events_left"] is None
    with pytest.raises(IllegalCommand, match="its own bag"):
        game.push("draw-event")
    assert [a.name for a in game.legal_actions() if a.group == "event"] == ["event"]
    game.push("event id=event03")
    assert game.view()["event"]["name"] == "Event 3"


# -- the vote (:52) --------------------------------------------------------------------------------------------


def test_the_vote_is_an_action_of_the_action_phase(packs: AmongCultistsPacks) -> None:
    # :40, :52: "Abstimmung einleiten" is a room action, taken in the action phase
    game = new(packs)
    game.push("night-done")
    with pytest.raises(IllegalCommand, match="action phase"):
        game.push("vote seat=2")
    assert not [a for a in game.legal_actions() if a.name == "vote"]
    to_action(game)
    assert [a.asks for a in game.legal_actions() if a.name == "vote"] == [("seat", "last")]


def test_a_simple_majority_votes_a_character_out_and_they_play_on_as_a_ghost(packs: AmongCultistsPacks) -> None:
    # :52: simple majority eliminates; the disc is turned and the player goes on as a ghost
    game = new(packs)
    to_action(game)
    (vote,) = game.push("vote seat=3")
    assert vote == {"type": "vote", "round": 1, "seat": 3, "called": "cafeteria", "last": False}
    view = game.view()
    assert view["eliminated"] == [3] and view["ghosts"] == [3] and view["vote_used"] is True
    assert view["seats"][2]["out"] == "voted" and game.outcome is None


def test_a_tie_votes_nobody_out(packs: AmongCultistsPacks) -> None:
    # :52: only a simple majority eliminates
    game = new(packs)
    to_action(game)
    game.push("vote seat=none")
    assert game.view()["eliminated"] == [] and game.view()["vote_used"] is True


def test_a_second_vote_in_a_round_is_refused_and_the_marker_turns_back_in_the_clean_up(
    packs: AmongCultistsPacks,
) -> None:
    # :52 "nur einmal pro Runde und nur in der Cafeteria"; :57 the vote marker turns to its active side
    game = new(packs)
    to_action(game)
    game.push("vote seat=none")
    with pytest.raises(IllegalCommand, match="already held this round") as err:
        game.push("vote seat=2")
    assert "once a round" in str(err.value) and "clean-up" in str(err.value)
    assert not [a for a in game.legal_actions() if a.name == "vote"]
    events = game.push("end-round")
    assert "vote_marker_reset" in [e["type"] for e in events] and game.view()["vote_used"] is False
    to_action(game)
    game.push("vote seat=2")
    assert game.view()["eliminated"] == [2]


def test_a_player_already_out_cannot_be_voted_out_again(packs: AmongCultistsPacks) -> None:
    game = new(packs)
    to_action(game)
    game.push("vote seat=2")
    game.push("end-round")
    to_action(game)
    with pytest.raises(IllegalCommand, match="already voted out"):
        game.push("vote seat=2")
    with pytest.raises(BadCommand, match="1 to 5"):
        game.push("vote seat=6")


def test_voting_out_the_last_cultist_wins_at_once_for_the_investigators(packs: AmongCultistsPacks) -> None:
    # :52: the cultists reveal when the last of them is voted out; the investigators win immediately
    game = new(packs, players=6)
    to_action(game)
    events = game.push("vote seat=5 last=yes")
    assert [e["type"] for e in events] == ["vote", "game_won"]
    view = game.view()
    assert view["outcome"] == "won" and view["winner"] == "investigators" and view["phase"] == "over"
    assert "last cultist" in view["outcome_reason"]
    assert game.legal_actions() == []
    with pytest.raises(IllegalCommand, match="the game is over"):
        game.push("end-round")


def test_with_two_cultists_the_first_vote_out_cannot_reveal_the_last_cultist(packs: AmongCultistsPacks) -> None:
    # :52 "Die Kultisten müssten sich erkenntlich zeigen, sofern mit der Abstimmung der letzte Kultist eliminiert
    # wurde"; :60 the investigators win when they "alle Kultisten durch Abstimmung aus dem Spiel genommen" have:
    # of two cultists, the last cannot be the first one out
    game = new(packs, players=8, cultists=2)
    to_action(game)
    assert [a.asks for a in game.legal_actions() if a.name == "vote"] == [("seat",)]
    with pytest.raises(IllegalCommand, match="nobody has been voted out yet"):
        game.push("vote seat=5 last=yes")
    assert game.view()["eliminated"] == [] and game.outcome is None
    game.push("vote seat=5")
    game.push("end-round")
    to_action(game)
    assert [a.asks for a in game.legal_actions() if a.name == "vote"] == [("seat", "last")]
    events = game.push("vote seat=2 last=yes")
    assert events[-1]["type"] == "game_won"


def test_with_one_cultist_the_first_vote_out_may_reveal_them(packs: AmongCultistsPacks) -> None:
    game = new(packs, players=6, cultists=1)
    to_action(game)
    assert game.push("vote seat=3 last=yes")[-1]["type"] == "game_won"


def test_the_last_cultist_is_revealed_only_by_a_player_voted_out(packs: AmongCultistsPacks) -> None:
    game = new(packs)
    to_action(game)
    with pytest.raises(BadCommand, match="give that player's seat"):
        game.push("vote seat=none last=yes")


def test_a_body_found_calls_a_vote_that_does_not_use_the_marker(packs: AmongCultistsPacks) -> None:
    # :44 a check finds a character dead; :52 "Eine Abstimmung wird auch eingeleitet" (the reading: not the
    # once-a-round cafeteria vote)
    game = new(packs)
    to_action(game)
    with pytest.raises(IllegalCommand, match="no character was found dead"):
        game.push("vote seat=1 called=body")
    game.push("vote seat=none")
    game.push("found-dead seat=4")
    assert game.view()["found_dead"] == [4] and game.view()["body_votes"] == 1
    with pytest.raises(IllegalCommand, match="found dead"):
        game.push("next-phase")
    with pytest.raises(IllegalCommand, match="found dead"):
        game.push("end-round")
    assert [a.args.get("called") for a in game.legal_actions() if a.name == "vote"] == ["body"]
    game.push("vote seat=2 called=body")
    view = game.view()
    assert view["ghosts"] == [2, 4] and view["body_votes"] == 0 and view["vote_used"] is True
    with pytest.raises(IllegalCommand, match="already found dead"):
        game.push("found-dead seat=4")


# -- victory points and the end (:51, :57, :60) ------------------------------------------------------------------


def test_the_host_adds_and_removes_victory_points(packs: AmongCultistsPacks) -> None:
    # :51: the investigators score victory points
    game = new(packs)
    with pytest.raises(IllegalCommand, match="night"):
        game.push("points n=1")
    game.push("night-done")
    (event,) = game.push("points n=+2")
    assert event == {"type": "points", "points": 2, "change": 2, "needed": GOAL}
    game.push("points n=-1")
    assert game.view()["points"] == 1
    with pytest.raises(IllegalCommand, match="cannot lose 2"):
        game.push("points n=-2")
    with pytest.raises(BadCommand, match="changes nothing"):
        game.push("points n=0")


def test_the_points_that_reach_the_goal_end_the_game_at_once(packs: AmongCultistsPacks) -> None:
    # :60 "Die Ermittler wiederum gewinnen, wenn sie ... innerhalb der maximalen Rundenanzahl ausreichend viele
    # Siegpunkte erzielt haben": the win comes with the points, in any round, not only when round 10 ends (:57).
    # Found by a new player: the score read "6 of 5" and the game went on until the host found a "they win" button.
    game = new(packs, points_needed=4)
    game.push("night-done")
    play_rounds(game, 6)
    to_action(game)
    assert game.view()["round"] == 7
    game.push("points n=3")
    assert game.outcome is None
    assert "points-win" not in [a.name for a in game.legal_actions()]  # no second place that ends the game
    with pytest.raises(IllegalCommand, match="ends by itself"):
        game.push("points-win")
    events = game.push("points n=1")
    assert [e["type"] for e in events] == ["points", "game_won"]
    view = game.view()
    assert view["outcome"] == "won" and view["winner"] == "investigators" and view["round"] == 7
    assert view["points"] == view["points_needed"] == 4  # never "5 of 4"
    assert "4 victory points" in view["outcome_reason"]
    assert game.legal_actions() == []
    with pytest.raises(IllegalCommand, match="game is over"):
        game.push("points n=1")
    game.pop()  # a point entered by mistake: undo takes it back, and the game goes on
    assert game.outcome is None and game.view()["points"] == 3


def test_points_past_the_goal_at_once_win_with_all_of_them(packs: AmongCultistsPacks) -> None:
    game = new(packs, points_needed=3)
    game.push("night-done")
    events = game.push("points n=5")  # a room's books may bring more than one point (:51)
    assert events[-1]["type"] == "game_won" and events[-1]["points"] == 5 and game.view()["round"] == 1


def stored_old_way(packs: AmongCultistsPacks, **setup: Any) -> tuple[Setup, list[str]]:
    """The commands of a game played before the points ended the game (the host recorded the win): the points
    passed the goal in round 1 and the table played on into round 3, then the host tapped the win."""
    commands = ["night-done", "points n=5", "next-phase", "draw-event", "next-phase", "points n=1", "end-round"]
    commands += ["next-phase", "draw-event", "next-phase", "end-round", "points-win"]
    return Setup(players=5, cultists=1, points_needed=3, **setup), commands


def test_a_game_stored_before_plays_on_as_it_was_played(packs: AmongCultistsPacks) -> None:
    setup, commands = stored_old_way(packs)
    with pytest.raises(IllegalCommand):  # the reading of now refuses the table's next command
        replay_now = Game.new(setup, packs)
        for c in commands:
            replay_now.push(c)
    game = Game.replay(setup, packs, commands)
    assert game.host_records_points_win
    assert game.played == len(commands)
    view = game.view()
    assert view["outcome"] == "won" and view["round"] == 3 and view["points"] == 6
    # every state on the way is the one the table saw: in round 2, 6 of 3 and the game still on, the win offered
    for _ in range(5):
        game.pop()
    assert game.outcome is None and game.view()["round"] == 2 and game.view()["points"] == 6
    assert "points-win" in [a.name for a in game.legal_actions()]
    # the history file's way (companion.history.replay_game): read_stored, then push what it leaves
    fresh = Game.new(setup, packs)
    left = fresh.read_stored([Command.parse(c) for c in commands])
    for c in left:
        fresh.push(c)
    assert fresh.view() == Game.replay(setup, packs, commands).view()


def test_a_game_stored_now_replays_in_the_reading_of_now(packs: AmongCultistsPacks) -> None:
    commands = ["night-done", "points n=2", "next-phase", "draw-event", "next-phase", "points n=1"]
    game = Game.replay(Setup(players=5, cultists=1, points_needed=3), packs, commands)
    assert not game.host_records_points_win
    assert game.view()["outcome"] == "won" and game.view()["round"] == 1
    fresh = Game.new(Setup(players=5, cultists=1, points_needed=3), packs)
    parsed = [Command.parse(c) for c in commands]
    assert list(fresh.read_stored(parsed)) == parsed and fresh.played == 0  # the commands tell it; none is pushed
    assert not fresh.host_records_points_win
    # the score fell back below the goal and went on: a game of then too
    old = ["night-done", "points n=3", "points n=-1", "points n=1"]
    assert Game.replay(Setup(players=5, cultists=1, points_needed=3), packs, old).host_records_points_win


def test_after_round_ten_the_cultists_win_without_enough_points(packs: AmongCultistsPacks) -> None:
    # :57 "endet das Spiel mit einem Sieg für die Kultisten, sofern die Ermittler nicht genug Siegpunkte ..."
    game = new(packs, points_needed=4)
    game.push("night-done")
    game.push("points n=3")
    play_rounds(game, 9)
    to_action(game)
    events = game.push("end-round")
    assert events[-1]["type"] == "game_lost" and events[-1]["winner"] == "cultists"
    assert "start_player_passed" not in [e["type"] for e in events]  # :57 "Ansonsten": no knife after round 10
    assert game.view()["outcome"] == "lost" and game.view()["round"] == 10


def test_the_last_rounds_event_stays_named_when_round_ten_ends_the_game(packs: AmongCultistsPacks) -> None:
    # :37 the event holds for its round; the end card of a game that round 10 ended names the one drawn then,
    # while an earlier round's event is gone when the next round begins
    game = new(packs, points_needed=4)
    game.push("night-done")
    to_action(game)
    game.push("end-round")
    assert game.view()["event"] is None and game.view()["round"] == 2
    play_rounds(game, 8)
    to_action(game)
    drawn = game.view()["event"]
    assert drawn is not None and game.view()["round"] == 10
    game.push("end-round")
    assert game.view()["outcome"] == "lost" and game.view()["event"] == drawn


def test_after_round_ten_enough_points_win_for_the_investigators(packs: AmongCultistsPacks) -> None:
    # :57, :60 "innerhalb der maximalen Rundenanzahl ausreichend viele Siegpunkte"
    game = new(packs, points_needed=4)
    game.push("night-done")
    play_rounds(game, 9)
    to_action(game)
    game.push("points n=3")
    assert game.outcome is None
    events = game.push("points n=1")  # in round 10 too the points win at once, before the clean-up
    assert events[-1]["type"] == "game_won" and game.view()["winner"] == "investigators"
    assert game.view()["round"] == 10 and game.view()["phase"] == "over"


def test_after_round_ten_a_game_stored_before_wins_by_its_points_at_the_clean_up(packs: AmongCultistsPacks) -> None:
    # :57 "sofern die Ermittler nicht genug Siegpunkte ermittelt haben", in the old reading: the points passed the
    # goal and the table played on to the end of round 10
    commands = ["night-done", "points n=4"]
    for _ in range(9):
        commands += ["next-phase", "draw-event", "next-phase", "end-round"]
    commands += ["next-phase", "draw-event", "next-phase", "end-round"]
    game = Game.replay(Setup(players=5, cultists=1, points_needed=4), packs, commands)
    assert game.host_records_points_win
    assert game.view()["winner"] == "investigators" and game.view()["round"] == 10


def test_the_host_ends_the_game_for_the_cultists_when_they_removed_enough(packs: AmongCultistsPacks) -> None:
    # :60 "eine bestimmte Anzahl von Ermittlern beseitigt": the number is not in the review
    game = new(packs)
    with pytest.raises(IllegalCommand, match="night"):
        game.push("cultists-win")
    game.push("night-done")
    (event,) = game.push("cultists-win")
    assert event["type"] == "game_lost" and game.view()["winner"] == "cultists"
    assert game.view()["outcome"] == "lost"


# -- the clean-up (:56-57) --------------------------------------------------------------------------------------


def test_the_clean_up_passes_the_knife_and_moves_the_clock_one_hour(packs: AmongCultistsPacks) -> None:
    # :57: the start player's knife passes on, the hand of the round clock moves one hour
    game = new(packs, players=4, start_player=4)
    to_action(game)
    events = game.push("end-round")
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["phase_started", "round_ended"]  # ending the round from the action phase cleans up
    passed = next(e for e in events if e["type"] == "start_player_passed")
    assert (passed["seat"], passed["to"]) == (4, 1)
    view = game.view()
    assert (view["round"], view["clock"], view["start_player"]) == (2, "I", 1)
    play_rounds(game, 8)
    assert (game.view()["round"], game.view()["clock"]) == (10, "IX")
    assert CLOCK == ("XII", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")


def test_the_knife_passes_to_the_next_seat_a_ghost_too(packs: AmongCultistsPacks) -> None:
    # :57 "das Startspieler-Messer weitergereicht" names no one it skips, and a player voted out "spielt ab jetzt als
    # Geist weiter" (:52): the knife goes to the next seat, ghost or not, and a ghost keeps its place in the order
    game = new(packs, players=4)
    to_action(game)
    game.push("vote seat=2")
    game.push("found-dead seat=3")
    game.push("vote seat=none called=body")
    game.push("end-round")
    assert game.view()["ghosts"] == [2, 3]
    assert game.view()["start_player"] == 2 and game.view()["order"] == [2, 3, 4, 1]
    to_action(game)
    game.push("end-round")
    assert game.view()["start_player"] == 3 and game.view()["seats"][2]["start"] is True


def test_end_round_belongs_to_the_action_phase_or_the_clean_up(packs: AmongCultistsPacks) -> None:
    game = new(packs)
    game.push("night-done")
    with pytest.raises(IllegalCommand, match="movement phase of round 1"):
        game.push("end-round")


# -- commands, undo and replay ---------------------------------------------------------------------------------


def test_unknown_commands_and_arguments_are_named(packs: AmongCultistsPacks) -> None:
    game = new(packs)
    with pytest.raises(BadCommand, match="end-round"):
        game.push("roll")
    with pytest.raises(BadCommand, match="takes no arguments"):
        game.push("night-done now=yes")
    with pytest.raises(BadCommand, match="seat= is missing"):
        game.push("vote")
    assert {
        "night-done",
        "next-phase",
        "draw-event",
        "event",
        "vote",
        "found-dead",
        "points",
        "cultists-win",
        "points-win",
        "end-round",
    } == set(COMMANDS)


def test_a_refused_command_changes_nothing(packs: AmongCultistsPacks) -> None:
    game = new(packs)
    to_action(game)
    game.push("vote seat=none")
    before = game.view()
    with pytest.raises(IllegalCommand):
        game.push("vote seat=1")
    assert game.view() == before


def test_undo_puts_back_exactly_the_state_before(packs: AmongCultistsPacks) -> None:
    game = new(packs)
    to_action(game)
    views = [game.view()]
    for command in ("vote seat=3", "points n=2", "end-round", "next-phase", "draw-event"):
        game.push(command)
        views.append(game.view())
    for expected in reversed(views[:-1]):
        game.pop()
        assert {k: v for k, v in game.view().items() if k != "history_length"} == {
            k: v for k, v in expected.items() if k != "history_length"
        }
    with pytest.raises(IllegalCommand, match="nothing to undo"):
        Game.new(Setup(cultists=1, points_needed=GOAL, players=4), packs).pop()


def random_game(packs: AmongCultistsPacks, seed: int, steps: int = 80) -> Game:
    """A game played through its own legal actions, what they ask filled at random."""
    rng = random.Random(seed)
    # a goal out of reach of 80 steps (the points end the game at once, :60), so the games run long
    setup = Setup(
        players=rng.randint(4, 8), cultists=rng.randint(1, 2), seer=rng.random() < 0.5, seed=seed, points_needed=99
    )
    game = Game.new(setup, packs)
    for _ in range(steps):
        actions = [a for a in game.legal_actions() if a.name not in ("cultists-win", "points-win")]
        if not actions:
            break
        action = rng.choice(actions)
        fill: dict[str, str] = {}
        for ask in action.asks:
            if ask == "seat":
                fill["seat"] = rng.choice(
                    [*map(str, game.in_play()), "none"] if action.name == "vote" else list(map(str, game.in_play()))
                )
            elif ask == "last":
                fill["last"] = "yes" if fill.get("seat") != "none" and rng.random() < 0.05 else "no"
            elif ask == "n":
                fill["n"] = str(rng.randint(1, 2))
            elif ask == "id":
                fill["id"] = rng.choice(sorted(packs.events))
        game.push(action.command(**fill))
    return game


def test_every_legal_action_is_accepted_once_its_asks_are_filled(packs: AmongCultistsPacks) -> None:
    for seed in range(15):
        game = random_game(packs, seed)
        assert len(game.history) > 10


def test_replaying_a_whole_history_gives_the_same_view(packs: AmongCultistsPacks) -> None:
    ended = 0
    for seed in range(15):
        game = random_game(packs, seed, steps=200)
        ended += game.outcome is not None
        stored = [c.to_dict() for c in game.history]
        again = Game.replay(game.setup, packs, json.loads(json.dumps(stored)))
        assert again.view() == game.view()
        typed = Game.replay(game.setup, packs, [str(c) for c in game.history])
        assert typed.view() == game.view()
    assert ended > 0


def test_the_view_is_json_safe_and_holds_no_role(packs: AmongCultistsPacks) -> None:
    game = new(packs, players=6, seer=True, names=("Ann", "Bo", "Cy", "Di", "Ed", "Flo"))
    to_action(game)
    view = game.view()
    assert json.loads(json.dumps(view)) == view
    for key in (
        "rules",
        "round",
        "rounds",
        "phase",
        "outcome",
        "start_player",
        "players",
        "player_names",
        "eliminated",
        "vote_used",
        "event",
        "points",
        "points_needed",
        "cultists",
        "seer",
        "current_player",
    ):
        assert key in view, key
    assert view["rules"] == "among-cultists" and view["cultists"] == 1 and view["seer"] is True
    # the companion knows the number of cultists, never who they are
    assert not any("role" in key or "alignment" in key for key in view)
    assert all(set(seat) == {"seat", "name", "start", "out"} for seat in view["seats"])


def test_commands_parse_and_print_back() -> None:
    command = Command.parse("vote seat=3 last=yes")
    assert command.args == {"seat": "3", "last": "yes"} and str(command) == "vote seat=3 last=yes"


def test_a_stand_in_marker_the_companion_draws_says_nothing_of_its_own_and_the_host_enters_the_real_one(
    packs: AmongCultistsPacks,
) -> None:
    # :37 "Ein Ereignismarker wird aus dem Beutel gezogen und abgehandelt": a stand-in is no marker of the box, so
    # the companion asks for the one the table drew instead of reading out words that are not the marker's
    game = new(packs)
    game.push("night-done")
    game.push("next-phase")
    game.push("draw-event")
    event = game.view()["event"]
    assert event["stand_in"] is True and event["text"] == ""
    assert "placeholder" not in json.dumps(game.view()).lower()  # neither a key nor a word a player reads
    assert "event" in [a.name for a in game.legal_actions()]
    game.push("event name=Blackout")
    assert game.view()["event"]["name"] == "Blackout" and game.view()["event"]["stand_in"] is False
    with pytest.raises(IllegalCommand, match="already Blackout"):
        game.push("event name=Storm")
