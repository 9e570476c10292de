"""The Ancient One woken during an attempt at an adventure (elder-sign-rules.txt:427-433): the card is neither completed
nor failed, every marker goes to the Ancient One (:431, never back) and the turn goes on to the clock (:433); the dice
placed on its tasks come off (:185 they stay "during this step" only; the battle rolls them, :443), so no task of it
stays done. A game stored before (the tasks stayed done) reopens as it was played."""

from __future__ import annotations

from pathlib import Path

from games import write_played_then
from test_elder_sign_task_choice import at_two_tasks, done

from companion.games.elder_sign.engine import Command, Game, Reading, Setup
from companion.games.elder_sign.packs import load_packs
from companion.games.elder_sign.sentences import describe_events
from companion.history import GameStore, replay_game

PACKS = load_packs()
# the lore task done, then a failed roll whose terror the host tells: the last doom token wakes the Ancient One
AWAKENED = [
    "doom n=11",
    "roll faces=lore,peril,peril,peril,peril,peril",
    "roll faces=terror,peril,peril,peril,peril",
    "card-did effect=doom n=1",
]


def test_the_awakening_during_an_attempt_takes_the_dice_off_its_tasks() -> None:
    game = at_two_tasks()
    for text in AWAKENED[:-1]:
        game.push(text)
    assert done(game) == [False, True]
    events = game.push(AWAKENED[-1])
    said = " ".join(describe_events(events))
    assert "awakens" in said and "ends with the awakening: the dice come off task 2." in said, said
    view = game.view()
    assert view["ancient_one_awake"] and view["attempt"] is None and done(game) == [False, False]
    assert all(i["place"] == "ancient-one" for i in view["investigators"] if not i["devoured"])


def test_a_game_stored_before_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file of before: the awakening left the lore task done. It reopens so (Reading.AWAKEN); a file written now
    (its stored awakening took the dice off) reopens as played too."""
    then = at_two_tasks(Reading.AWAKEN)
    played = [str(c) for c in then.history] + AWAKENED
    then = Game.new(Setup(players=2, seed=3), PACKS, reading=Reading.AWAKEN)
    now = Game.new(Setup(players=2, seed=3), PACKS)
    store = GameStore(tmp_path / "then.sqlite")
    try:
        old_id = write_played_then(store, then, played)
        assert done(then) == [False, True]  # then: the lore task stayed done
        game = replay_game(store, old_id, PACKS)
        assert isinstance(game, Game) and game.reading >= Reading.AWAKEN and game.view() == then.view()
        new_id = write_played_then(store, now, played)
        again = replay_game(store, new_id, PACKS)
        assert again.reading is Reading.NOW and again.view() == now.view() and done(now) == [False, False]
        command = Command.parse("card-did effect=nothing")  # played on after reopening the old file
        store.append(old_id, len(game.history) + 1, command.to_dict(), game.push(command))
        assert replay_game(store, old_id, PACKS).view() == game.view()
    finally:
        store.close()
