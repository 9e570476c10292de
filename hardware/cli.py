"""`companion hw ...`: test and calibrate the table hardware.

    companion hw test [--sim] [--config PATH] [--no-voice] [--model-pi5]
    companion hw calibrate [--sim] [--config PATH]
    companion hw status [--sim] [--config PATH]
    companion hw say "TEXT" [--voice piper|espeak-ng] [--language en|de] --out FILE.wav

`test` reports each part found or missing, sweeps the hand through the marks (printing
the pulse each back end really sends), shows a test screen, sounds the buzzer and
chimes and speaks a sentence through the speaker. `say` renders a line with the narrator's voice to a WAV file
(what the table would play; for a person to listen to, and for tests). `calibrate` moves the hand to each mark and lets you nudge the pulse
width from the keyboard, then saves `[hardware.servo]` into the configuration file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from companion.errors import CompanionError, ConfigError
from hardware.config import ENGINES, MARKS, HardwareConfig, ServoConfig

CALIBRATE_HELP = """\
keys:  + / -   pulse +10 / -10 us      ] / [   +1 / -1 us
       n / p   next / previous mark    s       save and quit
       q       quit without saving     ?       this help"""


class VirtualClock:
    """Time that passes only when slept through: simulated parts need no real waiting."""

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += max(0.0, seconds)


def config_path(explicit: str | None) -> Path | None:
    """The configuration file to read (None: built-in defaults)."""
    from companion.config import find_config_file

    return find_config_file(explicit)


def save_path(explicit: str | None) -> Path:
    """Where `calibrate` writes: the file in use, else the user's configuration file."""
    from companion import paths

    found = config_path(explicit)
    return found if found is not None else paths.user_config_file()


def load_hardware_config(explicit: str | None) -> HardwareConfig:
    from companion.config import prefix_error, read_toml

    path = config_path(explicit)
    data = read_toml(path) if path is not None else {}
    section = data.get("hardware", {})
    try:
        return HardwareConfig.from_dict(section)
    except ConfigError as exc:
        raise prefix_error("hardware", exc) from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion hw", description="Test and calibrate the table hardware.")
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--sim", action="store_true", help="gpiozero's mock pins and luma's dummy OLED; no waiting")
    common.add_argument("--config", metavar="PATH", help="the configuration file (default: the usual places)")
    common.add_argument("-v", "--verbose", action="store_true", help="also print the hardware log")
    test = sub.add_parser(
        "test", parents=[common], help="sweep the hand, show a test screen, beep, speak; report each part"
    )
    test.add_argument("--no-voice", action="store_true", help="do not speak")
    test.add_argument(
        "--model-pi5",
        action="store_true",
        help="with --sim: model gpiozero's lgpio pin on a Pi 5 (duty kept as a whole percent)",
    )
    say = sub.add_parser("say", help="render a line with the narrator's voice to a WAV file")
    say.add_argument("text", help='the words, e.g. "Ghost Hour. The ghost appears in room four."')
    say.add_argument("--voice", choices=ENGINES, help="the engine (default: the configuration's, else piper)")
    say.add_argument("--language", choices=tuple(_languages()), help="the language (default: the configuration's)")
    say.add_argument("--out", metavar="FILE.wav", required=True, help="the WAV file to write")
    say.add_argument("--config", metavar="PATH", help="the configuration file (default: the usual places)")
    say.add_argument("-v", "--verbose", action="store_true", help="also print the voice's log")
    sub.add_parser("calibrate", parents=[common], help="nudge each mark's pulse width and save it")
    sub.add_parser("status", parents=[common], help="which parts answer, as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    logger = logging.getLogger("hardware")
    level = logger.level
    if args.verbose:
        logging.basicConfig(level=logging.DEBUG, format="%(levelname)s %(name)s: %(message)s")
    elif args.command in ("test", "status", "say"):
        # The report prints every part's message itself; the log would say it twice.
        logger.setLevel(logging.ERROR)
    try:
        return _run(args)
    finally:
        logger.setLevel(level)


def _run(args: argparse.Namespace) -> int:
    try:
        if args.command == "calibrate" and args.config and not Path(args.config).expanduser().exists():
            # Calibrating a new build: start from the defaults and create the file.
            config, path = HardwareConfig(), Path(args.config).expanduser()
            return run_calibrate(config, sim=args.sim, path=path)
        config = load_hardware_config(args.config)
        if args.command == "say":
            return run_say(
                config,
                args.text,
                Path(args.out),
                engine=args.voice,
                language=args.language,
                data_dir=_data_dir(args.config),
            )
        if args.command == "test":
            return run_test(config, sim=args.sim, voice=not args.no_voice, model_pi5=args.model_pi5)
        if args.command == "status":
            return run_status(config, sim=args.sim)
        return run_calibrate(config, sim=args.sim, path=save_path(args.config))
    except CompanionError as exc:
        print(f"companion hw: {exc}", file=sys.stderr)
        return 2


def _make_table(config: HardwareConfig, sim: bool, pin_factory: Any = None) -> tuple[Any, Callable[[], float]]:
    from hardware.table import Table

    if sim:
        clock = VirtualClock()
        table = Table(config, sim=True, now=clock.now, sleep=clock.sleep, threaded=False, pin_factory=pin_factory)
        return table, clock.now
    return Table(config, sim=False, threaded=False, pin_factory=pin_factory), time.monotonic


def _print_parts(status: dict[str, Any], out: TextIO) -> int:
    missing = 0
    for name, part in status["parts"].items():
        if part.get("found"):
            mark = "found  "
        elif part.get("configured", True) is False or str(part.get("message", "")).startswith("off"):
            mark = "off    "
        else:
            mark = "MISSING"
            missing += 1
        print(f"  {mark} {name:<17} {part.get('message', '')}", file=out)
    return missing


def run_status(config: HardwareConfig, sim: bool, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    table, _ = _make_table(config, sim)
    try:
        print(json.dumps(table.status(), indent=2), file=out)
    finally:
        table.close()
    return 0


def run_test(
    config: HardwareConfig, sim: bool, voice: bool = True, model_pi5: bool = False, out: TextIO | None = None
) -> int:
    out = out or sys.stdout
    pin_factory = None
    if model_pi5:
        if not sim:
            print("--model-pi5 only makes sense with --sim", file=out)
            return 2
        from gpiozero.pins.mock import MockFactory

        from hardware.factory import lgpio_duty_model_pin

        pin_factory = MockFactory(pin_class=lgpio_duty_model_pin())
    table, _ = _make_table(config, sim, pin_factory)
    try:
        status = table.status()
        factory = status["pin_factory"] or f"none ({table.pin_factory_error})"
        print(f"hardware test ({'simulated' if sim else 'real'} parts, GPIO pin factory: {factory})", file=out)
        missing = _print_parts(status, out)

        table.show_test_screen()
        table.run_pending()
        print(f"  OLED: test screen {'shown' if table.display_part.is_found else 'not shown (no panel)'}", file=out)

        hand = table.servo_part.device
        if hand is not None:
            print(f"  clock hand ({hand.output.name} back end, {config.servo.kind}-degree servo):", file=out)
            for mark in MARKS:
                asked = config.servo.pulse_us[mark]
                hand.hold(asked)
                sent = hand.output.pulse_us
                error = (sent - asked) if sent is not None else float("nan")
                degrees = error * config.servo.kind / 2000
                print(
                    f"    {mark:>3}: asked {asked} us, sent {sent:.1f} us ({error:+.1f} us, {degrees:+.1f} deg of servo)",
                    file=out,
                )
            hand.detach()
            for mark in (*MARKS, config.servo.park):
                table.move_hand(mark)
                table.run_pending()
                print(f"    swept to {mark}: hand at {table.hand_angle:.0f} deg", file=out)
        else:
            print("  clock hand: not swept (servo missing)", file=out)

        table.beep(((0.2, True, True), (0.2, False, False)) * 2)
        table.run_pending()
        print(
            f"  buzzer: {'beeped' if table.controls.buzzer.is_found else 'missing'}, "
            f"LED: {'blinked' if table.controls.led.is_found else 'missing'}",
            file=out,
        )
        if voice and table.voice.is_active:
            # the chime, then the sentence, through the one player the game uses: heard from the speaker
            spoken = table.voice.say(LANGUAGE_TEST.get(config.voice.language, LANGUAGE_TEST["en"]), chime_first=True)
            until = time.monotonic() + 30
            while spoken and table.voice.is_speaking and time.monotonic() < until:
                time.sleep(0.05)  # heard to the end, so what went wrong can be told
            described = table.voice.status()["message"]
            player = table.voice.player
            problem = f"{player.problem} [{player.detail}]" if player.problem else None
            heard = "silent" if not spoken else f"not heard: {problem}" if problem else "a chime, then speaking"
            print(f"  voice: {heard} ({described})", file=out)
        else:
            print(f"  voice: {table.voice.status()['message'] if voice else 'skipped (--no-voice)'}", file=out)
        print("all parts found" if missing == 0 else f"{missing} part(s) missing; see the messages above", file=out)
        return 0 if missing == 0 else 1
    finally:
        table.close()


def _languages() -> list[str]:
    from hardware.voice import LANGUAGES

    return list(LANGUAGES)


def _data_dir(explicit: str | None) -> Path | None:
    """The companion's data folder (the voice's cache and the owner's voice files), None when it cannot be read."""
    from companion.config import load_config

    try:
        return load_config(explicit).data_dir
    except CompanionError:
        return None


def run_say(
    config: HardwareConfig,
    text: str,
    out_path: Path,
    *,
    engine: str | None = None,
    language: str | None = None,
    data_dir: Path | None = None,
    out: TextIO | None = None,
) -> int:
    """`companion hw say`: the line rendered with the chosen engine to `out_path`, as the table would play it."""
    from dataclasses import replace

    from hardware.voice import Voice

    out = out or sys.stdout
    if not text.strip():
        print('nothing to say: give the words in quotes, e.g. companion hw say "Ghost Hour." --out F.wav', file=out)
        return 2
    cfg = replace(config.voice, enabled=True, quiet=False)
    if engine is not None:
        cfg = replace(cfg, engine=engine)
    if language is not None:
        cfg = replace(cfg, language=language)
    with Voice(cfg, data_dir=data_dir) as voice:  # closed before the program ends (a Piper render never outlives it)
        return _say_with(voice, text, out_path, engine, out)


def _say_with(voice: Any, text: str, out_path: Path, engine: str | None, out: TextIO) -> int:
    if voice.engine is None:
        print(f"cannot speak: {voice.why}", file=out)
        return 1
    if engine is not None and voice.engine.name != engine:
        print(f"cannot speak with {engine}: {voice.why}", file=out)
        return 1
    try:
        speech = voice.speech(text)
        speech.write_wav(out_path)
    except OSError as exc:
        print(f"cannot write {out_path}: {exc.strerror or exc}", file=out)
        return 1
    print(
        f"{out_path}: {speech.seconds:.2f} s at {speech.rate} Hz, RMS {speech.rms():.0f} ({voice.engine.description})",
        file=out,
    )
    return 0


def _test_sentences() -> dict[str, str]:
    from hardware.voice import LANGUAGES

    return {lang: phrases["test"] for lang, phrases in LANGUAGES.items()}


LANGUAGE_TEST = _test_sentences()


# --- calibration -------------------------------------------------------------------------------


def calibrate_loop(
    hold: Callable[[int], None],
    servo: ServoConfig,
    read_key: Callable[[], str],
    write: Callable[[str], None],
) -> dict[str, int] | None:
    """Nudge each mark's pulse with keys; returns the new pulses on "s", None on "q" or end of input.

    `hold(pulse)` puts the hand there and keeps it there while the key is read.
    """
    pulses = dict(servo.pulse_us)
    index = 0
    write(CALIBRATE_HELP + "\n")

    def report() -> None:
        mark = MARKS[index]
        write(f"{mark:>3}: {pulses[mark]} us (servo {servo.servo_degrees(pulses[mark]):.1f} deg)\n")

    hold(pulses[MARKS[index]])
    report()
    steps = {"+": 10, "=": 10, "-": -10, "_": -10, "]": 1, "[": -1}
    while True:
        key = read_key()
        if key == "":
            write("end of input: nothing saved\n")
            return None
        if key.isspace():
            continue
        mark = MARKS[index]
        if key in steps:
            new = min(2500, max(500, pulses[mark] + steps[key]))
            pulses[mark] = new
            hold(new)
            report()
        elif key in "np":
            index = (index + (1 if key == "n" else -1)) % len(MARKS)
            hold(pulses[MARKS[index]])
            report()
        elif key == "s":
            try:
                ServoConfig.from_dict({**servo.to_dict(), "pulse_us": pulses})
            except ConfigError as exc:
                write(f"not saved: {exc}\n")
                continue
            return pulses
        elif key == "q":
            write("quit: nothing saved\n")
            return None
        elif key == "?":
            write(CALIBRATE_HELP + "\n")
        else:
            write(f"unknown key {key!r}; ? shows the keys\n")


@contextlib.contextmanager
def _keys(stream: TextIO) -> Iterator[Callable[[], str]]:
    """Single key presses from a terminal (no Enter needed); plain characters from a pipe."""
    if stream.isatty():
        import termios
        import tty

        fd = stream.fileno()
        old = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        try:
            yield lambda: stream.read(1)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)
    else:
        yield lambda: stream.read(1)


def run_calibrate(
    config: HardwareConfig,
    sim: bool,
    path: Path,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    from companion.config import save_section
    from hardware.clock_hand import ClockHand
    from hardware.factory import make_pin_factory, make_servo_output

    clock = VirtualClock() if sim else None
    now = clock.now if clock else time.monotonic
    sleep = clock.sleep if clock else time.sleep
    from companion.errors import ServoError
    from hardware.faults import describe, fault_types

    try:
        factory = make_pin_factory(sim)
        output = make_servo_output(config.servo, factory, sim=sim)
    except fault_types() as exc:
        raise ServoError(
            f"cannot drive the clock hand: {describe(exc)} (on a machine without GPIO, use --sim)"
        ) from exc
    hand = ClockHand(output, config.servo, now=now, sleep=sleep)
    print(f"calibrating the clock hand on GPIO{config.servo.pin} ({output.name} back end); saving to {path}", file=out)

    def write(text: str) -> None:
        out.write(text)
        out.flush()

    try:
        with _keys(stdin) as read_key:
            pulses = calibrate_loop(lambda us: hand.hold(us), config.servo, read_key, write)
        if pulses is None:
            return 1
        servo = config.with_pulses(pulses).servo
        save_section(path, "hardware.servo", servo.to_dict())
        write(f"saved [hardware.servo] to {path}: " + ", ".join(f"{m}={pulses[m]}" for m in MARKS) + "\n")
        hand.cfg = servo
        return 0
    finally:
        hand.detach()
        try:
            hand.close()
        finally:
            if sim:
                factory.close()
