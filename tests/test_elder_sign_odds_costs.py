"""The odds of a task whose cost the active investigator cannot pay (elder-sign-rules.txt:189 "I can't finish a task if
the requirements will make my Sanity or Stamina lower than 0"): the engine refuses to complete it and the odds give it
no chance, by one check (engine.unpaid), and say why in words (sentences.unpaid_words)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from games import numbers_copied
from test_elder_sign_odds_held import published

from companion.errors import IllegalCommand
from companion.games.base import module_for
from companion.games.elder_sign.dice import Need
from companion.games.elder_sign.engine import Game, Setup, Unpaid, card_unpaid, unpaid
from companion.games.elder_sign.odds import card_probability, task_probability
from companion.games.elder_sign.packs import TaskCard, load_packs
from companion.games.elder_sign.sentences import spell_dice_words, unpaid_words
from companion.games.skeptics.packs import load_packs as load_skeptics
from companion.history import GameStore
from companion.service import GameService

MODULE = module_for("elder-sign")


def _at_costly_card(sanity: int, tasks: str = "inv:1,sanity:-3;peril:1", ordered: str = "false") -> Game:
    """Ada at adventure 1, its tasks entered as `tasks`, with `sanity` left."""
    game = Game.new(Setup(players=2, seed=11, names=("Ada", "Bo")), load_packs())
    game.push("card-did effect=nothing")
    numbers_copied(game)
    game.push(f"adjust player=1 sanity={sanity - game.view()['investigators'][0]['sanity']}")
    game.push("move to=1")
    game.push(f"set-tasks adventure=1 tasks={tasks} ordered={ordered}")
    return game


def test_one_check_says_what_a_task_costs_that_cannot_be_paid() -> None:
    """:189 "lower than 0": paying to exactly 0 is allowed; sanity is checked before stamina."""
    costly = TaskCard(Need(inv=1), sanity=-3, stamina=-1)
    assert unpaid(3, 1, costly) is None
    assert unpaid(2, 5, costly, 4) == Unpaid("sanity", 3, 2, 4)
    assert unpaid(5, 0, costly) == Unpaid("stamina", 1, 0)
    # each alone can be paid, not both: the tasks left together fall short, whatever order they are done in
    two = [(1, TaskCard(Need(inv=1), sanity=-2)), (2, TaskCard(Need(peril=1), sanity=-2))]
    assert card_unpaid(3, 3, two, ordered=False) == (Unpaid("sanity", 4, 3), False)
    assert card_unpaid(4, 3, two, ordered=True) == (None, True)
    # a task that gives sanity back: paid first it pays for the other, so the order matters
    back = [(1, TaskCard(Need(inv=1), sanity=-2)), (2, TaskCard(Need(peril=1), sanity=2))]
    assert card_unpaid(1, 3, back, ordered=False) == (None, False)
    assert card_unpaid(1, 3, back, ordered=True) == (Unpaid("sanity", 2, 1, 1), False)


def test_a_task_the_investigator_cannot_pay_has_no_chance_and_the_words_say_why() -> None:
    """A fresh player saw 75-99 % at a card whose first task cost more sanity than the investigator had: the engine
    never completes that task (:189), so the card cannot be completed and its chance is 0, said with the reason."""
    game = _at_costly_card(sanity=2)
    with pytest.raises(IllegalCommand, match="below 0"):
        game.push("roll faces=inv3,peril,lore,lore,lore,lore task=1")
    state = published(game)
    odds = state["card_odds"]
    assert odds["probability"] == 0 and odds["roll_for_me"] == 0 and odds["hopeless"]
    costly = next(t for t in odds["tasks"] if t["task"] == 1)
    assert costly["probability"] == 0 and costly["unpaid"] == {"what": "sanity", "cost": 3, "has": 2, "task": 1}
    other = next(t for t in odds["tasks"] if t["task"] == 2)
    assert other["probability"] > 0 and "unpaid" not in other  # the peril task alone still has its chance
    name = MODULE.names(game).adventure("1")
    assert state["odds_words"] == [
        f"Ada cannot pay task 1's 3 sanity: Ada has 2, so no roll can complete {name}. Admit defeat to face the card's "
        "penalty."
    ]
    assert "give-up" in {a.name for a in game.legal_actions()}


def test_with_the_cost_in_hand_the_chance_is_the_dice_ones() -> None:
    """Exactly the cost left (:189 "lower than 0": 0 is not): the task may be done, and the chance is the dice's."""
    game = _at_costly_card(sanity=3)
    odds = published(game)["card_odds"]
    q = game.odds_question()
    assert q is not None and odds["unpaid"] is None and not odds["hopeless"]
    assert odds["roll_for_me"] == card_probability(q["tasks"], q["ordered"], q["green"], 0, 0, None, 0, 0, q["held"])
    assert all("unpaid" not in t and t["probability"] > 0 for t in odds["tasks"])


def test_tasks_each_paid_alone_but_not_together_leave_the_card_no_chance() -> None:
    game = _at_costly_card(sanity=3, tasks="inv:1,sanity:-2;peril:1,sanity:-2")
    state = published(game)
    odds = state["card_odds"]
    assert odds["probability"] == 0 and odds["hopeless"] and all(t["probability"] > 0 for t in odds["tasks"])
    assert state["odds_words"][0].startswith("Ada cannot pay the 4 sanity the tasks left cost together: Ada has 3,")


def test_an_order_that_decides_whether_the_costs_are_paid_tells_no_card_chance() -> None:
    """A task giving sanity back (a card entered so): done first it pays for the other, after it not. The odds do not
    follow the order the tasks are done in, so they tell each task alone, not the card's chance."""
    game = _at_costly_card(sanity=1, tasks="inv:1,sanity:-2;peril:1,sanity:2")
    state = published(game)
    odds = state["card_odds"]
    assert odds["probability"] is None and odds["roll_for_me"] is None and not odds["hopeless"]
    assert state["odds_words"][0].startswith("Each task alone — ")


def test_costs_no_order_of_an_ordered_card_can_pay_are_said_so() -> None:
    """Each task alone can be paid and so can their total, but not in the card's order (:281-283): the words say it."""
    tasks = [
        (1, TaskCard(Need(inv=1), sanity=-1)),
        (2, TaskCard(Need(lore=1), sanity=-1)),
        (3, TaskCard(Need(peril=1), sanity=2)),
    ]
    short, every = card_unpaid(1, 0, tasks, ordered=True)
    assert short == Unpaid("sanity", None, 1) and not every
    assert card_unpaid(1, 0, tasks, ordered=False) == (None, False)
    assert (
        unpaid_words("Ada", short.to_dict())
        == "Ada cannot pay the costs of the tasks left in any order the card allows them"
    )


def lore_on_a_spell_then_a_costly_card(service: GameService) -> Game:
    """The first player, a Spell held, completes adventure 1 and puts a lore die its first roll left on the Spell
    (:345); it stays there (:347-349) into the second player's turn, who has 3 sanity at adventure 2, whose task 1
    costs 5 (:189)."""
    game = service._game
    assert isinstance(game, Game)
    numbers_copied(game, service)
    service.do("items", {"player": "1", "common": "0", "unique": "0", "spells": "1"})
    service.do("move", {"to": "1"})
    service.do("set-tasks", {"adventure": "1", "tasks": "lore:1;peril:1", "ordered": "false"})
    assert service.state()["spell_words"] is None  # no die on a Spell card yet
    service.do("roll", {"faces": "lore,lore," + ",".join(["peril"] * (game.dice_to_roll() - 2)), "task": "1"})
    # the next roll completes the card, a lore die the first one left put on the Spell (:345)
    service.do("roll", {"faces": ",".join(["peril"] * (game.dice_to_roll() - 1)), "spell": "lore", "task": "2"})
    while game.view().get("question"):
        service.do("card-did", {"effect": "nothing"})
    service.do("end-turn")
    assert game.view()["spell_dice"] == ["lore"]  # the die stays on the Spell card into the next turn
    second = next(i for i in game.view()["investigators"] if i["active"])
    service.do("adjust", {"player": "2", "sanity": str(3 - second["sanity"])})
    service.do("move", {"to": "2"})
    service.do("set-tasks", {"adventure": "2", "tasks": "inv:1,sanity:-5;peril:1", "ordered": "false"})
    return game


def test_with_a_die_on_a_spell_card_from_an_earlier_turn_the_odds_and_the_cost_words_show(tmp_path: Path) -> None:
    """A fresh player saw no odds and no "cannot pay" words at a card whose task cost more sanity than Anna had,
    while a lore die Ben put on a Spell card (:345) stayed on it from his turn (:347-349): the die held on the Spell
    made the odds' "Roll for me" (no die held by it) refuse the question, and no odds were shown at all. The die on
    the Spell counts for the next roll, so the odds show it, and the task Anna cannot pay has no chance (:189)."""
    service = GameService(GameStore(tmp_path / "games.sqlite"), load_skeptics(), rng=random.Random(4))
    try:
        service.new_game({"rules": "elder-sign", "players": 2, "seed": 3, "names": ["Ben", "Anna"]})
        game = lore_on_a_spell_then_a_costly_card(service)
        q = game.odds_question()
        assert q is not None and q["held"] == ["lore"]
        state = service.state()
        # the roll card names the die on the Spell card before the roll: it is not thrown (:345-349)
        assert state["spell_words"] == spell_dice_words(["lore"]) and "lore die is on a Spell card" in str(
            state["spell_words"]
        )
        assert len(state["next_dice"]) == q["green"] == 5  # six green dice, one of them on the Spell card
        odds = state["card_odds"]
        assert odds is not None and odds["roll_for_me"] == 0 and odds["hopeless"]
        costly = next(t for t in odds["tasks"] if t["task"] == 1)
        assert costly["unpaid"] == {"what": "sanity", "cost": 5, "has": 3, "task": 1}
        other = next(t for t in odds["tasks"] if t["task"] == 2)
        assert other["probability"] == task_probability("peril:1", q["green"], 0, 0, None, q["holds"], 0, ["lore"])
        name = MODULE.names(game).adventure("2")
        assert state["odds_words"][0] == (
            f"Anna cannot pay task 1's 5 sanity: Anna has 3, so no roll can complete {name}. Admit defeat to face the "
            "card's penalty."
        )
        service.do("adjust", {"player": "2", "sanity": "2"})  # 5 left: the cost can be paid (:189, 0 is allowed)
        odds = service.state()["card_odds"]
        # "Roll for me" holds no die of its own; the lore on the Spell card is held for its roll all the same
        plain = card_probability(q["tasks"], False, q["green"], 0, 0, None, 1, 0, ["lore"])
        assert odds["unpaid"] is None and odds["roll_for_me"] == plain > 0
    finally:
        service.close()
