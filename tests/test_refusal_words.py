"""Every refusal a game gives reads as a player's sentence on the page (GameModule.for_players, the words
GameService.say shows): seeded walks of each game try, at every state, each command the game offered so far and
each command with nothing filled in, and every refusal met is put in the page's words. None may spell the terminal's
commands ("end-turn", "action kind=move run=true"), a "key=value", a "run true", a snake_case name or the docs; a
command it names is the page's button, by the label the page gives it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_engine_legal import ENDINGS, fills

from companion.errors import CompanionError
from companion.games.base import RULES, Engine, GameModule, module_for
from companion.games.skeptics.engine import Game as SkepticsGame
from companion.games.skeptics.engine import Setup as SkepticsSetup
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from tests.games import BUNDLED, PACKS


def games(rules: str) -> Iterator[tuple[GameModule, Engine]]:
    """A few games of `rules` to walk: players, seeds and (Skeptics) physical decks and stand-in cards vary."""
    module = module_for(rules)
    for seed in range(4):
        if rules == "skeptics":
            setup = SkepticsSetup(
                players=2 + seed % 3, board="asylum", ghost="child", seed=seed, physical=seed % 2 == 1
            )
            yield module, SkepticsGame.new(setup, PACKS if seed < 2 else BUNDLED)
            continue
        choices: dict[str, object] = {"players": 4 + seed % 3}
        if module.seeded:
            choices["seed"] = seed
        if "points_needed" in module.required_choices:  # the host's number: the text gives none (:60)
            choices["points_needed"] = 3 + seed
        if "cultists" in module.required_choices:  # the host's number, from the box's table (:4)
            choices["cultists"] = 1 + seed % 2
        yield module, module.new(module.setup_from_dict(choices), module.load_packs(None))


def refusals(module: GameModule, game: Engine, steps: int, seed: int) -> dict[str, str]:
    """The refusals met on a seeded walk of `game`: message -> the command that got it."""
    rng = random.Random(seed)
    tried: dict[tuple[str, tuple[tuple[str, str], ...]], dict[str, str]] = {(name, ()): {} for name in module.commands}
    found: dict[str, str] = {}
    for _ in range(steps):
        if game.outcome is not None:
            break
        offered = list(game.legal_actions())
        for action in offered:
            args = (fills(module, game, action, rng) if action.asks else [dict(action.args)])[0]
            tried.setdefault((action.name, tuple(sorted(args.items()))), args)
        for (name, _), args in tried.items():
            try:
                game.check(module.command_type(name, args))
            except CompanionError as exc:
                found.setdefault(str(exc), f"{name} {args}")
        rng.shuffle(offered)
        offered.sort(key=lambda action: action.name in ENDINGS)
        for action in offered:
            for args in fills(module, game, action, rng) if action.asks else [dict(action.args)]:
                try:
                    game.push(module.command_type(action.name, args))
                except CompanionError:
                    continue
                break
            else:
                continue
            break
        else:
            break
    return found


def leaks(module: GameModule, said: str) -> list[str]:
    """What in `said` is the terminal's spelling, not a player's words."""
    hyphenated = [re.escape(name) for name in module.commands if "-" in name]
    checks = {
        "a key=value": r"\w=",
        "a key spelled with true or false": r"\b[a-z_]+ (?:true|false)\b|\btrue\|false\b|\byes\|no\b",
        "a snake_case name": r"\b[a-z]+_[a-z_]+\b",
        "a command's name": rf"(?<![\w“-])(?:{'|'.join(hyphenated)})(?![\w-])" if hyphenated else r"(?!)",
        "the docs": r"\bdocs/",
        "backticks": r"`",
        "a step said twice": r"(?i)\b(\w+) the (\w+) with (?:the “)?\1 (?:the )?\2\b",
        "a line number": r"\(:\d+",
    }
    return [what for what, pattern in checks.items() if re.search(pattern, said)]


@pytest.mark.parametrize("rules", sorted(RULES))
def test_every_refusal_met_on_a_walk_reads_as_a_players_sentence(rules: str) -> None:
    found: dict[str, str] = {}
    for seed, (module, game) in enumerate(games(rules)):
        found.update(refusals(module, game, 100, seed))
    assert len(found) > (40 if rules in ("skeptics", "elder-sign") else 5), sorted(found)
    for message, command in sorted(found.items()):
        said = module_for(rules).for_players(message)
        assert not leaks(module_for(rules), said), (command, message, said, leaks(module_for(rules), said))
        assert re.match(r"^['\"“]?[A-Z0-9]", said) and said[-1] in ".!?", (message, said)


def test_a_player_out_of_actions_is_told_the_buttons_that_end_the_turn_or_run(tmp_path: Path) -> None:
    """Player Turn: three actions, then a fourth move only as a run. The refusal of a fourth plain move names the
    buttons the page has for ending the turn and running, by their labels, and the player by name."""
    service = GameService(GameStore(tmp_path / "g.sqlite"), load_packs(), rng=random.Random(1))
    try:
        service.new_game({"players": 2, "board": "asylum", "ghost": "child", "seed": 1, "names": ["Ada", "Bo"]})
        for _ in range(3):
            service.do("action", {"kind": "move"})
        with pytest.raises(CompanionError) as err:
            service.do("action", {"kind": "move"})
        said = service.say(str(err.value))
        module = module_for("skeptics")
        assert not leaks(module, said), said
        assert said.startswith("Ada has used all 3 actions of this turn"), said
        quoted = re.findall(r"“([^”]+)” button", said)
        assert len(quoted) == 2, said
        # each button named is one the page offers now, in the words on it (its label, without a bracketed tail)
        legal = service.state()["legal"]
        end = next(a for a in legal if a["name"] == "end-turn")
        run = next(a for a in legal if a["name"] == "action" and a["args"].get("run"))
        assert quoted == [end["label"], run["label"].split(" (")[0]], (said, end["label"], run["label"])
        assert "Ada" in quoted[0]
    finally:
        service.close()


# What a player's phone may not be told to do: the host's acts (only the host starts a roll or ends a turn).
HOST_ONLY = re.compile(r"(?i)\b(?:start (?:a|the) (?:roll|attempt)|end the turn|host page|host tab|sign in)\b")


@pytest.mark.parametrize("rules", sorted(RULES))
def test_a_refusal_a_players_phone_gets_reads_as_hers_and_asks_nothing_of_the_hosts(rules: str) -> None:
    """The refusals a player's phone meets by itself (--sim's "Throw the dice" with no roll under way, a phone's
    throw where the tray is real or missing) read as a player's sentences, and none tells her to do what only the
    host does; the host's own refusal still says what the host does next."""
    from vision.sim_tray import NO_ROLL, NO_ROLL_PLAYER, Thrower
    from web.api.table import NO_THROW_NO_TRAY, NO_THROW_REAL_TRAY

    module = module_for(rules)
    thrower = Thrower(lambda: ())
    with pytest.raises(CompanionError) as refused:
        thrower.throw(host=False)
    assert str(refused.value) == thrower.view(host=False)["why"] == NO_ROLL_PLAYER
    for message in (str(refused.value), NO_THROW_REAL_TRAY, NO_THROW_NO_TRAY):
        said = module.for_players(message)
        assert not leaks(module, said), (message, said, leaks(module, said))
        assert re.match(r"^[A-Z]", said) and said[-1] in ".!?", said
        assert not HOST_ONLY.search(said), said
    assert HOST_ONLY.search(module.for_players(thrower.view()["why"])) and thrower.view()["why"] == NO_ROLL
