"""The history store against a plain Python model: random appends and undos over several games.

After every step and after reopening the file: each game's commands are exactly the model's,
event ids only grow, and the events of each command are the ones written with it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.history import GameStore

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("new"), st.integers(0, 0), st.integers(0, 0)),
        st.tuples(st.just("append"), st.integers(0, 3), st.integers(0, 3)),  # (game index, number of events)
        st.tuples(st.just("undo"), st.integers(0, 3), st.integers(0, 0)),
        st.tuples(st.just("reopen"), st.integers(0, 0), st.integers(0, 0)),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=25, deadline=None)
@given(OPS)
def test_store_matches_a_model(ops: list[tuple[str, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "h.sqlite3"
        store = GameStore(db)
        games: list[int] = []
        model: dict[int, list[tuple[dict[str, Any], list[dict[str, Any]]]]] = {}
        last_id = 0
        counter = 0
        try:
            for op, index, n_events in ops:
                if op == "new" or (not games and op != "reopen"):
                    gid = store.create_game({"n": len(games)})
                    games.append(gid)
                    model[gid] = []
                    continue
                if op == "reopen":
                    store.close()
                    store = GameStore(db)
                    continue
                gid = games[index % len(games)]
                if op == "append":
                    counter += 1
                    command = {"name": "c", "args": {"n": str(counter)}}
                    events = [{"type": "e", "k": i, "of": counter} for i in range(n_events)]
                    records = store.append(gid, len(model[gid]) + 1, command, events)
                    ids = [r["id"] for r in records]
                    assert ids == sorted(ids) and all(i > last_id for i in ids)
                    last_id = max(ids, default=last_id)
                    model[gid].append((command, events))
                elif model[gid]:
                    record = store.undo(gid, len(model[gid]))
                    assert record["id"] > last_id
                    last_id = record["id"]
                    command, events = model[gid].pop()
                    assert record["command"] == command and record["events"] == events
                for g, expected in model.items():
                    assert [r.command for r in store.commands(g)] == [c for c, _ in expected]
                    by_seq = store.command_events(g)
                    assert [by_seq.get(seq, []) for seq in range(1, len(expected) + 1)] == [e for _, e in expected]
                    assert set(by_seq) <= set(range(1, len(expected) + 1))
            store.close()
            store = GameStore(db)
            assert store.last_event_id() == last_id or not games
            assert {info.id: info.commands for info in store.list_games()} == {g: len(m) for g, m in model.items()}
        finally:
            store.close()
