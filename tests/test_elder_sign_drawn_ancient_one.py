"""The Ancient One the companion draws at random at setup (elder-sign-rules.txt:81 "You can either pick one randomly
or all players can agree on one") is named where a chosen one is: the setup checklist, the log's first line (a real
GameService on a real SQLite file), the terminal's state and the page's Game tab (published ``ancient_one_drawn``). A
stand-in the rulebook names (Nyarlathotep) is told by that name, and the mask monsters follow it (:82); a stand-in
the rulebook does not name is said plainly to be none of the deck's cards, and the table draws its own. The checklist's
adventures and investigators (:84) say which dealt cards are stand-ins the table replaces with its own."""

from __future__ import annotations

import random
from pathlib import Path

from test_elder_sign_stand_in_ancient import filled_in

from companion.games.elder_sign import sentences, terminal
from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.module import MODULE
from companion.games.elder_sign.packs import ElderSignPacks, load_packs
from companion.history import GameStore
from companion.service import GameService


def _seed_drawing(packs: ElderSignPacks, ancient: str) -> int:
    return next(seed for seed in range(50) if Game.new(Setup(players=2, seed=seed), packs).ancient.id == ancient)


def _published(game: Game) -> dict[str, object]:
    return {**game.view(), **MODULE.publish(game.view(), game)}


def _checklist(game: Game) -> dict[str, str]:
    items = sentences.setup_checklist(_published(game), sentences.Names.of_game(game), False)
    return {item["id"]: item["text"] for item in items}


def _first_line(tmp_path: Path, seed: int) -> str:
    service = GameService(GameStore(tmp_path / "g.sqlite3"), load_packs(), rng=random.Random(3))
    try:
        service.new_game({"rules": "elder-sign", "players": 2, "names": ["Ada", "Bo"], "seed": seed})
        return str(service.events_since(0)[0]["text"])
    finally:
        service.close()


def test_a_drawn_stand_in_the_rulebook_names_is_told_by_its_name(tmp_path: Path) -> None:
    packs = load_packs()
    seed = _seed_drawing(packs, "nyarlathotep")
    game = Game.new(Setup(players=2, seed=seed), packs)
    told = "The companion drew Nyarlathotep at random; its card is not filled in yet in your box."
    checklist = _checklist(game)
    assert checklist["ancient_one"].startswith(told + " Lay Nyarlathotep's card beside the clock")
    assert checklist["monsters"].endswith("with the mask monsters (Nyarlathotep is in play).")  # :82
    assert _published(game)["ancient_one_drawn"] == told  # the page's Game tab shows it
    assert told == terminal.state_text(_published(game)).splitlines()[2]
    assert _first_line(tmp_path, seed) == f"A new game starts: Ada and Bo against the Ancient One. {told}"


def test_a_drawn_stand_in_no_rulebook_names_is_said_to_be_none_of_the_decks(tmp_path: Path) -> None:
    packs = load_packs()
    seed = _seed_drawing(packs, "ancient_two")
    game = Game.new(Setup(players=2, seed=seed), packs)
    name = packs.ancient_ones["ancient_two"].name
    told = str(_published(game)["ancient_one_drawn"])
    assert told.startswith(
        f"The companion drew {name} at random: a stand-in in your box, not one of your Ancient One cards"
    )
    assert "draw one of your own Ancient One cards at random" in told
    checklist = _checklist(game)
    assert "Lay the card you drew beside the clock" in checklist["ancient_one"]
    assert "if the Ancient One card you drew is Nyarlathotep, else set those aside" in checklist["monsters"]
    # how the host tells the card's numbers: the numbers-first step
    assert "the Ancient One's doom track length and the Elder Signs it needs" in checklist["numbers"]
    assert told in _first_line(tmp_path, seed)


def test_a_picked_or_filled_in_ancient_one_needs_no_drawn_sentence(tmp_path: Path) -> None:
    packs = load_packs()
    picked = Game.new(Setup(players=2, ancient_one="nyarlathotep", seed=1), packs)
    assert _published(picked)["ancient_one_drawn"] == ""
    # the table picked Nyarlathotep by its name (a stand-in): known, so the one thing that applies (:82)
    assert _checklist(picked)["monsters"].endswith("with the mask monsters (Nyarlathotep is in play).")
    assert "if the Ancient One" not in _checklist(picked)["monsters"]
    other = Game.new(Setup(players=2, ancient_one="ancient_two", seed=1), packs)  # a stand-in naming no card
    assert "if the Ancient One is Nyarlathotep, else set those aside" in _checklist(other)["monsters"]
    real = filled_in(tmp_path)
    drawn = Game.new(Setup(players=2, seed=_seed_drawing(real, "nyarlathotep")), real)
    assert _published(drawn)["ancient_one_drawn"] == ""
    assert _checklist(drawn)["ancient_one"] == "Lay Nyarlathotep's card beside the clock (the companion chose it)."


def test_the_checklist_says_which_dealt_cards_are_stand_ins() -> None:
    """:84 the six adventures and the investigators: the Game tab names the filled-in ones; the stand-ins name no
    card, so the table deals its own there."""
    checklist = _checklist(Game.new(Setup(players=2, seed=1), load_packs()))
    assert "(the Game tab names them)" not in checklist["adventures"]
    assert "all six are not filled in yet, stand-ins that name no card of your deck" in checklist["adventures"]
    assert "deal one of its cards face up in each of those places" in checklist["adventures"]
    assert "the companion dealt every player a card not filled in yet" in checklist["investigators"]
    assert "takes one of your investigator cards at random" in checklist["investigators"]
    view = {"players": 2, "stand_ins": {"adventures": ["3"], "investigators": [1]}}
    names = sentences.Names(("Ada", "Bo"))
    partly = {i["id"]: i["text"] for i in sentences.setup_checklist(view, names)}
    assert "those in place 3 are not filled in yet" in partly["adventures"]
    assert "the companion dealt Bo a card not filled in yet" in partly["investigators"]
    assert "(the Game tab names the others)" in partly["investigators"]
    filled = {i["id"]: i["text"] for i in sentences.setup_checklist({"players": 2, "stand_ins": {}}, names)}
    assert (
        "(the Game tab names them)" in filled["adventures"] and "(the Game tab names them)" in filled["investigators"]
    )


def test_stopping_is_said_in_the_rules_texts_words() -> None:
    """:447 "I can either keep trying, using one of my dice, or I can admit defeat": the button, the page's words of a
    refusal and the hopeless odds say it alike (sentences.ADMIT_DEFEAT)."""
    assert sentences.action_label({"name": "give-up", "args": {}}) == "Admit defeat"
    assert (
        sentences.for_players("there is no roll under way to give up.") == "There is no roll under way to admit defeat."
    )
    hopeless = sentences.odds_words({"hopeless": True, "dice": 2, "name": "the Hedge Maze"})
    assert "Admit defeat to face the card's penalty." in hopeless[0]


def test_the_checklist_says_a_stand_in_mythos_card_is_none_of_the_decks() -> None:
    """:87 the first Mythos card: a stand-in the companion drew names no card, so the Game tab cannot show it; the
    table draws its own and tells what it does. A filled-in one is shown."""
    game = Game.new(Setup(players=2, seed=1), load_packs())
    assert _published(game)["stand_ins"]["mythos"]  # type: ignore[index]
    text = _checklist(game)["mythos"]
    assert "the Game tab shows it" not in text
    assert "a Mythos card not filled in yet, a stand-in that names no card of your deck" in text
    assert "play the card you drew and tell what it does when the Game tab asks" in text
    filled = {i["id"]: i["text"] for i in sentences.setup_checklist({"players": 2, "stand_ins": {}})}
    assert "(the Game tab shows it)" in filled["mythos"]
