"""The legal actions from each rule's own checks equal the commands push accepts.

An engine names in ``checked`` the commands whose rules handler marks where its checks end; their legal actions are
found by running those checks alone on the state as it is (companion.commands.GameHistory). Here seeded random walks
over many states of every game hold them against ``legal_actions_tried()``, which applies each candidate command to
a copy of the state and offers those that push accepts, and check that working them out changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.games.base import Engine, GameModule, module_for
from companion.games.skeptics.engine import Game as SkepticsGame
from companion.games.skeptics.engine import Setup as SkepticsSetup
from tests.games import BUNDLED, PACKS

# what a walk fills in for what a legal action asks (tried in a random order until push accepts one)
FILL: Mapping[str, tuple[str, ...]] = {
    "need": ("eye:1", "eye:2,camera:1", "key:1", "cobweb:1", "camera:1,timer", "inv:1", "lore:1,peril:1"),
    "tasks": ("inv:1", "lore:2", "inv:2;lore:1"),
    "room": ("0", "3", "8", "14", "none"),
    "seat": ("1", "2", "3", "none", "nobody"),
    "n": ("0", "1", "2", "-1"),
    "player": ("1", "2"),
    "sanity": ("0", "-1", "1"),
    "hours": ("0", "1"),
    "points": ("0", "1", "5", "10"),
    "number": ("1", "2", "5", "7"),
    "id": (),
    "cards": ("", "1", "2"),
}


# commands that end a game at once (the walk plays them last, mostly)
ENDINGS = frozenset({"cultists-win", "points-win", "give-up"})


def snapshot(game: Engine) -> dict[str, Any]:
    """The engine's state, field by field (lists copied), to see that nothing changed it."""
    state = game.state
    return {key: list(value) if isinstance(value, list) else value for key, value in vars(state).items()}


def actions(found: list[Any]) -> list[dict[str, Any]]:
    return [action.to_dict() for action in found]


def fills(module: GameModule, game: Engine, action: Any, rng: random.Random) -> list[dict[str, str]]:
    """Ways to fill in what `action` asks: the companion's own roll for faces, else samples from FILL."""
    out: list[dict[str, str]] = []
    for _ in range(4):
        args = dict(action.args)
        for ask in action.asks:
            if ask == "faces":
                try:
                    name, rolled = module.virtual_roll(
                        game, rng, None if action.name in ("roll", "clue") else action.name
                    )
                except CompanionError:
                    rolled = {"success": rng.choice(["true", "false"])}
                args.update({k: v for k, v in rolled.items() if k in ("faces", "success")})
            elif ask == "points":
                # one score per seat, one of them 0 (the player who went out; Spooks)
                seats = int(game.view()["players"])
                scores = [str(rng.randrange(1, 30)) for _ in range(seats)]
                scores[rng.randrange(seats)] = "0"
                args[ask] = ",".join(scores)
            elif ask == "id":
                packs = getattr(game, "packs", None)
                events = list(getattr(packs, "events", {}) or {"x": None})
                args[ask] = rng.choice(events)
            else:
                args[ask] = rng.choice(FILL.get(ask, ("1",)) or ("1",))
        out.append(args)
    return out


def walk(module: GameModule, game: Engine, steps: int, seed: int) -> int:
    """Play `steps` random legal commands (and now and then an undo), checking the legal actions at every state;
    returns how many states were checked."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(steps):
        before = snapshot(game)
        fast = actions(list(game.legal_actions()))
        assert snapshot(game) == before, "working out the legal actions changed the state"
        assert fast == actions(game.legal_actions_tried()), f"after {[str(c) for c in game.history][-5:]}"
        checked += 1
        if game.outcome is not None or (game.history and rng.random() < 0.05):
            if not game.history:
                break
            game.pop()
            continue
        offered = list(game.legal_actions())
        rng.shuffle(offered)
        if rng.random() < 0.8:  # the game goes on longer: a command that ends it is played now and then
            offered.sort(key=lambda action: action.name in ENDINGS)
        for action in offered:
            pushed = False
            for args in fills(module, game, action, rng) if action.asks else [dict(action.args)]:
                try:
                    game.push(module.command_type(action.name, args))
                except CompanionError:
                    continue
                pushed = True
                break
            if pushed:
                break
        else:
            break
    return checked


SKEPTICS = [
    # (players, board, ghost, physical, filled-in cards)
    (2, "asylum", "child", False, True),
    (3, "asylum", "child", True, True),
    (1, "asylum", "child", False, True),
    (2, "asylum", "child", False, False),  # the bundled stand-in ghost card: the companion asks the host
    (4, "asylum", "child", True, False),
]


@pytest.mark.parametrize(("players", "board", "ghost", "physical", "filled"), SKEPTICS)
def test_skeptics_legal_actions_from_checks_are_what_push_accepts(
    players: int, board: str, ghost: str, physical: bool, filled: bool
) -> None:
    module = module_for("skeptics")
    for seed in range(3):
        setup = SkepticsSetup(players=players, board=board, ghost=ghost, special_items=3, seed=seed, physical=physical)
        game = SkepticsGame.new(setup, PACKS if filled else BUNDLED)
        assert walk(module, game, 150, seed) > 20


def test_skeptics_checks_every_command_and_tries_draws_from_real_decks() -> None:
    """Every Skeptics command is found by its checks; in physical deck mode the ones that may draw a card are tried
    (the cards they need are known only by applying them)."""
    game = SkepticsGame.new(SkepticsSetup(players=2, board="asylum", ghost="child", seed=1), PACKS)
    assert game.checked == frozenset(module_for("skeptics").commands)
    physical = SkepticsGame.new(SkepticsSetup(players=2, board="asylum", ghost="child", seed=1, physical=True), PACKS)
    command = module_for("skeptics").parse_command
    assert physical._checks_alone(command("action kind=move"))
    assert not physical._checks_alone(command("end-turn"))
    assert game._checks_alone(command("end-turn"))


@pytest.mark.parametrize("icon_sets", [(), ("eye:1", "camera:2")])
def test_skeptics_barrier_attempts_are_offered_while_the_barrier_is_in_play(icon_sets: tuple[str, ...]) -> None:
    """The Barrier (the Museum's) in play: an attempt at each of its icon sets, or, with none filled in, one that asks
    the host for them; none before it comes up. Walks from there hold the legal actions to what push accepts."""
    barrier = replace(PACKS.environment["barrier"], icon_sets=icon_sets)
    packs = replace(PACKS, environment={**PACKS.environment, "barrier": barrier})
    game = SkepticsGame.new(SkepticsSetup(players=2, board="museum", ghost="child", seed=4, physical=True), packs)

    def barrier_attempts() -> list[dict[str, Any]]:
        return [a for a in actions(game.legal_actions()) if a["args"].get("action") == "barrier"]

    assert barrier_attempts() == []
    while game.view()["clock"] != "IX":
        game.push("end-round")
    game.push("end-round room=8 environment=barrier")
    found = barrier_attempts()
    if icon_sets:
        assert [(a["args"]["set"], a["asks"]) for a in found] == [("1", []), ("2", [])]
    else:
        assert [(a["args"], a["asks"]) for a in found] == [({"action": "barrier"}, ["need"])]
    assert actions(game.legal_actions()) == actions(game.legal_actions_tried())
    assert walk(module_for("skeptics"), game, 40, 4) > 10


@pytest.mark.parametrize("rules", ["elder-sign", "among-cultists", "spooks"])
def test_other_games_legal_actions_are_what_push_accepts(rules: str) -> None:
    module = module_for(rules)
    packs = module.load_packs(None)
    for seed, players in ((1, 2), (2, 4), (3, 5), (4, 6)):
        setup: dict[str, object] = {"players": players}
        if rules == "spooks":
            setup.update(master_effects=seed % 2 == 0, decks=1 + seed % 2)
        if rules == "among-cultists":
            setup["points_needed"] = 3  # the host's number: the text gives none (seance-deduction-rules-de.txt:60)
            setup["cultists"] = 1 + seed % 2  # the box's table gives it (:4), the text none
        if module.seeded:
            setup["seed"] = seed
        try:
            game = module.new(module.setup_from_dict(setup), packs)
        except CompanionError:
            continue  # not a number of players this game takes
        assert walk(module, game, 120, seed) > 5
