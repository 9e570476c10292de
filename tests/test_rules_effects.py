"""The rules that the owner's box data switches on, each checked against the rulebook section it cites
(../shared/rules/skeptics-rulebook.txt): the Corpse's two actions, Running, the Fire's tokens, the Barrier's icon
sets, the ghost's "these sets first" lingering effect and the clue cards' icon sets on a Solve."""

from __future__ import annotations

from dataclasses import replace

import pytest
from games import PACKS
from test_rules_audit import card_in_play, refused, to_clock

from companion.errors import BadCommand, IllegalCommand
from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.packs import Packs


def with_card(**changes: object) -> Packs:
    """The packs with the Barrier given icon sets, or other changes to one environment card."""
    card = str(changes.pop("card"))
    environment = dict(PACKS.environment)
    environment[card] = replace(environment[card], **changes)  # type: ignore[arg-type]
    return replace(PACKS, environment=environment)


def test_the_corpse_leaves_two_actions_other_than_moves_and_every_move() -> None:
    """Corpse (Asylum Board): 'reduce all players to two Actions per turn, excluding Move Actions. So, players have
    all their Move Actions available but are limited to only two other Action types.'"""
    game = card_in_play("corpse")
    assert PACKS.environment["corpse"].actions == 2 and game.view()["other_actions_limit"] == 2
    game.push("action kind=other")
    game.push("action kind=pickup")
    message = refused(game, "action kind=give", "Corpse", "2 actions other than moves", "move")
    assert "end the turn" in message
    refused(game, "attempt action=search need=eye:1", "Corpse")  # a search is an action other than a move too
    game.push("action kind=move")  # the third action is a move: allowed
    assert game.view()["actions_left"] == 0
    game.push("end-turn")
    game.push("action kind=give")  # the next player has two again
    assert game.view()["other_actions_used"] == 1


def test_without_the_corpse_three_actions_of_any_kind() -> None:
    """Player Turn: 'up to three actions'; no card limits them."""
    game = card_in_play("fire")
    for kind in ("other", "pickup", "give"):
        game.push(f"action kind={kind}")
    assert game.view()["actions_left"] == 0


def test_three_moves_in_a_row_let_the_player_run_a_fourth_space_once() -> None:
    """Running: 'If all three consecutive actions in a turn are Move Actions, a player may run. When running, the
    player may move a fourth space.'"""
    game = card_in_play("fire")
    refused(game, "action kind=move run=true", "after all three actions of the turn were moves")
    for _ in range(3):
        game.push("action kind=move")
    message = refused(game, "action kind=move", "run a fourth space")
    assert "used all 3 actions" in message
    assert any(a.name == "action" and a.args.get("run") == "true" for a in game.legal_actions())
    events = game.push("action kind=move run=true")
    assert events[0]["run"] is True
    refused(game, "action kind=move run=true", "only once a turn")
    refused(game, "action kind=other run=true", "fourth move")


def test_no_run_after_an_action_that_is_not_a_move() -> None:
    """Running: only when 'all three consecutive actions in a turn are Move Actions'."""
    game = card_in_play("fire")
    game.push("action kind=move")
    game.push("action kind=other")
    game.push("action kind=move")
    refused(game, "action kind=move run=true", "all three actions")
    assert not any(a.args.get("run") for a in game.legal_actions())


def _fire_drawn(packs: Packs = PACKS) -> Game:
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4, physical=True), packs)
    refused(game, "attempt action=fire space=3", "no fire")
    to_clock(game, "IX")
    game.push("end-round room=8 environment=fire")
    return game


def test_the_fire_puts_no_count_of_its_own_and_asks_where_the_fire_icons_are() -> None:
    """Fire Card: 'When a Fire Card is drawn, one Fire Token is placed onto each Fire icon on the game board'
    (skeptics-rulebook.txt:286); the board packs do not show the fire icons, so no number is played (not the box's
    "4 Fires", :36): the host is asked where they are, and the answer is played."""
    for told in (1, 4):  # whatever the pack's card says, the board's icons decide
        game = _fire_drawn(with_card(card="fire", fires=told))
        view = game.view()
        assert view["fires"] == 0 and view["fire_spaces"] == []
        assert view["question"] == {"card": "fire", "kind": "fires", "left": 0, "name": "Fire"}
        assert not [a for a in game.legal_actions() if a.name == "attempt" and a.args["action"] == "fire"]
        assert [a.asks for a in game.legal_actions() if a.name == "tell-fires"] == [("spaces",)]
    refused(game, "tell-fires spaces=1,2,3,4,5", "4 fire tokens", kind=BadCommand)
    refused(game, "tell-fires spaces=21", "not a space", kind=BadCommand)
    events = game.push("tell-fires spaces=3,12")
    assert {"type": "fires_placed", "count": 2, "card": "fire", "spaces": [3, 12]} in events
    view = game.view()
    assert view["fires"] == 2 and view["fire_spaces"] == [3, 12] and view["question"] is None
    refused(game, "tell-fires spaces=5", "no card is waiting")


def test_a_board_with_no_fire_icon_burns_nothing_and_the_fire_ends() -> None:
    """Fire Card: 'one Fire Token is placed onto each Fire icon': none, and the card has nothing left to meet."""
    game = _fire_drawn()
    game.push("tell-fires spaces=none")
    assert game.view()["fires"] == 0 and "fire" not in game.state.env_active and "fire" in game.state.env_discard


def test_a_fire_fight_names_the_burning_space_and_puts_out_that_fire() -> None:
    """Fire Card: 'Players entering or sharing a space with a Fire cannot take any further actions until the fire is
    extinguished. A fire is extinguished by rolling one Cobweb with three Clue Dice, as an action, without help from
    Items. Fires remain on the board until extinguished.' (skeptics-rulebook.txt:286-287): a fire is fought on its
    space, so the fight names it, as a search names its icon set (:144)."""
    from companion.games.skeptics.sentences import Names, action_label, describe_event

    game = _fire_drawn()
    game.push("tell-fires spaces=12,3")
    names = Names.of_game(game)
    fights = [a for a in game.legal_actions() if a.name == "attempt" and a.args["action"] == "fire"]
    assert [a.args["space"] for a in fights] == ["3", "12"]
    assert [action_label(a.to_dict(), names) for a in fights] == [
        f"Fight the fire in {names.room(3)}",
        f"Fight the fire in {names.room(12)}",
    ]
    refused(game, "attempt action=fire", "space=N", kind=BadCommand)
    refused(game, "attempt action=fire space=5", "no fire burns on space 5")
    refused(game, "attempt action=fire space=3 need=eye:1", "one cobweb")
    for space, left in ((12, 1), (3, 0)):
        started = game.push(f"attempt action=fire space={space}")
        assert game.view()["attempt"]["space"] == space and game.view()["attempt"]["need"] == "cobweb:1"
        assert names.room(space) in describe_event(started[-1], names)
        events = game.push("roll faces=cobweb,eye,eye")
        assert {"type": "fire_out", "left": left, "space": space} in events
        assert game.view()["fires"] == left and space not in game.view()["fire_spaces"]
        game.push("end-turn")
    assert "fire" not in game.state.env_active and "fire" in game.state.env_discard
    refused(game, "attempt action=fire space=3", "no fire")


def test_a_game_stored_before_the_fires_had_spaces_plays_on_as_it_was_played() -> None:
    """A game whose fires were counted (the box's 4) and fought with no space replays as it was played."""
    old = ["end-round", "end-round", "end-round", "end-round room=8 environment=fire", "attempt action=fire"]
    old += ["roll faces=cobweb,eye,eye"]
    setup = Setup(players=2, board="asylum", ghost="child", seed=4, physical=True)
    game = Game.replay(setup, PACKS, old)
    assert game.fires_counted and game.view()["fires"] == 3 and "fire" in game.state.env_active
    fresh = Game.replay(setup, PACKS, [*old[:4], "tell-fires spaces=3", "attempt action=fire space=3"])
    assert not fresh.fires_counted and fresh.view()["attempt"]["space"] == 3


def test_the_barrier_is_removed_when_each_of_its_icon_sets_is_rolled() -> None:
    """Barrier (Museum Board): 'it can only be removed when all icons on the token are satisfied. Players roll three
    Clue Dice without the use of Items ... As each icon set is resolved, a blue marker is added to that icon set.
    When all sets are satisfied, the Barrier is removed.'"""
    packs = with_card(card="barrier", icon_sets=("eye:1", "camera:2"))
    game = Game.new(Setup(players=2, board="museum", ghost="child", seed=4, physical=True), packs)
    refused(game, "attempt action=barrier set=1", "no barrier")
    to_clock(game, "IX")
    game.push("end-round room=8 environment=barrier")
    offered = sorted(a.args["set"] for a in game.legal_actions() if a.args.get("action") == "barrier")
    assert offered == ["1", "2"]
    with pytest.raises(BadCommand, match="set=N"):
        game.push("attempt action=barrier")
    refused(game, "attempt action=barrier set=1 need=cobweb:1", "icon set 1 of the barrier")
    refused(game, "attempt action=barrier set=1 items=1", "items cannot be used")
    game.push("attempt action=barrier set=1")
    events = game.push("roll faces=eye,blank,blank".replace("blank", "cobweb"))
    assert {"type": "barrier_set_done", "card": "barrier", "index": 1, "left": 1} in events
    assert [s["done"] for s in game.view()["barriers"][0]["sets"]] == [True, False]
    refused(game, "attempt action=barrier set=1", "already rolled")
    game.push("attempt action=barrier set=2")
    events = game.push("roll faces=camera,camera,eye")
    assert any(e["type"] == "environment_ended" and e["card"] == "barrier" for e in events)
    assert game.view()["barriers"] == [] and "barrier" in game.state.env_discard


def test_the_child_ghosts_top_row_is_proven_before_any_other_set() -> None:
    """Ghost Card: Lingering Effects: 'the Child Ghost requires the top row of icons to be solved before any other
    icon sets can be resolved.'"""
    first = PACKS.ghosts["child"].first_sets
    assert first >= 1
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4), PACKS)
    game.push("ghost-at room=3")
    offered = sorted(int(a.args["set"]) for a in game.legal_actions() if a.args.get("action") == "prove")
    assert offered == list(range(1, first + 1))
    message = refused(game, f"attempt action=prove set={first + 1}", "lingering effect", "first")
    assert f"prove set {' or '.join(str(i) for i in range(1, first + 1))} first" in message
    refused(game, f"prove set={first + 1}", "lingering effect")
    for index in range(1, first + 1):
        game.push(f"prove set={index}")
    game.push(f"attempt action=prove set={first + 1}")  # the top row is proven: every set is open
    assert game.view()["attempt"]["set"] == first + 1


def test_a_ghost_without_the_rule_takes_its_sets_in_any_order() -> None:
    """Action 6: Prove: 'Players must match the icons in a chosen set.'"""
    assert PACKS.ghosts["shadow"].first_sets == 0
    game = Game.new(Setup(players=2, board="asylum", ghost="shadow", seed=4), PACKS)
    game.push("ghost-at room=3")
    assert len([a for a in game.legal_actions() if a.args.get("action") == "prove"]) == len(
        PACKS.ghosts["shadow"].icon_sets
    )


def clue_packs(number: int, need: str) -> Packs:
    clues = dict(PACKS.clues)
    clues[number] = replace(clues[number], icon_set=need, placeholder=False)
    return replace(PACKS, clues=clues)


def test_a_solve_starts_with_the_icons_of_the_clue_card_that_came_up() -> None:
    """Action 4: Solve: 'The dice must match all of the icons on the Clue Card.'; Setup: seven Clue Cards drawn."""
    packs = clue_packs(9, "eye:2,timer")
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4, physical=True), packs)
    game.push("reveal-clue card=9")
    refused(game, "reveal-clue card=9", "already revealed")
    solve = [a for a in game.legal_actions() if a.args.get("action") == "solve"]
    assert solve and solve[0].asks == ()  # the card is filled in: nothing to tap
    refused(game, "attempt action=solve need=cobweb:1", "clue card 9")
    game.push("attempt action=solve")
    assert game.view()["attempt"]["need"] == "eye:2,timer"
    game.push("roll faces=eye,camera,cobweb")
    assert game.view()["timers"] == 1  # the card's red timer icon: a failed roll gives a timer (Red Icons)
    events = game.push("roll faces=eye,cobweb evidence=" + PACKS.ghosts["child"].seance_symbols[0])
    assert any(e["type"] == "clue_solved" and e.get("clue_card") == 9 for e in events)
    assert game.view()["clues"] == [{"card": 9, "label": "Clue card 9", "need": "eye:2,timer", "solved": True}]


def test_a_clue_card_not_filled_in_asks_for_its_icons() -> None:
    """Until the owner fills the card in, the table taps the icons (docs/packs.md)."""
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4, physical=True), PACKS)
    game.push("reveal-clue card=3")
    solve = [a for a in game.legal_actions() if a.args.get("action") == "solve"]
    assert solve and solve[0].asks == ("need",)
    with pytest.raises(BadCommand, match="need="):
        game.push("attempt action=solve")
    game.push("attempt action=solve need=camera:1")
    assert game.view()["attempt"]["need"] == "camera:1"


def test_solve_names_its_clue_when_two_wait() -> None:
    """Setting Up the Clue Card: numbered clue tokens show which card lies where, so either may be solved first."""
    packs = clue_packs(2, "eye:1")
    packs = replace(packs, clues={**packs.clues, 5: replace(packs.clues[5], icon_set="camera:1", placeholder=False)})
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4, physical=True), packs)
    game.push("reveal-clue card=2")
    game.push("reveal-clue card=5")
    game.push("attempt action=solve clue=5")
    assert game.view()["attempt"]["need"] == "camera:1"
    with pytest.raises(IllegalCommand, match="not a revealed clue"):
        game.push("attempt action=solve clue=7")


def test_the_magnifying_glass_is_held_and_turns_down_with_each_use() -> None:
    """Magnifying Glass: 'the player may use one action to take a Magnifying Glass Token ... point the number '3'
    toward them ... The use of the Magnifying Glass remains in effect until the player performs a different action
    ... The player orients the token to the next number down after the action has expired ... Once the player
    expires the last use, the token is discarded.'"""
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4), PACKS)
    events = game.push("action kind=pickup glass=true")
    assert {"type": "glass_taken", "player": 0, "left": 3} in events
    refused(game, "action kind=move glass=true", "pick-up")
    for left in (2, 1, 0):
        game.push("attempt action=search need=eye:1 glass=true")
        assert game.view()["attempt"]["dice"] == 4
        game.push("roll faces=camera,camera,camera,camera")  # a failed roll: the glass stays in effect
        assert game.view()["hands"][0]["glass"] == left + 1
        events = game.push("roll faces=eye,camera,camera,camera" if left else "end-turn")
        assert {"type": "glass_used", "player": 0, "left": left} in events
        assert game.view()["hands"][0]["glass"] == left
        if left:
            game.push("end-turn")
            game.push("end-turn")  # round 2: player 1 again
        assert game.view()["hands"][1]["glass"] == 0  # the other investigator holds none


def test_items_that_add_dice_are_held_per_investigator_and_counted_on_their_rolls() -> None:
    """Search: Item: 'Items provide the owner bonuses for Key or Clue Dice rolls ... a player may only hold up to three
    Items at a time'; FAQ: the EVP Recorder, a Magnifying Glass and the aid die under the Watching Eyes: six, five
    rolled."""
    evp = PACKS.items["evp_recorder"]
    assert (evp.dice, evp.actions) == (1, ("prove",))
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4, physical=True), PACKS)
    game.push("hold item=evp_recorder player=1")
    game.push("ghost-at room=3")
    game.push("attempt action=prove set=1")
    assert game.view()["attempt"]["dice"] == 4 and "EVP Recorder" in game.view()["attempt"]["counted"]
    game.push("attempt action=search need=eye:1")
    assert game.view()["attempt"]["dice"] == 3  # the recorder adds nothing to a search
    game.push("attempt action=prove set=1 items=0")  # the host's count wins
    assert game.view()["attempt"]["dice"] == 3
    events = game.push("hold item=evp_recorder player=2")  # given to the other player
    assert events[0]["from"] == 0 and game.view()["hands"][1]["items"][0]["id"] == "evp_recorder"
    game.push("attempt action=prove set=1")
    assert game.view()["attempt"]["dice"] == 3  # player 1 no longer holds it
    for item in ("boots", "thermal_camera", "investigator_bag"):
        game.push(f"hold item={item} player=1")
    refused(game, "hold item=item5 player=1", "3 items already")
    game.push("drop item=boots")
    game.push("hold item=item5 player=1")
    refused(game, "drop item=boots", "nobody holds")
    with pytest.raises(BadCommand, match="unknown item"):
        game.push("hold item=crowbar")
    # the FAQ's count: EVP Recorder + glass + aid = six, under the Watching Eyes five are rolled
    to_clock(game, "IX")
    game.push("end-round room=8 environment=watching_eyes")
    game.push("end-turn")
    game.push("attempt action=prove set=1 glass=true aid=true")
    assert game.view()["current_player"] == 1 and game.view()["attempt"]["dice"] == 5


def test_a_give_action_hands_the_item_over_in_the_same_action() -> None:
    """Action 5: Pick Up/Give/Exchange Item: 'a player may use one action to give an Item to another player'."""
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4), PACKS)
    game.push("hold item=evp_recorder")
    events = game.push("action kind=give item=evp_recorder to=2")
    assert [e["type"] for e in events] == ["action", "item_held"] and events[1]["from"] == 0
    assert game.view()["actions_left"] == 2 and game.view()["hands"][1]["items"][0]["id"] == "evp_recorder"
    with pytest.raises(BadCommand, match="kind=give"):
        game.push("action kind=move item=evp_recorder")
    game.push("action kind=pickup item=boots")  # a dropped item picked up
    assert [i["id"] for i in game.view()["hands"][0]["items"]] == ["boots"]


def test_a_used_up_magnifying_glass_is_not_replaced_for_free() -> None:
    """Magnifying Glass: 'Once the player expires the last use, the token is discarded. The player may go back to the
    Magnifying Glass icon on the game board at any point of the game to reset their Magnifying Glass or pick up a new
    one. This counts as an action, even if the player is just resetting the Glass.'"""
    game = Game.new(Setup(players=1, board="asylum", ghost="child", seed=4), PACKS)
    game.push("action kind=pickup glass=true")
    for _ in range(3):
        game.push("attempt action=search need=eye:1 glass=true")
        game.push("roll faces=eye,camera,camera,camera")
        game.push("end-turn")
    assert game.view()["hands"][0]["glass"] == 0
    refused(game, "attempt action=search need=eye:1 glass=true", "used up", "counts as an action")
    before = game.view()["actions_left"]
    game.push("action kind=pickup glass=true")
    assert game.view()["actions_left"] == before - 1 and game.view()["hands"][0]["glass"] == 3
    game.push("attempt action=search need=eye:1 glass=true")
    assert game.view()["attempt"]["dice"] == 4


def test_no_run_while_carrying_the_corpse() -> None:
    """Corpse (Asylum Board): 'Players, however, cannot run with a fourth Move Action if in possession of the
    Corpse.' The Corpse 'will be attached to that player until another player moves on the space and decides to
    take over'."""
    game = card_in_play("corpse")
    first = game.view()["current_player"]
    game.push("action kind=move corpse=true")
    assert game.view()["corpse_holder"] == first
    game.push("action kind=move")
    game.push("action kind=move")
    refused(game, "action kind=move run=true", "in possession of the Corpse")
    game.push("end-turn")
    # the other player takes it over: now the first may run again, the second may not
    game.push("action kind=move corpse=true")
    assert game.view()["corpse_holder"] == 1 - first
    game.push("action kind=move")
    game.push("action kind=move")
    refused(game, "action kind=move run=true", "in possession of the Corpse")
    game.push("end-turn")
    for _ in range(3):
        game.push("action kind=move")
    game.push("action kind=move run=true")
    refused(game, "action kind=give corpse=true", "kind=move")


def test_no_corpse_to_carry_without_the_card() -> None:
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4), PACKS)
    refused(game, "action kind=move corpse=true", "no Corpse")


def test_the_watching_eyes_take_no_die_from_a_fire_roll() -> None:
    """Fire Card: 'A fire is extinguished by rolling one Cobweb with three Clue Dice, as an action, without help from
    Items'; Barrier: 'Players roll three Clue Dice without the use of Items'. The Watching Eyes (FAQ: 'reducing one
    Clue Die from their rolls') reduce the other clue rolls, not these three."""
    from test_rules_audit import to_clock

    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4, physical=True), PACKS)
    to_clock(game, "IX")
    game.push("end-round room=8 environment=fire")
    game.push("tell-fires spaces=3")
    to_clock(game, "IX")
    game.push("end-round room=9 environment=watching_eyes")
    assert {c["id"] for c in game.view()["environment"]} == {"fire", "watching_eyes"}
    game.push("attempt action=search need=eye:1")
    assert game.view()["attempt"]["dice"] == 2  # the Watching Eyes: one die fewer
    game.push("attempt action=fire space=3")
    assert game.view()["attempt"]["dice"] == 3


def test_a_revealed_clue_is_the_next_card_of_the_row_said_by_its_place() -> None:
    """Search Tokens and Cards, Clue: 'A Clue Card is drawn, in order, from the face-down cards at the top of the Game
    Board'; Setup, Clue Deck: seven cards 'face-down side by side along the top of the board'. Which of the sixteen
    it is, nobody knows: the companion never names a number of its own, it says where the card lies."""
    from companion.games.skeptics.sentences import Names, describe_event

    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=4), PACKS)
    names = Names.of_game(game)
    for position in (1, 2, 3):
        (event,) = game.push("reveal-clue")
        assert event["position"] == position and event["clue_card"] is None
        text = describe_event(event, names)
        assert ("first", "second", "third")[position - 1] + " from the left" in text
        assert not any(f"clue card {n}" in text.lower() for n in range(1, 17))
    assert game.view()["clue_cards_revealed"] == [] and [c["card"] for c in game.view()["clues"]] == [None] * 3
    events = game.push("solve")
    solved = next(e for e in events if e["type"] == "clue_solved")
    assert solved["position"] == 1 and "first from the left" in describe_event(solved, names)


def test_a_stand_in_environment_card_plays_nothing_until_the_host_tells_what_it_does() -> None:
    """Environment Cards: 'Make sure to read the card thoroughly for its effects': a card not filled in yet is not the
    card on the table, so the companion plays none of its own and asks; the host taps the kind the engine knows
    (fewer clue dice as the Watching Eyes, two actions as the Corpse, fire tokens as the Fire) or nothing."""
    import json

    from test_rules_audit import card_in_play

    assert PACKS.environment["common3"].placeholder
    game = card_in_play("common3")
    view = game.view()
    assert view["question"] == {"card": "common3", "kind": "environment", "left": 0}
    assert view["other_actions_limit"] == 0 and view["fires"] == 0
    assert "placeholder:" not in json.dumps(view).lower()
    offered = [a.args["effect"] for a in game.legal_actions() if a.name == "tell-card"]
    assert offered == ["clue-dice", "actions", "fires", "nothing", "hour", "once"]
    game.push("attempt action=search need=eye:1")
    assert game.view()["attempt"]["dice"] == 3  # nothing taken yet
    game.push("tell-card effect=clue-dice")
    game.push("tell-card effect=actions")
    game.push("attempt action=search need=eye:1")
    assert game.view()["attempt"]["dice"] == 2 and game.view()["other_actions_limit"] == 2
    game.push("tell-card effect=nothing")
    assert game.view()["question"] is None
    refused(game, "tell-card effect=fires", "no environment card is waiting")
    game.push("discard-environment card=common3")
    assert game.view()["other_actions_limit"] == 0


def test_a_stand_in_card_told_to_put_fire_tokens_asks_where_they_go() -> None:
    """A card not filled in yet that puts fire tokens, as the Fire: 'one Fire Token is placed onto each Fire icon on the
    game board' (skeptics-rulebook.txt:286): no count is tapped, the host says where the board's fire icons are."""
    from test_rules_audit import card_in_play

    game = card_in_play("common3")
    refused(game, "tell-card effect=fires n=4", "takes no n=", kind=BadCommand)
    game.push("tell-card effect=fires")
    assert game.view()["fires"] == 0
    game.push("tell-card effect=nothing")
    assert game.view()["question"] == {"card": "common3", "kind": "fires", "left": 0}
    game.push("tell-fires spaces=7")
    assert game.view()["fire_spaces"] == [7]
    game.push("attempt action=fire space=7")
    game.push("roll faces=cobweb,eye,eye")
    assert "common3" not in game.state.env_active  # it ended with its last fire


def _in_force(game: Game) -> list[str]:
    return [c["id"] for c in game.view()["environment"]]


def test_how_long_a_stand_in_environment_card_lasts_is_the_hosts_to_say() -> None:
    """Environment Cards: 'Environment Cards may end right away with one-time effects, may last for a full hour until
    the next one is drawn, or may last until the card's objectives are met. If it is not stated on the card, then the
    card lasts until the conditions are met.' A card not filled in yet does not say, so "that was all" comes in the
    three ways, and the card ends as the host said: a one-time effect ends now, one for the hour at the next Ghost
    Hour, and one until its objective is met stays in force until the host discards it."""
    from companion.games.skeptics.sentences import Names, describe_event

    ended: dict[str, list[str]] = {}
    for lasts in ("once", "hour", "nothing"):
        game = card_in_play("common3")
        names = Names.of_game(game)
        game.push("tell-card effect=actions")
        assert game.view()["other_actions_limit"] == 2
        told = game.push(f"tell-card effect={lasts}")
        assert game.view()["question"] is None
        said = " ".join(describe_event(e, names) for e in told)
        ended[lasts] = [e["why"] for e in told if e["type"] == "environment_ended"]
        discards = [a.args["card"] for a in game.legal_actions() if a.name == "discard-environment"]
        if lasts == "once":
            assert "one-time effect" in said and "common3" not in _in_force(game)
            assert game.view()["other_actions_limit"] == 0  # what was told ended with the card
            continue
        assert "common3" in _in_force(game) and game.view()["other_actions_limit"] == 2
        assert ("common3" in discards) == (lasts == "nothing")  # "Met: discard it" only for a card lasting until met
        to_clock(game, "IX")
        game.push("end-round room=9 environment=fire")  # the next Ghost Hour draws a card
        assert ("common3" in _in_force(game)) == (lasts == "nothing")
        assert game.view()["other_actions_limit"] == (2 if lasts == "nothing" else 0)
    assert ended == {"once": ["once"], "hour": [], "nothing": []}
    with pytest.raises(BadCommand, match="effect=hour takes no n="):
        card_in_play("common3").push("tell-card effect=hour n=1")


def test_the_actions_left_follow_the_corpse_on_the_status_line_the_log_and_the_page() -> None:
    """Corpse (Asylum Board, skeptics-rulebook.txt:289): 'reduce all players to two Actions per turn, excluding
    Move Actions'; the pack's card: 'two non-move actions per turn'. The three actions left are not three of any
    kind: the engine's view says how many may be other than moves, and every place words it from there."""
    from companion.games.skeptics import sentences, terminal
    from companion.games.skeptics.module import MODULE

    game = card_in_play("corpse")
    view = game.view()
    assert (view["actions_left"], view["other_actions_left"], view["other_actions_card"]) == (3, 2, "Corpse")
    assert "3 actions left, only 2 of them other than moves (Corpse)" in terminal.status_line(view)
    assert MODULE.publish(view, game)["actions_limit_words"] == ", only 2 of them other than moves (Corpse)"
    events = game.push("action kind=other")
    said = sentences.describe_events(events)
    assert any(line.endswith(": 2 actions left, only 1 of them other than moves (Corpse).") for line in said), said
    game.push("action kind=pickup")
    view = game.view()
    assert view["other_actions_left"] == 0 and view["attempt_rolls_left"] is None
    assert "1 action left, moves only (Corpse)" in terminal.status_line(view)
    assert MODULE.publish(view, game)["actions_limit_words"] == ", moves only (Corpse)"
    game.push("action kind=move")
    game.push("end-turn")
    assert "(3 actions left, only 2 of them" in terminal.status_line(game.view())


def test_without_a_card_limiting_them_the_actions_left_are_only_counted() -> None:
    from companion.games.skeptics import terminal
    from companion.games.skeptics.module import MODULE

    game = card_in_play("fire")
    view = game.view()
    assert view["other_actions_left"] is None and MODULE.publish(view, game)["actions_limit_words"] == ""
    assert "(3 actions left) ·" in terminal.status_line(view)
