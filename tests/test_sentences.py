"""What a player reads: every event, history entry, refusal and button label in plain words, and the legal actions
the host's panel offers (each one accepted by the engine; nothing legal left out)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.errors import BadCommand, CardsNeeded, IllegalCommand
from companion.games.base import module_for
from companion.games.skeptics.engine import COMMANDS, Command, Game, Setup
from companion.games.skeptics.packs import load_packs
from companion.games.skeptics.sentences import (
    Names,
    action_label,
    announcement,
    describe_event,
    describe_events,
    end_summary,
    need_words,
    setup_checklist,
)
from companion.history import GameStore
from companion.service import GameService

PACKS = load_packs()
SPELLING = re.compile(
    r"=|\b(?:" + "|".join(re.escape(n) for n in COMMANDS if "-" in n) + r")\b|\((?:Game End|Action \d|FAQ)"
)
FACES = {"clue": ["eye", "camera", "cobweb"], "key": ["key", "blank"], "summon": ["summon", "blank"]}


def plain_words(text: str) -> None:
    assert text and not SPELLING.search(text), text


def filled(game: Game, action: dict, rng: random.Random) -> Command:
    """A legal action with what it asks chosen as a player would (the real dice, the icons, a space)."""
    args = dict(action["args"])
    s = game.state
    if "faces" in action["asks"]:
        if action["name"] == "roll":
            assert s.attempt is not None
            kind = {"unlock": "key"}.get(s.attempt.action, "clue")
            args["faces"] = ",".join(rng.choice(FACES[kind]) for _ in range(s.attempt.dice_to_roll))
        else:
            args["faces"] = ",".join(rng.choice(FACES["summon"]) for _ in range(s.clues_solved))
    if "need" in action["asks"]:
        unlock = args.get("action") == "unlock"
        args["need"] = rng.choice(["key:1", "key:2"] if unlock else ["eye:1", "camera:1,eye:1", "cobweb:2"])
    if "room" in action["asks"]:
        args["room"] = str(rng.choice(game.board.spaces))
    if "spaces" in action["asks"]:  # where the real board's fire icons are (tell-fires)
        args["spaces"] = rng.choice(["none", str(rng.choice(game.board.spaces))])
    return Command(action["name"], args)


@pytest.mark.parametrize("players,seed", [(1, 1), (2, 2), (3, 3), (4, 4)])
def test_every_legal_action_is_accepted_and_every_sentence_is_plain(players: int, seed: int) -> None:
    """The panel never offers what the engine refuses; whatever happens is told without the terminal's spelling."""
    rng = random.Random(seed)
    setup = Setup(
        players=players, board="asylum", ghost="child", seed=seed, names=tuple(f"P{i}" for i in range(players))
    )
    game = Game.new(setup, PACKS)
    names = Names.of_game(game)
    played = 0
    for _ in range(400):
        if game.outcome is not None:
            game = Game.new(setup, PACKS)  # a game told it has few icon sets ends early: play another
        actions = [a.to_dict() for a in game.legal_actions()]
        assert actions, "a game under way always offers something"
        for action in actions:
            plain_words(action_label(action, names, game.state.current))
        # Each offered action is accepted as filled in ...
        for action in rng.sample(actions, min(4, len(actions))):
            game.check(filled(game, action, rng))
        # ... and the simple commands not offered are refused (nothing legal is hidden from the panel).
        offered = {(a["name"], tuple(sorted(a["args"].items()))) for a in actions}
        for text in ("end-turn", "end-round", "timer", "reveal-clue", "solve", "action kind=move"):
            cmd = Command.parse(text)
            if (cmd.name, tuple(sorted(cmd.args.items()))) not in offered:
                assert not game.is_legal(cmd), text
        action = rng.choice([a for a in actions if a["name"] != "ghost-at"] or actions)
        events = game.push(filled(game, action, rng))
        played += 1
        for sentence in describe_events(events, names):
            plain_words(sentence)
        for event in events:
            banner = announcement(event, names)
            if banner:
                plain_words(banner["text"])
    assert played > 50


def test_refusals_read_as_the_page_says_them() -> None:
    """Refusals in the page's words: no `key=value`, no command names, no rulebook sections, still saying what to do."""
    rng = random.Random(9)
    game = Game.new(Setup(players=3, board="asylum", ghost="child", seed=9), PACKS)
    seen = 0
    texts = [
        "summon",
        "pull",
        "seance",
        "prove set=1",
        "attempt action=prove set=2",
        "move-ghost to=5",
        "roll faces=eye",
        "attempt action=search",
        "unlock door=1-20",
        "discard-environment card=fire",
        "action kind=fly",
        "end-round room=3",
        "ghost-at room=none",
        "solve",
        "attempt action=unlock door=2-3 dice=9",
    ]
    for _ in range(60):
        for text in texts:
            try:
                game.check(text)
            except (BadCommand, IllegalCommand) as exc:
                words = module_for("skeptics").for_players(str(exc))  # the page's words (GameService.say)
                plain_words(words)
                assert re.match(r"^['\"]?[A-Z0-9]", words) and len(words) > 15, words
                seen += 1
        step = rng.choice(["end-turn", "end-round", "reveal-clue", "timer"])
        if game.is_legal(step):
            game.push(step)
        if game.outcome:
            break
    assert seen > 100
    assert "first player's space" in module_for("skeptics").for_players(_refusal(game_ready_for_seance(), "seance"))


def game_ready_for_seance() -> Game:
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=3), PACKS)
    while not game.view()["seance_available"]:
        game.push("reveal-clue")
        game.push("solve")
        if game.view()["clues_solved"] == 3:
            game.push("tell-ghost seance=yes")  # the bundled ghost card is a stand-in: the host compares the symbols
    return game


def _refusal(game: Game, text: str) -> str:
    with pytest.raises((BadCommand, IllegalCommand)) as info:
        game.push(text)
    return str(info.value)


def test_a_seance_without_its_space_is_refused_and_with_it_the_ghost_comes_there() -> None:
    """Séance: the ghost appears at the first player's space, so the space is asked for, never left empty."""
    game = game_ready_for_seance()
    before = game.state.copy()
    assert "first player's space" in _refusal(game, "seance")
    assert game.state == before
    assert any(a.name == "seance" and a.asks == ("room",) for a in game.legal_actions())
    game.push("seance room=4")
    events = game.push("end-round")
    view = game.view()
    assert (view["ghost_room"], view["ghost_reason"]) == (4, "seance")
    assert any(a.name == "attempt" and a.args.get("action") == "prove" for a in game.legal_actions())
    assert "room 4" in " ".join(describe_events(events, Names.of_game(game)))


def test_physical_decks_a_command_that_draws_says_which_cards_it_needs() -> None:
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=3, physical=True), PACKS)
    for _ in range(3):
        game.push("end-round")
    with pytest.raises(CardsNeeded) as info:
        game.push("end-round")
    assert [arg for arg, _ in info.value.needs] == ["environment", "room"] or sorted(
        arg for arg, _ in info.value.needs
    ) == ["environment", "room"]
    end_round = [a for a in game.legal_actions() if a.name == "end-round"]
    assert end_round and set(end_round[0].cards) == {"environment", "room"}


def test_sentences_use_the_tables_names_and_say_outcomes() -> None:
    game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=3, names=("Anna", "Ben")), PACKS)
    names = Names.of_game(game)
    assert describe_events(game.push("end-turn"), names) == ["Anna's turn ends."]
    assert describe_event({"type": "pull", "success": True, "player": 1}, names).startswith("Ben pulls the ghost")
    assert "gone" not in describe_event({"type": "pull", "success": True, "player": 1}, names)
    assert "fails" in describe_event({"type": "summon", "success": False, "player": 0}, names)
    assert need_words("eye:2,camera:1,timer") == "2 eyes and a camera, a timer set"
    assert need_words("eye:1") == "an eye"
    lost = describe_event({"type": "game_lost", "reason": "time ran out (Game End: Losing: 'If the round expires')"})
    assert lost == "The team loses: time ran out." and not SPELLING.search(lost)
    placeholder = describe_event({"type": "environment_drawn", "name": "Common card 4", "effect": "Placeholder: copy"})
    assert "not filled in yet" in placeholder and "Placeholder" not in placeholder
    assert announcement({"type": "ghost_mode_started", "why": "x"}, names)["kind"] == "ghost_mode"
    assert announcement({"type": "clock_advanced", "reason": "round", "clock": "III"}, names) is None
    assert announcement({"type": "clock_advanced", "reason": "timer", "clock": "III"}, names)["kind"] == "timer"


def test_the_setup_checklist_follows_the_rulebook_for_this_game() -> None:
    """Setup: room cards removed by the number of players; the physical decks are shuffled by hand."""
    for players, removed in ((2, 2), (3, 8), (4, 11)):
        game = Game.new(Setup(players=players, board="asylum", ghost="child", seed=1, physical=True), PACKS)
        items = {i["id"]: i["text"] for i in setup_checklist(game.view(), Names.of_game(game))}
        assert f"take {removed} away face down" in items["rooms"]
        assert "evidence" in items and "decks" not in items
    digital = Game.new(Setup(players=1, board="museum", ghost="child", seed=1, special_items=0), PACKS)
    items = {i["id"]: i["text"] for i in setup_checklist(digital.view(), Names.of_game(digital), hand=True)}
    assert "rooms" not in items and "companion shuffles" in items["decks"]
    assert "without special item cards" in items["special"] and "clock hand stands at XII" in items["clock"]


def test_history_undo_and_redo_speak_in_sentences_and_redo_gives_back_the_same_state(tmp_path: Path) -> None:
    service = GameService(GameStore(tmp_path / "g.sqlite"), PACKS, rng=random.Random(2))
    service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 4, "names": ["Anna", "Ben"]})
    for _ in range(3):
        service.do("end-round")
    result = service.do("end-round")  # the Ghost Hour: a card and a room are drawn
    after = service.state()
    story = result.events[0]["story"]
    assert "Ghost Hour" in story and all("text" in e for e in result.events)
    assert service.history()[-1]["text"] == story
    undone = service.undo()
    assert undone.events[0]["text"] == "Undone: " + story
    assert service.state()["redo"] == story
    redone = service.redo()
    assert redone.state["redo"] is None
    for key in ("clock", "ghost_room", "rooms_revealed", "environment", "room_deck_left", "hour"):
        assert redone.state[key] == after[key], key
    with pytest.raises(IllegalCommand):
        service.redo()
    # A new command forgets what could be redone.
    service.undo()
    service.do("timer")
    assert service.state()["redo"] is None


def test_the_end_summary_tells_why_and_reveals_the_removed_cards() -> None:
    game = Game.new(Setup(players=3, board="asylum", ghost="child", seed=2), PACKS)
    while game.outcome is None:
        game.push("end-round")
    view = game.view()
    summary = end_summary(view, Names.of_game(game), minutes=75)
    assert not summary["won"] and summary["title"].startswith("You lost")
    assert summary["why"] and not SPELLING.search(summary["why"])
    assert any("removed face down" in line and str(view["removed_rooms"][0]) in line for line in summary["lines"])
    assert "Time played: 1 h 15 min." in summary["lines"]


def test_the_end_summary_rounds_the_minutes_as_the_record_does() -> None:
    """PLAYTEST.md finding 7: the chart's title said 7 min, the summary 6 min (6.6 minutes: rounded vs cut)."""
    from companion.stats import duration

    game = Game.new(Setup(players=3, board="asylum", ghost="child", seed=2), PACKS)
    while game.outcome is None:
        game.push("end-round")
    summary = end_summary(game.view(), Names.of_game(game), minutes=6.6)
    assert f"Time played: {duration(6.6)}." in summary["lines"] and duration(6.6) == "7 min"


def test_a_roll_says_the_dice_it_kept_itself_not_those_kept_before(tmp_path: Path) -> None:
    """Through the service and its log: the second roll of a search keeps no new die, so it says nothing more
    counted and names the eye as the first roll's, instead of "keeping eye"; the third keeps its camera. A roll
    stored before the engine said which dice were this roll's ("kept" only) still reads as it did."""
    service = GameService(GameStore(tmp_path / "g.sqlite"), PACKS, rng=random.Random(1))
    try:
        service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 1})
        service.do("attempt", {"action": "search", "need": "eye:2,camera:1"})
        for faces in ("eye,cobweb,cobweb", "cobweb,cobweb", "camera,cobweb"):
            service.do("roll", {"faces": faces})
        rolls = [r for r in service.events_since(0) if r["type"] == "rolled"]
        assert [r["kept"] for r in rolls] == [["eye"], ["eye"], ["eye", "camera"]]
        assert [r["kept_now"] for r in rolls] == [["eye"], [], ["camera"]]
        first, second, third = (r["text"] for r in rolls)
        # a failed search says so first, and what happens next ("Failing Search Actions", skeptics-rulebook.txt:153)
        fails = "The search fails: Player 1 has 2 actions left to search again, rolling only the dice not kept. "
        assert first == fails + "Rolled eye, cobweb, cobweb on the blue clue dice: keeping eye."
        assert "\nRolled cobweb, cobweb on the blue clue dice: " in "\n" + second.split(". ", 1)[1]
        assert "eye kept before" in second
        assert "keeping" not in second and "1 action left to search again" in second
        assert "Rolled camera, cobweb on the blue clue dice: keeping camera" in third and "eye kept before" in third
        old = {k: v for k, v in rolls[0].items() if k not in ("kept_now", "player", "rolls_left")}
        assert describe_event(old) == first.replace("Player 1", "The player")  # its actions left, its player untold
    finally:
        service.close()


def _attempt_rolled(game: Game, attempt: str, faces: str) -> list[str]:
    """The sentences of each roll of `attempt` that fails with `faces` (the same again with one die fewer each
    time nothing is kept) until the turn allows no roll more."""
    game.push(attempt)
    said = []
    while game.view()["attempt_rolls_left"]:
        rolled = [e for e in game.push(f"roll faces={faces}") if e["type"] == "rolled"]
        said.append(describe_event(rolled[0], Names.of_game(game)))
    return said


@pytest.mark.parametrize(
    ("action", "again", "stays", "dice"),
    [
        ("solve", "try the clue again", "the clue stays unsolved", "blue clue dice"),
        ("prove", "try the icon set again", "the icon set stays unproven", "blue clue dice"),
        ("unlock", "try the door again", "the door stays locked", "green key dice"),
    ],
)
def test_a_failed_solve_prove_or_unlock_says_so_at_once_as_a_search_does(
    action: str, again: str, stays: str, dice: str
) -> None:
    """Through the real engine: each failed roll of a solve (skeptics-rulebook.txt:172), a prove (:225) or an unlock
    (:130-132) says first that it failed and what the player may do next, as a failed search does (:152-154): the
    actions left to try again, then none and what stays as it was; the roll names its dice's colour (:83)."""
    if action == "prove":
        game = game_ready_for_seance()
        game.push("seance room=4")
        game.push("end-round")
        prove = next(a for a in game.legal_actions() if a.name == "attempt" and a.args.get("action") == "prove")
        args = {"need": "eye:3", **prove.args}  # the child ghost's card is a stand-in: the host gives its icons
        attempt = "attempt " + " ".join(f"{k}={v}" for k, v in args.items())
    else:
        game = Game.new(Setup(players=2, board="asylum", ghost="child", seed=3), PACKS)
        if action == "solve":
            game.push("reveal-clue")
        attempt = {"solve": "attempt action=solve need=eye:3"}.get(action, "attempt action=unlock door=7-8 need=key:3")
    player = Names.of_game(game).player(game.view()["current_player"])
    faces = "blank,blank,blank" if action == "unlock" else "cobweb,cobweb,cobweb"
    said = _attempt_rolled(game, attempt, faces)
    fails = f"The {action} fails: {player} has "
    assert len(said) >= 2, said
    first, last = said[0], said[-1]
    assert first.startswith(fails + f"2 actions left to {again}, rolling all the dice again. Rolled "), first
    assert f" on the {dice}: nothing counts." in first, first
    assert last.startswith(fails + f"no action left to {again}; {stays}. Rolled "), last
    assert game.view()["attempt"] is not None  # said while the attempt is still there, before the turn ends


@pytest.mark.parametrize(
    ("action", "fails", "again", "stays"),
    [
        ("barrier", "The barrier holds", "roll at the barrier again", "the barrier stays in place"),
        ("fire", "The fire burns on", "fight the fire again", "the fire stays on the board"),
    ],
)
def test_a_failed_barrier_or_fire_roll_says_so_at_once_from_the_same_sentence(
    action: str, fails: str, again: str, stays: str
) -> None:
    """Through the real engine, as a failed search, solve, prove or unlock does (_said_rolled): the Barrier's rolls
    keep and re-roll dice "similar to a Search Action, until they perform another action ... or until their turn
    ends" (skeptics-rulebook.txt:284); a fire is put out "by rolling one Cobweb with three Clue Dice, as an action"
    and "Fires remain on the board until extinguished" (:286-287). Each failed roll says first that it failed, the
    actions left to roll again, then none and what stays."""
    from games import PACKS as FILLED
    from test_rules_effects import with_card

    board = "museum" if action == "barrier" else "asylum"
    packs = with_card(card="barrier", icon_sets=("eye:3",)) if action == "barrier" else FILLED
    game = Game.new(Setup(players=2, board=board, ghost="child", seed=4, physical=True), packs)
    while game.view()["clock"] != "IX":
        game.push("end-round")
    game.push(f"end-round room=8 environment={action}")
    if action == "fire":
        game.push("tell-fires spaces=3")
    attempt = "attempt action=barrier set=1" if action == "barrier" else "attempt action=fire space=3"
    player = Names.of_game(game).player(game.view()["current_player"])
    said = _attempt_rolled(game, attempt, "camera,camera,camera" if action == "barrier" else "eye,eye,camera")
    assert len(said) >= 2, said
    first, last = said[0], said[-1]
    assert first.startswith(f"{fails}: {player} has 2 actions left to {again}, rolling all the dice again. "), first
    assert " on the blue clue dice: nothing counts." in first, first
    assert last.startswith(f"{fails}: {player} has no action left to {again}; {stays}. Rolled "), last
    assert game.view()["attempt"] is not None
