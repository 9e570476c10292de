"""The hardware as a listener of the real game service (real engine, real SQLite history).

Rulebook, "Advancing the Clock": the round ends, the hand moves a quarter; at XII the
Ghost Hour Sequence runs. Note: players may end a round at any time — here with the
"end round" button.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from games import cards_told, numbers_copied
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hardware_fakes import FakeClock, RecordingSpawn, quiet_voice, sim_table

from companion.games.skeptics.engine import Setup
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from hardware import Table
from hardware.config import FRAME_US, HardwareConfig
from hardware.voice import ghost_hour_text

# luma.oled still calls Image.getdata(), which Pillow 13 warns about.


def press(factory: MockFactory, clock: FakeClock, pin: int, seconds: float) -> None:
    factory.pin(pin).drive_low()
    clock.advance(seconds)
    factory.pin(pin).drive_high()
    clock.advance(1)


def wire(table: Table, service: GameService) -> None:
    """What `companion serve` does: the table listens to the service, the buttons command it."""
    service.add_listener(table.on_events)
    table.when_end_round = lambda: service.do("end-round", {}, source="button")
    table.when_undo = lambda: service.undo(source="button")


def test_a_table_played_with_the_buttons_alone(tmp_path: Path) -> None:
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    spawn = RecordingSpawn()
    config = HardwareConfig()
    events: list[dict[str, Any]] = []
    with (
        GameService(GameStore(tmp_path / "games.sqlite3"), load_packs(), rng=random.Random(5)) as service,
        sim_table(clock, config, pin_factory=factory, voice=quiet_voice(spawn)) as table,
    ):
        service.new_game(Setup(players=3, board="asylum", ghost="child", special_items=3, seed=11))
        service.add_listener(lambda evs, state: events.extend(evs))
        wire(table, service)
        table.show(service.state())
        table.run_pending()
        assert table.hand_mark == "XII"

        for expected in ("III", "VI", "IX", "XII"):
            press(factory, clock, 17, 0.2)
            table.run_pending()
            assert service.state()["clock"] == expected
            assert table.hand_mark == expected
            assert factory.pin(18).states[-2].state * FRAME_US == pytest.approx(config.servo.pulse_us[expected])

        ghost_hour = next(e for e in events if e["type"] == "ghost_hour")
        assert spawn.said[-1] == ghost_hour_text(ghost_hour)
        assert table.status()["alarms"] == 1
        assert sum(1 for s in factory.pin(22).states if s.state) == 9

        press(factory, clock, 17, 2.0)  # a long press takes the last round back
        table.run_pending()
        assert service.state()["clock"] == "IX" and table.hand_mark == "IX"
        assert factory.pin(23).state == 0  # the ghost left the board with the undo


def test_restart_in_the_middle_of_a_game(tmp_path: Path) -> None:
    """The companion stops at VI (the hand parks on XII); on restart the hand goes back to VI."""
    db = tmp_path / "games.sqlite3"
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    config = HardwareConfig()
    with (
        GameService(GameStore(db), load_packs(), rng=random.Random(5)) as service,
        sim_table(clock, config, pin_factory=factory) as table,
    ):
        service.new_game(Setup(players=2, board="asylum", ghost="child", special_items=3, seed=3))
        wire(table, service)
        service.do("end-round")
        service.do("end-round")
        table.run_pending()
        assert table.hand_mark == "VI"
    servo = factory.pin(18)
    assert servo.states[-2].state * FRAME_US == pytest.approx(config.servo.pulse_us["XII"])  # parked

    servo.clear_states()
    with (
        GameService(GameStore(db), load_packs()) as service,
        sim_table(clock, config, pin_factory=factory) as table,
    ):
        state = service.resume_last()
        assert state is not None and state["clock"] == "VI"
        table.show(state)
        table.run_pending()
        assert table.hand_mark == "VI"
        assert servo.states[-2].state * FRAME_US == pytest.approx(config.servo.pulse_us["VI"])
        assert servo.frequency is None


def test_the_big_moments_show_on_the_oled_and_are_spoken(tmp_path: Path) -> None:
    """Ghost Mode, a proven set, the end: the OLED shows the companion's sentence for a few seconds and the voice says it."""
    from companion.games.skeptics.sentences import announcement

    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    spawn = RecordingSpawn()
    with (
        GameService(GameStore(tmp_path / "games.sqlite3"), load_packs(), rng=random.Random(5)) as service,
        sim_table(clock, pin_factory=factory, voice=quiet_voice(spawn)) as table,
    ):
        service.new_game(Setup(players=2, board="asylum", ghost="child", seed=3))
        wire(table, service)
        table.show(service.state())
        table.run_pending()
        shown: list[tuple[str, bytes]] = []
        put = table._put

        def record(image: Any, name: str, wake: bool = True) -> None:  # every frame the OLED is given, by name
            put(image, name, wake)
            shown.append((name, table.oled_png() or b""))

        table._put = record  # type: ignore[method-assign]
        said: list[dict[str, Any]] = []
        service.add_listener(lambda evs, state: said.extend(e for e in evs if e.get("announce")))
        while not service.state()["ghost_mode"]:
            service.do("reveal-clue")
            if service.state()["clues_solved"] < service.state()["clues_revealed"]:
                service.do("solve")
        table.run_pending()
        banner = said[-1]["announce"]
        assert banner == announcement(said[-1], service.names)
        assert banner["title"] == "Ghost Mode" and spawn.said[-1] == f"{banner['title']}. {banner['text']}"
        names = [name for name, _ in shown]
        assert "announce" in names and names[-1] == "game"  # shown, then the game screen comes back
        announced = dict(shown)["announce"]
        assert announced != dict(shown)["game"]
        clock.advance(10)
        table.run_pending()
        assert table.status()["screen"] == "game"


def test_elder_sign_turns_the_same_hand_and_sounds_midnight(tmp_path: Path) -> None:
    """Elder Sign (elder-sign-rules.txt:305-323): three hours at the end of every turn; midnight is announced on the
    OLED, by the voice and by the buzzer. The OLED shows the turns to midnight, doom and Elder Signs."""
    from hardware import screens

    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    spawn = RecordingSpawn()
    config = HardwareConfig()
    with (
        GameService(GameStore(tmp_path / "games.sqlite3"), load_packs(), rng=random.Random(5)) as service,
        sim_table(clock, config, pin_factory=factory, voice=quiet_voice(spawn)) as table,
    ):
        service.new_game({"rules": "elder-sign", "players": 2, "seed": 4, "names": ["Ada", "Bo"]})
        numbers_copied(service._game, service)  # the stand-in cards' numbers, copied before the first turn
        wire(table, service)
        table.show(service.state())
        table.run_pending()
        shown = table.display.screen
        assert shown is not None and shown.tobytes() == screens.elder_sign_screen(service.state()).tobytes()
        assert shown.tobytes() != screens.game_screen({**service.state(), "rules": "skeptics"}).tobytes()
        buzzes = sum(1 for s in factory.pin(config.pins.buzzer).states if s.state)
        marks = []
        for _ in range(4):
            cards_told(service._game, service)  # each card question is told first, in its turn (:219, :323)
            service.do("end-turn")
            table.run_pending()
            clock.advance(10)
            table.run_pending()
            marks.append(table.hand_mark)
        state = service.state()
        assert marks == ["III", "VI", "IX", "XII"] and state["clock"] == "XII" and state["midnights"] == 1
        assert any("Midnight" in line for line in spawn.said)  # spoken
        assert sum(1 for s in factory.pin(config.pins.buzzer).states if s.state) > buzzes  # the buzzer sounded
        assert table.display.screen is not None
        assert table.display.screen.tobytes() == screens.elder_sign_screen(state).tobytes()
