"""The games record and the dice's luck (companion.record, companion.luck, companion.stats, `companion stats`):
the Poisson-binomial against a brute force, the words and the figures against values worked out by hand, games
scripted through the service on a real SQLite file, and a history file written by the version-1 code."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import shutil
import sqlite3
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from games import numbers_copied

from companion import stats_cli
from companion.games.skeptics.packs import load_packs
from companion.history import SCHEMA_VERSION, GameStore
from companion.luck import calibration, distribution, float_distributions, luck_of
from companion.record import RecordBook
from companion.service import GameService
from companion.stats import figures, game_luck, nights, player_luck_by_game, result_words, to_csv

V1_FILE = Path(__file__).parent / "data" / "history-v1.sqlite"


# -- the Poisson-binomial ------------------------------------------------------------------------------------------


def brute_force(chances: list[Fraction]) -> list[Fraction]:
    """P(S = k) by summing over every one of the 2^n ways the attempts can come out."""
    dist = [Fraction(0)] * (len(chances) + 1)
    for outcome in itertools.product((False, True), repeat=len(chances)):
        p = Fraction(1)
        for good, chance in zip(outcome, chances):
            p *= chance if good else 1 - chance
        dist[sum(outcome)] += p
    return dist


@pytest.mark.parametrize("seed", range(12))
def test_the_distribution_is_the_brute_forces_exactly(seed: int) -> None:
    rng = random.Random(seed)
    chances = [Fraction(rng.randint(0, 12), 12) for _ in range(rng.randint(1, 9))]
    assert distribution(chances) == brute_force(chances)  # fractions in, fractions out: exact
    floats = distribution([float(c) for c in chances])
    assert floats == pytest.approx([float(p) for p in brute_force(chances)], abs=1e-12)
    vectors = list(float_distributions([float(c) for c in chances]))  # the same sums, one vector per attempt
    assert len(vectors) == len(chances) and list(vectors[-1]) == pytest.approx(floats, abs=1e-15)


@pytest.mark.parametrize("seed", range(8))
def test_the_percentile_and_the_tails_against_the_brute_force(seed: int) -> None:
    rng = random.Random(100 + seed)
    chances = [Fraction(rng.randint(1, 5), 6) for _ in range(rng.randint(1, 8))]
    exact = brute_force(chances)
    for s in range(len(chances) + 1):
        luck = luck_of([float(c) for c in chances], s)
        assert luck.below == pytest.approx(float(sum(exact[: s + 1])))
        assert luck.above == pytest.approx(float(sum(exact[s:])))
        assert luck.percentile == pytest.approx(100 * float(sum(exact[:s]) + exact[s] / 2))
        assert luck.expected == pytest.approx(float(sum(chances)))


def test_a_chance_outside_0_to_1_is_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        distribution([0.5, 1.5])
    with pytest.raises(ValueError, match="3 successes out of 2"):
        luck_of([0.5, 0.5], 3)


# -- the words ---------------------------------------------------------------------------------------------------


def test_four_even_chances_that_all_failed_are_luckless_one_night_in_sixteen() -> None:
    luck = luck_of([0.5] * 4, 0)  # P(S <= 0) = 1/16 by hand
    assert (luck.below, luck.verdict, luck.one_in) == (0.0625, "luckless", 16)
    assert (
        luck.words()
        == "The table's 4 attempts never came good; the odds expected about 2 of them: luckless, about 1 night in 16 goes this way."
    )
    assert luck.short() == "Luck 0 of 2.0, luckless"


def test_a_long_run_of_sure_things_failing_is_cursed_and_a_lucky_one_charmed() -> None:
    cursed = luck_of([0.9] * 3, 1)  # P(S <= 1) = 0.1^3 + 3 * 0.9 * 0.1^2 = 0.028
    assert cursed.below == pytest.approx(0.028) and cursed.verdict == "cursed" and cursed.one_in == 36
    charmed = luck_of([0.2] * 3, 3)  # P(S >= 3) = 0.008
    assert charmed.verdict == "charmed" and charmed.one_in == 125
    assert charmed.words("game") == (
        "The table's 3 attempts came good 3 times; the odds expected about 1 of them: charmed, about 1 game in 125 goes this way."
    )


def test_what_the_odds_said_is_no_story_and_no_attempts_say_so() -> None:
    fair = luck_of([0.5, 0.5], 1)  # P(S <= 1) = P(S >= 1) = 3/4
    assert fair.verdict == "about as the odds said" and fair.one_in is None and fair.percentile == 50
    assert fair.words().endswith("the odds expected about 1 of them: about as the odds said.")
    assert fair.short() == "Luck 1 of 1.0, fair dice"
    none = luck_of([], 0)
    assert none.attempts == 0 and "no luck to tell" in none.words()


def test_calibration_groups_by_the_chance_shown() -> None:
    rows = calibration([(0.1, False), (0.15, True), (0.2, True), (0.3, False), (0.9, True), (1.0, True)])
    assert [r["label"] for r in rows] == ["0-20%", "20-40%", "40-60%", "60-80%", "80-100%"]
    assert [(r["attempts"], r["good"]) for r in rows] == [(2, 1), (2, 1), (0, 0), (0, 0), (2, 2)]
    assert rows[0]["shown"] == pytest.approx(0.125) and rows[0]["rate"] == 0.5
    assert rows[2]["rate"] is None and rows[4]["shown"] == pytest.approx(0.95)


# -- figures from records made by hand -----------------------------------------------------------------------------


def record(
    game: int,
    rules: str,
    result: str,
    started: float,
    minutes: float,
    attempts: list[tuple[str, float, bool]],
    setup: list[list[str]],
    players: int = 2,
) -> dict[str, Any]:
    return {
        "game": game,
        "rules": rules,
        "title": rules.title(),
        "result": result,
        "started": started,
        "ended": started + minutes * 60,
        "minutes": minutes,
        "setup": setup,
        "player_count": players,
        "players": ["Ada", "Bo"],
        "dice": True,
        "attempts": [{"player": p, "chance": c, "good": g} for p, c, g in attempts],
    }


HAND = [
    record(3, "b", "won", 100_000.0, 30, [("Ada", 0.5, True)], [["Ancient One", "Azathoth"]], players=3),
    record(
        2,
        "a",
        "lost",
        3_000.0,
        90,
        [("Bo", 0.25, False), ("Ada", 0.75, True)],
        [["Board", "Asylum"], ["Ghost", "Child"]],
    ),
    record(1, "a", "won", 0.0, 40, [("Ada", 0.5, False)], [["Board", "Asylum"], ["Ghost", "Nun"]]),
]


def test_figures_across_games_as_worked_out_by_hand() -> None:
    found = figures(HAND)
    assert found["games"] == 3
    assert found["by_rules"] == {
        "a": {"played": 2, "won": 1, "lost": 1, "not_finished": 0},
        "b": {"played": 1, "won": 1, "lost": 0, "not_finished": 0},
    }
    assert (found["attempts"], found["successes"], found["expected_successes"]) == (4, 2, 2.0)
    # chances 0.5, 0.25, 0.75, 0.5: S and 4 - S have the same distribution (0.25 pairs with 0.75), so with 2 of 4
    # P(S < 2) = P(S > 2) and the percentile is 50; P(S = 0) = 0.5 * 0.75 * 0.25 * 0.5 = 3/64
    assert found["luck_percentile"] == 50.0
    assert found["luck"]["below"] == pytest.approx(1 - 3 / 64 - float(distribution([0.5, 0.25, 0.75, 0.5])[3]))
    assert found["win_rate_by_setup"]["A"]["Ghost"] == {
        "Child": {"played": 1, "won": 0, "lost": 1, "not_finished": 0, "winners": {}, "win_rate": 0.0},
        "Nun": {"played": 1, "won": 1, "lost": 0, "not_finished": 0, "winners": {}, "win_rate": 1.0},
    }
    assert found["win_rate_by_setup"]["A"]["Board"]["Asylum"]["win_rate"] == 0.5
    assert found["win_rate_by_players"]["3"]["played"] == 1 and found["win_rate_by_players"]["2"]["played"] == 2
    assert found["longest"]["game"] == 2
    assert found["players"]["Ada"]["successes"] == 2 and found["players"]["Ada"]["expected"] == 1.75
    # two nights: games 1 and 2 (the second began 50 minutes after the first ended), then game 3 a day later
    assert [[r["game"] for r in n] for n in nights(HAND)] == [[1, 2], [3]]
    assert [n["games"] for n in found["nights"]] == [[3], [1, 2]]
    assert found["nights"][0]["luck"]["words"] == (
        "The table's 1 attempt came good once; the odds expected about half of one: about as the odds said."
    )
    assert [p["successes"] for p in found["player_luck_over_time"]["Ada"]] == [1, 1]


def test_each_players_luck_game_by_game_as_worked_out_by_hand() -> None:
    by = player_luck_by_game(HAND)
    assert [(g["game"], g["night"]) for g in by["games"]] == [(1, 1), (2, 1), (3, 2)]  # oldest first
    ada, bo = by["players"]["Ada"], by["players"]["Bo"]
    # Ada: 0 of 0.5, then 1 of 0.75, then 1 of 0.5; so far -0.5, -0.25, +0.25. Bo sat game 1 and 3 out
    assert [(p["index"], p["successes"], p["expected"], p["ahead"]) for p in ada] == [
        (0, 0, 0.5, -0.5),
        (1, 1, 0.75, -0.25),
        (2, 1, 0.5, 0.25),
    ]
    assert [(p["index"], p["ahead"]) for p in bo] == [(1, -0.25)]
    assert ada[0]["percentile"] == 25.0  # one attempt at 1/2 that failed: 100 * (0 + 1/2 / 2)
    # Ada's last two games each beat the odds, but 2 of 1.25 is common (P(S >= 2) = 3/8): no "ran hot"
    assert by["words"] == [
        f"Over three games Ada's dice came good {0.25:.1f} more times than the odds said.",
        f"In one game Bo's dice came good {0.25:.1f} fewer times than the odds said.",
    ]
    assert figures(HAND)["player_luck_by_game"] == by


def test_dice_run_hot_or_cold_only_when_a_streak_of_games_is_unusual_by_the_exact_odds() -> None:
    def game(n: int, attempts: list[tuple[str, float, bool]]) -> dict[str, Any]:
        return record(n, "a", "won", n * 3600.0, 30, attempts, [])

    cold = [(0.9, False)] * 3
    games = [
        game(1, [("Ada", 0.5, False), ("Bo", 0.5, True)]),
        game(2, [("Ada", 0.2, True), ("Ada", 0.3, True), *[("Bo", c, g) for c, g in cold]]),
        game(3, [("Ada", 0.25, True), ("Bo", 0.9, True)]),
        game(4, [("Ada", 0.4, True), *[("Bo", c, g) for c, g in cold]]),
    ]
    words = player_luck_by_game(games)["words"]
    hot = luck_of([0.2, 0.3, 0.25, 0.4], 4)  # Ada's last three games: each more than the odds said
    assert hot.verdict == "charmed" and hot.one_in
    assert words[0] == (
        f"Ada's dice ran hot in the last three games: 4 of 4 attempts came good where the odds expected "
        f"about 1 of them (charmed, a run like it 1 in {hot.one_in})."
    )
    # Bo's last game is cold, the one before it hot: no streak; over his four games he is behind the odds
    behind = (1 + 1) - (0.5 + 0.9 * 7)
    assert words[1] == f"Over four games Bo's dice came good {abs(behind):.1f} fewer times than the odds said."
    # a streak that ends before the chart's last game is the last games the player rolled in
    later = [*games, game(5, [("Bo", 0.5, True)])]
    assert player_luck_by_game(later)["words"][0].startswith(
        "Ada's dice ran hot in the last three games Ada rolled in:"
    )
    assert player_luck_by_game([])["words"] == [] and player_luck_by_game([])["games"] == []


def test_the_csv_has_a_row_per_game_in_the_order_given() -> None:
    rows = to_csv(HAND).splitlines()
    assert rows[0].startswith("game,rules,title,started,minutes")
    assert [row.split(",")[0] for row in rows[1:]] == ["3", "2", "1"]
    assert "Board: Asylum; Ghost: Child" in rows[2]


# -- games scripted through the service --------------------------------------------------------------------------


def service_on(path: Path) -> GameService:
    clock = itertools.count(1_800_000_000, 60)
    return GameService(GameStore(path), load_packs(), rng=random.Random(1), now=lambda: float(next(clock)))


def play_scripted(path: Path) -> tuple[list[float], int]:
    """A Skeptics game and an Elder Sign game with scripted rolls; returns the chances the state showed before
    each attempt and how many came good."""
    svc = service_on(path)
    shown: list[float] = []
    svc.new_game({"players": 2, "names": ["Ada", "Bo"], "board": "asylum", "ghost": "child", "seed": 7})
    svc.do("attempt", {"action": "search", "need": "eye:1"})
    shown.append(svc.state()["odds"])
    assert shown[-1] == 511 / 512  # by hand: no eye on 3 dice is 1/8 a roll, three rolls in a row 1/512
    svc.do("roll", {"faces": "cobweb,camera,cobweb"})
    svc.do("roll", {"faces": "eye,camera,cobweb"})  # came good on the second roll
    svc.do("end-turn")
    for _ in range(4):
        svc.do("end-round")  # to the Ghost Hour
    svc.do("reveal-clue")
    svc.do("attempt", {"action": "solve", "need": "eye:2,camera:1"})
    shown.append(svc.state()["odds"])
    for _ in range(2):
        svc.do("roll", {"faces": "cobweb,cobweb,cobweb", "keep": "none"})
    svc.do("roll", {"faces": "cobweb,cobweb,cobweb", "keep": "none"})  # the last action: the attempt failed
    svc.do("end-round")
    svc.do("attempt", {"action": "search", "need": "eye:1"})
    svc.do("action", {"kind": "move"})  # the players turn to something else: dropped, not weighed
    es = svc.new_game({"rules": "elder-sign", "players": 2, "names": ["Cy", "Di"], "seed": 3})
    numbers_copied(svc._game, svc)  # the stand-in cards' numbers, copied before the first turn
    slot = es["adventures"][0]["slot"]
    svc.do("set-tasks", {"adventure": slot, "tasks": "inv:3;inv:3,lore:1", "ordered": "false"})  # from the card
    svc.do("move", {"to": slot})
    shown.append(svc.state()["odds"])
    first = len(svc.state()["next_dice"])
    svc.do("roll", {"faces": ",".join(["inv3"] + ["peril"] * (first - 1))})
    rest = len(svc.state()["next_dice"])
    done = svc.do("roll", {"faces": ",".join(["inv3", "lore"] + ["peril"] * (rest - 2))}).events
    assert "adventure_completed" in [e["type"] for e in done]
    svc.close()
    return shown, 2


def test_stats_json_counts_two_rules_and_weighs_what_the_state_showed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite3"
    shown, good = play_scripted(db)
    assert stats_cli.main(["--db", str(db), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2
    assert out["by_rules"] == {
        "elder-sign": {"played": 0, "won": 0, "lost": 0, "not_finished": 1},
        "skeptics": {"played": 0, "won": 0, "lost": 0, "not_finished": 1},
    }
    assert out["attempts"] == len(shown) == 3
    assert out["successes"] == good
    assert out["expected_successes"] == pytest.approx(sum(shown), abs=1e-6)
    assert 0 <= out["luck_percentile"] <= 100
    skeptics = next(r for r in out["records"] if r["rules"] == "skeptics")
    assert [(a["what"], a["good"]) for a in skeptics["attempts"]] == [
        ("search eye:1", True),
        ("solve eye:2,camera:1", False),
    ]
    assert skeptics["marks"] == 1 and skeptics["marks_word"] == "Ghost Hours"
    assert [r["rules"] for r in out["records"]] == ["elder-sign", "skeptics"]  # the newest first
    assert stats_cli.main(["--db", str(db)]) == 0
    words = capsys.readouterr().out
    assert "2 games in" in words and "came good twice" in words
    trend = out["player_luck_by_game"]["words"]
    assert trend and f"Game by game:\n  {trend[0]}\n" in words  # each player's luck game by game, in words


def test_the_end_card_and_the_oled_get_the_luck_of_the_game(tmp_path: Path) -> None:
    svc = service_on(tmp_path / "g.sqlite3")
    svc.new_game({"players": 2, "names": ["Ada", "Bo"], "board": "asylum", "ghost": "child", "seed": 7})
    svc.do("attempt", {"action": "search", "need": "eye:1"})
    for _ in range(3):
        svc.do("roll", {"faces": "cobweb,cobweb,cobweb", "keep": "none"})
    state = svc.state()
    assert state["outcome"] is None and "summary" not in state
    while svc.state()["outcome"] is None:  # end the rounds until time runs out
        svc.do("end-round")
    summary = svc.state()["summary"]
    assert summary["luck"]["words"] == (
        "The table's 1 attempt never came good; the odds expected about 1 of them: cursed, about 1 game in 512 goes this way."
    )
    assert summary["luck"]["short"] == "Luck 0 of 1.0, cursed"
    assert summary["luck"]["players"]["Ada"]["attempts"] == 1
    assert svc.store.record(svc.game_id or 0) is not None  # kept in the file
    # the OLED's end screen of this very state has the luck on its bottom line: the title and the reason's first line
    # are as they were (the reason keeps two lines instead of three)
    from PIL import ImageChops

    from hardware import screens

    state = svc.state()
    without = {**state, "summary": {k: v for k, v in summary.items() if k != "luck"}}
    box = ImageChops.logical_xor(screens.game_screen(state), screens.game_screen(without)).getbbox()
    assert box is not None and box[1] >= 39 and box[3] > 55, box
    svc.close()


def test_games_without_dice_odds_have_records_but_no_luck(tmp_path: Path) -> None:
    svc = service_on(tmp_path / "g.sqlite3")
    svc.new_game({"rules": "spooks", "players": 3, "names": ["Ada", "Bo", "Cy"]})
    while svc.state()["outcome"] is None:
        svc.do("hand", {"points": "0,60,10"})
    assert "luck" not in svc.state()["summary"]
    made = RecordBook(svc.store, svc.packs_for).record(svc.game_id or 0)
    assert made["dice"] is False and made["attempts"] == [] and game_luck(made) is None
    assert (made["result"], made["winner"], made["rounds"], made["rounds_word"]) == ("won", "Ada", 4, "hands")
    assert made["timeline"]["series"]["Bo"][-1][1] == 240
    # the end chart counts the hands, evenly: Bo's score after each of the four, whatever the minutes
    assert made["timeline"]["step"] == "hand"
    assert made["timeline"]["series"]["Bo"] == [[0.0, 0], [1.0, 60], [2.0, 120], [3.0, 180], [4.0, 240]]
    # the score the game is played to (spooks-rules.txt:3, "When one person hits 200"): a labelled line on the chart
    assert made["timeline"]["goal"] == [200, "to 200"]
    svc.close()


def test_a_record_is_made_again_only_when_its_game_changed(tmp_path: Path) -> None:
    svc = service_on(tmp_path / "g.sqlite3")
    state = svc.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 7})
    book = RecordBook(svc.store, svc.packs_for)
    first = book.record(state["game_id"])
    assert svc.store.record(state["game_id"]) == first
    svc.store.save_record(state["game_id"], {**first, "marker": 1})
    assert book.record(state["game_id"]).get("marker") == 1  # unchanged game: the kept record
    svc.load_game(state["game_id"])  # loading it again changes nothing of its record
    assert book.record(state["game_id"]).get("marker") == 1
    svc.do("end-round")
    again = book.record(state["game_id"])
    assert "marker" not in again and again["commands"] == 1
    svc.close()


# -- a file written by the version-1 code --------------------------------------------------------------------------


def test_a_version_1_file_is_migrated_and_keeps_every_game(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite3"
    shutil.copy(V1_FILE, old)
    raw = sqlite3.connect(old)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
    before = raw.execute("SELECT id, setup, status FROM games ORDER BY id").fetchall()
    commands = raw.execute("SELECT game, seq, command FROM commands ORDER BY game, seq").fetchall()
    raw.close()
    with GameStore(old) as store:
        records = RecordBook(store).records()
    raw = sqlite3.connect(old)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    assert raw.execute("SELECT id, setup, status FROM games ORDER BY id").fetchall() == before
    assert raw.execute("SELECT game, seq, command FROM commands ORDER BY game, seq").fetchall() == commands
    assert raw.execute("SELECT count(*) FROM records").fetchone()[0] == 4
    raw.close()
    assert [r["rules"] for r in records] == ["spooks", "among-cultists", "elder-sign", "skeptics"]
    skeptics = records[-1]
    assert [(a["chance"], a["good"]) for a in skeptics["attempts"]] == [
        (pytest.approx(511 / 512), True),
        (pytest.approx(0.743071630658), True),
        (pytest.approx(1 / 6), False),
        (pytest.approx(1 / 6), True),
    ]
    assert skeptics["timeline"]["marks"][0][1] == "Ghost Hour: room 14"
    with GameStore(old) as store:  # opened again: nothing more to migrate
        assert len(store.list_games()) == 4


def test_a_version_1_backup_is_migrated_when_restored(tmp_path: Path) -> None:
    with GameStore(tmp_path / "now.sqlite3") as store:
        store.restore_from(V1_FILE)
        assert len(store.list_games()) == 4
        assert store.record(1) is None
        store.save_record(1, {"version": 0})  # the records table is there
    raw = sqlite3.connect(tmp_path / "now.sqlite3")
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()


def test_stats_on_a_missing_file_says_so_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.sqlite3"
    assert stats_cli.main(["--db", str(missing), "--json"]) == 1
    assert "there is no history file at" in capsys.readouterr().err and not missing.exists()


def test_the_night_png_is_a_picture_of_the_night(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from PIL import Image

    db = tmp_path / "old.sqlite3"
    shutil.copy(V1_FILE, db)
    png = tmp_path / "night.png"
    assert stats_cli.main(["--db", str(db), "--png", str(png)]) == 0
    with Image.open(png) as img:
        assert img.format == "PNG" and img.width == 1080 and img.height > 600
    first = png.read_bytes()
    assert stats_cli.main(["--db", str(db), "--png", str(png)]) == 0
    assert png.read_bytes() == first  # the same night, the same picture
    assert "The night's summary is in" in capsys.readouterr().out


def test_a_game_that_no_longer_replays_keeps_a_record_that_says_why(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    svc = service_on(db)
    svc.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 7})
    svc.do("end-round")
    svc.close()
    raw = sqlite3.connect(db)
    raw.execute("""UPDATE commands SET command = '{"name": "fly", "args": {}}' WHERE seq = 1""")
    raw.execute("INSERT INTO games (setup, created, updated) VALUES (?, 1, 2)", ('{"rules": "chess"}',))
    raw.commit()
    raw.close()
    with GameStore(db) as store:
        skeptics, chess = RecordBook(store).records()  # the newest first: the chess game is dated 1970
    assert "command 1 is no longer accepted" in skeptics["problem"] and skeptics["attempts"] == []
    assert "unknown rules 'chess'" in chess["problem"] and chess["result"] == "playing"
    assert figures([chess, skeptics])["games"] == 2


def test_stats_csv_prints_a_row_per_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite3"
    shutil.copy(V1_FILE, db)
    assert stats_cli.main(["--db", str(db), "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["rules"] for r in rows] == ["spooks", "among-cultists", "elder-sign", "skeptics"]
    assert rows[-1]["attempts"] == "4" and rows[-1]["successes"] == "3" and rows[-1]["marks_word"] == "Ghost Hours"
    assert rows[0]["winner"] == "Ada" and rows[0]["attempts"] == ""  # Spooks: no dice odds
    assert stats_cli.main(["--db", str(db), "--csv", "--json"]) == 2  # one output at a time


def elder_sign_at_an_adventure(path: Path) -> GameService:
    svc = service_on(path)
    es = svc.new_game({"rules": "elder-sign", "players": 2, "names": ["Cy", "Di"], "seed": 3})
    numbers_copied(svc._game, svc)  # the stand-in cards' numbers, copied before the first turn
    slot = es["adventures"][0]["slot"]
    svc.do("set-tasks", {"adventure": slot, "tasks": "inv:3;inv:3,lore:1", "ordered": "false"})  # from the card
    svc.do("move", {"to": slot})
    return svc


def test_an_elder_sign_adventure_fails_when_its_dice_run_out_and_one_given_up_counts_too(tmp_path: Path) -> None:
    svc = elder_sign_at_an_adventure(tmp_path / "a.sqlite3")
    shown = svc.state()["odds"]
    for _ in range(7):  # every roll misses; each failed roll loses a die, until none is left
        if svc.state()["next_dice"]:
            svc.do("roll", {"faces": ",".join(["lore"] * len(svc.state()["next_dice"]))})
    assert svc.state()["attempt"]["dice_to_roll"] == 0
    svc.do("give-up")  # the engine asks for it: nothing is left to roll
    assert [(a["chance"], a["good"]) for a in svc.records()[0]["attempts"]] == [(pytest.approx(shown), False)]
    svc.close()
    svc = elder_sign_at_an_adventure(tmp_path / "b.sqlite3")
    svc.do("roll", {"faces": ",".join(["lore"] * len(svc.state()["next_dice"]))})
    svc.do("give-up")  # with dice still to roll: stopped rolling, the attempt it was, not come good
    assert [(a["chance"], a["good"]) for a in svc.records()[0]["attempts"]] == [(pytest.approx(shown), False)]
    svc.close()


def test_a_version_1_file_kept_in_memory_has_its_records_too(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite3"
    shutil.copy(V1_FILE, old)
    store = GameStore.kept_in_memory(old, OSError(28, "No space left on device"))
    records = RecordBook(store).records()
    assert len(records) == 4 and store.record(records[0]["game"]) is not None
    raw = sqlite3.connect(old)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 1  # the file itself is only read meanwhile
    raw.close()
    store.close()  # the disk takes it again: the copy, brought up to date and with its records, is written back
    raw = sqlite3.connect(old)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert raw.execute("SELECT count(*) FROM records").fetchone()[0] == 4
    raw.close()


def test_an_unfinished_game_is_not_played_and_a_game_one_player_wins_has_no_table_win_rate() -> None:
    """PLAYTEST.md finding 7: the demo game (not finished) counted as played and lost ("Played 2, Lost 1"), and a
    Spooks game, which one player wins, showed a table win rate of 100 %."""
    demo = record(1, "a", "playing", 0.0, 5, [], [["Board", "Asylum"]])
    lost = record(2, "a", "lost", 600.0, 20, [], [["Board", "Asylum"]])
    spooks = [
        {**record(3 + i, "c", "won", 9000.0 + i, 10, [], []), "winner": w, "dice": False}
        for i, w in enumerate(["Bo", "Ada", "Bo"])
    ]
    found = figures([demo, lost, *spooks])
    assert found["by_rules"]["a"] == {"played": 1, "won": 0, "lost": 1, "not_finished": 1}
    assert found["win_rate_by_game"]["a"]["win_rate"] == 0.0
    by_game = found["win_rate_by_game"]["c"]
    assert (by_game["played"], by_game["won"], by_game["lost"], by_game["win_rate"]) == (3, 0, 0, None)
    assert by_game["winners"] == {"Bo": 2, "Ada": 1}
    assert [result_words(r) for r in (demo, lost, spooks[0])] == ["not finished", "lost", "Bo won"]
