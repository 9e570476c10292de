"""The JSON API: the state, commands (the terminal's spelling), undo, dice, odds, the board, live events.

Every refusal is a 4xx with `{"error": "...", "status": N}`: 400 not well-formed, 403 not allowed
(join code, host PIN, CSRF), 404 nothing there, 409 not legal now. A refused command leaves the
game exactly as it was (the service checks before it commits).
"""

from __future__ import annotations

import dataclasses
import enum
import re
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, jsonify, request, session

from companion.errors import AuthError
from web.events import TooManyStreams
from web.security import (
    Refused,
    csrf_token,
    host_required,
    is_host,
    is_viewer,
    viewer_required,
)

if TYPE_CHECKING:
    from web.app import WebContext

bp = Blueprint("api", __name__, url_prefix="/api")

COMMAND_NAME = re.compile(r"^[a-z][a-z-]{0,31}$")
ARG_NAME = re.compile(r"^[a-z][a-z_-]{0,31}$")
MAX_NAMES = 12  # the most players any game here seats (each engine checks its own number)


def _ctx() -> WebContext:
    from web.app import context  # at call time: web.app imports this blueprint

    return context()


def _body() -> dict[str, Any]:
    if not request.is_json:
        raise Refused(400, "send a JSON object with the header Content-Type: application/json.")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise Refused(400, "the body is not a JSON object; send for example {\"command\": \"end-round\", \"args\": {}}.")
    return data


def _only_keys(data: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise Refused(400, f"unknown field(s) {', '.join(unknown)}; this endpoint takes: {', '.join(allowed) or 'nothing'}.")


def _flag(data: Mapping[str, Any], key: str) -> bool:
    """A true/false field of the body (false when left out)."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise Refused(400, f"\"{key}\" must be true or false.")
    return value


def _arg_text(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        return ",".join(str(v) for v in value)
    raise Refused(400, f"argument {key!r} must be a string, a number, true/false or a list of names, not {value!r}.")


def parse_command(data: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    _only_keys(data, ("command", "args"))
    name = data.get("command")
    if name is None:
        raise Refused(400, "missing \"command\": the command's name, e.g. \"end-round\" or \"summon\".")
    if not isinstance(name, str) or not COMMAND_NAME.match(name):
        raise Refused(400, f"\"command\" must be a command name such as \"end-round\", not {name!r}.")
    raw = data.get("args", {})
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Refused(400, "\"args\" must be an object of names to values, e.g. {\"success\": \"true\"}.")
    args: dict[str, str] = {}
    for key, value in raw.items():
        if not ARG_NAME.match(key):
            raise Refused(400, f"argument name {key!r} is not valid; names are lowercase words such as \"success\".")
        args[key] = _arg_text(key, value)
    return name, args


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    return value


def _result(result: Any) -> Response:
    return jsonify({"events": _jsonable(list(result.events)), "state": _jsonable(result.state)})


def _game_state() -> dict[str, Any]:
    """The state of the game under way; 409 when there is none yet."""
    state = _ctx().current_state()
    if state is None:
        raise Refused(409, "no game yet; the host starts one on the Host tab.")
    return state


def _state() -> dict[str, Any]:
    state: dict[str, Any] = _ctx().service.state()
    return state


# -- session and host ------------------------------------------------------------------------


@bp.get("/session")
def get_session() -> Response:
    ctx = _ctx()
    viewer = is_viewer()
    host = viewer and is_host()  # a wrong join code is checked (and counted by the throttle) once
    body: dict[str, Any] = {
        "viewer": viewer,
        "host": host,
        "pin_set": ctx.store.pin_set,
        "csrf": csrf_token(),
        "hardware": ctx.hardware is not None,
        "tray": ctx.tray is not None,
        "poll_after": ctx.settings.poll_fallback,
    }
    if host:
        body["join_code"] = ctx.store.join_code
        body["join_url"] = ctx.join_url(request.host_url)
    return jsonify(body)


def _pin_from_body() -> str:
    data = _body()
    _only_keys(data, ("pin",))
    pin = data.get("pin")
    if not isinstance(pin, str) or not pin:
        raise Refused(400, "send the PIN as a string of digits: {\"pin\": \"1234\"}.")
    return pin


def _signed_in(ctx: Any) -> Response:
    """This session is the host's from now on (until the PIN changes), and stays after the browser closes."""
    session["h"] = ctx.store.pin_epoch
    session.permanent = True
    return jsonify({"host": True})


@bp.post("/host/pin")
@viewer_required
def set_first_pin() -> Response:
    """First start: whoever holds the join code and opens the page first chooses the host PIN."""
    ctx = _ctx()
    pin = _pin_from_body()
    if ctx.store.pin_set:
        raise Refused(409, "a host PIN is already set; sign in with it on the Host tab.")
    try:
        ctx.store.set_first_pin(pin)
    except AuthError as exc:  # not a PIN the rule allows: say the rule, nothing was guessed
        raise Refused(400, str(exc)) from None
    return _signed_in(ctx)


@bp.post("/host/login")
@viewer_required
def host_login() -> Response:
    ctx = _ctx()
    pin = _pin_from_body()
    if not ctx.store.pin_set:
        raise Refused(409, "no host PIN is set yet; choose one on the Host tab.")
    who = request.remote_addr or "?"
    wait = ctx.throttle.wait_left(who)
    if wait > 0:
        raise Refused(429, f"too many wrong PINs; wait {int(wait) + 1} s and try again.")
    if not ctx.store.check_pin(pin):
        ctx.throttle.failed(who)
        raise Refused(403, "wrong host PIN; try again (the PIN was chosen when the companion was first set up).")
    ctx.throttle.succeeded(who)
    return _signed_in(ctx)


@bp.post("/host/logout")
@viewer_required
def host_logout() -> Response:
    session.pop("h", None)
    return jsonify({"host": False})


@bp.post("/host/change-pin")
@host_required
def change_pin() -> Response:
    ctx = _ctx()
    pin = _pin_from_body()
    try:
        ctx.store.change_pin(pin)
    except AuthError as exc:
        raise Refused(400, str(exc)) from None
    session["h"] = ctx.store.pin_epoch
    return jsonify({"host": True})


# -- the game -----------------------------------------------------------------------------------


@bp.get("/state")
@viewer_required
def get_state() -> Response:
    return jsonify(_jsonable(_state()))


@bp.get("/history")
@viewer_required
def get_history() -> Response:
    return jsonify(_jsonable(_ctx().service.history()))


@bp.get("/events")
@viewer_required
def events() -> Response:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    last: int | None = None
    if raw not in (None, ""):
        try:
            last = int(str(raw))
        except ValueError:
            raise Refused(400, f"Last-Event-ID must be an event number, not {raw!r}.") from None
        if last < 0:
            raise Refused(400, "Last-Event-ID must not be negative.")
    try:
        body = _ctx().hub.stream(last, request.environ.get("waitress.client_disconnected"))
    except TooManyStreams as exc:
        raise Refused(503, str(exc)) from None
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-transform"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.post("/command")
@host_required
def command() -> Response:
    name, args = parse_command(_body())
    return _result(_ctx().service.do(name, args, source="web"))


@bp.post("/undo")
@host_required
def undo() -> Response:
    data = _body() if request.content_length else {}
    _only_keys(data, ())
    return _result(_ctx().service.undo(source="web"))


@bp.post("/redo")
@host_required
def redo() -> Response:
    data = _body() if request.content_length else {}
    _only_keys(data, ())
    return _result(_ctx().service.redo(source="web"))


@bp.post("/host/narrate")
@host_required
def narrate() -> Response:
    """Read a script out on the voice, the OLED and every phone: {"kind": "night"|"vote", "pause": seconds}."""
    data = _body()
    _only_keys(data, ("kind", "pause"))
    kind, pause = data.get("kind"), data.get("pause")
    if not isinstance(kind, str):
        raise Refused(400, "say what to read out: \"kind\".")
    if pause is not None and (not isinstance(pause, (int, float)) or isinstance(pause, bool)):
        raise Refused(400, "\"pause\" is a number of seconds.")
    return jsonify({"events": [], "state": _jsonable(_ctx().service.narrate(kind, pause))})


@bp.post("/host/narrate/stop")
@host_required
def stop_narration() -> Response:
    data = _body() if request.content_length else {}
    _only_keys(data, ())
    return jsonify({"events": [], "state": _jsonable(_ctx().service.stop_narration())})


@bp.post("/roll")
@host_required
def roll_virtual() -> Response:
    """Virtual dice rolled by the companion: for the attempt under way, or {"command": "summon"|"pull"}."""
    data = _body() if request.content_length else {}
    _only_keys(data, ("command",))
    target = _dice_command(data)
    return _result(_ctx().service.roll_virtual(target, source="web"))


def _dice_command(data: Mapping[str, Any]) -> str:
    """What a roll of dice is for: "roll" (the attempt under way, the default), "summon" or "pull"."""
    target = data.get("command", "roll")
    if target not in ("roll", "summon", "pull"):
        raise Refused(400, "\"command\" must be \"roll\", \"summon\" or \"pull\".")
    return str(target)


def _faces_from(data: Mapping[str, Any]) -> list[str]:
    from companion.games.skeptics.dice import DieKind, parse_face

    faces, pips = data.get("faces"), data.get("pips")
    if (faces is None) == (pips is None):
        raise Refused(400, "send either \"faces\" (e.g. [\"eye\", \"blank\"]) or \"pips\" with \"kind\" (e.g. [3, 6], \"clue\").")
    if faces is not None:
        if not isinstance(faces, list) or not faces or not all(isinstance(f, str) for f in faces):
            raise Refused(400, "\"faces\" must be a non-empty list of face names such as [\"eye\", \"camera\", \"blank\"].")
        return [parse_face(f).value for f in faces]
    kind_name = data.get("kind")
    if not isinstance(kind_name, str):
        raise Refused(400, "with \"pips\" say which dice they are: \"kind\": \"clue\", \"key\" or \"summon\".")
    kind = DieKind.parse(kind_name)
    if not isinstance(pips, list) or not pips or not all(type(p) is int for p in pips):
        raise Refused(400, "\"pips\" must be a non-empty list of whole numbers 1-6, e.g. [2, 5, 6].")
    bad = [p for p in pips if not 1 <= p <= 6]
    if bad:
        raise Refused(400, f"a die shows 1 to 6 pips, not {bad[0]}.")
    pip_map = _ctx().pip_map
    return [pip_map.face(kind, p).value for p in pips]


@bp.post("/dice")
@host_required
def enter_dice() -> Response:
    """Dice entered by hand, or a correction of the last roll read from the tray."""
    data = _body()
    _only_keys(data, ("faces", "pips", "kind", "command", "replace", "keep", "cards"))
    service = _ctx().service
    target = _dice_command(data)
    replace = _flag(data, "replace")
    args = {"faces": ",".join(_faces_from(data))}
    cards = data.get("cards")
    if cards is not None:
        # Physical decks: the cards this roll draws (a summon's room card, a clue's evidence token).
        if not isinstance(cards, dict) or not set(cards) <= {"room", "environment", "evidence"}:
            raise Refused(400, "\"cards\" names the cards drawn: {\"room\": \"8\", \"environment\": \"fire\", \"evidence\": \"...\"}.")
        for key, value in cards.items():
            args[key] = _arg_text(key, value)
    keep = data.get("keep")
    if keep is not None:
        # Which of this roll's dice the player sets aside (the rulebook lets them choose); the engine checks them.
        if target != "roll":
            raise Refused(400, "\"keep\" is for the roll of an attempt only; leave it out for a summon or pull.")
        if isinstance(keep, list) and all(isinstance(k, str) for k in keep):
            args["keep"] = ",".join(keep) or "none"
        elif isinstance(keep, str):
            args["keep"] = keep.strip() or "none"
        else:
            raise Refused(400, "\"keep\" must be a list of faces of this roll, e.g. [\"eye\", \"eye\"], or \"none\".")
    if not replace:
        return _result(service.do(target, args, source="web"))
    return _result(service.replace_last(target, args, source="web"))


@bp.post("/new-game")
@host_required
def new_game() -> Response:
    ctx = _ctx()
    data = _body()
    if data.get("rules", "skeptics") != "skeptics":
        return _new_other_game(ctx, data)
    _only_keys(data, ("players", "names", "board", "ghost", "special_items", "seed", "physical", "easier", "confirm",
                      "rules", "ancient_one"))
    ints = {"players": (1, 4), "special_items": (0, 3), "seed": (0, 2**63 - 1), "easier": (0, 2)}
    setup: dict[str, Any] = {}
    for key, (low, high) in ints.items():
        if key in data:
            value = data[key]
            if type(value) is not int or not low <= value <= high:
                raise Refused(400, f"\"{key}\" must be a whole number from {low} to {high}, not {value!r}.")
            setup[key] = value
    packs = ctx.packs()
    for key, attr in (("board", "boards"), ("ghost", "ghosts")):
        choices = getattr(packs, attr, {}) or {}
        if key in data:
            value = data[key]
            if not isinstance(value, str) or value not in choices:
                raise Refused(400, f"\"{key}\" must be one of {', '.join(map(str, choices))}, not {value!r}.")
            setup[key] = value
        else:
            setup[key] = _first_id(packs, attr)
    if "physical" in data:
        setup["physical"] = _flag(data, "physical")
    if "names" in data:
        names = data["names"]
        if not isinstance(names, list) or not 1 <= len(names) <= 4 or not all(isinstance(n, str) for n in names):
            raise Refused(400, "\"names\" must be a list of 1 to 4 players' names, in turn order.")
        setup["names"] = [n.strip() for n in names]
        setup.setdefault("players", len(names))
    if "players" not in setup:
        raise Refused(400, "say how many players: \"players\": 1 to 4.")
    setup.setdefault("seed", secrets.randbelow(2**31))
    _leave_only_if_confirmed(ctx, data)
    state = ctx.service.new_game(setup)
    return jsonify({"events": [], "state": _jsonable(state)})


def _leave_only_if_confirmed(ctx: WebContext, data: Mapping[str, Any]) -> None:
    """A new game leaves one under way (it stays in the history) only with "confirm": true."""
    confirm = _flag(data, "confirm")  # checked whether or not a game is under way
    current = ctx.current_state()
    running = current is not None and current.get("outcome") is None and int(current.get("history_length") or 0) > 0
    if running and not confirm:
        raise Refused(409, "a game is under way; send \"confirm\": true to leave it and start a new one (it stays in the history).")


def _new_other_game(ctx: WebContext, data: Mapping[str, Any]) -> Response:
    """A new game of another module (Elder Sign, Among Cultists, Spooks): the players, their names and the
    choices its module names (GameModule.setup_choices), checked by its engine."""
    from companion.games.base import RULES, module_for

    rules = data.get("rules")
    if not isinstance(rules, str) or rules not in RULES:
        raise Refused(400, f"\"rules\" must be one of {', '.join(RULES)}, not {rules!r}.")
    module = module_for(rules)
    for key in ("board", "ghost", "special_items", "easier"):
        if key in data:
            raise Refused(400, f"\"{key}\" is a Skeptics choice; leave it out for {module.title}.")
    _only_keys(data, ("players", "names", "seed", "confirm", "rules", *module.setup_choices))
    setup: dict[str, Any] = {"rules": rules}
    names = data.get("names")
    if names is not None:
        if (not isinstance(names, list) or not 1 <= len(names) <= MAX_NAMES
                or not all(isinstance(n, str) for n in names)):
            raise Refused(400, f"\"names\" must be a list of 1 to {MAX_NAMES} players' names, in seat order.")
        setup["names"] = [n.strip() for n in names]
    players = data.get("players", len(names) if isinstance(names, list) else None)
    if type(players) is not int or not 1 <= players <= MAX_NAMES:
        raise Refused(400, f"say how many players: \"players\": 1 to {MAX_NAMES}.")
    setup["players"] = players
    for key, kind in module.setup_choices.items():
        if key not in data or data[key] in (None, ""):
            continue
        value = data[key]
        if kind == "bool":
            setup[key] = _flag(data, key)
        elif kind == "int":
            if type(value) is not int or not 0 <= value <= 10_000:
                raise Refused(400, f"\"{key}\" must be a whole number, not {value!r}.")
            setup[key] = value
        else:
            if not isinstance(value, str) or len(value) > 64:
                raise Refused(400, f"\"{key}\" must be a short text, not {value!r}.")
            setup[key] = value
    if module.seeded:
        setup["seed"] = data.get("seed") if type(data.get("seed")) is int else secrets.randbelow(2**31)
    elif "seed" in data:
        raise Refused(400, f"{module.title} shuffles nothing, so it takes no \"seed\"; leave it out.")
    _leave_only_if_confirmed(ctx, data)
    state = ctx.service.new_game(setup)
    return jsonify({"events": [], "state": _jsonable(state)})


def _first_id(packs: Any, attr: str) -> str:
    items = getattr(packs, attr, None)
    if isinstance(items, Mapping) and items:
        return str(next(iter(items)))
    raise Refused(400, f"say which {attr[:-1]} to play.")


@bp.get("/setup-checklist")
@viewer_required
def setup_checklist() -> Response:
    """What the table sets out before the first turn, for the game under way (the host ticks it off)."""
    ctx = _ctx()
    state = _game_state()
    items = ctx.service.module.setup_checklist(state, ctx.service.names, ctx.hardware is not None)
    return jsonify({"game_id": state.get("game_id"), "items": items})


@bp.get("/join-qr.svg")
@host_required
def join_qr() -> Response:
    """The join link as a QR code, for the host to show to the others."""
    import qrcode
    import qrcode.image.svg

    ctx = _ctx()
    image = qrcode.make(ctx.join_url(request.host_url), image_factory=qrcode.image.svg.SvgPathImage, box_size=12)
    response = Response(image.to_string(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/setup-options")
@viewer_required
def setup_options() -> Response:
    ctx = _ctx()
    packs = ctx.packs()
    out: dict[str, Any] = {}
    try:
        others = ctx.service.packs_for("elder-sign")
        out["ancient_ones"] = [{"id": a.id, "name": a.name} for a in others.ancient_ones.values()]
    except Exception:  # a broken Elder Sign pack must not take the Skeptics setup down
        out["ancient_ones"] = []
    try:
        events = ctx.service.packs_for("among-cultists").events
        out["ac_events"] = [{"id": e.id, "name": e.name, "placeholder": bool(e.placeholder)} for e in events.values()]
        from companion.games.among_cultists.engine import DEFAULT_POINTS_NEEDED

        out["ac_points_needed"] = DEFAULT_POINTS_NEEDED
    except Exception:  # nor a broken Among Cultists pack
        out["ac_events"] = []
    for attr in ("boards", "ghosts", "environment", "evidence"):
        items = getattr(packs, attr, {}) or {}
        out[attr] = [
            {"id": str(key), "name": str(getattr(item, "name", key)), "placeholder": bool(getattr(item, "placeholder", False))}
            for key, item in (items.items() if isinstance(items, Mapping) else [])
        ]
    return jsonify(out)


@bp.get("/box")
@host_required
def box() -> Response:
    """The cards of the copy on the table, as the "Your box" page fills them in."""
    return jsonify(_ctx().service.box_view())


@bp.post("/box")
@host_required
def edit_box() -> Response:
    """Fill in one entry: {"part": "ghost", "key": "shadow", "fields": {...}} (companion.box.BoxEdit)."""
    data = _body()
    _only_keys(data, ("part", "key", "fields"))
    part, key, fields = data.get("part"), data.get("key"), data.get("fields", {})
    if not isinstance(part, str) or not isinstance(key, (str, int)) or isinstance(key, bool):
        raise Refused(400, "say which entry to fill in: \"part\" and \"key\".")
    if not isinstance(fields, Mapping):
        raise Refused(400, "\"fields\" must be an object.")
    return jsonify(_ctx().service.edit_box(part, str(key), fields))


@bp.get("/box/file")
@host_required
def export_box() -> Response:
    """The whole box as one file to keep or share; "Bring back a box" reads it."""
    import json

    body = json.dumps(_ctx().service.export_box(), ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = 'attachment; filename="skeptics-box.json"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.put("/box/file")
@host_required
def import_box() -> Response:
    """Replace the whole box with a box file (checked first: nothing is written if any part is wrong)."""
    data = request.get_json(silent=True)
    if data is None:
        raise Refused(400, "send the box file as JSON (the file \"Save my box\" made).")
    return jsonify(_ctx().service.import_box(data))


@bp.get("/board")
@viewer_required
def board() -> Response:
    return board_by_id(str(_game_state().get("board")))


@bp.get("/boards/<board_id>")
@viewer_required
def board_by_id(board_id: str) -> Response:
    boards = getattr(_ctx().packs(), "boards", {}) or {}
    if board_id not in boards:
        raise Refused(404, f"no board called {board_id!r}; the boards are: {', '.join(map(str, boards))}.")
    pack = boards[board_id]
    data = pack.to_dict() if hasattr(pack, "to_dict") else _jsonable(pack)
    return jsonify(data)


@bp.get("/odds")
@viewer_required
def odds() -> Response:
    from companion.games.skeptics.dice import Requirement, success_probability, summon_probability

    args = request.args
    unknown = sorted(set(args) - {"need", "dice", "rolls", "keep", "summon"})
    if unknown:
        raise Refused(400, f"unknown parameter(s) {', '.join(unknown)}; use need, dice, rolls, keep or summon.")

    def number(key: str, default: int, low: int, high: int) -> int:
        raw = args.get(key)
        if raw is None:
            return default
        if not raw.isdigit() or not low <= int(raw) <= high:
            raise Refused(400, f"{key} must be a whole number from {low} to {high}, not {raw!r}.")
        return int(raw)

    if "summon" in args:
        dice = number("summon", 0, 0, 7)
        return jsonify({"summon": dice, "probability": summon_probability(dice)})
    need = args.get("need")
    if not need:
        raise Refused(400, "say what the roll needs, e.g. ?need=eye:2,camera:1&dice=3&rolls=3.")
    keep_raw = args.get("keep", "true").lower()
    if keep_raw not in ("true", "false", "1", "0"):
        raise Refused(400, "keep must be true or false.")
    dice, rolls = number("dice", 3, 1, 7), number("rolls", 3, 1, 3)
    requirement = Requirement.parse(need)
    probability = success_probability(requirement, dice=dice, rolls=rolls, keep=keep_raw in ("true", "1"))
    return jsonify({"need": str(requirement), "dice": dice, "rolls": rolls, "probability": probability})


# -- the table's hardware and the dice tray (present only when `companion serve` passes them) ----


@bp.get("/hardware")
@viewer_required
def hardware() -> Response:
    hw = _ctx().hardware
    if hw is None:
        raise Refused(404, "this companion runs without table hardware.")
    status = hw.status() if hasattr(hw, "status") else {}
    return jsonify({"hand_angle": getattr(hw, "hand_angle", None), "status": _jsonable(status)})


@bp.get("/hardware/oled.png")
@viewer_required
def oled_png() -> Response:
    hw = _ctx().hardware
    png = hw.oled_png() if hw is not None else None
    if not png:
        raise Refused(404, "no OLED picture: the companion runs without a display.")
    response = Response(png, mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tray")
@viewer_required
def tray() -> Response:
    ctx = _ctx()
    if ctx.tray is None:
        raise Refused(404, "this companion runs without a dice tray camera.")
    reading = ctx.tray_reading()
    return jsonify(reading if reading is not None else {"dice": [], "photo": False})


def _teacher() -> Any:
    teacher = _ctx().teacher
    if teacher is None:
        raise Refused(404, "this companion runs without a dice tray camera, so there is no reader to teach.")
    return teacher


@bp.get("/host/teach")
@host_required
def teach_status() -> Response:
    """Teaching the reader: photos kept, whether teaching is under way, the last result, whether it is in use."""
    return jsonify(_teacher().status())


@bp.post("/host/teach/keep")
@host_required
def teach_keep() -> Response:
    """Keep the tray's last photo with the host's values: {"dice": [{"value": 1-6 or null, "box": [x, y, w, h]}]}."""
    data = _body()
    _only_keys(data, ("dice",))
    dice = data.get("dice")
    if not isinstance(dice, list) or not dice or len(dice) > 40:
        raise Refused(400, "\"dice\" must be a list of the photo's dice, each {\"value\": 1-6 or null, \"box\": [x, y, w, h]}.")
    out = []
    for die in dice:
        value, box = (die.get("value"), die.get("box")) if isinstance(die, Mapping) else (None, None)
        if value is not None and (type(value) is not int or not 1 <= value <= 6):
            raise Refused(400, "a die's value is a whole number 1 to 6, or null for something that is not a die.")
        if not isinstance(box, list) or len(box) != 4 or not all(type(v) in (int, float) and v >= 0 for v in box):
            raise Refused(400, "a die's box is [x, y, w, h] in pixels of the photo.")
        out.append((value, tuple(float(v) for v in box)))
    teacher = _teacher()
    teacher.keep(out)
    return jsonify(teacher.status())


@bp.post("/host/teach/run")
@host_required
def teach_run() -> Response:
    """Teach the reader from every photo kept, in the background; the status says when it is done."""
    teacher = _teacher()
    started = teacher.start()
    response = jsonify({**teacher.status(), "started": started})
    response.status_code = 202 if started else 200
    return response


@bp.post("/host/teach/reset")
@host_required
def teach_reset() -> Response:
    teacher = _teacher()
    teacher.reset()
    return jsonify(teacher.status())


@bp.get("/tray/photo")
@viewer_required
def tray_photo() -> Response:
    photo = _ctx().tray_photo()
    if photo is None:
        raise Refused(404, "no annotated photo of the tray yet.")
    data, mimetype = photo
    response = Response(data, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-store"
    return response
