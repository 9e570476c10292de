"""A Skeptics ghost card not filled in yet (every bundled one: the rulebook prints no card's icon sets): the companion
plays none of the stand-in's icon sets, séance symbols or count of sets, and asks the host what the real card shows.
Each test quotes the rulebook's line (../shared/rules/skeptics-rulebook.txt) and failed on the code before it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from games import BUNDLED, PACKS, types

from companion.errors import BadCommand, IllegalCommand
from companion.games.skeptics.engine import Game, Setup
from companion.games.skeptics.module import MODULE
from companion.games.skeptics.sentences import Names, action_label, describe_event
from companion.history import GameStore, replay_game


def stand_in(ghost: str = "poltergeist", packs: object = BUNDLED) -> Game:
    return Game.new(Setup(players=2, board="asylum", ghost=ghost, seed=7), packs)  # type: ignore[arg-type]


def ghost_here(game: Game) -> list[dict[str, object]]:
    game.push("end-round")
    return game.push("ghost-at room=3")


def test_a_prove_without_the_cards_icons_is_refused_and_the_stand_ins_timer_gives_no_token() -> None:
    """Action 6: Prove: "Players must match the icons in a chosen set"; Red Icons: Timers: "If this icon is shown in an
    icon set, the team gets a Timer Token for each unsuccessful roll." The Poltergeist's stand-in set 3 has a made-up
    timer: without the card's icons the prove is refused, so no roll for it ever gives a timer token."""
    game = stand_in()
    assert "timer" in BUNDLED.ghosts["poltergeist"].icon_sets[2]
    ghost_here(game)
    with pytest.raises(BadCommand, match="not filled in yet.*need="):
        game.push("attempt action=prove set=3")
    game.push("attempt action=prove set=3 need=eye:1,camera:1")  # the card on the table: no red icon
    events = game.push("roll faces=cobweb,cobweb,cobweb")
    assert "timer_added" not in types(events) and game.view()["timers"] == 0
    offered = [a for a in game.legal_actions() if a.name == "attempt" and a.args.get("action") == "prove"]
    # the page's sheet asks for the icons, but not again for set 3, whose icons the table gave
    assert offered and all(a.asks == (() if a.args["set"] == "3" else ("need",)) for a in offered)
    assert all(":" not in action_label(a.to_dict(), Names.of_game(game)) for a in offered)  # no made-up icons named


def test_the_icons_the_table_gave_for_a_set_are_not_asked_again_on_the_next_attempt() -> None:
    """Action 6: Prove: "Players must match the icons in a chosen set": the set printed on the card on the table is
    the same set on the next player's attempt, so what the table told of it is kept, once, and shown with the set."""
    game = stand_in()
    ghost_here(game)
    game.push("tell-ghost sets=4")
    game.push("attempt action=prove set=2 need=eye:2,cobweb:1 timer=true")
    game.push("end-turn")  # the next player tries the same set
    offered = next(a for a in game.legal_actions() if a.name == "attempt" and a.args.get("set") == "2")
    assert offered.asks == ()
    game.push("attempt action=prove set=2")  # no need= again: the table's icons, red icon too
    assert game.view()["attempt"]["need"] == "eye:2,cobweb:1,timer"
    sets = {s["index"]: s["need"] for s in game.view()["icon_sets"]}
    assert sets == {1: None, 2: "eye:2,cobweb:1,timer", 3: None, 4: None}
    game.push("attempt action=prove set=2 need=eye:1")  # a correction replaces what was given
    assert game.view()["icon_sets"][1]["need"] == "eye:1"
    game.pop()
    assert game.view()["icon_sets"][1]["need"] == "eye:2,cobweb:1,timer"  # undone with its command


def test_before_the_count_is_told_no_made_up_sets_top_row_or_difficulty_is_shown_or_played() -> None:
    """Ghost Card: "Icon Sets to Resolve" and "Lingering Effects" ("the Child Ghost requires the top row of icons to be
    solved before any other"): how many sets the card shows, and how many are its top row, are on the card on the
    table; the stand-in's five sets, its top row of two and its difficulty are not shown, and no set is held back."""
    game = stand_in("child")
    assert BUNDLED.ghosts["child"].first_sets and len(BUNDLED.ghosts["child"].icon_sets) == 5
    view = game.view()
    assert view["icon_sets"] == [] and view["ghost_sets_told"] == 0
    assert view["ghost"]["first_sets"] == 0 and view["ghost"]["difficulty"] is None
    assert "top row" in view["ghost"]["lingering"]  # the rulebook's words stay: the table applies them
    ghost_here(game)
    offered = sorted(int(a.args["set"]) for a in game.legal_actions() if a.name == "prove")
    assert offered == [1, 2, 3, 4, 5]  # the stand-in's top row holds no set back
    game.push("prove set=4")
    assert [s["index"] for s in game.view()["icon_sets"]] == [4]
    game.push("tell-ghost sets=6")
    assert [s["index"] for s in game.view()["icon_sets"]] == [1, 2, 3, 4, 5, 6]


def test_an_evidence_token_not_filled_in_is_turned_over_at_the_table_never_named() -> None:
    """Action 4: Solve: "the acting player flips over one of the seven face-down Evidence Tokens and compares it to the
    Séance symbols on the Ghost Card": a stand-in symbol ("Evidence 4") names no token the table can find, so the
    companion says to turn one over and shows no stand-in's name."""
    game = stand_in()
    assert all(e.placeholder for e in BUNDLED.evidence.values())
    game.push("reveal-clue")
    flipped = next(e for e in game.push("solve") if e["type"] == "evidence_flipped")
    assert flipped["stand_in"] and flipped["name"] is None and flipped["symbol"] is None
    said = describe_event(flipped, Names.of_game(game))
    assert "turn over one of the face-down evidence tokens" in said and "Evidence " not in said.replace("Evidence:", "")
    assert game.view()["evidence"] == [{"symbol": None, "name": None, "stand_in": True, "matched": None}]
    assert "Evidence" not in json.dumps(game.view()["evidence"])


def test_the_count_of_icon_sets_is_asked_when_the_ghost_first_appears_and_decides_the_win() -> None:
    """Ghost Card, Icon Sets to Resolve: "All icon sets on a Ghost Card must be Proven to win the game." The stand-in
    has five sets; the card on the table has two: told, the second proven set wins."""
    game = stand_in()
    assert game.view()["question"] is None  # nothing to ask before the ghost is there
    events = ghost_here(game)
    assert {"type": "card_asked", "kind": "ghost", "ask": "sets"} in events
    question = game.view()["question"]
    assert question == {"kind": "ghost", "ask": "sets", "left": 0}
    asked = MODULE.publish(game.view(), game)["card_question"]
    assert "how many icon sets" in asked
    assert [a.args["sets"] for a in game.legal_actions() if a.name == "tell-ghost"][:3] == ["1", "2", "3"]
    game.push("tell-ghost sets=2")
    assert game.view()["question"] is None and len(game.view()["icon_sets"]) == 2
    assert all(s["need"] is None for s in game.view()["icon_sets"])  # the stand-in's icons are not shown as the card's
    game.push("attempt action=prove set=1 need=cobweb:1")
    game.push("roll faces=cobweb,eye,eye")
    assert game.view()["outcome"] is None
    game.push("attempt action=prove set=2 need=eye:2")
    assert "game_won" in types(game.push("roll faces=eye,eye,camera"))


def test_until_the_count_is_told_the_stand_ins_count_does_not_win_the_host_is_asked() -> None:
    """Ghost Card, Icon Sets to Resolve: "All icon sets on a Ghost Card must be Proven to win the game": proving the
    stand-in's five sets is not the card's; the companion asks "was that the last icon set?"."""
    game = stand_in()
    ghost_here(game)
    for index in range(1, 6):
        events = game.push(f"prove set={index}")
    assert "game_won" not in types(events) and game.view()["outcome"] is None
    assert game.view()["question"]["ask"] == "last"
    asked = MODULE.publish(game.view(), game)["card_question"]
    assert "last icon set" in asked
    game.push("tell-ghost last=no")  # the card has a sixth
    assert game.view()["outcome"] is None and len(game.view()["icon_sets"]) == 6
    game.push("prove set=6")
    assert "game_won" in types(game.push("tell-ghost last=yes"))


def test_ghost_mode_and_the_seance_follow_the_host_not_the_stand_ins_symbols() -> None:
    """Ghost Mode: "If all matching Séance symbols on a Ghost Card are found ... the Ghost goes into Ghost Mode";
    Séance: "Once all Evidence Tokens that match the Séance symbols on the Ghost Card have been discovered, the players
    may choose to perform a Séance." With the stand-in's symbols all flipped, neither starts until the host says the
    real card's symbols are matched."""
    symbols = set(BUNDLED.ghosts["poltergeist"].seance_symbols)
    # a game whose face-down tokens give the stand-in's three symbols within the first five solves
    game = next(
        g
        for seed in range(1, 60)
        for g in [Game.new(Setup(players=2, board="asylum", ghost="poltergeist", seed=seed), BUNDLED)]
        if symbols <= set(g.state.evidence_left[-5:])
    )
    flipped: set[str] = set()
    solves = 0
    while not symbols <= flipped:
        game.push("reveal-clue")
        events = game.push("solve")
        solves += 1
        flipped = set(game.state.evidence_flipped)  # the stand-in's own draw: the events name no token
        assert all(e.get("matched") is None for e in events if e["type"] == "evidence_flipped")
        assert game.view()["question"] == {"kind": "ghost", "ask": "seance", "left": 0}
        if not symbols <= flipped:
            game.push("tell-ghost seance=no")
    assert solves < 7  # the stand-in's symbols are all flipped before all seven clues are revealed
    view = game.view()
    assert not view["ghost_mode"] and not view["seance_available"] and view["seance_symbols"] == []
    with pytest.raises(IllegalCommand, match="not filled in yet"):
        game.push("seance room=0")
    events = game.push("tell-ghost seance=yes")
    assert "ghost_mode_started" in types(events)
    assert game.view()["seance_available"]
    assert describe_event(events[0], Names.of_game(game)) == "Every séance symbol on the ghost card is matched."


def test_an_unlock_of_a_door_not_filled_in_needs_the_keys() -> None:
    """Action 2: Unlock: "The number of Keys necessary is represented by either a single Key icon or an icon with a
    number above it": the board on the table's, not the stand-in way's."""
    game = stand_in()
    door = next(d for d in game.board.doors if d.placeholder)
    with pytest.raises(BadCommand, match="keys shown"):
        game.push(f"attempt action=unlock door={door.key}")
    assert any(a.asks == ("need",) for a in game.legal_actions() if a.args.get("door") == door.key)
    game.push(f"attempt action=unlock door={door.key} need=key:1")
    assert game.view()["attempt"]["need"] == "key:1"


def test_a_filled_in_ghost_card_plays_as_printed_and_asks_nothing() -> None:
    """A card filled in is the card on the table: its count wins and nothing is asked; what was told before it was
    filled in (Your box replays the game) changes nothing."""
    game = stand_in(packs=PACKS)
    ghost_here(game)
    assert game.view()["question"] is None
    assert not [a for a in game.legal_actions() if a.name == "tell-ghost"]
    game.push("tell-ghost sets=2")
    assert len(game.view()["icon_sets"]) == len(PACKS.ghosts["poltergeist"].icon_sets)
    told = stand_in()
    ghost_here(told)
    told.push("tell-ghost sets=5")
    told.push("attempt action=prove set=1 need=eye:2")  # the card's icons, as they are filled in later
    again = Game.replay(told.setup, PACKS, told.history)  # the host fills the card in: the game goes on with it
    assert again.view()["attempt"]["need"] == "eye:2" and again.view()["question"] is None
    for index in range(1, len(PACKS.ghosts["poltergeist"].icon_sets) + 1):
        events = game.push(f"prove set={index}")
    assert "game_won" in types(events)


def stored(tmp_path: Path, commands: list[str], ghost: str = "poltergeist") -> Game:
    """A game stored in a history file, command by command, and opened again (replayed)."""
    setup = Setup(players=2, board="asylum", ghost=ghost, seed=7)
    with GameStore(tmp_path / "games.sqlite3") as store:
        gid = store.create_game(setup.to_dict(), name="old", events=[])
        for seq, text in enumerate(commands, start=1):
            name, *rest = text.split()
            store.append(gid, seq, {"name": name, "args": dict(p.split("=", 1) for p in rest)}, [], source="host")
        return replay_game(store, gid, BUNDLED, MODULE)


def test_a_stored_game_that_proved_with_the_stand_ins_sets_still_opens_as_it_was_played(tmp_path: Path) -> None:
    """A game stored before the companion asked (prove attempts without need= on the stand-in, a win by its five
    sets) opens, and plays on in the reading it was played in: the stand-in's icons (its timer too), its count."""
    old = [
        "end-round",
        "ghost-at room=3",
        "attempt action=prove set=3",
        "roll faces=cobweb,cobweb,cobweb",
        "roll faces=eye,camera,eye",
        "prove set=1",
        "prove set=2",
        "prove set=4",
    ]
    game = stored(tmp_path, old)
    view = game.view()
    assert view["timers"] == 1  # the stand-in set 3's timer gave a token on the failed roll, as when it was played
    assert view["icon_sets"][2]["proven"] and view["outcome"] is None and view["question"] is None
    game.push("prove set=5")
    assert game.view()["outcome"] == "won"  # the stand-in's count, as the game was started
    assert "placeholder:" not in json.dumps(view).lower()


def test_a_stored_game_whose_ghost_mode_came_from_the_stand_ins_symbols_still_opens(tmp_path: Path) -> None:
    """A game stored before the companion asked, whose séance came from the stand-in's symbols (Séance: "Once all
    Evidence Tokens that match the Séance symbols on the Ghost Card have been discovered"), opens with its séance."""
    played = Game.new(Setup(players=2, board="asylum", ghost="poltergeist", seed=7), BUNDLED)
    played.stand_in_reading = True  # as the companion played it then
    old: list[str] = []
    while not played.view()["seance_available"]:
        for text in ("reveal-clue", "solve"):
            played.push(text)
            old.append(text)
    old += ["seance room=3"]
    game = stored(tmp_path, old)
    assert game.view()["ghost_mode"] and game.view()["seance_declared"]


def test_a_new_game_that_answered_is_replayed_in_the_asking_reading(tmp_path: Path) -> None:
    game = stored(tmp_path, ["end-round", "ghost-at room=3", "tell-ghost sets=2", "prove set=1"])
    assert len(game.view()["icon_sets"]) == 2 and not game.stand_in_reading
