"""A Hypothesis state machine plays long random games of legal and illegal commands.

After every step it checks the invariants of issue 2: every room card is in the deck, drawn, discarded
unseen or removed (20 in all); the clock is on a quarter; replaying the history gives the same state;
pop after a push gives back the state before; a refused command leaves the state unchanged.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.errors import BadCommand, IllegalCommand
from companion.games.skeptics.engine import CLOCK, COMMANDS, Command, Game, Setup
from companion.games.skeptics.packs import load_packs

PACKS = load_packs()
FACES = ["eye", "camera", "cobweb", "key", "blank", "summon"]


def random_command(draw: Any, game: Game) -> Command:
    """A command a host might type, right or wrong; weighted so that games move on."""
    view = game.view()
    board = game.board
    kind = draw(
        st.sampled_from(
            ["end-turn"] * 6
            + ["end-round"] * 4
            + ["action"] * 3
            + ["reveal-clue"] * 3
            + ["solve"] * 3
            + ["summon"] * 3
            + ["pull"] * 2
            + ["move-ghost"] * 2
            + ["prove"] * 5
            + ["timer"] * 2
            + ["attempt", "roll", "roll", "seance", "ghost-at", "unlock", "discard-environment", "garbage"]
        )
    )
    args: dict[str, str] = {}
    if kind == "action":
        args["kind"] = draw(st.sampled_from(["move", "pickup", "give", "other", "dance"]))
    elif kind in ("summon", "pull"):
        if draw(st.booleans()):
            args["success"] = draw(st.sampled_from(["true", "false", "maybe"]))
        else:
            n = draw(st.integers(0, 4))
            args["faces"] = ",".join(draw(st.lists(st.sampled_from(["summon", "blank"]), min_size=n, max_size=n)))
    elif kind == "move-ghost":
        args["to"] = str(draw(st.integers(-1, 21)))
    elif kind == "ghost-at":
        args["room"] = draw(st.sampled_from(["none", "0", "5", "8", "14", "20", "30"]))
    elif kind == "prove":
        args["set"] = str(draw(st.integers(0, 7)))
    elif kind == "seance" and draw(st.booleans()):
        args["room"] = str(draw(st.integers(0, 20)))
    elif kind == "unlock":
        doors = [d.key for d in board.doors] + ["1-20", "x"]
        args["door"] = draw(st.sampled_from(doors))
    elif kind == "discard-environment":
        cards = [e["id"] for e in view["environment"]] + ["fire", "nope"]
        args["card"] = draw(st.sampled_from(cards))
    elif kind == "attempt":
        action = draw(st.sampled_from(["search", "solve", "prove", "unlock", "fire", "barrier"]))
        args["action"] = action
        if action == "prove":
            args["set"] = str(draw(st.integers(1, 5)))
        elif action == "unlock":
            args["door"] = draw(st.sampled_from([d.key for d in board.doors]))
        else:
            args["need"] = draw(st.sampled_from(["eye:1", "eye:2,camera:1", "cobweb:1,timer", "camera:1,disruption"]))
    elif kind == "roll":
        attempt = view["attempt"]
        n = attempt["dice_to_roll"] if attempt else 3
        if draw(st.integers(0, 9)) == 0:
            n += 1  # a wrong number of faces now and then
        args["faces"] = ",".join(draw(st.lists(st.sampled_from(FACES), min_size=n, max_size=n)))
    elif kind == "garbage":
        return Command(draw(st.sampled_from(["teleport", "end-turn", "solve"])), {"bogus": "1"})
    return Command(kind, args)


def with_cards(draw: Any, game: Game, cmd: Command) -> Command:
    """Physical deck mode: add the cards the host drew (values that are possible, so most are taken)."""
    if not game.setup.physical or cmd.name in ("ghost-at", "seance"):
        return cmd
    view = game.view()
    for rooms in range(3):
        for env in range(2):
            for evidence in range(2):
                args = dict(cmd.args)
                if rooms:
                    pick = draw(st.permutations(view["rooms_unseen"]))[:rooms]
                    args["room"] = ",".join(map(str, pick))
                if env:
                    pool = game.state.env_deck or game.state.env_discard or ["fire"]
                    args["environment"] = draw(st.sampled_from(sorted(pool)))
                if evidence:
                    pool = sorted(game.state.evidence_left) or ["evidence1"]
                    args["evidence"] = draw(st.sampled_from(pool))
                candidate = Command(cmd.name, args)
                if game.is_legal(candidate):
                    return candidate
    return cmd


class GameMachine(RuleBasedStateMachine):
    game: Game

    @initialize(
        players=st.integers(1, 4),
        board=st.sampled_from(sorted(PACKS.boards)),
        ghost=st.sampled_from(sorted(PACKS.ghosts)),
        seed=st.integers(0, 2**32),
        physical=st.booleans(),
    )
    def start(self, players: int, board: str, ghost: str, seed: int, physical: bool) -> None:
        self.game = Game.new(Setup(players, board, ghost, 3, seed, physical), PACKS)
        self.accepted = 0
        self.refused = 0

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        game = self.game
        cmd = with_cards(data.draw, game, random_command(data.draw, game))
        before = game.state.copy()
        view = game.view()
        history = list(game.history)
        try:
            events = game.push(cmd)
        except (BadCommand, IllegalCommand) as exc:
            self.refused += 1
            assert str(exc)  # a message that says why
            assert game.state == before
            assert game.view() == view
            assert game.history == history
            return
        self.accepted += 1
        for e in events:  # what the random games reached (pytest --hypothesis-show-statistics)
            if e["type"] in (
                "ghost_hour",
                "ghost_mode_started",
                "seance_started",
                "game_won",
                "game_lost",
                "final_round",
                "environment_reshuffled",
                "set_proven",
                "attempt_succeeded",
            ):
                event(str(e["type"]))
        assert cmd.name in COMMANDS
        assert all(isinstance(e, dict) and "type" in e for e in events)
        json.dumps(events)
        for item in events:
            if item["type"] == "room_discarded_unseen":
                assert set(item) == {"type"}  # never which card
        # pop gives back the state before; pushing again gives the same state and events
        after = game.state.copy()
        assert game.pop() == cmd
        assert game.state == before
        assert game.push(cmd) == events
        assert game.state == after

    @rule(data=st.data())
    def undo_now_and_then(self, data: st.DataObject) -> None:
        """Undo once in a while (a rule of its own would undo every other step and games would not move)."""
        game = self.game
        if not game.history or data.draw(st.integers(0, 9)) != 0:
            self.play(data)
            return
        expected = Game.replay(game.setup, PACKS, game.history[:-1])
        game.pop()
        assert game.state == expected.state

    @rule(data=st.data())
    def prove_when_the_ghost_is_there(self, data: st.DataObject) -> None:
        """Now and then prove an unproven set while the ghost is on the board, so that some games are won."""
        game = self.game
        # the sets the rules allow now (the Child Ghost's lingering effect: its top row first)
        sets = [int(a.args["set"]) for a in game.legal_actions() if a.name == "prove"]
        if not game.view()["ghost_present"] or not sets or game.outcome or data.draw(st.integers(0, 2)):
            self.play(data)
            return
        before = game.state.copy()
        events = game.push(f"prove set={data.draw(st.sampled_from(sets))}")
        if game.outcome is not None:
            event("game_won")
            assert events[-1]["type"] == "game_won" and game.outcome.result == "won"
        game.pop()
        assert game.state == before
        game.push(Command.from_dict({"name": "prove", "args": {"set": str(events[0]["index"])}}))

    @invariant()
    def room_cards_add_up(self) -> None:
        s = self.game.state
        assert s.room_deck_left + len(s.rooms_revealed) + s.discarded_unseen_count + s.removed_count == 20
        assert len(set(s.rooms_revealed)) == len(s.rooms_revealed)
        if not self.game.setup.physical:
            every = s.room_deck + s.rooms_revealed + s.discarded_unseen + s.removed_rooms
            assert sorted(every) == list(range(1, 21))
            assert len(s.room_deck) == s.room_deck_left
        assert s.final_round == (s.room_deck_left == 0)

    @invariant()
    def clock_on_a_quarter(self) -> None:
        view = self.game.view()
        assert view["clock"] in CLOCK
        assert 0 <= view["actions_left"] <= 3
        assert 0 <= view["timers"] <= 2
        assert 0 <= view["clues_solved"] <= view["clues_revealed"] <= 7
        assert len(view["evidence"]) == view["clues_solved"] == view["summon_dice"]
        assert 0 <= view["current_player"] < self.game.setup.players

    @invariant()
    def replay_gives_the_same_state(self) -> None:
        game = self.game
        again = Game.replay(game.setup, PACKS, [Command.from_dict(c.to_dict()) for c in game.history])
        assert again.state == game.state

    @invariant()
    def view_keeps_secrets(self) -> None:
        game = self.game
        view = game.view()
        json.dumps(view)
        assert ("removed_rooms" in view) == (game.outcome is not None)
        if game.state.ghost_mode:
            assert game.state.clues_revealed == 7 or all(
                s in game.state.evidence_flipped for s in game.ghost.seance_symbols
            )
        if view["ghost_room"] is not None:
            assert view["ghost_room"] in game.board.spaces


GameMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestGameMachine = GameMachine.TestCase
