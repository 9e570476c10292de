"""Dice: rolled by the companion, entered by hand (faces, or pips with the table's map), corrected after the
tray read them, and the odds of a roll."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.errors import BadCommand
from web.api.body import arg_text, body, flag, only_keys, optional_body, result
from web.context import context
from web.errors import Refused
from web.security import host_required, viewer_required

bp = Blueprint("dice", __name__, url_prefix="/api")

CARDS_DRAWN = frozenset({"room", "environment", "evidence"})


def _dice_command(data: Mapping[str, Any]) -> str:
    """What a roll of dice is for: "roll" (the attempt under way, the default), "summon" or "pull"."""
    target = data.get("command", "roll")
    if target not in ("roll", "summon", "pull"):
        raise Refused(400, '"command" must be "roll", "summon" or "pull".')
    return str(target)


@bp.post("/roll")
@host_required
def roll_virtual() -> Response:
    """Virtual dice rolled by the companion: for the attempt under way, or {"command": "summon"|"pull"}."""
    data = optional_body()
    only_keys(data, ("command",))
    return result(context().service.roll_virtual(_dice_command(data), source="web"))


def _faces_from(data: Mapping[str, Any]) -> list[str]:
    faces, pips = data.get("faces"), data.get("pips")
    if (faces is None) == (pips is None):
        raise Refused(400, 'send either "faces" (e.g. ["eye", "blank"]) or "pips" with "kind" (e.g. [3, 6], "clue").')
    if faces is not None:
        if not isinstance(faces, list) or not faces or not all(isinstance(f, str) for f in faces):
            raise Refused(400, '"faces" must be a non-empty list of face names such as ["eye", "camera", "blank"].')
        return context().service.module.entered_faces(faces)  # spelled as the game's roll commands take them
    kind_name = data.get("kind")
    if not isinstance(kind_name, str):
        raise Refused(400, 'with "pips" say which dice they are: "kind": "clue", "key" or "summon".')
    if not isinstance(pips, list) or not pips or not all(type(p) is int for p in pips):
        raise Refused(400, '"pips" must be a non-empty list of whole numbers 1-6, e.g. [2, 5, 6].')
    bad = [p for p in pips if not 1 <= p <= 6]
    if bad:
        raise Refused(400, f"a die shows 1 to 6 pips, not {bad[0]}.")
    service = context().service
    return service.module.pip_faces(kind_name, pips, service.table_dice)  # by the table's pip map


def _kept(target: str, keep: Any) -> str:
    """Which of this roll's dice the player sets aside (the rulebook lets them choose); the engine checks them."""
    if target != "roll":
        raise Refused(400, '"keep" is for the roll of an attempt only; leave it out for a summon or pull.')
    if isinstance(keep, list) and all(isinstance(k, str) for k in keep):
        return ",".join(keep) or "none"
    if isinstance(keep, str):
        return keep.strip() or "none"
    raise Refused(400, '"keep" must be a list of faces of this roll, e.g. ["eye", "eye"], or "none".')


@bp.post("/dice")
@host_required
def enter_dice() -> Response:
    """Dice entered by hand, or a correction of the last roll read from the tray."""
    data = body()
    only_keys(data, ("faces", "pips", "kind", "command", "replace", "keep", "cards"))
    service = context().service
    target = _dice_command(data)
    replace = flag(data, "replace")
    args = {"faces": ",".join(_faces_from(data))}
    cards = data.get("cards")
    if cards is not None:
        # Physical decks: the cards this roll draws (a summon's room card, a clue's evidence token).
        if not isinstance(cards, dict) or not set(cards) <= CARDS_DRAWN:
            raise Refused(
                400, '"cards" names the cards drawn: {"room": "8", "environment": "fire", "evidence": "..."}.'
            )
        for key, value in cards.items():
            args[key] = arg_text(key, value)
    keep = data.get("keep")
    if keep is not None:
        args["keep"] = _kept(target, keep)
    if not replace:
        return result(service.do(target, args, source="web"))
    return result(service.replace_last(target, args, source="web"))


@bp.get("/odds")
@viewer_required
def odds() -> Response:
    """The chance of a roll, by the odds calculator of the game in play (GameModule.page_odds)."""
    try:
        return jsonify(context().service.module.page_odds(request.args))
    except BadCommand as exc:  # a wrong question: a 400 with its message, as this address has always answered
        raise Refused(400, str(exc)) from None
