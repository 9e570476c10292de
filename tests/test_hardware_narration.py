"""`hardware.Table` reading a script out (Among Cultists' night, the vote's "3, 2, 1, point!") and the round clock.

The service publishes a script under "narration" with each step's time ("at", seconds from the start); the
Table shows each step on the OLED and speaks it at that time, never over the step before, and sounds the buzzer on
the step that asks for it. A newer script, or a state without one, stops it. The hand stands on the hours between
the four calibrated marks too: ten rounds, one hour each, from XII to IX.
"""

from __future__ import annotations

import wave
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, RecordingSpawn, quiet_voice

from hardware import Table, screens
from hardware.clock_hand import ClockHand
from hardware.config import HOUR_ANGLE, HOUR_MARKS, MARK_ANGLE, HardwareConfig, VoiceConfig
from hardware.voice import Voice

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
STATE = {"rules": "among-cultists", "round": 1, "rounds": 10, "phase": "night", "clock": "XII", "start_player": 1,
         "names": ["Ana", "Ben", "Cem", "Dora"], "vote_used": False, "event": None}


class SlowProc:
    """A spoken sentence that lasts `seconds` of the fake clock."""

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        self.clock, self.until, self.stopped = clock, clock.now() + seconds, False

    def poll(self) -> int | None:
        return 0 if self.stopped or self.clock.now() >= self.until else None

    def wait(self, timeout: float | None = None) -> int:
        return 0

    def terminate(self) -> None:
        self.stopped = True


@pytest.fixture
def parts() -> tuple[Table, MockFactory, FakeClock, list[tuple[float, list[str]]]]:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    said: list[tuple[float, list[str]]] = []
    procs: list[SlowProc] = []

    def spawn(argv: list[str]) -> SlowProc:
        said.append((clock.now(), argv))
        procs.append(SlowProc(clock, 4.0))  # each sentence takes 4 s: longer than the first step's slot
        return procs[-1]

    voice = Voice(VoiceConfig(), spawn=spawn)
    voice.path = voice.path or "espeak-ng"
    t = Table(HardwareConfig(), sim=True, now=clock.now, sleep=clock.sleep, threaded=False, pin_factory=factory,
              voice=voice)
    yield t, factory, clock, said
    t.close()


def test_each_step_is_shown_and_said_at_its_time_never_over_the_one_before(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, said = parts
    t.show(STATE)
    t.run_pending()
    start = clock.now()
    t.show({**STATE, "narration": NIGHT})
    t.run_pending()
    assert [argv[-1] for _, argv in said] == [step["text"] for step in NIGHT["steps"]]
    offsets = [round(at - start, 2) for at, _ in said]
    assert offsets[0] == 0.0
    assert offsets[1] == pytest.approx(5.0, abs=0.3)  # its time: the first sentence (4 s) was over by then
    assert offsets[2] == pytest.approx(11.0, abs=0.3)
    assert t.narrated == [step["text"] for step in NIGHT["steps"]]
    # then the game comes back on the OLED
    assert t.display.screen is not None and t.display.screen.tobytes() == screens.game_screen(STATE).tobytes()


def test_a_step_waits_for_the_voice_when_the_words_take_longer_than_the_slot(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, said = parts
    quick = {**NIGHT, "id": "1.2", "steps": [{**s, "at": i * 1.0} for i, s in enumerate(NIGHT["steps"])]}
    start = clock.now()
    t.show({**STATE, "narration": quick})
    t.run_pending()
    gaps = [b - a for (a, _), (b, _) in zip(said, said[1:], strict=False)]
    assert len(said) == 3 and all(gap >= 4.0 for gap in gaps), gaps  # never talks over the step before
    assert said[0][0] == start


def test_the_same_script_is_read_once_and_a_state_without_it_stops_it(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, said = parts
    t.show({**STATE, "narration": NIGHT})
    t.scheduler.step(3)
    t.show({**STATE, "narration": NIGHT})  # the same id again (another command's state): not read again
    t.show(STATE)  # the script was stopped (or a command played): the rest is not read
    t.run_pending()
    assert len(said) == 1 and t.narrated == [NIGHT["steps"][0]["text"]]


def test_the_countdown_sounds_the_buzzer_on_point(parts) -> None:  # type: ignore[no-untyped-def]
    t, factory, clock, said = parts
    vote = {"id": "1.3", "kind": "vote", "title": "The vote", "steps": [
        {"text": "Three", "screen": "3", "pause": 1.0, "at": 0.0},
        {"text": "Two", "screen": "2", "pause": 1.0, "at": 1.4},
        {"text": "One", "screen": "1", "pause": 1.0, "at": 2.8},
        {"text": "Point!", "screen": "Point!", "pause": 0.0, "at": 4.2, "buzz": True},
    ]}
    buzzer = factory.pin(22)
    buzzer.clear_states()
    t.show({**STATE, "narration": vote})
    t.run_pending()
    assert [argv[-1] for _, argv in said] == ["Three", "Two", "One", "Point!"]
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
    t, factory, clock, said = parts
    t.show({**STATE, "round": 4, "phase": "movement", "clock": "III"})
    t.run_pending()
    t.show({**STATE, "round": 5, "phase": "movement", "clock": "IV"})
    t.run_pending()
    assert t.hand_mark == "IV" and t.hand_angle == 120.0


@pytest.mark.skipif(Voice(VoiceConfig()).path is None, reason="espeak-ng is not installed")
def test_the_script_renders_as_speech_at_its_times_with_silence_between(tmp_path: Path) -> None:
    voice = Voice(VoiceConfig())
    wav = voice.render_script(NIGHT["steps"], tmp_path / "night.wav")
    with wave.open(str(wav), "rb") as w:
        rate, width, n = w.getframerate(), w.getsampwidth(), w.getnframes()
        frames = w.readframes(n)
    assert width == 2
    import array

    samples = array.array("h", frames)
    window = rate // 10  # 100 ms

    def loud(t0: float, t1: float) -> bool:
        part = samples[int(t0 * rate):int(t1 * rate)]
        return max((abs(x) for x in part), default=0) > 1000

    # the words of each step start at its time; the gap before the second step (after the first's words) is silent
    assert n / rate > NIGHT["steps"][-1]["at"]
    for step in NIGHT["steps"]:
        assert loud(step["at"], step["at"] + 1.0), step["text"]
    assert not loud(4.0, 4.9)  # the first step's words are over and the second's have not begun
    assert not loud(NIGHT["steps"][2]["at"] - 0.6, NIGHT["steps"][2]["at"] - 0.1)
    assert window > 0


def test_a_voice_without_espeak_says_nothing_and_the_oled_still_reads_the_script() -> None:
    clock = FakeClock()
    voice = quiet_voice(RecordingSpawn(), enabled=False)
    t = Table(HardwareConfig(), sim=True, now=clock.now, sleep=clock.sleep, threaded=False,
              pin_factory=MockFactory(pin_class=MockPWMPin), voice=voice)
    try:
        t.show({**STATE, "narration": NIGHT})
        t.run_pending()
        assert t.narrated == [step["text"] for step in NIGHT["steps"]]
        assert voice.spoken == []
    finally:
        t.close()
