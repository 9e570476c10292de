"""The record of every game played: when, how long, who, the setup, the result and why, the rounds, the Ghost Hours
or midnights, the timeline, and every attempt whose chance the page showed (for the dice's luck, companion.luck).

A record is worked out by replaying the game's commands through its rules engine, which is pure and exact, so the
chance shown before each attempt is the very chance the page showed then (the history keeps the commands, not the
chances). What is an attempt, what its chance was and whether it came good, each game's module says
(``GameModule.luck``, where ``has_luck``; Among Cultists and Spooks have no dice odds, so their records have no attempts); the
record's facts and the timeline's points too (``record_facts``, ``moments``). Nothing here names a game.

:func:`build_record` is pure (the setup, the commands and the packs in, a JSON-safe dict out);
:class:`RecordBook` keeps the records in the history file (its ``records`` table), making one again only when its
game's commands have changed since.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.errors import CompanionError
from companion.games.base import Chance, GameModule, module_for, rules_of
from companion.history import CommandRecord, GameInfo, GameStore

__all__ = ["RECORD_VERSION", "RecordBook", "build_record"]

#: what a record holds; a stored record of another version is made again (3: Elder Sign weighs each blow against the
#: Ancient One, and an adventure the awakening cut short, so the records kept before are worked out again; 4: a
#: timeline may count steps, the Spooks hands, instead of minutes; 5: a timeline may have the score its values are
#: played to, the Spooks 200; 6: an Elder Sign attempt with a die an item added before its first roll is counted)
RECORD_VERSION = 6


class _Attempts:
    """The attempts of one replay: the one under way, and those settled by the dice."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.open: dict[str, Any] | None = None
        self.done: list[dict[str, Any]] = []

    def note(self, mark: Chance | None, seq: int, minute: float) -> None:
        if mark is None:
            return
        if mark.begins:
            player = mark.player
            who = self.names[player] if isinstance(player, int) and 0 <= player < len(self.names) else None
            chance = None if mark.chance is None else round(float(mark.chance), 12)
            self.open = {"seq": seq, "minute": round(minute, 3), "player": who, "what": mark.what, "chance": chance}
        if self.open is None:
            return
        if mark.dropped:
            self.open = None
        elif mark.good is not None:
            self.done.append({**self.open, "good": bool(mark.good)})
            self.open = None


def build_record(
    module: GameModule,
    info: GameInfo,
    commands: Sequence[CommandRecord],
    packs: Any,
    told: Mapping[int, Sequence[Mapping[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The record of one game from its setup and its commands (see the module docstring); `told`: what each
    command caused when it was played, by its seq (GameStore.command_events), where known."""
    record: dict[str, Any] = {
        "version": RECORD_VERSION,
        "game": info.id,
        "name": info.name,
        "rules": module.rules,
        "title": module.title,
        "started": info.created,
        "commands": len(commands),
        "dice": module.has_luck,
    }
    if not module.has_luck:
        record["odds_note"] = f"{module.title} is played without dice odds, so its record has no attempts and no luck."
    last_at = commands[-1].at if commands else info.created
    record["ended"] = max(last_at, info.created)
    record["minutes"] = round(max(0.0, record["ended"] - info.created) / 60, 2)
    try:
        game = module.new(module.setup_from_dict(info.setup), packs)
        parsed = _reading_of(module, game, commands, told)
        view: dict[str, Any] = game.view()
    except CompanionError as exc:
        return {**record, **_facts({}, info), "problem": f"the game cannot be set up again: {exc}"}
    names = [str(n) for n in view.get("player_names") or []]
    attempts = _Attempts(names)
    timeline: dict[str, Any] = {"clock": [], "marks": [], "series": {}}
    _moment(module, view, [], 0.0, timeline)
    problem = None
    for i, entry in enumerate(commands):
        minute = max(0.0, (entry.at - info.created) / 60)
        try:
            command = parsed[i] if i < len(parsed) else module.command_from_dict(entry.command)
            if module.has_luck:
                attempts.note(module.luck(game, command, None), entry.seq, minute)
            events = game.push(command)
        except CompanionError as exc:
            problem = f"command {entry.seq} is no longer accepted ({exc}); the record stops before it"
            break
        view = game.view()
        if module.has_luck:
            attempts.note(module.luck(game, command, events), entry.seq, minute)
        _moment(module, view, events, minute, timeline)
    record.update(_facts(view, info, module))
    if view.get("outcome"):  # why it ended in the page's words (the end card's), not the engine's with its sections
        try:
            said = module.end_summary(view, module.names(game), record["minutes"]).get("why")
        except (CompanionError, KeyError, TypeError, ValueError):
            said = None
        record["why"] = said or record["why"]
    record["attempts"] = attempts.done
    record["timeline"] = timeline
    if problem:
        record["problem"] = problem
    return record


def _reading_of(
    module: GameModule,
    game: Any,
    commands: Sequence[CommandRecord],
    told: Mapping[int, Sequence[Mapping[str, Any]]] | None,
) -> list[Any]:
    """Sets `game` to the reading its commands were played in, as a replay of the history does
    (GameModule.read_stored, with the events they caused: a game stored before the companion asked about a stand-in
    card plays on as it was played); what the module pushed to find out is taken back, so each command is pushed and
    weighed below. Returns the commands read (up to the first that cannot be read): those very commands are pushed
    again, as an engine may know its stored history by them (an undo's later commands play as now)."""
    parsed: list[Any] = []
    for entry in commands:
        try:
            parsed.append(module.command_from_dict(entry.command))
        except CompanionError:
            break  # the record stops before it (below)
    stored = None if told is None else [told.get(entry.seq, []) for entry in commands[: len(parsed)]]
    module.read_stored(game, parsed, stored)
    while game.played:
        game.pop()
    return parsed


def _facts(view: Mapping[str, Any], info: GameInfo, module: GameModule | None = None) -> dict[str, Any]:
    facts: dict[str, Any] = dict(module.record_facts(view)) if module is not None and view else {}
    setup = [[str(label), str(value)] for label, value in facts.get("setup") or [] if value not in (None, "")]
    names = [str(n) for n in view.get("player_names") or info.setup.get("names") or []]
    players = info.setup.get("players")
    outcome = view.get("outcome")
    return {
        "players": names,
        "player_count": int(players) if isinstance(players, int) else len(names),
        "setup": setup,
        "result": outcome if outcome in ("won", "lost") else "playing",
        "why": view.get("outcome_reason"),
        "winner": facts.get("winner"),
        "rounds": facts.get("rounds"),
        "rounds_word": facts.get("rounds_word") or "rounds",
        "marks": facts.get("marks"),
        "marks_word": facts.get("marks_word"),
    }


def _moment(
    module: GameModule,
    view: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    minute: float,
    timeline: dict[str, Any],
) -> None:
    """Add one command's point to the timeline: the clock when it moved, the marks, each value when it changed. A
    module whose moments count steps ("step": the hands played, "step_word": "hand") has its points at the steps,
    evenly, not at the minutes (a quick game's points would crowd together): each value as it stood at the step's
    end."""
    moment: Mapping[str, Any] = module.moments(view, events)
    step = moment.get("step")
    counted = isinstance(step, int) and not isinstance(step, bool)
    if counted:
        timeline["step"] = str(moment.get("step_word") or "step")
    at = float(step) if isinstance(step, int) and counted else round(minute, 3)
    clock = moment.get("clock")
    if clock is not None and (not timeline["clock"] or timeline["clock"][-1][1] != clock):
        timeline["clock"].append([at, str(clock)])
    timeline["marks"].extend([at, str(label)] for label in moment.get("marks") or [])
    goal = moment.get("goal")
    if isinstance(goal, Sequence) and len(goal) == 2 and isinstance(goal[0], (int, float)):
        timeline["goal"] = [goal[0], str(goal[1])]  # the score the values are played to: a line on the chart
    for name, value in (moment.get("values") or {}).items():
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        points = timeline["series"].setdefault(str(name), [])
        if counted and points and points[-1][0] == at and len(points) > 1:
            points.pop()  # a change within the step: the value at its end
        if not points or points[-1][1] != value:
            points.append([at, value])


class RecordBook:
    """The records of the games in a history file, kept in its ``records`` table and made again only when a game's
    commands changed since (or the record's version did).

    ``packs_for(rules)`` gives a game's packs (the service's :meth:`GameService.packs_for`, or each module's own)."""

    def __init__(self, store: GameStore, packs_for: Callable[[str], Any] | None = None) -> None:
        self.store = store
        self._packs_for = packs_for
        self._packs: dict[str, Any] = {}

    def packs(self, rules: str) -> Any:
        if self._packs_for is not None:
            return self._packs_for(rules)
        if rules not in self._packs:
            self._packs[rules] = module_for(rules).load_packs(None)
        return self._packs[rules]

    def record(self, game_id: int) -> dict[str, Any]:
        """The record of one game (HistoryError if there is no such game)."""
        return self._record(self.store.game(game_id))

    def _record(self, info: GameInfo) -> dict[str, Any]:
        kept = self.store.record(info.id)
        count, at = self.store.last_command(info.id)
        last = info.created if at is None else max(at, info.created)
        # the same commands, the last one played at the same moment (an undo and another command is not): the same
        # record (a game loaded again, which only marks it as the last one played, keeps it)
        if (
            kept is not None
            and kept.get("version") == RECORD_VERSION
            and kept.get("commands") == count
            and kept.get("ended") == last
        ):
            return kept
        try:
            module = module_for(rules_of(info.setup))
            packs = self.packs(module.rules)
        except CompanionError as exc:  # an unknown game, or its packs do not load: said, not kept
            return {
                "version": RECORD_VERSION,
                "game": info.id,
                "name": info.name,
                "rules": rules_of(info.setup),
                "title": rules_of(info.setup),
                "started": info.created,
                "ended": info.updated,
                "minutes": round(max(0.0, info.updated - info.created) / 60, 2),
                "commands": info.commands,
                "problem": f"its record cannot be made: {exc}",
                "attempts": [],
                "players": [],
                "setup": [],
                "result": "playing",
                "dice": False,
                "timeline": {},
            }
        made = build_record(module, info, self.store.commands(info.id), packs, self.store.command_events(info.id))
        self.store.save_record(info.id, made)
        return made

    def records(self) -> list[dict[str, Any]]:
        """Every game's record, the newest first (by when it was started)."""
        infos = sorted(self.store.list_games(), key=lambda i: (i.created, i.id), reverse=True)
        return [self._record(info) for info in infos]
