"""A filled-in Mythos card's items (and its sanity, stamina and clues) fall on whom the card says: its pack entry's
`who` ("each", "active" or "ask"), required once the half gives or takes items, since the rules text names no one they
go to (elder-sign-rules.txt:315-319 name only a Doom token and a Monster marker of the halves; "All of us
investigators" is said of a lingering half's stamina only, :321). Where the card leaves it to the table ("ask") the
companion plays the rest of the half and asks the host whom; a bad pack is refused naming the file, the card and the
field."""

from __future__ import annotations

import pytest
from test_elder_sign_engine import ADVENTURES, ANCIENT, INVESTIGATORS, WORLDS

from companion.errors import IllegalCommand
from companion.games.elder_sign.engine import Game, Setup
from companion.games.elder_sign.packs import ElderSignPacks, PackError, parse_pack_texts
from companion.games.elder_sign.sentences import Names, describe_event

# Investigator 1's card lists one Common Item (:84), Investigator 2's none
HOLDING = INVESTIGATORS.replace('name = "Investigator 1"\n', 'name = "Investigator 1"\ncommon_items = 1\n')


def packs(immediate: str) -> ElderSignPacks:
    """Three Mythos cards alike, whose top half is `immediate` (the one drawn at setup, :87, plays it)."""
    mythos = "\n".join(
        f'[[mythos]]\nid = "w{i}"\nname = "Whom {i}"\nimmediate = {{ {immediate} }}\nlingering = "x"\n'
        for i in range(1, 4)
    )
    return parse_pack_texts(
        {
            "ancient_ones.toml": ANCIENT,
            "investigators.toml": HOLDING,
            "adventures.toml": ADVENTURES,
            "other_worlds.toml": WORLDS,
            "mythos.toml": mythos,
        }
    )


def start(immediate: str) -> Game:
    return Game.new(Setup(players=2, investigators=("inv1", "inv2"), seed=1), packs(immediate))


def common(game: Game) -> list[int]:
    """The Common Items each player's investigator holds, in player order."""
    held = sorted(game.view()["investigators"], key=lambda inv: inv["player"])
    return [inv["items"]["common-items"] for inv in held]


def test_the_active_investigators_item_goes_to_the_active_investigator_only() -> None:
    game = start('common_items = 1, who = "active"')
    assert game.view()["current_player"] == 0
    assert common(game) == [2, 0]  # player 1 held one (their card's) and drew one; player 2 drew none


def test_an_item_taken_from_the_active_investigator_comes_off_theirs_only() -> None:
    game = start('common_items = -1, who = "active"')
    assert common(game) == [0, 0]


def test_each_investigators_item_goes_to_every_investigator() -> None:
    game = start('common_items = 1, who = "each"')
    assert common(game) == [2, 1]


def test_a_card_that_leaves_whom_to_the_table_asks_the_host_and_plays_the_rest() -> None:
    game = start('doom = 1, common_items = 1, who = "ask"')
    view = game.view()
    assert view["doom"] == 1 and common(game) == [1, 0]  # the doom token played, the item not yet
    question = view["question"]
    assert (question["kind"], question["part"], question["whom"]) == ("mythos", "immediate", [["common-items", 1]])
    asked = next(e for e in game.setup_events if e["type"] == "card_asked")
    words = describe_event(asked, Names(("Ann", "Bo")))
    name = game.packs.mythos[question["card"]].name
    assert f"{name} gave 1 Common Item when it was drawn" in words and "leaves to the table whom" in words, words
    assert "not filled in" not in words, words
    taps = {(a.args["effect"], a.args.get("player")) for a in game.legal_actions() if a.name == "card-did"}
    assert taps == {("common-items", "all"), ("common-items", "1"), ("common-items", "2"), ("nothing", None)}
    with pytest.raises(IllegalCommand) as refused:
        game.push("card-did effect=doom n=1")  # the card is filled in: its doom token was played already
    assert "tell only that" in str(refused.value) and "Common Items" in str(refused.value), refused.value
    game.push("card-did effect=common-items player=2")
    assert common(game) == [1, 1] and game.view()["doom"] == 1
    game.push("card-did effect=nothing")
    assert game.view()["question"] is None


@pytest.mark.parametrize(
    ("immediate", "words"),
    [
        ("spells = 1", 'field "immediate" gives or takes items'),
        ('unique_items = -1, who = "someone"', "must be one of 'each', 'active', 'ask', not 'someone'"),
    ],
)
def test_a_mythos_card_whose_items_say_no_one_is_refused_naming_the_field(immediate: str, words: str) -> None:
    with pytest.raises(PackError) as bad:
        packs(immediate)
    assert "mythos.toml" in str(bad.value) and '"w1"' in str(bad.value) and words in str(bad.value), bad.value


def test_who_is_a_mythos_cards_field_only() -> None:
    adventures = ADVENTURES.replace("reward = { clues = 1 }", 'reward = { clues = 1, who = "each" }', 1)
    assert adventures != ADVENTURES
    texts = {"ancient_ones.toml": ANCIENT, "investigators.toml": INVESTIGATORS, "adventures.toml": adventures}
    with pytest.raises(PackError) as bad:
        parse_pack_texts({**texts, "other_worlds.toml": WORLDS, "mythos.toml": ""})
    assert "has an unknown field 'who'" in str(bad.value), bad.value
