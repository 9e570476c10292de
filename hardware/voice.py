"""The spoken Ghost Hour announcement, through espeak-ng and the Pi's audio output.

Speaking runs as a background process: `say` returns at once, so the game never waits
for the voice. Without espeak-ng there is one log line and silence, never a crash.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.errors import HardwareError
from hardware.config import VoiceConfig

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


class Voice:
    """espeak-ng, started in the background; `spawn` is injectable for tests."""

    def __init__(
        self,
        cfg: VoiceConfig,
        *,
        program: str = "espeak-ng",
        spawn: Callable[[list[str]], Any] | None = None,
    ) -> None:
        self.cfg = cfg
        self.path = shutil.which(program)
        self._spawn = spawn or (lambda argv: subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self._proc: Any = None
        self._warned = False
        self.spoken: list[str] = []

    @property
    def is_available(self) -> bool:
        return self.path is not None

    @property
    def is_active(self) -> bool:
        """Speaks when asked: enabled, not in quiet mode, and espeak-ng is installed."""
        return self.cfg.enabled and not self.cfg.quiet and self.is_available

    def status(self) -> dict[str, Any]:
        if not self.cfg.enabled:
            return {"found": False, "configured": False, "message": "off (hardware.voice.enabled = false)"}
        if not self.is_available:
            return {"found": False, "configured": True, "message": "espeak-ng is not installed (sudo apt install espeak-ng)"}
        if self.cfg.quiet:
            return {"found": True, "configured": True, "message": "quiet mode (hardware.voice.quiet = true)"}
        return {"found": True, "configured": True, "message": f"espeak-ng, voice {self.voice_name()}"}

    def voice_name(self) -> str:
        return self.cfg.voice or LANGUAGES[self.cfg.language]["voice"]

    def argv(self, text: str, wav: str | Path | None = None) -> list[str]:
        amplitude = round(self.cfg.volume * 2)  # espeak-ng's -a runs 0-200
        argv = [self.path or "espeak-ng", "-v", self.voice_name(), "-a", str(amplitude), "-s", str(self.cfg.speed)]
        if wav is not None:
            argv += ["-w", str(wav)]
        return [*argv, "--", text]

    def say(self, text: str) -> bool:
        """Start speaking `text` in the background; False when quiet, off or espeak-ng is missing."""
        if not self.cfg.enabled or self.cfg.quiet:
            return False
        if self.path is None:
            if not self._warned:
                log.warning("espeak-ng is not installed, so the Ghost Hour is not spoken; sudo apt install espeak-ng")
                self._warned = True
            return False
        if self._proc is not None and getattr(self._proc, "poll", lambda: 0)() is None:
            self._proc.terminate()  # a newer announcement replaces an unfinished one
        try:
            self._proc = self._spawn(self.argv(text))
        except OSError as exc:
            log.warning("espeak-ng could not be started (%s); the announcement is skipped", exc)
            return False
        self.spoken.append(text)
        return True

    @property
    def is_speaking(self) -> bool:
        """True while the last `say` is still being spoken."""
        return self._proc is not None and getattr(self._proc, "poll", lambda: 0)() is None

    def stop(self) -> None:
        """Cut off what is being said (a script read out that was stopped)."""
        if self.is_speaking:
            try:
                self._proc.terminate()
            except OSError:
                pass

    def announce_ghost_hour(self, event: Mapping[str, Any]) -> bool:
        return self.say(ghost_hour_text(event, self.cfg.language))

    def render(self, text: str, wav: str | Path, timeout: float = 60) -> Path:
        """Write `text` as speech to a WAV file (waits for espeak-ng); for tests and `hw test`."""
        if self.path is None:
            raise HardwareError("espeak-ng is not installed; sudo apt install espeak-ng")
        result = subprocess.run(self.argv(text, wav), capture_output=True, text=True, timeout=timeout)
        if result.returncode != 0:
            raise HardwareError(f"espeak-ng failed ({result.returncode}): {result.stderr.strip()}")
        return Path(wav)

    def render_script(self, steps: Sequence[Mapping[str, Any]], wav: str | Path, timeout: float = 120) -> Path:
        """A script read out (the night, the vote's countdown) as one WAV file, each step at its time: its words
        from its "at" seconds on (or right after the step before when it has none), silence in between; for tests
        and `hw test`. The words are the step's "say" (the voice's language), else its "text"."""
        import tempfile
        import wave

        frames: list[bytes] = []
        params: Any = None
        written = 0  # frames so far
        with tempfile.TemporaryDirectory() as tmp:
            for i, step in enumerate(steps):
                words = str(step.get("say") or step.get("text") or "").strip()
                if not words:
                    continue
                part = self.render(words, Path(tmp) / f"{i}.wav", timeout=timeout)
                with wave.open(str(part), "rb") as w:
                    if params is None:
                        params = w.getparams()
                    at = step.get("at")
                    if isinstance(at, (int, float)) and not isinstance(at, bool):
                        start = round(float(at) * params.framerate)
                        if start > written:
                            frames.append(b"\0" * (start - written) * params.sampwidth * params.nchannels)
                            written = start
                    n = w.getnframes()
                    frames.append(w.readframes(n))
                    written += n
        if params is None:
            raise HardwareError("the script has no words to speak")
        with wave.open(str(wav), "wb") as out:
            out.setparams(params)
            for chunk in frames:
                out.writeframes(chunk)
        return Path(wav)

    def close(self) -> None:
        if self._proc is not None and getattr(self._proc, "poll", lambda: 0)() is None:
            try:
                self._proc.wait(timeout=10)
            except Exception:
                self._proc.terminate()
