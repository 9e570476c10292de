"""The narrator's voice on the host's settings: which engine and voice speak, how loud, and a test to hear it.

The table's voice (``hardware.voice.Voice``, reached through the hardware the companion serves with) keeps the
host's choice in the data folder, so it holds after a restart; the configuration file's values are the defaults.

Endpoints (host only; POSTs need the page's X-CSRF-Token):

    GET  /api/host/voice                         {"engine", "piper_voice", "volume", "engines", "voices",
                                                  "piper_installed", "voices_folder", "speaking", "status"}
    POST /api/host/voice {"engine"?, "piper_voice"?, "volume"?}
                                                 the same, after the change (saved first)
    POST /api/host/voice/test {}                 a chime and the sound test on the table's speaker:
                                                 {"spoken": true|false, "status"}
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.errors import HardwareError
from web.context import context
from web.errors import Refused
from web.security import host_required

bp = Blueprint("voice", __name__, url_prefix="/api")

CHOICES = ("engine", "piper_voice", "volume")


def _voice() -> Any:
    voice = getattr(context().hardware, "voice", None)
    if voice is None or not hasattr(voice, "choices"):
        raise Refused(404, "this companion runs without the table's voice.")
    return voice


@bp.get("/host/voice")
@host_required
def show_voice() -> Response:
    return jsonify(_voice().choices())


@bp.post("/host/voice")
@host_required
def choose_voice() -> Response:
    data = request.get_json(silent=True) if request.is_json else None
    if not isinstance(data, dict) or not data or set(data) - set(CHOICES):
        raise Refused(
            400,
            'send one or more of "engine" ("piper" or "espeak-ng"), "piper_voice" (a name '
            'from GET /api/host/voice) and "volume" (0 to 100).',
        )
    voice = _voice()
    try:
        voice.choose(**{key: data[key] for key in CHOICES if key in data})
    except HardwareError as exc:
        raise Refused(503, str(exc)) from None
    return jsonify(voice.choices())


@bp.post("/host/voice/test")
@host_required
def test_voice() -> Response:
    data = request.get_json(silent=True) if request.content_length else {}
    if not isinstance(data, dict) or data:
        raise Refused(400, "send an empty JSON object {} to hear the voice.")
    voice = _voice()
    from_language = getattr(voice, "test_sentence", None)
    spoken = bool(voice.say(from_language() if callable(from_language) else "Sound test.", chime_first=True))
    return jsonify({"spoken": spoken, "status": voice.status()["message"]})
