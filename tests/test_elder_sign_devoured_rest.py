"""The active investigator devoured during their attempt (elder-sign-rules.txt:405-415): their card and marker go back
to the box (:407), the new investigator starts with full sanity and stamina and is played "on their next turn", and
"you still have to Advance the Clock on your turn" (:413). So what was still asked of the turn's cards (the rest of
the adventure's terror, the Mythos card's terror, :202) falls on no investigator, not on the new one; whether their
doom tokens, monsters or clock still happen the text does not say: one question to the host in their place, then the
end of the turn. A game stored before (the questions asked on) reopens as it was played."""

from __future__ import annotations

from pathlib import Path

import pytest
from games import numbers_copied, write_played_then
from test_elder_sign_task_choice import at_two_tasks

from companion.errors import IllegalCommand
from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import load_packs
from companion.games.elder_sign.sentences import describe_events
from companion.history import GameStore, replay_game

PACKS = load_packs()
# the lore task done, then a failed roll whose terror (the adventure's and the Mythos card's, both stand-ins) is asked;
# the host tells the adventure's: stamina -9 devours player 1's investigator
DEVOURED = [
    "roll faces=lore,peril,peril,peril,peril,peril",
    "roll faces=terror,peril,peril,peril,peril",
    "card-did effect=stamina n=-9",
]


def new_investigator(game: Game) -> dict[str, object]:
    return next(i for i in game.view()["investigators"] if i["player"] == 0 and not i["devoured"])


def test_one_question_of_what_is_left_then_the_clock() -> None:
    game = at_two_tasks()
    game.push(DEVOURED[0])
    game.push(DEVOURED[1])
    asked = [game.view()["question"]["kind"], game.view()["question"]["left"]]
    assert asked == ["adventure", 1]  # the adventure's terror, the Mythos card's after it
    events = game.push(DEVOURED[2])
    said = " ".join(describe_events(events))
    assert "falls on no investigator" in said and "doom tokens, monsters or clock" in said, said
    question = game.view()["question"]
    assert question["part"] == "devoured_rest" and question["left"] == 0 and question["player"] is None
    taps = {a.args["effect"] for a in game.legal_actions() if a.name == "card-did"}
    assert taps == {"doom", "monster", "clock", "nothing"}
    fresh = dict(new_investigator(game))
    with pytest.raises(IllegalCommand, match="falls on no investigator"):
        game.push("card-did effect=sanity n=-1")
    doom = game.view()["doom"]
    game.push("card-did effect=doom n=1")
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None and game.view()["doom"] == doom + 1
    assert new_investigator(game) == fresh  # nothing of the turn fell on the new investigator (:413)
    numbers_copied(game)  # the new investigator's card, not filled in yet: its numbers first
    offered = {a.name for a in game.legal_actions() if a.group in ("turn", "roll", "move", "entrance")}
    assert offered == {"end-turn"}  # :413 what is left of the turn: the clock
    clock = game.view()["clock"]
    game.push("end-turn")
    assert game.view()["clock"] != clock and game.view()["current_player"] == 1


def test_a_game_stored_before_reopens_as_it_was_played(tmp_path: Path) -> None:
    """Then: the adventure's terror and the Mythos card's were asked on after the devouring, and the Mythos card's
    sanity fell on the new investigator. The file reopens so (Reading.DEVOUR_REST)."""
    then = at_two_tasks(Reading.DEVOUR_REST)
    for text in DEVOURED:
        then.push(text)
    assert then.view()["question"]["part"] == "terror"
    answers = ["card-did effect=nothing", "card-did effect=sanity n=-1", "card-did effect=nothing"]
    played = [str(c) for c in then.history] + answers
    then = Game.new(Setup(players=2, seed=3), PACKS, reading=Reading.DEVOUR_REST)
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, played)
        assert not any(e.get("part") == "devoured_rest" for e in store.events(game_id))
        fell = new_investigator(then)
        assert fell["sanity"] == fell["max_sanity"] - 1  # as played then
        again = replay_game(store, game_id, PACKS)
        assert isinstance(again, Game) and again.reading >= Reading.DEVOUR_REST and again.view() == then.view()
    finally:
        store.close()


def test_a_penalty_asked_with_the_terror_is_withdrawn_too() -> None:
    """A roll whose dice left cannot complete the card fails it at once (:217), its penalty asked after the terror
    (:202 first): devoured by the terror, the penalty's questions go into the one question as well."""
    game = at_two_tasks()
    game.push("set-tasks adventure=1 tasks=inv:24 ordered=false")  # six dice's worth: one die lost, it cannot be met
    clues = next(i["clues"] for i in game.view()["investigators"] if i["active"])
    if clues:
        game.push(f"adjust player=1 clues=-{clues}")  # no clue to re-roll with: the card fails at once (:217)
    game.push("roll faces=terror,peril,peril,peril,peril,peril")
    parts = [game.view()["question"]["part"], game.view()["question"]["left"]]
    assert parts == ["terror", 2]  # the adventure's terror, the Mythos card's, the adventure's penalty
    game.push("card-did effect=stamina n=-9")
    assert game.view()["question"]["part"] == "devoured_rest" and game.view()["question"]["left"] == 0
    fresh = dict(new_investigator(game))
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None and new_investigator(game) == fresh


def rest_words(game: Game, events: list[dict[str, object]]) -> tuple[str, str]:
    """The one question's words as the log says them and as the page asks them (its card question)."""
    said = next(s for s in describe_events(events) if "falls on no investigator" in s)
    return said, str(MODULE.publish(game.view(), game)["card_question"])


@pytest.mark.parametrize(
    ("plays", "named", "not_named"),
    [
        # the adventure's terror told first (nothing more), the Mythos card's devours: the Mythos card's alone
        (
            ["roll faces=terror,peril,peril,peril,peril", "card-did effect=nothing"],
            ["the Mythos card's terror"],
            ["terror of", "Adventure", "place 1"],
        ),
        # a penalty of a roll given up, no terror: the adventure's penalty alone, no Mythos card
        (["give-up"], ["penalty of"], ["Mythos", "terror"]),
        # both terrors asked, the adventure's devours: both named, each once
        (["roll faces=terror,peril,peril,peril,peril"], ["terror of", "the Mythos card's terror"], ["penalty"]),
    ],
)
def test_the_one_question_names_what_it_stands_for(plays: list[str], named: list[str], not_named: list[str]) -> None:
    """The question names the cards whose rest it stands for, each once: not 'Mythos 3 and the Mythos card', nor a
    Mythos card where only the adventure's penalty was asked."""
    game = at_two_tasks()
    game.push("roll faces=lore,peril,peril,peril,peril,peril")
    for text in plays:
        game.push(text)
    events = game.push("card-did effect=stamina n=-9")
    assert game.view()["question"]["part"] == "devoured_rest"
    for words in rest_words(game, events):
        for name in named:
            assert words.count(name) == 1, (name, words)
        for name in not_named:
            assert name not in words, (name, words)


# a roll that completes nothing, then the end of the turn: the card fails as the turn ends (:217-219), its penalty
# asked (a stand-in), and told after the turn went on to the next player; its stamina devours player 1's investigator
PENALTY_AFTER_THE_TURN = ["roll faces=peril,peril,peril,peril,peril,peril", "end-turn", "card-did effect=stamina n=-9"]


def test_a_penalty_told_after_the_turn_ended_falls_on_no_new_investigator() -> None:
    """The penalty is of the devoured's turn (:219, faced before the clock), told once the turn had gone on: the rest
    of it falls on no investigator either; the new one starts with full sanity and stamina (:413)."""
    game = at_two_tasks()
    for text in PENALTY_AFTER_THE_TURN[:2]:
        game.push(text)
    assert game.view()["question"]["part"] == "penalty" and game.view()["current_player"] == 1
    events = game.push(PENALTY_AFTER_THE_TURN[2])
    question = game.view()["question"]
    assert question["part"] == "devoured_rest" and question["rest"] == ["adventure:penalty"], question
    said = " ".join(describe_events(events))
    assert "still ends with the clock" not in said, said  # that turn is over: its clock was advanced
    fresh = dict(new_investigator(game))
    with pytest.raises(IllegalCommand, match="falls on no investigator"):
        game.push("card-did effect=sanity n=-2")
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None and new_investigator(game) == fresh
    assert game.view()["current_player"] == 1  # the next player's turn goes on


def test_a_game_stored_before_with_the_penalty_on_the_new_investigator_reopens_so(tmp_path: Path) -> None:
    """Then (Reading.DEVOUR_AFTER): the penalty's rest asked on, its sanity on the new investigator; with a devouring
    in its turn before it, whose question was asked as now (Reading.DEVOUR_REST no longer holds after it)."""
    played = [*DEVOURED, "card-did effect=nothing"]
    then = at_two_tasks(Reading.DEVOUR_AFTER)
    for text in played:
        then.push(text)
    numbers = list(then.numbers_first())
    numbers_copied(then)
    entered = [str(c) for c in then.history][-len(numbers) :]
    # player 2's turn: to the adventure, a roll that completes nothing, the end of the turn; the penalty devours
    turn = ["end-turn", "move to=1", *PENALTY_AFTER_THE_TURN[:2]]
    commands = [str(c) for c in at_two_tasks().history] + played + entered + turn
    commands += ["card-did effect=stamina n=-9", "card-did effect=sanity n=-2", "card-did effect=nothing"]
    then = Game.new(Setup(players=2, seed=3), PACKS, reading=Reading.DEVOUR_AFTER)
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, commands)
        asked = [e for e in store.events(game_id) if e["type"] == "card_asked" and e.get("part") == "devoured_rest"]
        assert len(asked) == 1  # the first devouring's only
        second = next(i for i in then.view()["investigators"] if i["player"] == 1 and not i["devoured"])
        assert second["sanity"] == second["max_sanity"] - 2  # as played then: the penalty's sanity on the new one
        again = replay_game(store, game_id, PACKS)
        assert isinstance(again, Game) and again.reading >= Reading.DEVOUR_AFTER and again.view() == then.view()
    finally:
        store.close()
