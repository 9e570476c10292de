"""`companion odds --rules elder-sign`: the shape of today's --json, and Skeptics stays the default."""

from __future__ import annotations

import json

import pytest

from companion.dice_cli import main
from companion.games.elder_sign.odds import task_fraction
from companion.games.skeptics.dice import Requirement, odds_table


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_elder_sign_odds_answer_in_rows_of_rolls_and_probability(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--rules", "elder-sign", "inv:4,lore:1", "--dice", "6", "--rolls", "3", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["rules"] == "elder-sign" and result["need"] == "inv:4,lore:1"
    assert [row["rolls"] for row in result["rows"]] == [1, 2, 3]
    for row in result["rows"]:
        assert row["probability"] == pytest.approx(float(task_fraction("inv:4,lore:1", green=6, rolls=row["rolls"])))


def test_yellow_and_red_dice_are_added(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys, "--rules", "elder-sign", "inv:6", "--dice", "5", "--yellow", "1", "--red", "1", "--rolls", "2", "--json"
    )
    rows = json.loads(out)["rows"]
    assert rows[1]["fraction"] == str(task_fraction("inv:6", green=5, yellow=1, red=1, rolls=2))
    _, plain, _ = run(capsys, "--rules", "elder-sign", "inv:6", "--dice", "5", "--rolls", "2", "--json")
    assert json.loads(plain)["rows"][1]["probability"] < rows[1]["probability"]


def test_skeptics_stays_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eye:2,camera:1", "--dice", "3", "--rolls", "3", "--json")
    assert code == 0
    result = json.loads(out)
    assert "rules" not in result
    expected = odds_table(Requirement.parse("eye:2,camera:1"), dice=3, rolls=3)
    assert [r["fraction"] for r in result["rows"]] == [r["fraction"] for r in expected]


@pytest.mark.parametrize(
    "argv",
    [
        ("eye:2", "--yellow", "1"),
        ("--rules", "elder-sign", "inv:4", "--summon", "2"),
        ("--rules", "elder-sign", "eye:2"),
        ("--rules", "elder-sign", "inv:4", "--dice", "9"),
    ],
)
def test_options_of_the_other_game_are_refused(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out and err.startswith("companion odds:")


def test_the_table_is_printed_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--rules", "elder-sign", "lore:1", "--rolls", "2")
    assert code == 0 and "green dice" in out and out.count("%") == 2
