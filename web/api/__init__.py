"""The JSON API under `/api/`, one blueprint per concern; each is thin: it reads the request, calls the service
(or a part) from the request's `web.context.context()`, and answers in JSON.

- `host`: the session, the host's PIN, the join link's QR code
- `game`: the state, the history, the event stream, commands, undo and redo, scripts read out
- `setup`: a new game, its choices, the board's map, the table's setup checklist
- `dice`: virtual rolls, dice entered or corrected, the odds
- `box`: the copy of the game on the table
- `table`: the table's hardware and the dice tray
- `teach`: teaching the dice reader
- `phones`: the phones that joined, the security report, the problems banner
- `backups`: the history's backups
- `games`: the record of every game played, the dice's luck, the night in pictures, the exports (the Games view)
- `voice`: the narrator's voice on the host's settings (engine, Piper voice, volume, a test)

Every refusal is a 4xx with `{"error": "...", "status": N}` (see `web.errors.Refused`); docs/web.md lists the
endpoints.
"""

from __future__ import annotations

from flask import Blueprint

from web.api import backups, box, dice, game, games, host, phones, setup, table, teach, voice

__all__ = ["BLUEPRINTS"]

BLUEPRINTS: tuple[Blueprint, ...] = (
    host.bp,
    game.bp,
    setup.bp,
    dice.bp,
    box.bp,
    table.bp,
    teach.bp,
    phones.bp,
    backups.bp,
    games.bp,
    voice.bp,
)
