"""`hardware.Table` reading a script out (Among Cultists' night, the vote's "3, 2, 1, point!") and the round clock.

The service publishes a script under "narration" with each step's time ("at", seconds from the start); the
Table shows each step on the OLED and speaks it at that time, never over the step before, and sounds the buzzer on
the step that asks for it. A newer script, or a state without one, stops it. With the voice's `length` wired in
(as `companion serve` does), the service times the steps by the rendered lines: each pause starts when the audio
of its line has ended, with Piper where it is installed. The hand stands on the hours between the four calibrated
marks too: ten rounds, one hour each, from XII to IX.
"""

from __future__ import annotations

import shutil
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, RecordingSpawn, ToneEngine, quiet_voice, sim_table

from hardware import Table, screens
from hardware.clock_hand import ClockHand
from hardware.config import HOUR_ANGLE, HOUR_MARKS, MARK_ANGLE, HardwareConfig, VoiceConfig
from hardware.voice import Player, Voice, piper_installed

NIGHT = {
    "id": "1.1",
    "kind": "night",
    "title": "The night",
    "steps": [
        {"text": "Everyone, close your eyes.", "screen": "Eyes closed", "pause": 2.0, "at": 0.0},
        {"text": "Cultists, open your eyes and see each other.", "screen": "Cultists: look", "pause": 3.0, "at": 5.0},
        {"text": "Everyone, open your eyes.", "screen": "Eyes open", "pause": 0.0, "at": 11.0},
    ],
}
STATE = {
    "rules": "among-cultists",
    "round": 1,
    "rounds": 10,
    "phase": "night",
    "clock": "XII",
    "start_player": 1,
    "names": ["Ana", "Ben", "Cem", "Dora"],
    "vote_used": False,
    "event": None,
}


@pytest.fixture
def parts() -> Iterator[tuple[Table, MockFactory, FakeClock, Callable[[], list[tuple[float, str]]]]]:
    """A Table on a fake clock whose voice renders each sentence as a tone (4 s for every line: longer than the
    first step's slot) and plays it on a stand-in aplay that lasts as long as the samples written to it."""
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    spawn = RecordingSpawn(clock)
    voice = quiet_voice(spawn, engine=FixedLength(4.0), now=clock.now)
    t = sim_table(clock, pin_factory=factory, voice=voice)

    def heard() -> list[tuple[float, str]]:  # (when its first sample was written, the line), for each line played
        return [(proc.started, line) for proc, line in zip(spawn.procs, spawn.said, strict=True)]

    yield t, factory, clock, heard
    t.close()


class FixedLength(ToneEngine):
    """Every line lasts `seconds`."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.ident = f"fixed/{seconds}"

    def render(self, text: str) -> Any:
        from hardware.voice import RATE, Speech

        self.rendered.append(text)
        return Speech((np.ones(round(self.seconds * RATE)) * 8000).astype(np.int16))


def test_each_step_is_shown_and_said_at_its_time_never_over_the_one_before(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, heard = parts
    t.show(STATE)
    t.run_pending()
    start = clock.now()
    t.show({**STATE, "narration": NIGHT})
    t.run_pending()
    said = heard()
    assert [line for _, line in said] == [step["text"] for step in NIGHT["steps"]]
    offsets = [round(at - start, 2) for at, _ in said]
    assert offsets[0] == 0.0
    assert offsets[1] == pytest.approx(5.0, abs=0.3)  # its time: the first sentence (4 s) was over by then
    assert offsets[2] == pytest.approx(11.0, abs=0.3)
    assert t.narrated == [step["text"] for step in NIGHT["steps"]]
    # then the game comes back on the OLED
    assert t.display.screen is not None and t.display.screen.tobytes() == screens.game_screen(STATE).tobytes()


def test_a_step_waits_for_the_voice_when_the_words_take_longer_than_the_slot(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, heard = parts
    quick = {**NIGHT, "id": "1.2", "steps": [{**s, "at": i * 1.0} for i, s in enumerate(NIGHT["steps"])]}
    start = clock.now()
    t.show({**STATE, "narration": quick})
    t.run_pending()
    said = heard()
    gaps = [b - a for (a, _), (b, _) in zip(said, said[1:], strict=False)]
    assert len(said) == 3 and all(gap >= 4.0 for gap in gaps), gaps  # never talks over the step before
    assert said[0][0] == start


def test_the_same_script_is_read_once_and_a_state_without_it_stops_it(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, heard = parts
    t.show({**STATE, "narration": NIGHT})
    t.scheduler.step(3)
    t.show({**STATE, "narration": NIGHT})  # the same id again (another command's state): not read again
    t.show(STATE)  # the script was stopped (or a command played): the rest is not read
    t.run_pending()
    said = heard()
    assert len(said) == 1 and t.narrated == [NIGHT["steps"][0]["text"]]


def test_the_countdown_sounds_the_buzzer_on_point(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, heard = parts
    vote = {
        "id": "1.3",
        "kind": "vote",
        "title": "The vote",
        "steps": [
            {"text": "Three", "screen": "3", "pause": 1.0, "at": 0.0},
            {"text": "Two", "screen": "2", "pause": 1.0, "at": 1.4},
            {"text": "One", "screen": "1", "pause": 1.0, "at": 2.8},
            {"text": "Point!", "screen": "Point!", "pause": 0.0, "at": 4.2, "buzz": True},
        ],
    }
    buzzer = factory.pin(22)
    buzzer.clear_states()
    t.show({**STATE, "narration": vote})
    t.run_pending()
    said = heard()
    assert [line for _, line in said] == ["Three", "Two", "One", "Point!"]
    assert sum(1 for s in buzzer.states if s.state) == 1


def test_the_narration_screen_shows_the_words_large() -> None:
    short = screens.narration_screen("The vote", "3")
    long = screens.narration_screen("The night", "Cultists, open your eyes and see each other.")
    for image in (short, long):
        assert image.size == (128, 64) and image.getbbox() is not None
    lit = sum(1 for p in short.getdata() if p)  # type: ignore[attr-defined]
    assert lit > 60  # one large digit, not a small one
    assert short.tobytes() != screens.narration_screen("The vote", "2").tobytes()


@pytest.mark.parametrize("mark", HOUR_MARKS)
def test_the_hand_stands_on_every_hour_of_the_round_clock(mark: str) -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    from hardware.factory import make_servo_output

    cfg = HardwareConfig()
    output = make_servo_output(cfg.servo, sim=True, pin_factory=factory)
    hand = ClockHand(output, cfg.servo, now=clock.now, sleep=clock.sleep)
    hand.move_to(mark)
    assert hand.mark == mark and hand.angle == HOUR_ANGLE[mark]
    pulses = cfg.servo.pulse_us
    low, high = sorted((pulses["XII"], pulses["IX"]))
    assert low <= hand.pulse_for_angle(hand.angle) <= high
    if mark in MARK_ANGLE:  # the calibrated marks keep their calibrated pulse
        assert hand.pulse_for_angle(hand.angle) == pytest.approx(pulses[mark])
    hand.close()


def test_the_table_follows_the_round_clock(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, heard = parts
    t.show({**STATE, "round": 4, "phase": "movement", "clock": "III"})
    t.run_pending()
    t.show({**STATE, "round": 5, "phase": "movement", "clock": "IV"})
    t.run_pending()
    assert t.hand_mark == "IV" and t.hand_angle == 120.0


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_script_renders_as_speech_at_its_times_with_silence_between(tmp_path: Path) -> None:
    voice = Voice(VoiceConfig(engine="espeak-ng"))
    wav = voice.render_script(NIGHT["steps"], tmp_path / "night.wav")
    with wave.open(str(wav), "rb") as w:
        rate, width, n = w.getframerate(), w.getsampwidth(), w.getnframes()
        frames = w.readframes(n)
    assert width == 2
    import array

    samples = array.array("h", frames)
    window = rate // 10  # 100 ms

    def loud(t0: float, t1: float) -> bool:
        part = samples[int(t0 * rate) : int(t1 * rate)]
        return max((abs(x) for x in part), default=0) > 1000

    # the words of each step start at its time; the gap before the second step (after the first's words) is silent
    assert n / rate > NIGHT["steps"][-1]["at"]
    for step in NIGHT["steps"]:
        assert loud(step["at"], step["at"] + 1.0), step["text"]
    assert not loud(4.0, 4.9)  # the first step's words are over and the second's have not begun
    assert not loud(NIGHT["steps"][2]["at"] - 0.6, NIGHT["steps"][2]["at"] - 0.1)
    assert window > 0


def test_a_voice_turned_off_says_nothing_and_the_oled_still_reads_the_script() -> None:
    clock = FakeClock()
    voice = quiet_voice(RecordingSpawn(), enabled=False)
    t = sim_table(clock, voice=voice)
    try:
        t.show({**STATE, "narration": NIGHT})
        t.run_pending()
        assert t.narrated == [step["text"] for step in NIGHT["steps"]]
        assert voice.spoken == []
    finally:
        t.close()


# -- the night timed by its rendered lines ------------------------------------------------------------------------


def play_night(
    tmp_path: Path, engine: Any, kind: str = "night", pause: float = 1.0
) -> tuple[list[dict[str, Any]], list[tuple[float, float, str]], Voice]:
    """Among Cultists' script (the seer variant: six steps) timed by the service with the voice's rendered lengths
    and played by a Table on a fake clock; returns the steps and (start, end, line) of each sound aplay was given:
    when its first sample was written and when its last one has played."""
    import random

    from companion.games.skeptics.packs import load_packs
    from companion.history import GameStore
    from companion.service import GameService

    clock = FakeClock()
    spawn = RecordingSpawn(clock)
    voice = Voice(
        VoiceConfig(), data_dir=tmp_path, engine=engine, player=Player(spawn=spawn, threaded=False, now=clock.now)
    )
    spawn.voice = voice
    table = sim_table(clock, voice=voice)
    service = GameService(
        GameStore(tmp_path / "g.sqlite3"), load_packs(), rng=random.Random(3), speech_length=voice.length
    )  # what companion serve wires
    try:
        service.new_game(
            {
                "rules": "among-cultists",
                "players": 5,
                "cultists": 1,
                "points_needed": 5,
                "seed": 4,
                "seer": True,
                "names": ["Ana", "Ben", "Cem", "Dora", "Eli"],
            }
        )
        service.add_listener(table.on_events)
        table.run_pending()
        t0 = clock.now()
        steps = service.narrate(kind, pause)["narration"]["steps"]
        table.show(service.state())
        table.run_pending()
        sounds = [
            (p.started - t0, p.started - t0 + p.seconds, line) for p, line in zip(spawn.procs, spawn.said, strict=True)
        ]
        return steps, sounds, voice
    finally:
        service.close()
        table.close()


def check_each_pause_starts_after_its_line(
    steps: list[dict[str, Any]], sounds: list[tuple[float, float, str]], voice: Voice
) -> None:
    assert [line for _, _, line in sounds] == [step["text"] for step in steps]
    for step, (start, end, line) in zip(steps, sounds, strict=True):
        # the length the service timed the step by is the length of the audio played
        assert step["speech_s"] == pytest.approx(end - start, abs=0.002), line
        assert step["speech_s"] == pytest.approx(voice.speech(line).seconds, abs=0.002)
        assert start == pytest.approx(step["at"], abs=1e-6)  # each line at its time (the phones show it then)
    for i in range(len(steps) - 1):
        # the next step's time leaves the line's whole length and then its pause; the next sound starts after the
        # line's last sample has played and the pause has passed
        end = sounds[i][1]
        assert steps[i + 1]["at"] >= steps[i]["at"] + steps[i]["speech_s"] + steps[i]["pause"] - 1e-9
        assert sounds[i + 1][0] >= end + steps[i]["pause"] - 1e-6, (steps[i]["text"], sounds[i], sounds[i + 1])


def test_the_nights_pauses_start_when_the_rendered_lines_end(tmp_path: Path) -> None:
    """With a stand-in engine whose lines last 0.05 s a character (longer lines, later steps)."""
    steps, sounds, voice = play_night(tmp_path, ToneEngine(0.05))
    check_each_pause_starts_after_its_line(steps, sounds, voice)
    # the long line of the cultists' look takes longer than the short one after it, and is timed so
    assert steps[1]["speech_s"] > steps[2]["speech_s"] > 1.0


@pytest.mark.skipif(not piper_installed(), reason="Piper is not installed (uv sync --extra voice)")
def test_the_night_rendered_with_piper_starts_each_pause_after_its_lines_audio_ends(tmp_path: Path) -> None:
    voice = Voice(VoiceConfig(), data_dir=tmp_path)
    assert voice.engine is not None and voice.engine.name == "piper"
    steps, sounds, voice = play_night(tmp_path, voice.engine)
    check_each_pause_starts_after_its_line(steps, sounds, voice)
    for start, end, line in sounds:  # real speech, each line as long as Piper says it
        assert 0.8 < end - start < 10, line
    # the rendered WAV of each line is the cached sound that was played
    for step in steps:
        wav = voice.render(step["text"], tmp_path / "line.wav")
        with wave.open(str(wav), "rb") as w:
            assert w.getframerate() == 22_050
            assert w.getnframes() / w.getframerate() == pytest.approx(step["speech_s"], abs=0.002)


def test_the_countdown_lands_on_the_beat(tmp_path: Path) -> None:
    """ "Three, two, one, point!": each number starts a second after the one before, whatever the word's length;
    the buzzer and the "Point!" start together."""
    steps, sounds, voice = play_night(tmp_path, ToneEngine(0.05), kind="vote")
    texts = [s["text"] for s in steps]
    assert texts[1:5] == ["Three", "Two", "One", "Point!"]
    onsets = [start for start, _, _ in sounds]
    assert [round(b - a, 2) for a, b in zip(onsets[1:5], onsets[2:5], strict=False)] == [1.0, 1.0, 1.0]
    assert [steps[i + 1]["at"] - steps[i]["at"] for i in (1, 2, 3)] == pytest.approx([1.0, 1.0, 1.0], abs=0.011)
    # "ready" is said whole, then its pause, before the count starts
    assert onsets[1] >= sounds[0][1] + steps[0]["pause"] - 1e-6


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_new_games_script_lines_are_rendered_ahead_so_reading_them_out_renders_nothing(
    tmp_path: Path, language: str
) -> None:
    import random

    from companion.games.skeptics.packs import load_packs
    from companion.history import GameStore
    from companion.service import GameService
    from hardware.voice import sentences

    engine = ToneEngine(0.01)
    voice = Voice(
        VoiceConfig(language=language),
        data_dir=tmp_path,
        engine=engine,
        player=Player(spawn=RecordingSpawn(), threaded=False),
    )
    with GameService(
        GameStore(tmp_path / "g.sqlite3"),
        load_packs(),
        rng=random.Random(3),
        speech_language=language,
        speech_length=voice.length,
    ) as service:
        threads: list[Any] = []
        service.speech_prepare = lambda lines: threads.append(voice.prepare(lines))  # what companion serve wires
        service.new_game(
            {"rules": "among-cultists", "players": 5, "cultists": 1, "points_needed": 5, "seed": 4, "seer": True}
        )
        for thread in threads:
            thread.join()
        ahead = list(engine.rendered)
        night = service.narrate("night")["narration"]["steps"]
        vote = service.narrate("vote")["narration"]["steps"]
        spoken = [str(step.get("say") or step["text"]) for step in night + vote]
        assert {s for line in spoken for s in sentences(line)} <= set(ahead)
        assert engine.rendered == ahead  # read out from the cache: nothing rendered while the host waits
        if language == "de":
            assert "Es wird Nacht." in ahead and "Drei" in ahead
        service.new_game({"rules": "skeptics", "players": 3, "board": "asylum", "ghost": "child", "seed": 1})
        assert service.script_lines() == []  # Skeptics reads nothing out
