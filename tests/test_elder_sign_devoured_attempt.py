"""An investigator devoured during their attempt (elder-sign-rules.txt:407 "My Investigator card and marker are cruelly
taken away"; :413 the turn still goes on to the clock) ends it with the dice off the adventure's tasks (:219 "remove all
the dice from the card, except for the ones on a locked die icon"): a task completed in it is to do again. No penalty
is asked: :405-415 name none. A game stored before (the completed task stayed done) replays as it was played."""

from __future__ import annotations

from pathlib import Path

from games import numbers_copied, write_played_then
from test_elder_sign_task_choice import at_two_tasks, done

from companion.games.elder_sign.engine import Command, Game, Reading, Setup
from companion.games.elder_sign.packs import load_packs
from companion.games.elder_sign.sentences import describe_events
from companion.history import GameStore, replay_game
from companion.record import RecordBook

PACKS = load_packs()
# the lore task done, then a failed roll whose terror the host tells: stamina -9 devours player 1's investigator
DEVOURED = [
    "roll faces=lore,peril,peril,peril,peril,peril",
    "roll faces=terror,peril,peril,peril,peril",
    "card-did effect=stamina n=-9",
]
NEXT_PLAYER = ["end-turn", "move to=1", "roll faces=inv1,peril,peril,peril,peril,peril"]


def answer_the_rest(game: Game) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    while game.view()["question"]:
        events += game.push("card-did effect=nothing")
    return events


def test_devoured_during_the_attempt_takes_the_dice_off_its_tasks() -> None:
    game = at_two_tasks()
    game.push(DEVOURED[0])
    game.push(DEVOURED[1])
    assert done(game) == [False, True]
    events = game.push(DEVOURED[2])
    said = " ".join(describe_events(events))
    assert "is devoured" in said and "the dice come off task 2, to be completed again" in said, said
    assert game.view()["attempt"] is None and done(game) == [False, False]
    events += answer_the_rest(game)  # the terrors still asked about: nothing more
    numbers_copied(game)  # the new investigator's card, not filled in yet: its numbers copied
    assert not any(e["type"] == "adventure_failed" for e in events)
    assert not any(e.get("part") == "penalty" for e in events if e["type"] == "card_asked")
    for text in NEXT_PLAYER:  # the next player's one roll meets task 1 only: the adventure is not completed
        events = game.push(text)
    assert done(game) == [True, False] and not any(e["type"] == "adventure_completed" for e in events)


def test_a_game_stored_before_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file of before: the devouring left the lore task done, and the next player's roll meeting the investigation
    task completed the adventure. It reopens so (Reading.DEVOUR); a devouring during an attempt played after the
    reopening takes the dice off, and the file reopens again as played."""
    then = at_two_tasks(Reading.DEVOUR)
    for text in DEVOURED:
        then.push(text)
    assert done(then) == [False, True]  # then: the lore task stayed done
    answer_the_rest(then)
    numbers_copied(then)
    for text in NEXT_PLAYER:
        then.push(text)
    played = [str(c) for c in then.history]
    then = Game.new(Setup(players=2, seed=3), PACKS, reading=Reading.DEVOUR)
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, played)
        # as played then: the adventure completed with the one roll (its reward asked, its card not filled in yet)
        assert any(e["type"] == "adventure_completed" for e in store.events(game_id))
        game = replay_game(store, game_id, PACKS)
        assert isinstance(game, Game) and game.reading >= Reading.DEVOUR and game.view() == then.view()
        # played on after reopening: the next attempt's devouring takes the dice off, and it reopens again as played

        def play(text: str) -> None:
            command = Command.parse(text)
            store.append(game_id, len(game.history) + 1, command.to_dict(), game.push(command))

        while game.view()["question"]:  # the reward of the adventure completed then
            play("card-did effect=nothing")
        play("end-turn")
        slot = game.view()["adventures"][0]["slot"]  # a new adventure in its place
        for text in (f"set-tasks adventure={slot} tasks=inv:1;lore:1 ordered=false", f"move to={slot}", *DEVOURED):
            play(text)
        assert done(game) == [False, False]
        again = replay_game(store, game_id, PACKS)
        assert isinstance(again, Game) and again.view() == game.view()
    finally:
        store.close()


def test_a_devoured_attempt_counts_as_the_attempt_it_was_in_the_luck(tmp_path: Path) -> None:
    """The dice's luck (companion.record): an attempt ended by the devouring of the one rolling (:405-415) did not come
    good, as one given up; the next player's attempt is its own."""
    game = at_two_tasks()
    start = len(game.history)
    for text in DEVOURED:
        game.push(text)
    answer_the_rest(game)
    numbers_copied(game)
    for text in NEXT_PLAYER:
        game.push(text)
    played = [str(c) for c in game.history]
    store = GameStore(tmp_path / "games.sqlite")
    try:
        game_id = write_played_then(store, Game.new(Setup(players=2, seed=3), PACKS), played)
        record = RecordBook(store, lambda rules: PACKS).record(game_id)
        assert "problem" not in record
        first = next(a for a in record["attempts"] if a["seq"] == start + 1)  # the first roll of the devoured
        assert first["good"] is False and first["what"] == "the adventure in place 1"
    finally:
        store.close()


# player 1 stays on the adventure (given up); player 2 completes the lore task there, fails, holds a die on player 1's
# marker (:365-369, an assist), fails with terror and is devoured by what the host tells of it
ASSISTED = [
    "roll faces=peril,peril,peril,peril,peril,peril",
    "give-up",
    "card-did effect=nothing",
    "end-turn",
    "move to=1",
    "roll faces=lore,peril,peril,peril,peril,peril",
    "roll faces=peril,peril,peril,peril,peril",
    "roll faces=terror,peril,peril hold=peril on=1",
    "card-did effect=stamina n=-9",
]


def test_the_assistant_of_a_devoured_attempt_is_asked_about(tmp_path: Path) -> None:
    """:373 "If you can't or don't want to complete the tasks on your Adventure card, any investigators who were
    assisting ... have to choose between losing 1 Sanity or losing 1 Stamina": whether a devouring is such a failure
    the text does not say, so the host tells what the assistant lost (here stamina) or nothing. A game stored before
    (Reading.DEVOUR_ASKED: nothing asked) reopens as it was played."""
    game = at_two_tasks()
    for text in ASSISTED[:-1]:
        game.push(text)
    events = game.push(ASSISTED[-1])
    said = " ".join(describe_events(events))
    assert "did Player 1, who assisted, lose 1 sanity or 1 stamina (:373)?" in said, said
    while game.view()["question"]["part"] != "assisted":
        game.push("card-did effect=nothing")  # the terrors asked about: nothing more
    assert game.view()["question"]["player"] == 0
    taps = {a.args["effect"] for a in game.legal_actions() if a.name == "card-did"}
    assert taps == {"sanity", "stamina", "nothing"}
    before = game.view()["investigators"][0]["stamina"]
    game.push("card-did effect=stamina n=-1")
    game.push("card-did effect=nothing")
    assert game.view()["investigators"][0]["stamina"] == before - 1 and not game.view()["question"]
    then = at_two_tasks(Reading.DEVOUR_ASKED)
    played = [str(c) for c in then.history] + ASSISTED
    then = Game.new(Setup(players=2, seed=3), PACKS, reading=Reading.DEVOUR_ASKED)
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, played)
        assert not any(e["type"] == "card_asked" and e.get("part") == "assisted" for e in store.events(game_id))
        again = replay_game(store, game_id, PACKS)
        assert again.reading >= Reading.DEVOUR_ASKED and again.view() == then.view()
    finally:
        store.close()


def test_a_monster_task_completed_in_a_devoured_attempt_is_asked_about() -> None:
    """:395 "If I manage to complete one or more tasks on a Monster marker ... before I fail to resolve the Adventure
    card I'm on, I still get the Monster marker": whether a devouring is that failure the text does not say, so the
    host tells whether the marker came off the card (then back to the cup with the devoured's, :409); until told its
    task keeps its dice. Told it stayed, its task is to do again."""
    for answer, left in (("card-did effect=monster-won", 2), ("card-did effect=nothing", 3)):
        game = at_two_tasks()
        game.push("monster adventure=1 need=peril:1")
        game.push("roll faces=peril,terror,terror,terror,terror,terror")  # the monster's task only
        assert done(game) == [False, False, True]
        game.push("roll faces=terror,terror,terror,terror,terror")
        events = game.push("card-did effect=stamina n=-9")
        said = " ".join(describe_events(events))
        assert "did the monster marker whose task was completed come off the card (:395" in said, said
        while game.view()["question"]["part"] != "monster_won":
            game.push("card-did effect=nothing")
        assert done(game) == [False, False, True]  # its dice stay until told
        taps = {a.args["effect"] for a in game.legal_actions() if a.name == "card-did"}
        assert taps == {"monster-won", "nothing"}
        game.push(answer)
        if answer.endswith("monster-won"):
            game.push("card-did effect=nothing")
        assert len(game.view()["adventures"][0]["tasks"]) == left and not any(done(game))
