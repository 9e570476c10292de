"""An Ancient One whose card is a stand-in (not filled in yet) is never named as if its card were real.

A player's battle (tests/data/elder-sign-battle-f33.json) ended on the end card and the OLED with "The last doom token
is removed: Nyarlathotep is sent back", though the bundled Nyarlathotep card is a stand-in; every other sentence says
"the Ancient One" for it. Now the end (the engine's reason, which the end card, the log, the OLED and the record
show), the terminal's line and the record's setup and timeline say it the same way; once the owner fills the card in,
its name comes back. And a stand-in whose name no rulebook gives ("Ancient One 1") is never told at all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games import numbers_copied

from companion.games.base import module_for
from companion.games.elder_sign import sentences
from companion.games.elder_sign.engine import Game
from companion.games.elder_sign.packs import ElderSignPacks, load_packs
from companion.words import stand_in_no_card

PLAYED = json.loads((Path(__file__).parent / "data" / "elder-sign-battle-f33.json").read_text())
BUNDLED = Path(sentences.__file__).parent / "packs" / "ancient_ones.toml"
MODULE = module_for("elder-sign")


def played_to_the_end(packs: ElderSignPacks) -> tuple[Game, list[dict[str, Any]]]:
    """The battle as its history file is read back (in the reading it was played in: the stand-ins' tasks as
    that game had them), command by command for its events."""
    game = MODULE.engine(MODULE.new(MODULE.setup_from_dict(PLAYED["setup"]), packs))
    commands = [MODULE.command_from_dict(c) for c in PLAYED["commands"]]
    if not MODULE.read_stored(game, commands):  # pushed already: taken back to play again for the events
        while game.played:
            game.pop()
    events: list[dict[str, Any]] = []
    for command in commands:
        events += game.push(command)
    assert game.outcome is not None and game.outcome.result == "won"
    return game, events


def told(game: Game, events: list[dict[str, Any]]) -> list[str]:
    """Every word of the end a person reads or hears: the end card, the log, the announcement, the OLED's reason
    (hardware.screens draws the published outcome_reason), the terminal, and the record's setup and timeline."""
    names = MODULE.names(game)
    view = game.view()
    published = {**view, **MODULE.publish(view, game)}
    card = MODULE.end_summary(view, names, None)
    won = [e for e in events if e["type"] == "game_won"]
    announced = MODULE.announcement(won[0], names) or {}
    facts = MODULE.record_facts(view)
    marks = MODULE.moments(view, [e for e in events if e["type"] == "ancient_one_awakens"])["marks"]
    return [
        str(card["text"]),
        *MODULE.describe_events(won, names),
        str(announced.get("text")),
        str(published["outcome_reason"]),
        MODULE.state_text(published),
        *(f"{label}: {value}" for label, value in facts["setup"]),  # type: ignore[attr-defined]
        *map(str, marks),  # type: ignore[call-overload]
    ]


def filled_in(tmp_path: Path) -> ElderSignPacks:
    """The owner's Ancient One file: the bundled one with Nyarlathotep's card filled in (its stand-in line gone)."""
    text = BUNDLED.read_text()
    first = text.index('id = "nyarlathotep"')
    mark = text.index("placeholder = true\n", first)
    (tmp_path / "ancient_ones.toml").write_text(text[:mark] + text[mark + len("placeholder = true\n") :])
    packs = load_packs(tmp_path)
    assert not packs.ancient_ones["nyarlathotep"].placeholder
    return packs


def test_the_played_battle_ends_without_naming_the_stand_in_ancient_one() -> None:
    packs = load_packs()
    card = packs.ancient_ones[PLAYED["setup"]["ancient_one"]]
    assert card.placeholder  # the bundled card this battle was fought against is not filled in
    game, events = played_to_the_end(packs)
    words = told(game, events)
    assert not [w for w in words if card.name.lower() in w.lower()]
    assert "the ancient one is sent back" in words[0].lower()
    assert "the last doom token is removed" in words[0].lower()
    assert any("its card not filled in yet" in w for w in words)  # the record's setup says so instead
    assert "The Ancient One awakens" in words


def test_once_the_card_is_filled_in_the_end_names_it(tmp_path: Path) -> None:
    game, events = played_to_the_end(filled_in(tmp_path))
    words = told(game, events)
    assert "nyarlathotep is sent back" in words[0].lower()
    assert "Ancient One: Nyarlathotep" in words and "Nyarlathotep awakens" in words
    assert "Elder Sign against Nyarlathotep" in words[4]


def test_a_stand_in_no_rulebook_names_is_never_told_when_the_elder_signs_win() -> None:
    packs = load_packs()
    unnamed = next(a for a in packs.ancient_ones.values() if a.placeholder and a.name.startswith("Ancient One "))
    setup = {**PLAYED["setup"], "ancient_one": unnamed.id}
    game = MODULE.engine(MODULE.new(MODULE.setup_from_dict(setup), packs))
    numbers_copied(game)
    events = game.push(MODULE.parse_command(f"elder-signs n={unnamed.elder_signs}"))
    assert game.outcome is not None and game.outcome.result == "won"
    names = MODULE.names(game)
    end = str(MODULE.end_summary(game.view(), names, None)["text"])
    log = MODULE.describe_events([e for e in events if e["type"] == "game_won"], names)
    assert unnamed.name not in end + " ".join(log) + MODULE.state_text(game.view())
    assert f"{unnamed.elder_signs} Elder Signs seal the Ancient One away" in end


def test_the_wizard_lists_a_stand_in_named_by_the_companion_plainly_as_one() -> None:
    """The new-game wizard's Ancient Ones (setup_options): Nyarlathotep, a card the rulebook names (:82), not filled
    in yet; "Ancient One 1", the companion's name for a stand-in, said plainly as no card of the deck (as
    drawn_words tells a drawn one), never listed as if it were a card beside Nyarlathotep."""
    module = module_for("elder-sign")
    options = {o["id"]: o for o in module.setup_options(load_packs())["ancient_ones"]}  # type: ignore[union-attr]
    assert (
        options["nyarlathotep"]["label"] == "Nyarlathotep (not filled in yet)" and not options["nyarlathotep"]["note"]
    )
    assert options["ancient_two"]["label"] == "Ancient One 1 (a stand-in)"  # short: a phone's closed list reads it
    assert options["ancient_two"]["note"] == (  # under the list
        "Ancient One 1 is a stand-in in your box, not one of your Ancient One cards: play any Ancient One card of your own."
    )
    assert stand_in_no_card("Ancient One") in sentences.drawn_words("Ancient One 1", True, False)
