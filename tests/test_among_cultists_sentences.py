"""Among Cultists' sentences and the narrator's scripts: every event in words, banners at the big moments,
refusals in the page's words, the night (seance-deduction-rules-de.txt:18-24) and the vote's countdown (:52);
and the module behind the seam (the clock's hour, the stand-ins, the scripts it publishes)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from games import assert_no_dice

from companion.errors import BadCommand, CompanionError, IllegalCommand
from companion.games.among_cultists import sentences
from companion.games.among_cultists.engine import COMMANDS, Game, Setup
from companion.games.among_cultists.module import MODULE
from companion.games.among_cultists.packs import load_packs
from companion.games.among_cultists.sentences import (
    Names,
    action_label,
    announcement,
    describe_event,
    end_summary,
    for_players,
    night_script,
    vote_script,
)

ENGINE = Path(sentences.__file__).with_name("engine.py")
EMITTED = sorted(
    set(re.findall(r'emit\(\s*"([a-z_]+)"', ENGINE.read_text(encoding="utf-8")))
    | set(re.findall(r'"(game_won|game_lost)"', ENGINE.read_text(encoding="utf-8")))
    | {"night_started"}
)
FALLBACK = describe_event({"type": "no_such_event"})
SPELLINGS = re.compile(
    r"\b[a-z_]+=|\(:\d+|[\s,]:\d+|\.\.|[Pp]laceholder|" + "|".join(rf"\b{re.escape(c)}\b" for c in COMMANDS if "-" in c)
)
NAMES = Names(("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"))


def played(seed: int, steps: int = 150) -> tuple[Game, list[dict[str, object]]]:
    rng = random.Random(seed)
    packs = load_packs()
    game = Game.new(Setup(cultists=2, points_needed=5, players=8, seed=seed), packs)
    events: list[dict[str, object]] = list(game.setup_events)
    for _ in range(steps):
        actions = game.legal_actions()
        if not actions:
            break
        action = rng.choice([a for a in actions if a.name != "cultists-win"] or actions)
        seats = [*map(str, game.in_play())]
        fill = {
            "seat": rng.choice([*seats, "none"] if action.name == "vote" else seats or ["none"]),
            "last": "yes" if rng.random() < 0.05 else "no",
            "n": "1",
            "id": "event02",
        }
        args = {k: fill[k] for k in action.asks}
        if args.get("seat") == "none":
            args["last"] = "no"
        events += game.push(action.command(**args))
    return game, events


# -- events ---------------------------------------------------------------------------------------------------


def test_every_event_the_engine_emits_has_its_own_sentence() -> None:
    assert len(EMITTED) >= 14
    for kind in EMITTED:
        text = describe_event(
            {
                "type": kind,
                "seat": 2,
                "to": 3,
                "round": 2,
                "rounds": 10,
                "clock": "I",
                "start_player": 1,
                "phase": "action",
                "name": "Storm",
                "change": 1,
                "points": 1,
                "needed": 5,
                "reason": "why",
                "players": 5,
                "cultists": 1,
            },
            NAMES,
        )
        assert text != FALLBACK, kind
        assert text[0].isupper() and text[-1] in ".!?", (kind, text)


def test_the_sentences_of_played_games_carry_no_command_spelling() -> None:
    kinds: set[object] = set()
    for seed in range(8):
        _, events = played(seed)
        kinds |= {e["type"] for e in events}
        for line in sentences.describe_events(events, NAMES):
            assert not SPELLINGS.search(line), line
    assert {"night_ended", "round_started", "phase_started", "event_drawn", "vote", "points"} <= kinds


def test_the_vote_results_name_the_seat_voted_out() -> None:
    # :52: simple majority eliminates; the last cultist revealed; a tie eliminates nobody
    assert (
        describe_event({"type": "vote", "seat": 2, "last": False}, NAMES) == "Bo is voted out and plays on as a ghost."
    )
    assert "reveals the last cultist" in describe_event({"type": "vote", "seat": 2, "last": True}, NAMES)
    assert "nobody is voted out" in describe_event({"type": "vote", "seat": None}, NAMES)
    assert describe_event({"type": "vote", "seat": 3, "called": "body"}, NAMES).startswith("The vote the body called")


def test_a_stand_in_event_is_never_read_as_if_it_were_the_marker() -> None:
    stand_in = {"type": "event_drawn", "name": "Event 3", "text": "Placeholder: copy ...", "stand_in": True}
    for by in ("companion", "table"):
        line = describe_event({**stand_in, "by": by}, NAMES)
        assert "not filled in yet" in line and "Placeholder" not in line and "Event 3" not in line
    real = describe_event({"type": "event_drawn", "name": "Storm", "text": "the lights flicker", "by": "table"})
    assert real == "The event of the round: Storm. The lights flicker."


def test_the_big_moments_have_banners_and_the_others_none() -> None:
    # the night (:18), a new round (:26), a vote's result (:52), the end (:57, :60)
    kinds = {
        kind: (announcement({"type": kind, "round": 3, "seat": 1}, NAMES) or {}).get("kind")
        for kind in (
            "game_started",
            "night_started",
            "round_started",
            "vote",
            "game_won",
            "game_lost",
            "phase_started",
            "points",
        )
    }
    assert kinds == {
        "game_started": "night",
        "night_started": "night",
        "round_started": "round",
        "vote": "vote",
        "game_won": "won",
        "game_lost": "lost",
        "phase_started": None,
        "points": None,
    }
    assert announcement({"type": "round_started", "round": 3})["title"] == "Round 3"  # type: ignore[index]
    assert announcement({"type": "game_started", "rules": "elder-sign"}) is None


# -- refusals and labels --------------------------------------------------------------------------------------


def refusals() -> list[str]:
    """The engine's refusals, gathered by trying every command (with good and bad arguments) in many states."""
    tries = [
        "night-done",
        "next-phase",
        "draw-event",
        "event",
        "event id=nope",
        "event name=",
        "vote",
        "vote seat=none last=yes",
        "vote seat=9",
        "vote seat=1",
        "vote seat=1 called=body",
        "vote seat=1 called=x",
        "found-dead seat=1",
        "points n=0",
        "points n=-50",
        "points n=x",
        "cultists-win",
        "end-round",
        "fly",
        "night-done now=1",
        "event id=event01 name=x",
    ]
    out: set[str] = set()
    packs = load_packs()
    for seed in range(4):
        game = Game.new(Setup(cultists=1, points_needed=5, players=5, seed=seed, physical=seed == 3), packs)
        rng = random.Random(seed)
        for _ in range(60):
            for text in tries:
                try:
                    game.check(text)
                except CompanionError as exc:
                    out.add(str(exc))
            actions = [a for a in game.legal_actions() if a.name != "cultists-win"]
            if not actions:
                break
            action = rng.choice(actions)
            fill = {"seat": str((game.in_play() or ["none"])[0]), "last": "no", "n": "1", "id": "event01"}
            game.push(action.command(**{k: fill[k] for k in action.asks}))
        if game.outcome is None:
            game.push("cultists-win" if game.view()["phase"] != "night" else "night-done")
        if game.outcome is None:
            game.push("cultists-win")
        for text in tries:  # the game over
            try:
                game.check(text)
            except CompanionError as exc:
                out.add(str(exc))
    return sorted(out)


def test_every_refusal_reads_as_a_players_sentence() -> None:
    found = refusals()
    assert len(found) > 25
    for message in found:
        said = for_players(message)
        assert not SPELLINGS.search(said), (message, said)
        assert "=" not in said and said[0].isupper() and said[-1] in ".!?", said


def test_a_second_vote_is_refused_in_plain_words() -> None:
    # :52 "nur einmal pro Runde"
    game = Game.new(Setup(cultists=1, points_needed=5, players=4), load_packs())
    for command in ("night-done", "next-phase", "draw-event", "next-phase", "vote seat=none"):
        game.push(command)
    with pytest.raises(IllegalCommand) as err:
        game.push("vote seat=1")
    said = for_players(str(err.value))
    assert said.startswith("The vote was already held this round") and "cafeteria" in said


def test_the_host_panel_buttons_have_words() -> None:
    game = Game.new(Setup(cultists=1, points_needed=5, players=4), load_packs())
    for _ in range(6):
        for action in game.legal_actions():
            label = action_label(action.to_dict(), NAMES)
            assert label != "Do it" and "=" not in label and not SPELLINGS.search(label), label
        game.push(
            next(
                a for a in game.legal_actions() if a.name in ("night-done", "next-phase", "draw-event", "end-round")
            ).command()
        )
    assert action_label({"name": "vote", "args": {"called": "body"}}) == "Enter the vote the body called"


def test_the_end_card_says_who_won_and_the_counts() -> None:
    game = Game.new(Setup(cultists=1, points_needed=5, players=4, names=("Ann", "Bo", "Cy", "Di")), load_packs())
    for command in ("night-done", "next-phase", "draw-event", "next-phase", "vote seat=2", "cultists-win"):
        game.push(command)
    summary = end_summary(game.view(), Names.of_game(game))
    assert summary["title"] == "The cultists win"
    assert summary["lines"] == ["Victory points: 0 of 5.", "Rounds played: 1 of 10.", "Voted out: Bo."]
    assert (
        end_summary({"outcome": "won", "outcome_reason": "the last cultist is voted out"})["title"]
        == "The investigators win"
    )


# -- the night (:18-24) ----------------------------------------------------------------------------------------


def test_the_night_without_the_seer_closes_eyes_lets_the_cultists_look_and_opens_eyes() -> None:
    # :20 everyone closes their eyes and turns the deck; :21 the cultists open theirs; then all open them
    steps = night_script(Setup(players=5, cultists=1), NAMES, 4.0)
    texts = [s["text"] for s in steps]
    assert len(steps) == 4
    assert "close your eyes" in texts[0] and texts[1].startswith("Cultist, open your eyes")
    assert "begins this game dead" in texts[1]  # :21 the cultists see who starts dead
    assert texts[-1].startswith("Everyone, open your eyes")
    assert not any("thumb" in t or "Seer" in t for t in texts)


def test_with_the_seer_the_cultists_raise_a_thumb_and_the_seer_wakes_briefly() -> None:
    # :22 fists, the cultists' thumbs up; :23 the seer sees the cultists; :24 fists down, eyes open
    steps = night_script(Setup(players=6, cultists=1, seer=True), NAMES, 3.0)
    texts = [s["text"] for s in steps]
    assert len(steps) == 7
    assert "fist" in texts[3] and "raise your thumb" in texts[3]
    assert texts[4].startswith("Seer, wake") and texts[5] == "Seer, close your eyes."
    assert "lower your fists" in texts[6] and "open your eyes" in texts[6]


@pytest.mark.parametrize(
    "language, cultists, shut, look, seer",
    [
        ("en", 1, "Cultist, close your eyes.", "Cultist, open your eyes", "Seer, wake"),
        ("en", 2, "Cultists, close your eyes.", "Cultists, open your eyes", "Seer, wake"),
        ("de", 1, "Kultist, schließ die Augen.", "Kultist, öffne die Augen", "Seherin, wach"),
        ("de", 2, "Kultisten, schließt die Augen.", "Kultisten, öffnet die Augen", "Seherin, wach"),
    ],
)
def test_with_the_seer_the_cultists_close_their_eyes_before_the_seer_wakes(
    language: str, cultists: int, shut: str, look: str, seer: str
) -> None:
    # :21 "Kultisten öffnen ihre Augen", then :22 "Alle schließen wieder ihre Augen und zeigen eine Faust",
    # and only then :23 "Die Seherin erwacht kurz": no cultist may still be looking when the seer wakes
    texts = [
        s["text"] for s in night_script(Setup(players=8, cultists=cultists, seer=True), NAMES, 4.0, language=language)
    ]
    opened = next(i for i, t in enumerate(texts) if t.startswith(look))
    woke = next(i for i, t in enumerate(texts) if t.startswith(seer))
    closed = [i for i, t in enumerate(texts) if t == shut]
    assert closed and opened < closed[0] < woke
    assert not any(t.startswith(look) for t in texts[closed[0] :])  # nobody opens them again before the seer


@pytest.mark.parametrize("language, shown", [("en", "who begins the game as a ghost"), ("de", "schon als Geist")])
def test_the_first_step_says_the_decks_face_up_show_who_begins_as_a_ghost(language: str, shown: str) -> None:
    # :20 "drehen dieses auf die sichtbare Seite. Jetzt sollte (sofern nicht zu siebt gespielt wird) sichtbar sein,
    # wer bereits zu Beginn der Partie ein Geist ist": with the decks face up, unless seven play
    for players in (4, 5, 6, 8):
        first = night_script(Setup(players=players, cultists=1 if players < 7 else 2), NAMES, 2.0, language=language)[
            0
        ]["text"]
        assert shown in first
        assert ("close your eyes" in first) if language == "en" else ("Augen" in first)
    seven = night_script(Setup(players=7, cultists=2), NAMES, 2.0, language=language)[0]["text"]
    assert shown not in seven and ("Geist" not in seven and "ghost" not in seven)


def test_the_movement_phase_says_an_encounter_comes_whenever_two_are_together() -> None:
    # :34 "handelt ggf. (wenn er zu irgendeinem Zeitpunkt der Bewegung genau zu zweit ist) eine Begegnung ab": at any
    # moment of the move, exactly two; not only whoever ends up alone with a character
    text = describe_event({"type": "phase_started", "phase": "movement", "round": 1, "start_player": 2}, NAMES)
    assert "up to three rooms or corridors" in text
    assert "at any moment of the move" in text and "exactly two" in text and "encounter" in text
    assert "ends up" not in text and "alone" not in text


def test_the_setup_checklist_follows_the_preparation_of_the_text() -> None:
    # :3-15 "Vorbereitung": the decks by the rulebook's table, the envelopes dealt at random and looked at in
    # secret, the board, the room cards and markers, the books, the supply, the discs, the knife
    game = Game.new(
        Setup(cultists=1, points_needed=5, players=6, names=tuple(NAMES.players[:6]), start_player=3), load_packs()
    )
    items = MODULE.setup_checklist(game.view(), MODULE.names(game), False)
    text = " ".join(i["text"] for i in items)
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids)) >= 8 and all(i["text"].endswith(".") for i in items)
    for words in (
        "pulse card",  # :5
        "route card",  # :7
        "at least one alive card",  # :9
        "envelope",  # :9
        "in secret",  # :9 "geheim seinen Gesinnungsmarker"
        "six-part board for 6 players",  # :11
        "room start card",  # :11
        "book markers",  # :13
        "fish-man",  # :15
        "central corridor",  # :15
        "unsafe paths deck",  # :5, :15
    ):
        assert words in text, words
    assert f"{NAMES.players[2]} is the start player and takes the knife" in text  # :15, the seat chosen
    assert "6 envelopes, one of them a cultist's" in text
    two = Game.new(Setup(cultists=2, points_needed=5, players=8), load_packs())
    assert "two of them a cultist's" in " ".join(i["text"] for i in MODULE.setup_checklist(two.view(), None, True))
    assert not SPELLINGS.search(text) and "(:" not in text
    # no role in it: the checklist is the same whoever holds which envelope (the companion knows none)
    assert "bag" not in ids and "bag" in [
        i["id"] for i in MODULE.setup_checklist({**game.view(), "physical": True}, None, False)
    ]


def test_two_cultists_find_their_accomplice_and_seven_players_have_no_dead_at_the_start() -> None:
    # :21 "sehen ihren Komplizen, falls mit zwei Kultisten gespielt wird"; :20 "sofern nicht zu siebt"
    seven = night_script(Setup(players=7, cultists=2), NAMES, 4.0)
    eight = night_script(Setup(players=8, cultists=2), NAMES, 4.0)
    assert "accomplice" in seven[1]["text"] and "dead" not in seven[1]["text"]
    assert "accomplice" in eight[1]["text"] and "dead" in eight[1]["text"]
    assert "Cultists, raise your thumb" in night_script(Setup(players=8, cultists=2, seer=True), NAMES, 4.0)[3]["text"]


def test_the_night_waits_the_hosts_pause_as_chosen_and_fits_the_screen() -> None:
    # found by a new player: "short pauses (2 s)" waited 4 s after the steps where someone looks; the pause chosen
    # is now the pause after every step's words (the last waits for nothing)
    for pause in (2.0, 5.0, 14.0):
        for setup in (
            Setup(players=6, cultists=1, seer=True),
            Setup(players=5, cultists=1),
            Setup(players=8, cultists=2, seer=True),
        ):
            pauses = [s["pause"] for s in night_script(setup, NAMES, pause)]
            assert pauses[-1] == 0.0 and set(pauses[:-1]) == {pause}
    for language in ("en", "de"):
        for step in night_script(Setup(players=6, cultists=1, seer=True), NAMES, 1.0, language=language):
            assert set(step) == {"text", "pause", "screen"}
            assert 0 < len(step["screen"]) <= 20 and not SPELLINGS.search(step["text"])
    with pytest.raises(BadCommand, match="0 to 60 seconds"):
        night_script(Setup(players=6, cultists=1), NAMES, -1)
    with pytest.raises(BadCommand, match="en or de"):
        night_script(Setup(players=6, cultists=1), NAMES, 1.0, language="fr")


def test_the_night_speaks_german_on_request() -> None:
    steps = night_script(Setup(players=8, cultists=2, seer=True), NAMES, 4.0, language="de")
    texts = " ".join(s["text"] for s in steps)
    assert "Augen" in texts and "Seherin" in texts and "Daumen" in texts and "Kultisten" in texts
    assert steps[-1]["screen"] == "Augen auf"
    assert len(steps) == len(night_script(Setup(players=8, cultists=2, seer=True), NAMES, 4.0))


# -- the vote's countdown (:52) ---------------------------------------------------------------------------------


def test_the_vote_counts_down_three_two_one_and_buzzes_on_point() -> None:
    # :52 "gleichzeitig mit dem Finger auf einen Mitspieler gezeigt"
    steps = vote_script(NAMES)
    screens = [s["screen"] for s in steps]
    assert screens[1:5] == ["3", "2", "1", "POINT!"]
    assert [s["pause"] for s in steps[1:4]] == [1.0, 1.0, 1.0]
    assert [s["buzz"] for s in steps] == [False, False, False, False, True, False]
    assert steps[4]["text"] == "Point!" and "majority" in steps[-1]["text"]
    german = vote_script(NAMES, language="de")
    assert [s["text"] for s in german[1:5]] == ["Drei", "Zwei", "Eins", "Zeigt!"] and german[4]["buzz"] is True


# -- the module behind the seam -----------------------------------------------------------------------------------


def test_the_module_plays_a_game_and_publishes_the_clock_the_stand_ins_and_the_scripts() -> None:
    setup = MODULE.setup_from_dict(
        {"rules": "among-cultists", "players": 6, "seer": True, "seed": 4, "cultists": 1, "points_needed": 5}
    )
    assert MODULE.rules == "among-cultists"
    stored = MODULE.setup_to_dict(setup)
    assert stored["rules"] == "among-cultists"
    assert all(key in stored for key in MODULE.started_keys)
    assert set(MODULE.setup_choices) <= set(stored)  # every choice of the wizard is a setup field
    assert MODULE.setup_from_dict({"players": 7, "cultists": 0}).cultists == 2  # 0: from the player count
    game = MODULE.new(setup, MODULE.load_packs(None))
    assert_no_dice(MODULE, game)
    names = MODULE.names(game)
    clocks = []
    for _ in range(10):
        events = game.push("night-done") if game.view()["phase"] == "night" else []
        extra = dict(MODULE.publish(game.view(), game))
        clocks.append(extra["clock"])
        assert extra["stand_ins"] is False  # no event yet in the movement phase
        events += game.push("next-phase") + game.push("draw-event")
        assert MODULE.publish(game.view(), game)["stand_ins"] is True  # the bundled markers are stand-ins
        events += game.push("next-phase") + game.push("end-round")
        assert all(MODULE.describe_event(e, names) != FALLBACK for e in events)
        if game.outcome is not None:
            break
    assert clocks == ["XII", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    extra = dict(MODULE.publish(game.view(), game))
    assert extra["night_script"] == night_script(game.setup, names, sentences.DEFAULT_PAUSE_S)
    assert extra["vote_script"][4]["buzz"] is True
    assert json.loads(json.dumps(extra)) == extra
    summary = MODULE.end_summary(game.view(), names, 30.0)
    assert summary["title"] == "The cultists win"
    assert MODULE.action_label({"name": "end-round", "args": {}}, names, None) == "End the round"
    assert MODULE.command_sentence(game.history[-1], names, ()) == "End the round."


def test_the_note_on_the_roles_says_only_what_the_host_told() -> None:
    """Under the seats every phone read "The companion never knows who is a cultist" under the vote line "Cy ... was
    the last cultist", which the host told it (:52 the cultists show themselves once the vote put out the last of
    them). The note says what the companion knows: no role until then, and after it only the one the host named; a
    player voted out before is never named a cultist."""
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
    game = Game.new(Setup(cultists=2, points_needed=9, players=7, names=names, seer=True), load_packs())
    for command in ("night-done", "next-phase", "draw-event", "next-phase", "vote seat=2"):
        game.push(command)
    before = MODULE.publish(game.view(), game)["roles_note"]
    assert "never knows who is a cultist or the seer" in str(before)
    assert not any(name in str(before) for name in names), before
    for command in ("end-round", "next-phase", "draw-event", "next-phase", "vote seat=3 last=yes"):
        game.push(command)
    assert game.outcome is not None and game.outcome.result == "won"
    after = str(MODULE.publish(game.view(), game)["roles_note"])
    assert "never knows" not in after and "Cy showed the last cultist's card" in after, after
    assert after.endswith("It was told no other role, nor who the seer was."), after
    assert [name for name in names if name in after] == ["Cy"], after  # Bo, voted out before, is not named
