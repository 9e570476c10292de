"""A new game: the choices the host has (boards, ghosts, each module's own), starting one, the board's map,
and the checklist of what the table sets out before the first turn."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify

from companion.games.base import RULES, GameModule, module_for
from web.api.body import body, flag, game_state, only_keys, state_answer
from web.context import WebContext, context
from web.errors import Refused
from web.security import host_required, viewer_required

bp = Blueprint("setup", __name__, url_prefix="/api")
log = logging.getLogger(__name__)

MAX_NAMES = 12  # the most players any game here seats (each engine checks its own number)


@bp.post("/new-game")
@host_required
def new_game() -> Response:
    ctx = context()
    data = body()
    setup = _setup(ctx, data)
    _leave_only_if_confirmed(ctx, data)
    return state_answer(ctx.service.new_game(setup))


def _leave_only_if_confirmed(ctx: WebContext, data: Mapping[str, Any]) -> None:
    """A new game leaves one under way (it stays in the history) only with "confirm": true."""
    confirm = flag(data, "confirm")  # checked whether or not a game is under way
    current = ctx.current_state()
    running = current is not None and current.get("outcome") is None and int(current.get("history_length") or 0) > 0
    if running and not confirm:
        raise Refused(
            409, 'a game is under way; send "confirm": true to leave it and start a new one (it stays in the history).'
        )


def _setup(ctx: WebContext, data: Mapping[str, Any]) -> dict[str, Any]:
    """A new game of any module: the players, their names and the choices its module names
    (GameModule.setup_choices, with its defaults from the packs), checked by its engine."""
    rules = data.get("rules")
    if rules is not None and (not isinstance(rules, str) or rules not in RULES):
        raise Refused(400, f'"rules" must be one of {", ".join(RULES)}, not {rules!r}.')
    module = module_for(rules)
    for key in data:
        owners = [m.title for m in map(module_for, RULES) if key in m.setup_choices]
        if owners and key not in module.setup_choices:
            raise Refused(400, f'"{key}" is a choice of {" and ".join(owners)}; leave it out for {module.title}.')
    only_keys(data, ("players", "names", "seed", "confirm", "rules", *module.setup_choices))
    setup: dict[str, Any] = {"rules": module.rules, **_seats(data)}
    setup.update(module.setup_defaults(ctx.service.packs_for(module.rules)))
    for key, kind in module.setup_choices.items():
        if key in data and data[key] not in (None, ""):
            setup[key] = _choice(data, key, kind)
    setup.update(_seed(module, data))
    return setup


def _seats(data: Mapping[str, Any]) -> dict[str, Any]:
    """The players and their names, in seat order (names optional)."""
    seats: dict[str, Any] = {}
    names = data.get("names")
    if names is not None:
        if (
            not isinstance(names, list)
            or not 1 <= len(names) <= MAX_NAMES
            or not all(isinstance(n, str) for n in names)
        ):
            raise Refused(400, f'"names" must be a list of 1 to {MAX_NAMES} players\' names, in seat order.')
        seats["names"] = [n.strip() for n in names]
    players = data.get("players", len(names) if isinstance(names, list) else None)
    if type(players) is not int or not 1 <= players <= MAX_NAMES:
        raise Refused(400, f'say how many players: "players": 1 to {MAX_NAMES}.')
    seats["players"] = players
    return seats


def _choice(data: Mapping[str, Any], key: str, kind: str) -> Any:
    """One of a module's own choices, by its kind ("bool", "int" or "text"); its engine checks the value."""
    value = data[key]
    if kind == "bool":
        return flag(data, key)
    if kind == "int":
        if type(value) is not int or not 0 <= value <= 10_000:
            raise Refused(400, f'"{key}" must be a whole number, not {value!r}.')
        return value
    if not isinstance(value, str) or len(value) > 64:
        raise Refused(400, f'"{key}" must be a short text, not {value!r}.')
    return value


def _seed(module: GameModule, data: Mapping[str, Any]) -> dict[str, Any]:
    """The seed of a module that shuffles (the host's, else a random one); none for a module that does not."""
    if module.seeded:
        return {"seed": data["seed"] if "seed" in data else secrets.randbelow(2**31)}  # checked by the rules
    if "seed" in data:
        raise Refused(400, f'{module.title} shuffles nothing, so it takes no "seed"; leave it out.')
    return {}


@bp.get("/setup-checklist")
@viewer_required
def setup_checklist() -> Response:
    """What the table sets out before the first turn, for the game under way (the host ticks it off)."""
    ctx = context()
    state = game_state()
    items = ctx.service.module.setup_checklist(state, ctx.service.names, ctx.hardware is not None)
    return jsonify({"game_id": state.get("game_id"), "items": items})


@bp.get("/setup-options")
@viewer_required
def setup_options() -> Response:
    """Each game's lists for the new-game wizard and the pages (GameModule.setup_options, from its packs)."""
    ctx = context()
    out: dict[str, Any] = {}
    for rules in RULES:
        module = module_for(rules)
        try:
            out.update(module.setup_options(ctx.service.packs_for(rules)))
        except Exception:  # a broken pack of one game must not take the others' setup down
            log.exception("the setup options of %s could not be read", module.title)
    return jsonify(out)


@bp.get("/board")
@viewer_required
def board() -> Response:
    return board_by_id(str(game_state().get("board")))


@bp.get("/boards/<board_id>")
@viewer_required
def board_by_id(board_id: str) -> Response:
    boards = getattr(context().packs(), "boards", {}) or {}
    if board_id not in boards:
        raise Refused(404, f"no board called {board_id!r}; the boards are: {', '.join(map(str, boards))}.")
    pack = boards[board_id]
    return jsonify(pack.to_dict() if hasattr(pack, "to_dict") else pack)
