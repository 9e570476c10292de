"""Never play a stand-in's numbers (docs/elder-sign.md, "Cards not filled in yet"): an Ancient One card not filled in
yet has no doom track length (elder-sign-rules.txt:419-427) nor Elder Sign limit (:245 "it depends on the Ancient
One's Elder Sign Limit") of its own, and an investigator card none of its sanity and stamina (:84), so the host copies
them from the card before the first turn (set-ancient-one, set-investigator): until then no turn is played, no
made-up track wakes the Ancient One, no made-up limit wins, no made-up sanity devours; the OLED shows no limit. A
history stored before, which played on with the stand-in's numbers, reopens as it was played."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from games import numbers_copied, write_played_then
from luma.core.device import dummy

from companion.errors import BadCommand, IllegalCommand
from companion.games.base import module_for
from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.odds import card_probability
from companion.games.elder_sign.packs import load_packs
from companion.games.elder_sign.sentences import percent
from companion.history import GameStore, replay_game
from companion.service import GameService
from hardware import screens

SETUP = Setup(players=2, seed=11, names=("Ada", "Bo"))
MODULE = module_for("elder-sign")


def new_game() -> Game:
    game = Game.new(SETUP, load_packs())
    game.push("card-did effect=nothing")  # the first Mythos card (a stand-in): told
    return game


def test_the_bundled_cards_are_stand_ins() -> None:
    game = new_game()
    assert game.ancient.placeholder and game.ancient_numbers_missing()
    assert game.numbers_first() == ["set-ancient-one", "set-investigator player=1", "set-investigator player=2"]


def test_no_turn_is_played_before_the_numbers_printed_on_the_cards_are_copied() -> None:
    game = new_game()
    before = game.view()
    for text in ("move to=1", "end-turn", "move to=entrance"):
        with pytest.raises(IllegalCommand, match=r"set-ancient-one doom=N elder_signs=M.*set-investigator player=1"):
            game.push(text)
        assert game.view() == before
    names = {a.name for a in game.legal_actions()}
    assert not names & {"move", "end-turn", "roll"} and {"set-ancient-one", "set-investigator"} <= names
    game.push("set-ancient-one doom=9 elder_signs=7")
    with pytest.raises(IllegalCommand, match="player 1's investigator's sanity, stamina and clue tokens") as refused:
        game.push("move to=1")
    assert "set-ancient-one" not in str(refused.value)
    game.push("set-investigator player=1 sanity=4 stamina=6 clues=1")
    game.push("set-investigator player=2 sanity=5 stamina=5 clues=0")
    assert game.numbers_first() == []
    game.push("move to=1")
    assert game.view()["doom_max"] == 9 and game.view()["elder_signs_needed"] == 7


def test_no_made_up_track_wakes_the_ancient_one_and_no_made_up_limit_wins() -> None:
    game = new_game()
    stand_in = game.ancient
    assert game.view()["doom_max"] is None and game.view()["elder_signs_needed"] is None
    game.push(f"doom n={stand_in.doom}")
    game.push(f"elder-signs n={stand_in.elder_signs}")
    view = game.view()
    assert not view["ancient_one_awake"] and game.outcome is None and view["doom"] == stand_in.doom
    # the card's own numbers count once copied: one more token fills a track one longer than the doom so far
    game.push(f"set-ancient-one doom={stand_in.doom + 1} elder_signs={stand_in.elder_signs + 2}")
    game.push("doom n=1")
    assert game.view()["ancient_one_awake"]


def test_no_made_up_sanity_devours_and_the_cards_numbers_judge_what_was_lost() -> None:
    game = new_game()
    printed = game.packs.investigators[game.view()["investigators"][0]["id"]].sanity
    events = game.push(f"adjust player=1 sanity=-{printed + 1}")
    assert "investigator_devoured" not in {e["type"] for e in events}
    assert not game.view()["investigators"][0]["devoured"]
    events = game.push("set-investigator player=1 sanity=2 stamina=5 clues=0")  # the card: 2; more than that was lost
    assert "investigator_devoured" in {e["type"] for e in events}


def test_the_checklist_page_terminal_and_end_card_show_no_made_up_limit() -> None:
    game = new_game()
    game.push("doom n=2")
    view = game.view()
    state = {**view, **MODULE.publish(view, game)}
    names = MODULE.names(game)
    items = {i["id"]: i["text"] for i in MODULE.setup_checklist(state, names, False)}
    assert "doom track length" in items["numbers"] and "Ada's sanity, stamina and clue tokens" in items["numbers"]
    assert state["numbers_first"] == game.numbers_first()
    line = MODULE.state_text(state).splitlines()[1]
    assert "doom 2 ·" in line and " of " not in line
    game.push("set-ancient-one doom=8 elder_signs=6")
    view = game.view()
    state = {**view, **MODULE.publish(view, game)}
    assert "doom 2 of 8" in MODULE.state_text(state)
    game.push("set-investigator player=1 sanity=4 stamina=4 clues=0")
    game.push("set-investigator player=2 sanity=4 stamina=4 clues=0")
    view = game.view()
    state = {**view, **MODULE.publish(view, game)}
    assert "numbers" not in {i["id"] for i in MODULE.setup_checklist(state, names, False)}


def test_the_oled_shows_the_told_limit_or_none() -> None:
    def drawn(state: dict[str, object]) -> bytes:
        device = dummy(width=128, height=64, mode="1")
        device.display(screens.elder_sign_screen({"rules": "elder-sign", "clock": "III", "doom": 2, **state}))
        return bytes(device.image.tobytes())

    # the view tells no stand-in's limit (Game.doom_max): the screen draws what the view tells, the count alone
    view = new_game().view()
    assert view["doom_max"] is None and view["elder_signs_needed"] is None
    none_told = drawn({"doom_max": view["doom_max"], "elder_signs_needed": view["elder_signs_needed"]})
    told = drawn({"doom_max": 12, "elder_signs_needed": 10})
    assert none_told != told


def test_a_history_played_with_the_stand_ins_numbers_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file as the companion of before wrote it: turns played with no numbers copied, the stand-in's doom track
    filled by card effects and the Ancient One awake at its made-up length. It opens to the same state, and what is
    played after it plays as the companion plays now."""
    then = Game.new(SETUP, load_packs(), reading=Reading.NUMBERS)
    commands = ["card-did effect=nothing", "end-turn", "end-turn", f"doom n={then.ancient.doom}"]
    now = Game.new(SETUP, load_packs())
    now.push(commands[0])
    with pytest.raises(IllegalCommand):
        now.push(commands[1])  # now the first end-turn waits for the numbers
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, commands)
        assert then.view()["ancient_one_awake"]
        game = replay_game(store, game_id, load_packs())
        assert isinstance(game, Game) and game.reading >= Reading.NUMBERS
        assert game.view() == then.view() and game.history == then.history
    finally:
        store.close()
    # played after reopening: the numbers are asked first, the Ancient One's too (awake at the stand-in's track, it
    # still has an Elder Sign limit that wins, :461, and a track that caps the doom, :459)
    assert game.numbers_first() == ["set-ancient-one", "set-investigator player=1", "set-investigator player=2"]
    with pytest.raises(IllegalCommand, match="set-investigator player=1"):
        game.push("end-turn")


def test_when_the_dice_left_cannot_complete_the_card_the_odds_say_it_fails_and_offer_no_roll() -> None:
    """:217 "If I can't complete any of the remaining tasks on the Adventure card with the dice I have, I
    automatically fail": two green dice left cannot make 8 investigation (3 at most each, :171), so the chance is
    exactly 0 and the companion says the attempt fails instead of offering "Roll for me" at 0.0 %."""
    game = new_game()
    numbers_copied(game)
    game.push("move to=1")
    game.push("set-tasks adventure=1 tasks=inv:8 ordered=false")
    names = MODULE.names(game)
    while len(game.next_roll_dice()) > 2:
        view = game.view()
        state = {**view, **MODULE.publish(view, game)}
        assert not state["card_odds"]["hopeless"] and state["odds_words"][0].startswith('"Roll for me"')
        game.push("roll faces=" + ",".join("peril" for _ in game.next_roll_dice()))
    view = game.view()
    state = {**view, **MODULE.publish(view, game)}
    assert view["attempt"] is not None and state["card_odds"]["probability"] == 0
    assert state["card_odds"]["hopeless"]
    words = state["odds_words"]
    assert words == [
        f"No roll of the 2 dice left can complete {names.adventure('1')}: the attempt fails. Admit defeat to "
        "face the card's penalty."
    ]
    assert "give-up" in {a.name for a in game.legal_actions()}


def test_when_only_a_clue_can_still_complete_the_card_the_odds_say_so_and_its_chance() -> None:
    """The same card with a clue held: :357-361 "I can use one of my Clue tokens to re-roll the dice in my dice pool",
    the failed roll's 3 dice, none set aside, so the attempt has not failed: the odds say the clue can still be spent
    and its chance (3 green dice making 8 investigation, with the best play after), not "the attempt fails"."""
    game = new_game()
    numbers_copied(game)
    game.push("adjust player=1 clues=1")
    game.push("move to=1")
    game.push("set-tasks adventure=1 tasks=inv:8 ordered=false")
    names = MODULE.names(game)
    while len(game.next_roll_dice()) > 2:
        game.push("roll faces=" + ",".join("peril" for _ in game.next_roll_dice()))
    view = game.view()
    state = {**view, **MODULE.publish(view, game)}
    odds = state["card_odds"]
    assert view["attempt"] is not None and odds["hopeless"] and odds["roll_for_me"] == 0
    rerolled = card_probability(["inv:8"], False, 3, 0, 0, None, 1, 0)  # the 3 dice again, the focus, no clue left
    assert state["odds_words"] == [
        f"No roll of the 2 dice left can complete {names.adventure('1')}, but Ada still holds a clue: spent, it rolls "
        f"the last roll's 3 dice again, {percent(rerolled)} to complete it with the best play. Else admit defeat "
        "to face the card's penalty."
    ]
    again = game.odds_question(clue=True)
    assert again is not None and again["green"] == len(game.next_roll_dice(clue=True)) == 3 and again["clues"] == 0
    assert odds["clue"] == odds["probability"] == card_probability(**again) == rerolled > 0
    assert {"clue", "give-up"} <= {a.name for a in game.legal_actions()}


def test_when_not_even_the_clues_reroll_can_complete_the_card_the_odds_say_the_attempt_fails() -> None:
    """3 green dice make 9 investigation at most (:171): a clue rolling them again cannot make 10 either."""
    game = new_game()
    numbers_copied(game)
    game.push("adjust player=1 clues=1")
    game.push("move to=1")
    game.push("set-tasks adventure=1 tasks=inv:10 ordered=false")
    while len(game.next_roll_dice()) > 2:
        game.push("roll faces=" + ",".join("peril" for _ in game.next_roll_dice()))
    view = game.view()
    state = {**view, **MODULE.publish(view, game)}
    assert state["card_odds"]["clue"] == 0 and state["card_odds"]["hopeless"]
    assert state["odds_words"][0].startswith(
        f"No roll of the 2 dice left can complete {MODULE.names(game).adventure('1')}, nor can a clue rolling the last "
        "roll's 3 dice again: the attempt fails."
    )


def test_the_clue_tokens_printed_on_an_investigator_card_are_asked_too() -> None:
    """:84 "we get our Investigator markers, Stamina and Sanity tokens, and any item cards and Clue tokens listed on
    our cards": a stand-in's clue tokens are made up like its sanity, so set-investigator without clues= is refused
    with what to type, and nothing changes; the card's clue count is played, not the stand-in's."""
    game = new_game()
    player = game.view()["investigators"][0]
    stand_in_clues = game.packs.investigators[player["id"]].clues
    before = game.view()
    with pytest.raises(BadCommand, match=r"clues=C.*set-investigator player=1 sanity=4 stamina=6 clues=C"):
        game.push("set-investigator player=1 sanity=4 stamina=6")
    assert game.view() == before and game.numbers_first()[1] == "set-investigator player=1"
    offered = next(a for a in game.legal_actions() if a.name == "set-investigator" and a.args["player"] == "1")
    assert "clues" in offered.asks
    printed = stand_in_clues + 2  # the card on the table lists other clue tokens than the stand-in
    game.push(f"set-investigator player=1 sanity=4 stamina=6 clues={printed}")
    assert game.view()["investigators"][0]["clues"] == printed


def test_a_history_whose_investigator_took_the_stand_ins_clues_reopens_as_it_was_played(tmp_path: Path) -> None:
    """A file as the companion of before wrote it: set-investigator without clues= kept the stand-in's clue tokens.
    It opens to the same state; a set-investigator played after reopening is asked the card's clues."""
    then = Game.new(SETUP, load_packs(), reading=Reading.LENIENT)
    commands = ["card-did effect=nothing", "set-investigator player=1 sanity=4 stamina=6"]
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, then, commands)
        game = replay_game(store, game_id, load_packs())
        assert isinstance(game, Game) and game.reading is Reading.LENIENT
        assert game.view() == then.view() and game.history == then.history
    finally:
        store.close()
    card = game.packs.investigators[game.view()["investigators"][0]["id"]]
    assert game.view()["investigators"][0]["clues"] == card.clues  # the stand-in's, as it was played
    with pytest.raises(BadCommand, match="add clues=C"):
        game.push("set-investigator player=2 sanity=5 stamina=5")


@pytest.mark.parametrize(("doom", "length"), [(3, 3), (5, 3)])
def test_a_doom_track_copied_full_wakes_the_ancient_one_at_once(doom: int, length: int) -> None:
    """:427 "As soon as that Doom token lands on the last spot of the Doom track, ... the Ancient One is waking up":
    the card's track, copied when the table's doom tokens fill it already, wakes it then (not refused); the track
    holds its spaces (:419), no more."""
    game = new_game()
    game.push(f"doom n={doom}")
    events = game.push(f"set-ancient-one doom={length} elder_signs=10")
    view = game.view()
    assert "ancient_one_awakens" in [e["type"] for e in events]
    assert view["ancient_one_awake"] and view["doom"] == length and view["doom_max"] == length
    assert {i["place"] for i in view["investigators"]} == {"ancient-one"} and game.outcome is None


@pytest.mark.parametrize("doom", [0, 4])
def test_an_elder_sign_limit_copied_reached_wins_at_once(doom: int) -> None:
    """:245 "If you meet or exceed that number, victory is yours!": the card's limit, copied when the table has as many
    Elder Signs already, wins then; with the track full too, the Elder Signs (the rewards, taken first, :427) win."""
    game = new_game()
    game.push("elder-signs n=4")
    if doom:
        game.push(f"doom n={doom}")
    game.push(f"set-ancient-one doom={doom or 9} elder_signs=4")
    assert game.outcome is not None and game.outcome.result == "won"
    assert not game.view()["ancient_one_awake"]


def test_a_mythos_card_of_the_clock_step_told_later_leaves_the_next_player_the_attack() -> None:
    """:309-311 the Mythos card is drawn in the Advance the Clock step, :323 "Once I've finished the steps for
    advancing the Clock, it's the next player's turn"; :433 only an awakening during the active player's turn sends
    them on to the clock. A stand-in Mythos card told after the turn passed, whose doom fills the track, woke the
    Ancient One in that clock step: the next player's turn begins with the attack on it (:435-439)."""
    game = new_game()
    numbers = [c for c in game.numbers_first() if c != "set-ancient-one"]
    game.push("set-ancient-one doom=3 elder_signs=10")
    for command in numbers:
        game.push(f"{command} sanity=5 stamina=5 clues=0")
    game.push("doom n=2")
    while game.view()["midnights"] == 0:
        game.push("end-turn")
    game.push("card-did effect=nothing")  # the At Midnight half of the Mythos card in play (a stand-in)
    assert game.view()["question"]["part"] == "immediate" and game.view()["current_player"] == 0
    events = game.push("card-did effect=doom n=1")
    assert "ancient_one_awakens" in [e["type"] for e in events]
    entry = next(a for a in game.legal_actions() if a.name == "set-tasks" and a.args["adventure"] == "ancient-one")
    assert entry.group == "roll"  # the attack is still to come: its combat task first (a stand-in's)
    game.push("card-did effect=nothing")
    game.push("set-tasks adventure=ancient-one tasks=inv:2")
    assert "roll" in {a.name for a in game.legal_actions()}
    game.push("roll faces=inv3,inv1,inv1,inv1,inv1,inv1")
    assert game.view()["doom"] == 2  # a blow: a doom token off (:439)


def test_the_setup_mythos_card_waking_the_ancient_one_leaves_the_first_player_the_attack() -> None:
    """:87 the Mythos card drawn at setup, before the first turn: the first player still attacks (:435-439)."""
    game = Game.new(SETUP, load_packs())
    game.push("set-ancient-one doom=1 elder_signs=10")
    game.push("card-did effect=doom n=1")  # the setup's Mythos card (a stand-in) put a doom token down
    assert game.view()["ancient_one_awake"]
    entry = next(a for a in game.legal_actions() if a.name == "set-tasks" and a.args["adventure"] == "ancient-one")
    assert entry.group == "roll"


def test_whom_a_mythos_cards_sanity_or_stamina_hits_is_the_hosts_to_say() -> None:
    """:321 says "All of us investigators will lose 2 Stamina" only of a lingering half; of the immediate half (:315)
    the text says no one: for a card not filled in yet the host says whom it hits, every investigator or one."""
    game = Game.new(SETUP, load_packs())
    assert game.view()["question"]["part"] == "immediate"
    offered = {a.args.get("player") for a in game.legal_actions() if a.args.get("effect") == "stamina"}
    assert offered == {"all", "1", "2"}
    labels = {MODULE.action_label(a.to_dict(), MODULE.names(game), None) for a in game.legal_actions()}
    assert {"Stamina, everyone", "Stamina, Bo"} <= labels, labels
    before = game.view()
    with pytest.raises(BadCommand, match="say whom the Mythos card's stamina hits.*player=all"):
        game.push("card-did effect=stamina n=-1")
    assert game.view() == before
    stamina = [i["stamina"] for i in before["investigators"]]
    game.push("card-did effect=stamina n=-1 player=2")  # the real card hit Bo only
    assert [i["stamina"] for i in game.view()["investigators"]] == [stamina[0], stamina[1] - 1]


def test_an_old_game_reopened_awake_takes_the_ancient_ones_numbers_and_its_limit_wins(tmp_path: Path) -> None:
    """:461 "we have collected a number of Elder Signs equal to or greater than the Elder Sign Limit printed on the
    Ancient One card": a file of before the numbers were asked (Reading.NUMBERS) whose Ancient One woke at the
    stand-in's track; reopened, the host enters the card's numbers (the track holds no more than its spaces), and the
    Elder Signs at its limit win the game."""
    then = Game.new(SETUP, load_packs(), reading=Reading.NUMBERS)
    commands = ["card-did effect=nothing", "end-turn", "end-turn", f"doom n={then.ancient.doom}"]
    store = GameStore(tmp_path / "then.sqlite")
    service = GameService(store, load_packs(), rng=random.Random(1))
    try:
        game_id = write_played_then(store, then, commands)
        state = service.load_game(game_id)
        assert state["ancient_one_awake"] and state["elder_signs_needed"] is None
        assert "set-ancient-one" in {a["name"] for a in state["legal"]}
        state = service.do("set-ancient-one", {"doom": str(then.ancient.doom - 2), "elder_signs": "3"}).state
        assert (state["doom"], state["doom_max"], state["elder_signs_needed"]) == (then.ancient.doom - 2,) * 2 + (3,)
        numbers_copied(service._game, service)
        state = service.do("elder-signs", {"n": "3"}).state
        assert state["outcome"] == "won", state["outcome_reason"]
        assert replay_game(store, game_id, load_packs()).view()["outcome"] == "won"  # the file reopens so
    finally:
        service.close()


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("doom=0 elder_signs=", ("doom=0 is out of range", "elder_signs= is empty")),
        ("doom=x elder_signs=31", ("doom='x' is no whole number", "elder_signs=31 is out of range")),
    ],
)
def test_the_ancient_ones_numbers_refused_name_every_one_that_does_not_fit(typed: str, named: tuple[str, str]) -> None:
    """Both numbers of the Ancient One's card (:245, :419-427) are checked at once: the refusal names each that does
    not fit, not the first alone; nothing is entered."""
    game = new_game()
    with pytest.raises(BadCommand) as refused:
        game.push(f"set-ancient-one {typed}")
    for words in named:
        assert words in str(refused.value)
    assert "set-ancient-one" in game.numbers_first()
