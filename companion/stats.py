"""Figures across the games record (companion.record): win rates, the longest game, the dice's luck per player,
per game and per night, the calibration of the odds, and the exports (CSV, JSON).

Pure: records (JSON-safe dicts) in, figures out. Nothing here names a game: the setup's facts are the labels each
game's module gave them ("Board", "Ghost", "Ancient One" ...), so a win rate by ghost and board, or by Ancient One,
is a win rate by each of those labels.

A night is a run of games, each started less than :data:`NIGHT_GAP_S` after the one before it ended (no clock or
time zone needed: a table that plays on past midnight is still one night).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from companion.luck import Luck, calibration, luck_of, unweighed_words

__all__ = [
    "NIGHT_GAP_S",
    "duration",
    "figures",
    "finished",
    "game_luck",
    "nights",
    "player_luck_by_game",
    "result_words",
    "to_csv",
    "trend_words",
    "when",
]

NIGHT_GAP_S = 6 * 3600


def weighed(records: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The attempts of these records that had a chance shown (the others are counted, not weighed)."""
    return [a for r in records for a in r.get("attempts") or [] if a.get("chance") is not None]


def luck_in(attempts: Sequence[Mapping[str, Any]]) -> Luck:
    return luck_of([float(a["chance"]) for a in attempts], sum(1 for a in attempts if a.get("good")))


def game_luck(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """One game's luck for its end card and the OLED: the whole table's, in words, and each player's; None for a
    game without dice odds (Among Cultists, Spooks)."""
    if not record.get("dice"):
        return None
    attempts = weighed([record])
    luck = luck_in(attempts)
    unshown = _unshown([record])
    return {
        **luck.to_dict(),
        "words": luck.words("game", unweighed=unshown),
        "short": luck.short(),
        "players": _per_player(attempts),
        "unshown": unshown,
    }


def _per_player(attempts: Sequence[Mapping[str, Any]], span: str = "game") -> dict[str, Any]:
    by: dict[str, list[Mapping[str, Any]]] = {}
    for a in attempts:
        by.setdefault(str(a.get("player") or "?"), []).append(a)
    out = {}
    for name, mine in by.items():
        luck = luck_in(mine)
        out[name] = {**luck.to_dict(), "words": luck.words(span, who=f"{name}'s")}
    return out


def _unshown(records: Iterable[Mapping[str, Any]]) -> int:
    return sum(1 for r in records for a in r.get("attempts") or [] if a.get("chance") is None)


def finished(record: Mapping[str, Any]) -> bool:
    """A game that ended (won or lost); one left under way (the demo game a companion starts with) is not played."""
    return record.get("result") in ("won", "lost")


def result_words(record: Mapping[str, Any]) -> str:
    """A game's result in a word or two: "won", "lost", "Ann won" (a game one player or side wins), "not finished"."""
    if not finished(record):
        return "not finished"
    return f"{record['winner']} won" if record.get("winner") else str(record["result"])


def _tally(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Played: the games that ended; not finished: the others (never counted as lost). A game one player (or one
    side) wins has no table win or loss: it is played, with its winner in ``winners``."""
    rows = list(records)
    ended = [r for r in rows if finished(r)]
    table = [r for r in ended if not r.get("winner")]
    winners: dict[str, int] = {}
    for r in ended:
        if r.get("winner"):
            winners[str(r["winner"])] = winners.get(str(r["winner"]), 0) + 1
    return {
        "played": len(ended),
        "won": sum(1 for r in table if r.get("result") == "won"),
        "lost": sum(1 for r in table if r.get("result") == "lost"),
        "not_finished": len(rows) - len(ended),
        "winners": dict(sorted(winners.items(), key=lambda kv: (-kv[1], kv[0]))),
    }


def _counts(tally: Mapping[str, Any]) -> dict[str, int]:
    return {key: int(tally[key]) for key in ("played", "won", "lost", "not_finished")}


def _rate(tally: Mapping[str, Any]) -> dict[str, Any]:
    ended = tally["won"] + tally["lost"]
    return {**tally, "win_rate": round(tally["won"] / ended, 4) if ended else None}


def nights(records: Iterable[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The records grouped by night, oldest night first, each night's games oldest first."""
    out: list[list[Mapping[str, Any]]] = []
    last_end = None
    for r in sorted(records, key=lambda r: (float(r.get("started") or 0), int(r.get("game") or 0))):
        start = float(r.get("started") or 0)
        if last_end is None or start - last_end > NIGHT_GAP_S:
            out.append([])
        out[-1].append(r)
        last_end = max(last_end or 0.0, float(r.get("ended") or start))
    return out


def duration(minutes: float) -> str:
    """How long a game took, in words: "under a minute", "25 min", "1 h 5 min"."""
    whole = round(minutes)
    if whole < 1:
        return "under a minute"
    return f"{whole} min" if whole < 60 else f"{whole // 60} h {whole % 60} min"


def when(ts: float) -> str:
    """A timestamp as the exports write it (ISO 8601, UTC)."""
    return datetime.fromtimestamp(float(ts), UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def figures(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every figure across these records. The first keys are `companion stats --json`'s contract: ``games``,
    ``by_rules`` ({rules: {"played", "won", "lost", "not_finished"}}: played counts the games that ended; won and
    lost the table's wins and losses, so a game one player wins is played, neither won nor lost), ``attempts`` (those with a chance shown), ``successes``,
    ``expected_successes`` (the sum of the chances shown before each) and ``luck_percentile``."""
    attempts = weighed(records)
    luck = luck_in(attempts)
    by_rules: dict[str, list[Mapping[str, Any]]] = {}
    for r in records:
        by_rules.setdefault(str(r.get("rules")), []).append(r)
    by_setup: dict[str, dict[str, dict[str, list[Mapping[str, Any]]]]] = {}
    by_players: dict[str, list[Mapping[str, Any]]] = {}
    for r in records:
        for label, value in r.get("setup") or []:
            by_setup.setdefault(str(r.get("title") or r.get("rules")), {}).setdefault(label, {}).setdefault(
                value, []
            ).append(r)
        by_players.setdefault(str(r.get("player_count")), []).append(r)
    longest = max(records, key=lambda r: float(r.get("minutes") or 0), default=None)
    the_nights = nights(records)
    over_time: dict[str, list[dict[str, Any]]] = {}
    for night in the_nights:
        mine: dict[str, list[Mapping[str, Any]]] = {}
        for a in weighed(night):
            mine.setdefault(str(a.get("player") or "?"), []).append(a)
        for name, theirs in mine.items():
            over_time.setdefault(name, []).append({"night": when(night[0]["started"]), **luck_in(theirs).to_dict()})
    return {
        "games": len(records),
        "by_rules": {rules: _counts(_tally(rows)) for rules, rows in sorted(by_rules.items())},
        "attempts": luck.attempts,
        "successes": luck.successes,
        "expected_successes": round(luck.expected, 6),
        "luck_percentile": round(luck.percentile, 2),
        "luck": {**luck.to_dict(), "words": luck.words("set of games", who="These games'")},
        "attempts_without_odds": _unshown(records),
        "attempts_without_odds_words": unweighed_words(_unshown(records)) if _unshown(records) else "",
        "win_rate_by_game": {
            rules: {"title": rows[0].get("title") or rules, **_rate(_tally(rows))}
            for rules, rows in sorted(by_rules.items())
        },
        "win_rate_by_setup": {
            title: {
                label: {value: _rate(_tally(rows)) for value, rows in sorted(values.items())}
                for label, values in labels.items()
            }
            for title, labels in by_setup.items()
        },
        "win_rate_by_players": {n: _rate(_tally(rows)) for n, rows in sorted(by_players.items(), key=lambda kv: kv[0])},
        "longest": None
        if longest is None
        else {
            "game": longest.get("game"),
            "title": longest.get("title"),
            "minutes": longest.get("minutes"),
            "duration": duration(float(longest.get("minutes") or 0)),
            "started": longest.get("started"),
        },
        "players": _per_player(attempts, "set of games"),
        "player_luck_over_time": over_time,
        "player_luck_by_game": player_luck_by_game(records),
        "nights": [
            {
                "started": when(n[0]["started"]),
                "games": [r.get("game") for r in n],
                "luck": _night_luck(n),
            }
            for n in reversed(the_nights)
        ],
        "calibration": calibration((float(a["chance"]), bool(a.get("good"))) for a in attempts),
    }


def player_luck_by_game(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Each player's luck game by game, for the chart of it (companion.pictures.player_luck_svg) and its numbers:
    ``games``, the games with an attempt weighed, oldest first (``game``, ``title``, ``started``, ``night``: 1 for
    the first night); ``players``, for each player the games they rolled in (``index`` into ``games``, the game's
    own ``attempts``, ``successes``, ``expected`` and ``percentile``, and ``ahead``: how many more attempts came
    good than the odds said over this game and every one before it, fewer below 0); and ``words``, what the
    numbers say, a sentence for each player (:func:`trend_words`)."""
    rows = list(records)
    night_of = {r.get("game"): i + 1 for i, night in enumerate(nights(rows)) for r in night}
    games = sorted(
        (r for r in rows if weighed([r])), key=lambda r: (float(r.get("started") or 0), int(r.get("game") or 0))
    )
    players: dict[str, list[dict[str, Any]]] = {}
    spans: dict[str, list[list[Mapping[str, Any]]]] = {}
    for index, r in enumerate(games):
        mine: dict[str, list[Mapping[str, Any]]] = {}
        for a in weighed([r]):
            mine.setdefault(str(a.get("player") or "?"), []).append(a)
        for name, theirs in mine.items():
            luck = luck_in(theirs)
            before = players[name][-1]["ahead"] if name in players else 0.0
            players.setdefault(name, []).append(
                {
                    "index": index,
                    "game": r.get("game"),
                    "attempts": luck.attempts,
                    "successes": luck.successes,
                    "expected": round(luck.expected, 6),
                    "percentile": round(luck.percentile, 2),
                    "ahead": round(before + luck.successes - luck.expected, 6),
                }
            )
            spans.setdefault(name, []).append(theirs)
    return {
        "games": [
            {
                "game": r.get("game"),
                "title": r.get("title"),
                "started": r.get("started"),
                "night": night_of[r.get("game")],
            }
            for r in games
        ],
        "players": players,
        "words": trend_words(players, spans, len(games)),
    }


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _games(n: int) -> str:
    return f"{NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else n} game{'s' if n != 1 else ''}"


def _side(point: Mapping[str, Any]) -> int:
    """1 when more of a game's attempts came good than the odds said, -1 when fewer, 0 when just as many."""
    diff = float(point["successes"]) - float(point["expected"])
    return 0 if abs(diff) < 1e-9 else (1 if diff > 0 else -1)


def trend_words(
    players: Mapping[str, Sequence[Mapping[str, Any]]],
    spans: Mapping[str, Sequence[Sequence[Mapping[str, Any]]]],
    columns: int,
) -> list[str]:
    """A sentence a player on their luck game by game, from the numbers alone. The dice "ran hot" (or "ran cold")
    only when the player's last two games or more each came good more (or less) often than the odds said and
    those games together are lucky or luckless by the exact odds (:class:`companion.luck.Luck`); otherwise the
    sentence says how far ahead of (or behind) the odds the player's dice are over all their games.

    ``players``: :func:`player_luck_by_game`'s points; ``spans``: each point's attempts; ``columns``: how many
    games the chart has (a streak that ends with the last of them is "the last three games")."""
    out = []
    for name, points in players.items():
        streak = 0
        for point in reversed(points):
            if _side(point) == 0 or _side(point) != _side(points[-1]):
                break
            streak += 1
        if streak >= 2:
            luck = luck_in([a for span in spans[name][-streak:] for a in span])
            hot = _side(points[-1]) > 0
            if luck.verdict != "about as the odds said" and (luck.successes > luck.expected) == hot:
                last = [int(p["index"]) for p in points[-streak:]]
                together = last == list(range(columns - streak, columns))
                where = f"the last {_games(streak)}" + ("" if together else f" {name} rolled in")
                rare = f", a run like it 1 in {luck.one_in}" if luck.one_in else ""
                out.append(
                    f"{name}'s dice ran {'hot' if hot else 'cold'} in {where}: {luck.successes} of "
                    f"{luck.attempts} attempts came good where {luck.expected_words()} "
                    f"({luck.verdict}{rare})."
                )
                continue
        ahead = float(points[-1]["ahead"])
        span = f"Over {_games(len(points))}" if len(points) > 1 else f"In {_games(1)}"
        if abs(ahead) < 0.05:
            out.append(f"{span} {name}'s dice came good just as often as the odds said.")
        else:
            more = "more" if ahead > 0 else "fewer"
            out.append(f"{span} {name}'s dice came good {abs(ahead):.1f} {more} times than the odds said.")
    return out


def _night_luck(night: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    luck = luck_in(weighed(night))
    return {**luck.to_dict(), "words": luck.words("night")}


CSV_COLUMNS = (
    "game",
    "rules",
    "title",
    "started",
    "minutes",
    "players",
    "setup",
    "result",
    "why",
    "winner",
    "rounds",
    "rounds_word",
    "marks",
    "marks_word",
    "attempts",
    "successes",
    "expected_successes",
)


def to_csv(records: Iterable[Mapping[str, Any]]) -> str:
    """One row per game, the newest first, as the Games view lists them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in records:
        attempts = weighed([r])
        luck = luck_in(attempts)
        writer.writerow(
            [
                r.get("game"),
                r.get("rules"),
                r.get("title"),
                when(r.get("started") or 0),
                r.get("minutes"),
                "; ".join(r.get("players") or []),
                "; ".join(f"{label}: {value}" for label, value in r.get("setup") or []),
                r.get("result"),
                r.get("why") or "",
                r.get("winner") or "",
                r.get("rounds"),
                r.get("rounds_word"),
                "" if r.get("marks") is None else r.get("marks"),
                r.get("marks_word") or "",
                luck.attempts if r.get("dice") else "",
                luck.successes if r.get("dice") else "",
                round(luck.expected, 4) if r.get("dice") else "",
            ]
        )
    return out.getvalue()
