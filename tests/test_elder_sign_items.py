"""The item cards an investigator holds are counted (elder-sign-rules.txt:84 the starting ones listed on the card,
:229 :237 :239 the rewards' Common Items, Unique Items and Spells, :329 spent "facedown at the bottom of its deck",
:409 lost with a devouring), and the yellow die (:173, :335) and red die (:175, :339) are offered only with an item
held that gives it. What the companion does not know (a stand-in investigator's items, a game stored before) it does
not refuse: the die is offered as the host says and the host counts the items (items player=N ...). A game stored
before the items were counted replays as it was played (Reading.ITEMS), from a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from games import numbers_copied, write_played_then
from test_elder_sign_engine import ADVENTURES, ANCIENT, INVESTIGATORS, MYTHOS_QUIET, WORLDS, slot
from test_elder_sign_findings import stand_in_attempt

from companion.errors import BadCommand, IllegalCommand
from companion.games.elder_sign.engine import Command, Game, Reading, Setup
from companion.games.elder_sign.packs import load_packs, parse_pack_texts
from companion.games.elder_sign.sentences import describe_events, for_players
from companion.games.elder_sign.terminal import state_text
from companion.history import GameStore, replay_game

# investigator 1's card lists one Common Item (:84); "Two Tasks" rewards a Unique Item and a Spell (:237, :239)
PACKS = parse_pack_texts(
    {
        "ancient_ones.toml": ANCIENT,
        "investigators.toml": INVESTIGATORS.replace(
            'name = "Investigator 1"\n', 'name = "Investigator 1"\ncommon_items = 1\n'
        ),
        "adventures.toml": ADVENTURES.replace(
            "reward = { clues = 1 }", "reward = { clues = 1, unique_items = 1, spells = 1 }"
        ),
        "other_worlds.toml": WORLDS,
        "mythos.toml": MYTHOS_QUIET,
    }
)


def at_two_tasks(player: int = 1, reading: Reading = Reading.NOW) -> Game:
    """The game with "Two Tasks" dealt; `player` (1 or 2) is at it, their turn."""
    for seed in range(200):
        game = Game.new(Setup(players=2, investigators=("inv1", "inv2"), seed=seed), PACKS, reading=reading)
        if any(a["id"] == "two" for a in game.view()["adventures"]):
            break
    if player == 2:
        game.push("end-turn")
    game.push(f"move to={slot(game, 'two')}")
    return game


def dice_offered(game: Game) -> list[str]:
    return sorted(a.args["colour"] for a in game.legal_actions() if a.name == "add-die")


def items(game: Game, player: int) -> object:
    return next(i for i in game.view()["investigators"] if i["player"] == player - 1)["items"]


def test_the_yellow_die_is_offered_only_with_a_common_item_held_and_spending_takes_it_off() -> None:
    """:84 investigator 1 starts with the Common Item listed on the card; :335 it adds the yellow die; :329 spent."""
    game = at_two_tasks(1)
    assert items(game, 1) == {"common-items": 1, "unique-items": 0, "spells": 0}
    assert dice_offered(game) == ["yellow"]  # no Unique Item held: no red die
    with pytest.raises(IllegalCommand, match="holds no Unique Item"):
        game.push("add-die colour=red")
    events = game.push("add-die colour=yellow")
    assert items(game, 1) == {"common-items": 0, "unique-items": 0, "spells": 0}
    assert "Investigator 1 holds 0 Common Items, 0 Unique Items, 0 Spells" in " ".join(describe_events(events))
    game.pop()  # undo gives the item back
    assert items(game, 1)["common-items"] == 1  # type: ignore[index]


def test_a_player_holding_no_item_is_not_offered_a_die_until_the_host_counts_one() -> None:
    """Investigator 2's card lists no item: neither die (:335, :339); the host counts one the table shows."""
    game = at_two_tasks(2)
    assert items(game, 2) == {"common-items": 0, "unique-items": 0, "spells": 0}
    assert dice_offered(game) == []
    with pytest.raises(IllegalCommand, match=r"holds no Common Item.*items player=2 common=1"):
        game.push("add-die colour=yellow")
    game.push("items player=2 unique=1")
    assert dice_offered(game) == ["red"]
    game.push("add-die colour=red")
    assert items(game, 2) == {"common-items": 0, "unique-items": 0, "spells": 0}
    with pytest.raises(BadCommand, match="common=, unique= or spells="):
        game.push("items player=2")


def test_a_filled_in_cards_reward_adds_its_items() -> None:
    """:195 the rewards of a completed card: :237 a Unique Item, :239 a Spell for each icon."""
    game = at_two_tasks(2)
    game.push("roll faces=lore," + ",".join(["peril"] * (game.dice_to_roll() - 1)))  # the lore task
    game.push("roll faces=inv3," + ",".join(["peril"] * (game.dice_to_roll() - 1)))  # the investigation task
    assert items(game, 2) == {"common-items": 0, "unique-items": 1, "spells": 1}


def test_a_stand_in_investigators_items_are_asked_and_a_stand_in_cards_reward_counts_them() -> None:
    """A stand-in's starting items are printed on its card (:84), never made up: not counted until the host tells
    them, and the die not refused meanwhile; a stand-in adventure's reward told by the host (:229) is counted."""
    game = stand_in_attempt("inv:1")
    assert items(game, 1) is None
    assert dice_offered(game) == ["red", "yellow"]  # the companion does not know: as the host says
    assert "items not counted" in state_text(game.view())
    with pytest.raises(BadCommand, match="give all three"):
        game.push("items player=1 common=1")
    game.push("items player=1 common=0 unique=0 spells=0")
    assert dice_offered(game) == []
    game.push("roll faces=green:inv1,green:inv1,green:inv1,green:inv1,green:inv1,green:inv1")
    assert game.view()["question"]["part"] == "reward"
    game.push("card-did effect=common-items n=2")
    game.push("card-did effect=allies")  # an Ally is written down, not counted (:353-355)
    assert items(game, 1) == {"common-items": 2, "unique-items": 0, "spells": 0}
    assert "2 Common Items" in state_text(game.view())


def test_a_devoured_investigators_items_go_back_to_their_decks() -> None:
    """:409 "All my precious items ... are returned face-down to the depths of their respective decks"."""
    game = at_two_tasks(1)
    game.push("adjust player=1 stamina=-9")
    assert next(i for i in game.view()["investigators"] if i["id"] == "inv1")["items"] == {
        "common-items": 0,
        "unique-items": 0,
        "spells": 0,
    }


def test_a_game_stored_before_items_were_counted_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file of before: investigator 2 (no item on the card) added the yellow die. It reopens so (Reading.ITEMS), no
    investigator's items counted (the host counts them: nothing made up), and a die added after the reopening is not
    refused; the file reopens again as played."""
    then = at_two_tasks(2, Reading.ITEMS)
    then.push("add-die colour=yellow")
    then.push("roll faces=" + ",".join(["peril"] * (then.dice_to_roll() - 1) + ["yellow:inv4"]))
    played = [str(c) for c in then.history]
    with pytest.raises(IllegalCommand, match="holds no Common Item"):  # as the companion plays now: refused
        now = Game.new(then.setup, PACKS)
        for text in played:
            now.push(text)
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, Game.new(then.setup, PACKS, reading=Reading.ITEMS), played)
        game = replay_game(store, game_id, PACKS)
        assert isinstance(game, Game) and game.reading >= Reading.ITEMS and game.view() == then.view()
        assert items(game, 1) is None and items(game, 2) is None

        def play(text: str) -> None:
            command = Command.parse(text)
            store.append(game_id, len(game.history) + 1, command.to_dict(), game.push(command))

        for text in ("end-turn", f"move to={slot(game, 'two')}"):
            play(text)
        assert dice_offered(game) == ["red", "yellow"]  # not counted: not refused
        play("add-die colour=red")
        again = replay_game(store, game_id, PACKS)
        assert isinstance(again, Game) and again.view() == game.view()
    finally:
        store.close()


def failed_roll(game: Game) -> None:
    """A roll of the attempt that completes nothing (every die a peril)."""
    game.push("roll faces=" + ",".join(["peril"] * game.dice_to_roll()))
    assert game.view()["attempt"]["failed"]


def perils(game: Game) -> str:
    """The faces of the next roll, one die of the last one put on a spell (:345): one die fewer thrown, all perils."""
    return ",".join(["peril"] * (game.dice_to_roll() - 1))


def spell_roll(game: Game) -> str:
    """The next roll, one peril of the failed one put on a spell (:345)."""
    return f"roll faces={perils(game)} spell=peril"


def test_a_die_goes_on_a_spell_only_with_a_spell_held_and_the_spell_card_leaves_the_hand() -> None:
    """:345 a Spell is played "right before you roll", one die of the roll goes on it; :329 an item used goes to the
    bottom of its deck, :351 the Spell card "is returned face down to the bottom of the Spell deck" once its die is
    used: it leaves the hand as the die goes on it, and undo gives it back."""
    game = at_two_tasks(1)  # investigator 1's card lists no Spell
    failed_roll(game)
    with pytest.raises(IllegalCommand, match=r"holds no Spell.*items player=1 spells=1"):
        game.push(spell_roll(game))
    game.push("items player=1 spells=1")  # the table shows one: the host counts it
    before = game.view()
    events = game.push(spell_roll(game))
    assert [h["how"] for h in game.view()["attempt"]["held"]] == ["spell"]
    assert items(game, 1) == {"common-items": 1, "unique-items": 0, "spells": 0}
    assert "Investigator 1 holds 1 Common Item, 0 Unique Items, 0 Spells" in " ".join(describe_events(events))
    game.pop()  # undo gives the Spell back, and the die off the card
    assert game.view() == before and items(game, 1)["spells"] == 1  # type: ignore[index]


def test_while_the_items_are_not_counted_a_die_goes_on_a_spell_as_the_host_says() -> None:
    """A stand-in investigator's items are printed on its card (:84), not made up: until the host counts them the
    spell is not refused, and nothing is taken off."""
    game = stand_in_attempt("inv:4")
    assert items(game, 1) is None
    failed_roll(game)
    game.push(spell_roll(game))
    assert [h["how"] for h in game.view()["attempt"]["held"]] == ["spell"] and items(game, 1) is None


def reopened(tmp_path: Path, then: Game, packs: object = PACKS) -> Game:
    """`then`'s commands written to a real SQLite file with the events its reading gave them, and the file reopened:
    it plays in that reading again, as it was played."""
    store = GameStore(tmp_path / "then.sqlite")
    try:
        played = [str(c) for c in then.history]
        game_id = write_played_then(store, Game.new(then.setup, then.packs, reading=then.reading), played)
        game = replay_game(store, game_id, packs)
    finally:
        store.close()
    assert isinstance(game, Game) and game.reading >= then.reading and game.view() == then.view()
    return game


def test_a_game_stored_before_spells_were_counted_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file of before: investigator 2 (no Spell on the card) put a die on a spell. It reopens so (Reading.SPELLS);
    a spell played after the reopening is refused as now."""
    then = at_two_tasks(2, Reading.SPELLS)
    failed_roll(then)
    then.push(spell_roll(then))
    now = Game.new(then.setup, PACKS)
    with pytest.raises(IllegalCommand, match="holds no Spell"):  # as the companion plays now: refused
        for command in then.history:
            now.push(command)
    game = reopened(tmp_path, then)
    assert items(game, 2) == {"common-items": 0, "unique-items": 0, "spells": 0}
    for text in ("give-up", "end-turn", "end-turn", f"move to={slot(game, 'two')}"):
        game.push(text)
    failed_roll(game)
    with pytest.raises(IllegalCommand, match="holds no Spell"):
        game.push(spell_roll(game))


def test_a_spell_played_before_spells_were_counted_reopens_with_the_count_as_it_was(tmp_path: Path) -> None:
    """A file of before: the Spell the host counted stayed on the count after a die went on it; its events tell so,
    and it reopens so (Reading.SPELLS), not with the Spell taken off after the fact."""
    then = at_two_tasks(2, Reading.SPELLS)
    then.push("items player=2 spells=1")
    failed_roll(then)
    then.push(spell_roll(then))
    assert items(then, 2) == {"common-items": 0, "unique-items": 0, "spells": 1}
    reopened(tmp_path, then)


def spells_offered(game: Game) -> list[str]:
    return [a.args["die"] for a in game.legal_actions() if a.name == "spell"]


def test_the_spell_choice_is_offered_only_with_a_spell_held_and_the_next_roll_plays_it() -> None:
    """The page's choice after a failed roll (:345 "After you roll, you get to choose one of the dice ... place it on
    the Spell card"): offered only when legal (a Spell held, the items counted), played by the next roll as a focus
    is, the Spell off the count then; undo gives it back."""
    game = at_two_tasks(1)
    game.push("roll faces=lore," + ",".join(["peril"] * (game.dice_to_roll() - 1)) + " task=none")
    assert game.view()["attempt"]["failed"]
    assert spells_offered(game) == []
    with pytest.raises(IllegalCommand, match="holds no Spell"):
        game.push("spell die=lore")
    game.push("items player=1 spells=1")
    assert spells_offered(game) == ["lore", "peril"]
    throws = game.dice_to_roll()
    game.push("spell die=lore")
    assert game.view()["attempt"]["spell"] == "lore" and game.dice_to_roll() == throws - 1
    assert items(game, 1)["spells"] == 1  # type: ignore[index]  # chosen: the Spell is played with the roll
    before = game.view()
    game.push("roll faces=" + ",".join(["peril"] * game.dice_to_roll()) + " task=none")
    assert [h["die"] for h in game.view()["attempt"]["held"]] == ["lore"]
    assert items(game, 1)["spells"] == 0  # type: ignore[index]
    game.pop()
    assert game.view() == before


def test_a_mythos_cards_items_told_by_the_host_go_to_whom_the_host_says(tmp_path: Path) -> None:
    """A Mythos card not filled in yet: the text names no one its items go to (:315-319 tell only "Usually, you'll
    have to add a Doom token to the Doom track or draw a Monster marker"), so the host says whom, as for its sanity,
    stamina and clues (player=all or player=N), not every investigator unasked."""
    game = Game.new(Setup(players=2, seed=3), load_packs())
    numbers_copied(game)
    question = game.view()["question"]
    assert question["kind"] == "mythos" and question["player"] is None
    for player in (1, 2):
        game.push(f"items player={player} common=0 unique=0 spells=0")
    with pytest.raises(BadCommand, match="say whom the Mythos card's Common Items go to"):
        game.push("card-did effect=common-items n=1")
    game.push("card-did effect=common-items n=1 player=2")
    assert items(game, 1) == {"common-items": 0, "unique-items": 0, "spells": 0}
    assert items(game, 2) == {"common-items": 1, "unique-items": 0, "spells": 0}
    game.push("card-did effect=spells n=1 player=all")
    assert items(game, 1)["spells"] == items(game, 2)["spells"] == 1  # type: ignore[index]
    # a game stored before: told without player=, they went to every investigator; it reopens so (Reading.SPELLS)
    then = Game.new(game.setup, load_packs(), reading=Reading.SPELLS)
    for command in [*game.history[: len(game.history) - 2], "card-did effect=common-items n=1"]:
        then.push(command)
    again = reopened(tmp_path, then, load_packs())
    assert items(again, 1)["common-items"] == items(again, 2)["common-items"] == 1  # type: ignore[index]


def test_the_hint_to_count_the_items_reads_in_the_pages_words() -> None:
    """A refused die or spell (none held) tells the host what to do: on the page, where the count is (the host's
    "Card effects and corrections", its button), not the terminal's command."""
    game = at_two_tasks(2)
    refusals = []
    for text in ("add-die colour=yellow", "add-die colour=red"):
        with pytest.raises(IllegalCommand) as refused:
            game.push(text)
        refusals.append(refused.value)
    failed_roll(game)
    with pytest.raises(IllegalCommand) as refused:
        game.push(spell_roll(game))
    refusals.append(refused.value)
    for message in refusals:
        words = for_players(message)
        assert "If the table shows one, the host counts it first under Card effects and corrections " in words
        assert words.endswith("(Count the items an investigator holds).") and "player" not in words, words


def after_a_completed_task(reading: Reading = Reading.NOW) -> Game:
    """Investigator 1, a Spell held, at "Two Tasks" (lore:1, inv:3): a roll whose inv3 is placed on task 2."""
    game = at_two_tasks(1, reading)
    game.push("items player=1 spells=1")
    game.push("roll faces=inv3,lore," + ",".join(["peril"] * (game.dice_to_roll() - 2)) + " task=2")
    done = next(a for a in game.view()["adventures"] if a["id"] == "two")["tasks"]
    assert [t["done"] for t in done] == [False, True] and not game.view()["attempt"]["failed"]
    return game


def test_a_die_placed_on_the_task_it_completed_does_not_go_on_a_spell_too() -> None:
    """:185 "Once I put a die on a requirement, I can't roll it again during this step": it is spent for the task;
    :345 the die put on the Spell card is one of the dice rolled, "without changing its result": one the task left.
    The refusal names the die and why; one the roll left goes on it; undo restores the roll exactly."""
    game = after_a_completed_task()
    before = game.view()
    with pytest.raises(IllegalCommand, match=r"spell=inv3: the last roll's inv3 was placed on the task.*:185.*lore"):
        game.push(f"roll faces={perils(game)} spell=inv3")
    assert game.view() == before and items(game, 1)["spells"] == 1  # type: ignore[index]  # nothing lost
    game.push(f"roll faces={perils(game)} spell=peril")  # a die the task left
    assert [(h["die"], h["how"]) for h in game.view()["attempt"]["held"]] == [("peril", "spell")]
    assert items(game, 1)["spells"] == 0  # type: ignore[index]
    game.pop()
    assert game.view() == before
    with pytest.raises(IllegalCommand, match="inv3 was placed on the task"):  # the placed die is still the task's
        game.push(f"roll faces={perils(game)} spell=inv3")


def test_after_a_roll_that_completed_a_task_the_page_chooses_a_die_it_left_for_the_spell() -> None:
    """:345 "After you roll, you get to choose one of the dice and, without changing its result, place it on the
    Spell card": after any roll, so after one that completed a task too, a die it left (:185: one placed on the task
    is spent for it). The page's choice (spell die=) offers those dice, refuses the placed one with why, and the next
    roll puts the die chosen on the card (the Spell off the count, :329)."""
    game = after_a_completed_task()
    attempt = game.view()["attempt"]
    left = list(attempt["last"])
    for placed in attempt["placed"]:
        left.remove(placed)
    assert "inv3" in attempt["placed"] and sorted(spells_offered(game)) == sorted(set(left))
    assert sorted(attempt["left"]) == sorted(left)  # published for the page's choice (web's spellAfterTask)
    dice = game.dice_to_roll()
    with pytest.raises(IllegalCommand, match=r"die=inv3: the last roll's inv3 was placed on the task.*:185"):
        game.push("spell die=inv3")
    game.push("spell die=lore")
    assert game.view()["attempt"]["spell"] == "lore" and game.dice_to_roll() == dice - 1
    assert items(game, 1)["spells"] == 1  # type: ignore[index]  # off the count as the roll puts it on the card
    with pytest.raises(IllegalCommand, match="lore was chosen to go on the spell"):
        game.push(f"roll faces={perils(game)} spell=peril")
    events = game.push("roll faces=" + ",".join(["peril"] * game.dice_to_roll()))
    assert [(e["face"], e["how"]) for e in events if e["type"] == "die_held"] == [("lore", "spell")]
    rolled = next(e for e in events if e["type"] == "rolled")
    assert rolled["held"] == ["lore"] and rolled["task"] == 1  # the spell's lore counts for the lore task (:347)
    changed = events.index(next(e for e in events if e["type"] == "items_changed"))
    assert events[changed - 1]["type"] == "die_held" and events[changed]["items"]["spells"] == 0  # off as it goes on


def test_a_game_stored_when_a_placed_die_went_on_a_spell_too_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file of before (Reading.SPELL_DIE): the inv3 placed on task 2 went on the spell too. It reopens so, and the
    same roll played again after an undo (as the companion plays now) is refused."""
    then = after_a_completed_task(Reading.SPELL_DIE)
    then.push(f"roll faces={perils(then)} spell=inv3")
    assert [h["die"] for h in then.view()["attempt"]["held"]] == ["inv3"]
    now = Game.new(then.setup, PACKS)
    with pytest.raises(IllegalCommand, match="inv3 was placed on the task"):  # as the companion plays now: refused
        for command in then.history:
            now.push(command)
    game = reopened(tmp_path, then)
    assert game.reading == Reading.SPELL_DIE
    game.pop()
    with pytest.raises(IllegalCommand, match="inv3 was placed on the task"):
        game.push(f"roll faces={perils(game)} spell=inv3")


def test_a_spell_told_as_a_stand_in_reward_is_counted_on_its_investigator_and_offered_only_to_a_holder() -> None:
    """The fresh player's table: every card a stand-in, the host counts both investigators' items (none held), player 1
    completes a stand-in adventure whose reward the host tells as one Spell (:239): player 1 holds it (the line shows
    it) and is offered a die on it after a failed roll (:345 a Spell is played from the hand); player 2, holding none,
    is not, until the host counts one."""
    game = stand_in_attempt("inv:1")
    for player in (1, 2):
        game.push(f"items player={player} common=0 unique=0 spells=0")
    game.push("roll faces=green:inv1,green:inv1,green:inv1,green:inv1,green:inv1,green:inv1")
    events = game.push("card-did effect=spells n=1")
    said = " ".join(describe_events(events))
    assert "1 Spell drawn" in said and "holds 0 Common Items, 0 Unique Items, 1 Spell" in said, said
    assert items(game, 1) == {"common-items": 0, "unique-items": 0, "spells": 1}
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    game.push("end-turn")
    while game.view()["question"]:
        game.push("card-did effect=nothing")
    game.push("move to=2")
    if any(a.name == "set-tasks" for a in game.legal_actions()):
        game.push("set-tasks adventure=2 tasks=inv:4 ordered=false")
    failed_roll(game)
    assert spells_offered(game) == []  # player 2 holds no Spell
    game.push("items player=2 spells=1")
    assert spells_offered(game) == ["peril"]


def test_while_the_items_are_not_counted_a_stand_in_reward_counts_no_spell_and_the_spell_is_offered() -> None:
    """Not counted (a stand-in's starting items are on its card, :84, never made up): the Spell drawn is written in
    the log only, no count is made up, and the die on a Spell card is offered as the host says."""
    game = stand_in_attempt("inv:1")
    game.push("roll faces=green:inv1,green:inv1,green:inv1,green:inv1,green:inv1,green:inv1")
    assert describe_events(game.push("card-did effect=spells n=1")) == ["The adventure in place 1: 1 Spell drawn."]
    assert items(game, 1) is None and items(game, 2) is None
