"""Rules findings of fresh players' Elder Sign games, each checked against elder-sign-rules.txt: the setup checklist
says which Ancient One was chosen (:81), a stand-in one as the Ancient One, its card not filled in yet; a stand-in
adventure's reward takes every icon (:229-271); the numbers of a stand-in investigator (:84) and Ancient One (:245,
:419-427) are the host's to copy, none made up is shown; no first aid after a completed adventure (:196-198); a die
chosen to hold (focus, :213, :365-371) is held by the next roll."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from games import numbers_copied
from test_elder_sign_stand_in_ancient import filled_in

from companion.errors import IllegalCommand
from companion.games.elder_sign import sentences
from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs


def _checklist(game: Game) -> dict[str, str]:
    state = {**game.view(), **MODULE.publish(game.view(), game)}  # the published state, as the page asks it
    items = sentences.setup_checklist(state, sentences.Names.of_game(game), False)
    return {item["id"]: item["text"] for item in items}


def test_the_setup_checklist_says_which_ancient_one_was_chosen(tmp_path: Path) -> None:
    """:81 "You can either pick one randomly or all players can agree on one": the checklist says who chose it, and
    (:82) whether the mask monsters go in the cup, once the card in play is known."""
    packs = load_packs()
    for ancient in ("nyarlathotep", "ancient_two"):
        stand_in = _checklist(Game.new(Setup(players=2, ancient_one=ancient, seed=1), packs))
        assert "You chose the Ancient One, its card not filled in yet" in stand_in["ancient_one"], stand_in
        assert packs.ancient_ones[ancient].name not in stand_in["ancient_one"]  # a stand-in's name is never told
        # :82 picked by the name the rulebook gives it, the Ancient One in play is known: the one thing that applies
        masks = (
            "with the mask monsters (Nyarlathotep is in play)" if ancient == "nyarlathotep" else "if the Ancient One"
        )
        assert masks in stand_in["monsters"], stand_in
    drawn = _checklist(Game.new(Setup(players=2, seed=1), packs))["ancient_one"]
    assert drawn.startswith("The companion drew ")  # named (tests/test_elder_sign_drawn_ancient_one.py)
    real = filled_in(tmp_path)
    text = _checklist(Game.new(Setup(players=2, ancient_one="nyarlathotep", seed=1), real))
    assert text["ancient_one"] == "Lay Nyarlathotep's card beside the clock."
    assert "with the mask monsters (Nyarlathotep is in play)" in text["monsters"]


def stand_in_attempt(tasks: str) -> Game:
    """A new game, its setup's questions told, player 1 at the stand-in adventure in place 1 with its tasks entered."""
    game = Game.new(Setup(players=2, seed=3), load_packs())
    numbers_copied(game)
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    game.push("move to=1")
    game.push(f"set-tasks adventure=1 tasks={tasks} ordered=false")
    return game


def _completed_stand_in() -> Game:
    """A stand-in adventure completed: its reward is asked (the companion plays none of the stand-in's)."""
    game = stand_in_attempt("inv:1")
    game.push("roll faces=green:inv1,green:inv1,green:inv1,green:inv1,green:inv1,green:inv1")
    assert game.view()["question"]["part"] == "reward"
    return game


def test_a_stand_in_adventures_reward_takes_every_icon_the_text_names() -> None:
    """:229-271: Common Items, Unique Items, Spells, clues, Allies, Elder Signs, a gate, sanity, stamina, a monster,
    doom; :223 "sometimes a reward may not actually be beneficial"."""
    game = _completed_stand_in()
    offered = {a.args["effect"] for a in game.legal_actions() if a.name == "card-did"}
    wanted = {"common-items", "unique-items", "spells", "allies", "clues", "elder-signs", "gate", "sanity", "stamina"}
    assert wanted | {"monster", "doom", "nothing"} <= offered, offered
    before = game.view()
    events = game.push("card-did effect=spells n=2")
    said = sentences.describe_events(events, sentences.Names.of_game(game))
    assert said == ["The adventure in place 1: 2 Spells drawn."], said
    assert {k: v for k, v in game.view().items() if k not in ("question", "history_length")} == {
        k: v for k, v in before.items() if k not in ("question", "history_length")
    }  # the table draws the spells: nothing of the companion's changes
    game.push("card-did effect=doom")
    assert game.view()["doom"] == before["doom"] + 1  # a reward that is not beneficial (:223)
    assert "spells" not in {a.args["effect"] for a in game.legal_actions() if a.name == "card-did"}  # told once


def test_an_investigator_not_filled_in_shows_no_made_up_numbers_until_the_host_copies_them() -> None:
    from companion.errors import IllegalCommand
    from companion.games.elder_sign.module import MODULE

    game = Game.new(Setup(players=2, seed=3), load_packs())
    assert MODULE.publish(game.view(), game)["stand_ins"]["numbers"] == [0, 1]
    from companion.games.elder_sign.terminal import state_text

    text = state_text({**game.view(), **MODULE.publish(game.view(), game)})
    assert text.count("sanity, stamina and clues not entered yet") == 2 and not re.search(r"sanity \d", text), text
    events = game.push("adjust player=1 sanity=-1")
    words = sentences.describe_events(events, sentences.Names.of_game(game))
    stand_in = game.packs.investigators[game.view()["investigators"][0]["id"]]
    assert words == ["Player 1: sanity -1."], words  # the change, not the stand-in's count
    game.push("set-investigator player=1 sanity=7 stamina=3 clues=2")
    ada = game.view()["investigators"][0]
    assert (ada["max_sanity"], ada["sanity"], ada["max_stamina"], ada["stamina"]) == (7, 6, 3, 3)
    assert ada["clues"] == 2 and stand_in.placeholder  # the card's clues (no clue was spent or won before)
    assert MODULE.publish(game.view(), game)["stand_ins"]["numbers"] == [1]
    assert not any(a.name == "set-investigator" and a.args["player"] == "1" for a in game.legal_actions())
    with pytest.raises(IllegalCommand, match="entered already"):
        game.push("set-investigator player=1 sanity=5 stamina=5")
    words = sentences.describe_events(game.push("adjust player=1 sanity=-1"), sentences.Names.of_game(game))
    assert words[-1].endswith("sanity 5, stamina 3."), words


def test_no_first_aid_after_completing_an_adventure_in_the_same_turn() -> None:
    """:196 the markers go back to the Entrance, :198 "it's time to move on to the Advance the Clock step"; the
    Entrance's activities are for a turn whose move went there (:103, :289)."""
    game = _completed_stand_in()
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    assert game.view()["investigators"][0]["place"] == "entrance"
    assert "first-aid" not in {a.name for a in game.legal_actions()}
    before = game.view()
    with pytest.raises(IllegalCommand, match=r"goes on to the clock \(:196-198\).*End the turn"):
        game.push("first-aid")  # the engine refuses it too (a game stored before still replays, lenient_reading)
    assert game.view() == before
    game.push("end-turn")
    game.push("end-turn")
    game.push("move to=entrance")  # a turn whose move goes to the Entrance still has it
    assert "first-aid" in {a.name for a in game.legal_actions()}


def test_a_stand_in_ancient_ones_limits_are_the_hosts_to_enter() -> None:
    """:419-427 the doom track and :245 the Elder Sign limit are printed on the Ancient One's card: a stand-in's are
    not shown as the card's, and once the host enters them they decide the awakening and the win."""
    from companion.errors import IllegalCommand
    from companion.games.elder_sign.module import MODULE

    game = Game.new(Setup(players=2, seed=3), load_packs())
    stand_in = game.packs.ancient_ones[game.view()["ancient_one"]["id"]]
    assert stand_in.placeholder and MODULE.publish(game.view(), game)["stand_ins"]["ancient_numbers"] is True
    summary = sentences.end_summary({**game.view(), **MODULE.publish(game.view(), game)})
    assert summary["lines"][:2] == ["Elder Signs: 0.", "Doom: 0."], summary
    doom = stand_in.doom - 3  # another length than the stand-in's
    game.push(f"set-ancient-one doom={doom} elder_signs={stand_in.elder_signs + 2}")
    view = game.view()
    assert (view["doom_max"], view["elder_signs_needed"]) == (doom, stand_in.elder_signs + 2)
    assert MODULE.publish(view, game)["stand_ins"]["ancient_numbers"] is False
    assert not any(a.name == "set-ancient-one" for a in game.legal_actions())
    with pytest.raises(IllegalCommand, match="entered already"):
        game.push("set-ancient-one doom=9 elder_signs=9")
    game.push(f"doom n={doom - 1}")
    assert not game.view()["ancient_one_awake"]
    game.push("doom n=1")  # the last space of the track the host entered wakes it (:427)
    assert game.view()["ancient_one_awake"] and game.view()["doom"] == doom


def test_a_die_chosen_to_hold_is_held_by_the_next_roll_and_not_rolled() -> None:
    """:213 one other die on the own marker, :365-371 it keeps its face; :211 it is not the die set aside."""
    from companion.errors import IllegalCommand

    game = stand_in_attempt("peril:3")
    game.push("add-die colour=yellow")
    game.push("roll faces=green:inv1,green:inv1,green:inv1,green:inv1,green:lore,green:peril,yellow:inv4")
    game.push("set-aside colour=yellow")
    with pytest.raises(IllegalCommand, match="set aside"):
        game.push("focus die=yellow:inv4")
    game.push("focus die=peril")
    assert game.dice_to_roll() == 5 == len(game.next_roll_dice())  # 7 less the one set aside, less the one held
    assert "peril" in (game.odds_question() or {})["held"]
    events = game.push("roll faces=green:peril,green:peril,green:inv1,green:inv1,green:inv1")
    assert [(e["face"], e["how"]) for e in events if e["type"] == "die_held"] == [("peril", "focus")]
    assert any(e["type"] == "task_completed" for e in events)  # two perils rolled and the one held: peril:3
