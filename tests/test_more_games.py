"""Among Cultists and Spooks behind the seam: through the service on a real SQLite file (undo, the file, resuming),
the terminal's documented spellings (issue 16's interface), the scripts read out (GameService.narrate) and the
table's hardware (the round clock on the hand, the OLED, the voice of the night as rendered audio)."""

from __future__ import annotations

import math
import random
import shutil
import wave
from pathlib import Path
from typing import Any

import pytest
from games import write_played_then
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, RecordingSpawn, quiet_voice, sim_table
from test_game_cli import assert_clean_error, run, state_json

from companion.errors import BadCommand, IllegalCommand
from companion.games.base import module_for
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import SPEECH_WORDS_PER_S, GameService
from hardware import screens
from hardware.config import VoiceConfig
from hardware.voice import Voice

AC_KEYS = ("rules", "round", "phase", "outcome")
SPOOKS_KEYS = ("rules", "scores", "outcome", "winner")
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed"]


def service_on(path: Path, seed: int = 3) -> GameService:
    return GameService(GameStore(path), load_packs(), rng=random.Random(seed))


def new_among_cultists(service: GameService, **more: Any) -> dict[str, Any]:
    return service.new_game(
        {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": 5, "seed": 4, "names": NAMES, **more}
    )


# -- the service -----------------------------------------------------------------------------------------------


def test_among_cultists_is_played_undone_and_resumed_from_the_file(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    service = service_on(db)
    state = new_among_cultists(service, seer=True)
    assert all(key in state for key in AC_KEYS) and state["phase"] == "night" and state["clock"] == "XII"
    assert all("=" not in a["label"] for a in state["legal"])
    service.do("night-done")
    for name in ("next-phase", "draw-event", "next-phase"):
        service.do(name)
    assert service.state()["phase"] == "action"
    result = service.do("vote", {"seat": "2"})
    assert any("Bo" in (record.get("story") or "") for record in result.events)
    service.do("next-phase")
    after = service.do("end-round").state
    assert (
        after["round"] == 2 and after["clock"] == "I" and after["start_player"] == 2
    )  # :57, :52: Bo, a ghost, takes the knife
    undone = service.undo()
    assert undone.state["round"] == 1 and undone.state["phase"] == "cleanup"
    assert undone.events[0]["text"].startswith("Undone: ")
    service.redo()
    service.close()
    again = service_on(db)
    resumed = again.resume_last()
    assert resumed is not None and resumed["rules"] == "among-cultists"
    assert (resumed["round"], resumed["start_player"], resumed["eliminated"]) == (2, 2, [2])
    assert again.store.game(resumed["game_id"]).setup["rules"] == "among-cultists"
    again.close()


def test_spooks_keeps_score_and_ends_at_200_with_the_lowest_winning(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    service = service_on(db)
    state = service.new_game({"rules": "spooks", "players": 3, "names": ["Ada", "Bo", "Cy"]})
    assert all(key in state for key in SPOOKS_KEYS) and state["scores"] == [0, 0, 0]
    assert "seed" not in service.store.game(state["game_id"]).setup  # it shuffles nothing
    with pytest.raises(BadCommand):
        service.new_game({"rules": "spooks", "players": 3, "seed": 4})
    service.do("hand", {"points": "0,40,25"})
    service.do("hand", {"cards": "M+cat;;9"})  # Ada: a Master and the Cat (50); Bo went out; Cy: a 9
    assert service.state()["scores"] == [50, 40, 34]
    while service.state()["outcome"] is None:
        service.do("hand", {"points": "0,60,10"})
    final = service.state()
    assert final["outcome"] and final["winner"] == 1 and max(final["scores"]) >= 200
    assert final["summary"]["lines"]
    service.undo()
    assert service.state()["outcome"] is None
    service.close()
    resumed = service_on(db).resume_last()
    assert resumed is not None and resumed["rules"] == "spooks" and resumed["outcome"] is None


# -- the scripts read out --------------------------------------------------------------------------------------


def test_the_night_is_read_out_with_the_hosts_pause_and_ended_by_the_next_command(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite")
    new_among_cultists(service, seer=True)
    heard: list[dict[str, Any]] = []
    service.add_listener(lambda events, state: heard.append(state))
    short = service.narrate("night", 1.0)["narration"]
    long = service.narrate("night", 6.0)["narration"]
    assert short["id"] != long["id"] and short["kind"] == "night" and short["title"] == "The night"
    assert [s["text"] for s in short["steps"]] == [s["text"] for s in long["steps"]]
    assert any("seer" in s["text"].lower() for s in long["steps"])
    assert long["length"] > short["length"]
    # each step's time: without a voice to measure them, the words before it at the voice's pace, then their
    # pauses (each time rounded up to the hundredth, so a step never starts before the one before has ended)
    at = 0.0
    for step in long["steps"]:
        at = math.ceil(round(at * 100, 6)) / 100
        assert step["at"] == pytest.approx(at, abs=1e-9)
        assert step["speech_s"] == pytest.approx(len(step["text"].split()) / SPEECH_WORDS_PER_S, abs=1e-3)
        at += len(step["text"].split()) / SPEECH_WORDS_PER_S + step["pause"]
    assert heard and heard[-1]["narration"]["id"] == long["id"]  # every listener hears of it (the phones, the Table)
    assert service.state()["history_length"] == 0  # nothing was written: it is no command of the game
    service.do("night-done")
    assert "narration" not in service.state()
    # the countdown: a fixed pace, the buzzer on "point"
    vote = service.narrate("vote")["narration"]
    assert vote["kind"] == "vote" and sum(1 for s in vote["steps"] if s.get("buzz")) == 1
    assert "narration" not in service.stop_narration()
    for bad in (0.1, 31, float("nan"), True, "4"):
        with pytest.raises(BadCommand, match="seconds"):
            service.narrate("night", bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalCommand, match="reads out: The night, The vote"):
        service.narrate("story")
    service.new_game({"rules": "spooks", "players": 3})
    with pytest.raises(IllegalCommand, match="Spooks has no"):
        service.narrate("night")
    service.close()


@pytest.mark.parametrize("pause", [2.0, 4.0, 9.0, 14.0])
def test_the_pause_the_host_chose_is_the_pause_the_table_gets(tmp_path: Path, pause: float) -> None:
    """Found by a new player: with "short pauses (2 s)" the night took nearly a minute, 7-10 s a line. Each step's
    time is its words as the voice says them, then the pause: the pause after every step but the last is the one
    chosen, never doubled, and nothing else is added (the lengths here are a voice's measure, fixed per line)."""
    lengths: dict[str, float] = {}

    def measured(text: str) -> float:  # a voice's length of each line: longer lines take longer, as spoken
        return lengths.setdefault(text, round(0.37 * len(text.split()) + 0.11, 3))

    service = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(3), speech_length=measured)
    for seer in (True, False):
        new_among_cultists(service, seer=seer)
        narration = service.narrate("night", pause)["narration"]
        steps = narration["steps"]
        assert narration["pause"] == pause
        for step, after in zip(steps, steps[1:], strict=False):
            assert step["speech_s"] == lengths[step["text"]]
            waited = after["at"] - step["at"] - step["speech_s"]  # what the table waits once the words end
            assert waited == pytest.approx(pause, abs=0.011), step["text"]  # the hundredth a step rounds up to
        assert narration["length"] == pytest.approx(
            steps[-1]["at"] + steps[-1]["speech_s"], abs=0.011
        )  # the last step waits for nothing
        words = sum(lengths[s["text"]] for s in steps)
        assert narration["length"] == pytest.approx(words + pause * (len(steps) - 1), abs=0.011 * len(steps))
    service.close()


def test_the_night_is_spoken_in_the_voices_language(tmp_path: Path) -> None:
    service = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(1), speech_language="de")
    new_among_cultists(service)
    steps = service.narrate("night")["narration"]["steps"]
    german = module_for("among-cultists").scripts(service._game, service._names, "night", 4.0, "de")  # type: ignore[misc]
    assert [s["say"] for s in steps] == [s["text"] for s in german]
    assert all(s["say"] != s["text"] for s in steps)  # the phones read the companion's English
    service.close()


# -- the terminal ------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_terminal_plays_both_with_the_documented_spellings(tmp_path: Path) -> None:
    db = tmp_path / "more.sqlite"
    done = run(
        "new",
        "--rules",
        "among-cultists",
        "--players",
        "6",
        "--cultists",
        "2",
        "--seer",
        "--points-needed",
        "5",
        "--seed",
        "5",
        "--db",
        str(db),
    )
    assert done.returncode == 0, done.stderr
    assert "Among Cultists" in done.stdout and "seed 5" in done.stdout
    state = state_json(db)
    assert all(key in state for key in AC_KEYS) and state["cultists"] == 2 and state["seer"] is True
    for command in ("night-done", "next-phase", "draw-event", "next-phase"):
        done = run("do", "--db", str(db), command)
        assert done.returncode == 0, (command, done.stderr)
    assert state_json(db)["phase"] == "action"
    assert_clean_error(run("do", "--db", str(db), "vote", "seat=9"), 2)  # no such seat
    done = run("do", "--db", str(db), "vote", "seat=2")
    assert done.returncode == 0 and "voted out" in done.stdout, done.stderr
    assert_clean_error(run("do", "--db", str(db), "vote", "seat=3"), 1, "once")  # one vote a round
    for command in ("next-phase", "end-round"):
        assert run("do", "--db", str(db), command).returncode == 0
    state = state_json(db)
    assert (state["round"], state["phase"], state["vote_used"], state["outcome"]) == (2, "movement", False, None)
    assert_clean_error(
        run("new", "--rules", "among-cultists", "--players", "6", "--variant", "long", "--db", str(db)),
        2,
        "--variant is not a choice of Among Cultists",
    )
    assert_clean_error(  # :60 gives no number of victory points: the host gives the box's
        run("new", "--rules", "among-cultists", "--players", "6", "--db", str(db)),
        2,
        "an Among Cultists game needs --cultists and --points-needed",
    )
    assert_clean_error(
        run("new", "--players", "2", "--board", "asylum", "--ghost", "child", "--seer", "--db", str(db)),
        2,
        "--seer is not a choice of Skeptics",
    )

    db2 = tmp_path / "spooks.sqlite"
    done = run("new", "--rules", "spooks", "--players", "3", "--names", "Ada,Bo,Cy", "--db", str(db2))
    assert done.returncode == 0, done.stderr
    assert "seed" not in done.stdout
    done = run("do", "--db", str(db2), "hand", "points=0,12,35")
    assert done.returncode == 0, done.stderr
    state = state_json(db2)
    assert all(key in state for key in SPOOKS_KEYS) and state["scores"] == [0, 12, 35] and state["winner"] is None
    assert "Bo 12" in run("state", "--db", str(db2)).stdout
    assert_clean_error(run("do", "--db", str(db2), "hand", "points=0,12"), 2, "give 3")
    assert_clean_error(
        run("new", "--rules", "spooks", "--players", "3", "--seed", "2", "--db", str(db2)), 2, "shuffles nothing"
    )
    # a Master on top with the Masters' effects: the terminal is asked how it was played (docs/terminal.md)
    db3 = tmp_path / "masters.sqlite"
    assert run("new", "--rules", "spooks", "--players", "3", "--master-effects", "--db", str(db3)).returncode == 0
    assert_clean_error(run("do", "--db", str(db3), "top", "suit=bones", "number=M"), 2, "effect=yes")
    done = run("do", "--db", str(db3), "top", "suit=bones", "number=M", "effect=yes")
    assert done.returncode == 0, done.stderr
    assert state_json(db3)["direction"] == "clockwise"


# -- the hardware -------------------------------------------------------------------------------------------------


def test_the_table_follows_among_cultists_and_reads_the_night_out(tmp_path: Path) -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    spawn = RecordingSpawn()
    service = service_on(tmp_path / "g.sqlite")
    with sim_table(clock, pin_factory=factory, voice=quiet_voice(spawn)) as table:
        service.add_listener(table.on_events)
        new_among_cultists(service, seer=True)
        table.run_pending()
        state = service.narrate("night", 1.0)
        table.run_pending()
        steps = state["narration"]["steps"]
        assert spawn.said[-len(steps) :] == [s["text"] for s in steps]
        assert table.narrated == [s["text"] for s in steps]
        service.do("night-done")
        for name in ("next-phase", "draw-event", "next-phase", "next-phase", "end-round", "next-phase"):
            service.do(name)
            table.run_pending()
        after = service.state()
        assert after["round"] == 2 and table.hand_mark == "I" and table.hand_angle == 30.0
        assert table.display.screen is not None
        assert table.display.screen.tobytes() == screens.game_screen(after).tobytes()
        assert table.display.screen.tobytes() == screens.among_cultists_screen(after).tobytes()
    service.close()


def test_spooks_on_the_oled_shows_every_score(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite")
    service.new_game({"rules": "spooks", "players": 4, "names": ["Ada", "Bo", "Cy", "Di"]})
    service.do("hand", {"points": "0,35,12,7"})
    state = service.state()
    image = screens.game_screen(state)
    assert image.tobytes() == screens.spooks_screen(state).tobytes()
    other = screens.spooks_screen({**state, "scores": [0, 36, 12, 7]})
    assert image.tobytes() != other.tobytes()  # a score is drawn, not a fixed picture
    service.close()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_voice_of_the_night_renders_as_speech_with_its_pauses(tmp_path: Path) -> None:
    service = service_on(tmp_path / "g.sqlite")
    new_among_cultists(service, seer=True)
    steps = service.narrate("night", 2.0)["narration"]["steps"]
    service.close()
    wav = Voice(VoiceConfig(engine="espeak-ng")).render_script(steps, tmp_path / "night.wav")
    with wave.open(str(wav), "rb") as w:
        rate, n, frames = w.getframerate(), w.getnframes(), w.readframes(w.getnframes())
    import array

    samples = array.array("h", frames)

    def loud(t0: float, t1: float) -> bool:
        return max((abs(x) for x in samples[int(t0 * rate) : int(t1 * rate)]), default=0) > 1000

    assert n / rate > steps[-1]["at"]
    for step in steps:
        assert loud(step["at"], step["at"] + 0.8), step["text"]  # each step is heard at its time
    for before, step in zip(steps, steps[1:], strict=False):
        if step["at"] - before["at"] > 3.0:  # a long pause: silence just before the next step
            assert not loud(step["at"] - 0.5, step["at"] - 0.05), step["text"]


def test_the_owners_event_markers_in_the_box_folder_are_drawn(tmp_path: Path) -> None:
    """docs/among-cultists.md, "The event pack": the owner's events.toml beside Skeptics' pack files replaces the
    stand-ins; the wizard then lets the companion draw from it (its markers are filled in)."""
    from companion.box import Box

    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "events.toml").write_text(
        '[[events]]\nid = "power"\nname = "Power cut"\ntext = "No light this round."\n', encoding="utf-8"
    )
    service = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(1), box=Box(folder))
    new_among_cultists(service)
    for name in ("night-done", "next-phase", "draw-event"):
        service.do(name)
    event = service.state()["event"]
    assert (event["name"], event["stand_in"], service.state()["stand_ins"]) == ("Power cut", False, False)
    service.close()


# -- history files written before a rule changed --------------------------------------------------------------


def test_history_files_from_before_the_rule_changes_open_and_replay_as_they_were_played(tmp_path: Path) -> None:
    """Among Cultists' points ending the game at once and Spooks' Master on top asking for its effect changed how
    some commands play; a file written before keeps opening, each game in the reading it was played in."""
    from companion.games.among_cultists.engine import Game as ACGame
    from companion.games.among_cultists.engine import Setup as ACSetup
    from companion.games.among_cultists.packs import load_packs as ac_packs
    from companion.games.spooks.engine import Game as SPGame
    from companion.games.spooks.engine import Setup as SPSetup

    path = tmp_path / "then.sqlite"
    store = GameStore(path)
    then_ac = ACGame.new(ACSetup(players=5, cultists=1, points_needed=3, names=tuple(NAMES), seed=2), ac_packs())
    then_ac.host_records_points_win = True  # the host tapped the win
    ac_commands = ["night-done", "points n=5", "next-phase", "draw-event", "next-phase", "end-round", "points-win"]
    ac_id = write_played_then(store, then_ac, ac_commands)
    then_sp = SPGame.new(SPSetup(players=3, names=("Ada", "Bo", "Cy"), master_effects=True), None)
    then_sp.top_master_without_effect = True  # a Master on top changed nothing; "A Master played" did
    sp_commands = ["top suit=bones number=M", "master suit=bones seat=2", "hand points=0,4,9", "top suit=bats number=M"]
    sp_id = write_played_then(store, then_sp, sp_commands)
    store.close()

    service = service_on(path)
    ac = service.load_game(ac_id)
    assert ac["outcome"] == "won" and ac["round"] == 2 and ac["points"] == 5 and ac["history_length"] == 7
    assert [h["text"] for h in service.history()][-1].startswith("The investigators win")
    service.undo()  # one step back: 5 of 3 and the game on, as the table had it then
    state = service.state()
    assert state["outcome"] is None and state["round"] == 2 and state["points"] == 5
    assert "points-win" in [a["name"] for a in state["legal"]]
    sp = service.load_game(sp_id)
    assert sp["direction"] == "clockwise" and sp["backward_runs"] is False  # the Master of Bats on top: nothing
    assert sp["top"] == {"suit": "bats", "number": "M"} and sp["scores"] == [0, 4, 9]
    service.do("top", {"suit": "spooks", "number": "7"})  # the game goes on
    # the games record replays them in the same reading (companion/record.py)
    records = {r["game"]: r for r in service.records()}
    assert "problem" not in records[ac_id] and records[ac_id]["rounds"] == 2  # (the win was undone above)
    assert records[ac_id]["commands"] == len(ac_commands) - 1
    assert "problem" not in records[sp_id] and records[sp_id]["commands"] == len(sp_commands) + 1
    service.close()
    # and a game of now in the same file keeps the reading of now
    service = service_on(path)
    new_among_cultists(service, points_needed=2)
    service.do("night-done")
    assert service.do("points", {"n": "2"}).state["outcome"] == "won"
    game_id = service.state()["game_id"]
    service.close()
    again = service_on(path)
    assert again.load_game(game_id)["outcome"] == "won" and again.load_game(ac_id)["points"] == 5
    again.close()


def test_a_spooks_file_from_before_the_deck_bound_opens_and_the_next_hand_is_bound(tmp_path: Path) -> None:
    """A hand above what the deck holds was taken before the companion refused it (a fresh player's 500 points);
    a file that recorded one keeps opening, and the hands played after it are bound by the deck."""
    from companion.games.spooks.engine import Game as SPGame
    from companion.games.spooks.engine import Setup as SPSetup

    path = tmp_path / "then.sqlite"
    store = GameStore(path)
    then = SPGame.new(SPSetup(players=3, names=("Ada", "Bo", "Cy"), loss_limit=1000), None)
    then.uncapped_length = None  # then every hand counted 0 to the deck's 405 points, with no bound for all
    game_id = write_played_then(store, then, ["hand points=0,300,300"])
    store.close()
    service = service_on(path)
    assert service.load_game(game_id)["scores"] == [0, 300, 300]
    with pytest.raises(BadCommand, match="one deck holds 405 points, and the 1 of Spiders that starts the hand"):
        service.do("hand", {"points": "0,250,250"})
    assert service.state()["scores"] == [0, 300, 300]  # nothing taken
    assert service.do("hand", {"points": "7,0,30"}).state["scores"] == [7, 300, 330]
    assert "problem" not in {r["game"]: r for r in service.records()}[game_id]
    service.close()
