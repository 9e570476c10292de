"""A game stored before the companion asked for a stand-in investigator's printed numbers (Reading.NUMBERS,
elder-sign-rules.txt:84) whose Ancient One woke and attacked at midnight, each investigator choosing what to lower
(:457-459, the `lower` commands of the asking reading): it reopens to the same state. The bound of the attack's
sanity reading (the stored history ends before the first `lower`, played after reopening) is not the numbers'
reading's: that reading asked at the attack too, so its `lower` commands are stored history."""

from __future__ import annotations

from pathlib import Path

from games import write_played_then
from test_elder_sign_engine import ADVENTURES, ANCIENT, INVESTIGATORS, MYTHOS_QUIET, WORLDS

from companion.games.elder_sign.engine import Game, Reading, Setup
from companion.games.elder_sign.packs import ElderSignPacks, parse_pack_texts
from companion.history import GameStore, replay_game


def _packs() -> ElderSignPacks:
    """The engine tests' cards, the investigators not filled in yet (stand-ins)."""
    return parse_pack_texts(
        {
            "ancient_ones.toml": ANCIENT,
            "investigators.toml": INVESTIGATORS.replace("clues = 1\n", "clues = 1\nplaceholder = true\n"),
            "adventures.toml": ADVENTURES,
            "other_worlds.toml": WORLDS,
            "mythos.toml": MYTHOS_QUIET,
        }
    )


def test_a_stored_battle_with_the_attack_asked_reopens_as_it_was_played(tmp_path: Path) -> None:
    packs = _packs()
    then = Game.new(Setup(players=2, seed=1), packs, reading=Reading.NUMBERS)  # as the companion played it then
    assert then.numbers_missing(then.state.investigators[0])  # the stand-ins' numbers stood for the cards'
    played = [f"doom n={then.view()['doom_max']}"]
    for text in played:
        then.push(text)
    while then.view()["clock"] != "IX":
        played.append("end-turn")
        then.push("end-turn")
    writer = Game.new(Setup(players=2, seed=1), packs, reading=Reading.NUMBERS)  # writes the file as then
    more = ["end-turn", "lower player=1 stat=sanity", "lower player=2 stat=stamina", "end-turn"]
    store = GameStore(tmp_path / "then.sqlite")
    try:
        game_id = write_played_then(store, writer, [*played, *more])
        for text in more:
            then.push(text)
        assert then.state.awake and then.view()["attack_choices"] == []
        game = replay_game(store, game_id, packs)
        assert isinstance(game, Game) and game.reading >= Reading.NUMBERS
        assert game.view() == then.view() and game.history == then.history
    finally:
        store.close()
