"""A whole game by taps, on two phones (host and viewer, Chromium at 390x844), from the first start to the end card.

The host never types the terminal's spelling: every action is a tap on what the engine says is legal now. The
viewer's phone records every toast and banner it shows; none may hold a `key=value`, a command name or a rulebook
section. Screenshots of every view go to tests/artifacts/table/ (gitignored) for a person to look at, and the table
display at 1280x800.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, PHONE, Phone, open_phone
from web_fixtures import JOIN_CODE, Table

from companion.games.skeptics.engine import COMMANDS
from companion.games.skeptics.packs import load_packs
from companion.history import GameStore
from companion.service import GameService
from web import create_app
from web.server import ServerThread

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "table"
PIN = "2468"
TABLE_VIEW = {"width": 1280, "height": 800}
# Every toast, banner and sheet title the page shows is copied into a hidden list, so the test reads all of them.
RECORDER = """
addEventListener('DOMContentLoaded', () => {
  const log = document.createElement('ol'); log.id = 'said'; log.hidden = true; document.body.append(log);
  const keep = (node) => { const t = (node.innerText || node.textContent || '').trim();
    if (t && !node.hidden) { const li = document.createElement('li'); li.textContent = t; log.append(li); } };
  for (const id of ['toast', 'banner', 'sheet']) {
    const node = document.getElementById(id); if (!node) continue;
    new MutationObserver(() => keep(node)).observe(node, {subtree: true, childList: true, characterData: true, attributes: true});
  }
});
"""
COMMAND_WORDS = [name for name in COMMANDS if "-" in name] + [
    "need=",
    "faces=",
    "(Game End",
    "(Action ",
    "(FAQ",
    "Setup:",
]


@pytest.fixture
def first_start(tmp_path: Path) -> Iterator[Table]:
    """A companion switched on for the first time: no game, no host PIN."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    service = GameService(GameStore(data_dir / "games.sqlite"), load_packs(), rng=random.Random(5))
    app = create_app(service, {"data_dir": data_dir, "join_code": JOIN_CODE, "heartbeat": 15.0})
    server = ServerThread(app, threads=48)
    table = Table(service, app, server, data_dir)
    try:
        yield table
    finally:
        server.stop()
        service.close()


def svc_pin_set(table: Table) -> bool:
    """Whether the host PIN is chosen (the companion's own answer, asked as a stranger would)."""
    from web_fixtures import Client

    return bool(Client(table.url).request("GET", "/api/session").json().get("pin_set"))


def phone(browser: Any, table: Table, viewport: dict[str, int] = PHONE) -> Phone:
    """A phone that joined (no game needed yet) and records every toast and banner it shows."""
    return open_phone(browser, table, viewport=viewport, init_script=RECORDER, wait_map=False, scale=1)


@contextmanager
def host_and_viewer(browser: Any, table: Table) -> Iterator[tuple[Phone, Phone]]:
    """The host's phone and a player's (which records what it shows); both must end clean."""
    host = open_phone(browser, table, host=True)
    viewer = phone(browser, table)
    viewer.page.wait_for_selector("#map g.room")
    try:
        yield host, viewer
        host.check_clean()
        viewer.check_clean()
    finally:
        host.context.close()
        viewer.context.close()


def shot(p: Phone, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def said(p: Phone) -> list[str]:
    return [str(t) for t in p.page.locator("#said li").all_text_contents()]


def dismiss(p: Phone) -> None:
    """Every phone gets the big moments as a banner; the host reads it and taps OK before going on."""
    if p.page.locator("#banner").is_visible():
        p.page.locator("#banner-ok").click()


def tap(p: Phone, selector: str) -> None:
    dismiss(p)
    p.page.locator(selector).first.click()


def tap_text(p: Phone, text: str, within: str = "body") -> None:
    dismiss(p)
    p.page.locator(within).get_by_role("button", name=re.compile(text)).first.click()


def end_round(p: Phone) -> None:
    """The host ends the round now; with players still to play this round, the page asks once."""
    tap_text(p, "End the round now", "#turn-end")
    if p.page.locator("#sheet-title", has_text="End the round now?").is_visible():
        sheet_ok(p)


def sheet_ok(p: Phone) -> None:
    p.page.locator("#sheet-ok").click()
    expect(p.page.locator("#sheet")).to_be_hidden()


def told(p: Phone, title: str) -> None:
    """A routine announcement with `title`: a toast on this phone that goes by itself, no banner to tap away."""
    expect(p.page.locator("#toast.routine")).to_contain_text(title, timeout=5000)


def banner(p: Phone, title: str) -> None:
    """The banner with `title` is up on this phone; dismiss it."""
    expect(p.page.locator("#banner-title")).to_have_text(re.compile(title), timeout=5000)
    p.page.locator("#banner-ok").click()
    expect(p.page.locator("#banner")).to_be_hidden()


def legal(table: Table, name: str, **args: str) -> bool:
    return any(
        a["name"] == name and all(a["args"].get(k) == v for k, v in args.items())
        for a in table.service.state()["legal"]
    )


def roll_faces(host: Phone, faces: list[str]) -> None:
    """The host taps "Tap the real dice" and the faces the dice show."""
    dismiss(host)
    expect(host.page.locator("#roll-tap2")).to_be_visible()
    host.page.locator("#roll-tap2").click()
    for face in faces:
        host.page.locator(f"#face-{face}").click()
    sheet_ok(host)


def answer_ghost(host: Phone, svc: GameService, sets: int = 5) -> None:
    """The bundled Child Ghost is not filled in yet: the host answers the companion's questions about the card on the
    table by tapping them in the turn panel (its icon sets; after a solve, whether every séance symbol is matched; at a
    Ghost Hour, what its ability did: the Child Ghost's closes the doors next to its room, skeptics-rulebook.txt:220)."""
    while (question := svc.state()["question"]) and question.get("kind") == "ghost":
        expect(host.page.locator("#card-question")).to_be_visible()
        if question["ask"] == "sets":
            label = f"^{sets} sets$"
        elif question["ask"] == "seance":
            label = "^Yes, every" if svc.state()["clues_solved"] >= 3 else "^No, not every"
        elif question["ask"] == "ability":
            label = "^It closed the doors"
        else:
            label = "^Yes, that was"
        tap_text(host, label, "#turn-main")
        for _ in range(50):  # the answer goes to the companion; the next question (or none) follows
            if svc.state()["question"] != question:
                break
            host.page.wait_for_timeout(100)
        assert svc.state()["question"] != question


def test_a_whole_game_by_taps_on_two_phones(browser: Any, first_start: Table) -> None:
    table = first_start
    svc = table.service
    viewer = phone(browser, table)
    host = phone(browser, table)
    try:
        # First start: the viewer sees that the host must choose a PIN; a PIN too short is refused with the rule.
        viewer.tab("host")
        expect(viewer.page.locator("#pin-title")).to_have_text("Choose the host PIN")
        host.tab("host")
        host.page.fill("#pin-form input[name=pin]", "12")
        host.page.fill("#pin-form input[name=again]", "12")
        host.page.click("#pin-btn")
        expect(host.page.locator("#pin-error")).to_contain_text("4 to 12 digits")
        assert host.page.input_value("#pin-form input[name=pin]") == "12"  # what was typed stays
        assert [e for e in host.errors if "400" in e] and len(host.errors) == 1  # the refused PIN, and nothing else
        host.errors.clear()
        # The first PIN is typed twice: a typo in the second is refused, and nothing is set.
        host.page.fill("#pin-form input[name=pin]", PIN)
        host.page.fill("#pin-form input[name=again]", PIN[::-1])
        host.page.click("#pin-btn")
        expect(host.page.locator("#pin-error")).to_contain_text("not the same")
        assert not svc_pin_set(table)
        host.errors.clear()
        host.page.fill("#pin-form input[name=again]", PIN)
        host.page.click("#pin-btn")
        expect(host.page.locator("#wizard")).to_be_visible()
        # ... and the viewer's page follows the PIN choice without a reload.
        expect(viewer.page.locator("#pin-title")).to_have_text("Host sign-in", timeout=8000)
        expect(host.page.locator("#join-code")).to_have_text(JOIN_CODE)
        shot(host, "01-host-first-start")

        # The wizard: players by name, board, ghost, the decks.
        tap(host, "#drop-player")
        host.page.fill("#names input[name=name0]", "Anna")
        host.page.fill("#names input[name=name1]", "Ben")
        host.page.select_option("#new-form select[name=board]", "asylum")
        host.page.select_option("#new-form select[name=ghost]", "child")
        expect(host.page.locator("#new-start")).to_have_text("Start the game for 2 players")
        host.page.click("#new-start")
        expect(host.page.locator("#v-game")).to_be_visible()
        state = svc.state()
        assert state["player_names"] == ["Anna", "Ben"] and state["players"] == 2 and not state["physical"]
        expect(host.page.locator("#checklist-card")).to_be_visible()
        assert host.page.locator("#checklist li").count() >= 10
        expect(host.page.locator("#checklist")).to_contain_text("Take 2 room cards away") if state["physical"] else None
        shot(host, "02-host-setup-checklist")
        for box in host.page.locator("#checklist input").all()[:3]:
            box.check()
        tap(host, "#checklist-done")
        expect(host.page.locator("#sheet-body")).to_contain_text("steps are not ticked yet")  # asked once
        sheet_ok(host)
        expect(host.page.locator("#checklist-card")).to_be_hidden()
        expect(viewer.page.locator("#player")).to_have_text("Anna")
        viewer.tab("game")
        shot(viewer, "03-viewer-game")
        shot(host, "04-host-turn-panel")

        # The turn panel offers only what is legal: no summon, pull or séance yet; no free-text form in sight.
        assert host.page.locator("#turn-main button", has_text="Summon").count() == 0
        assert host.page.locator("#cmd-form").is_hidden()

        # A clue is found and solved at the table; the round ends now (the clock to III).
        host.page.locator("#turn-table summary").click()
        tap_text(host, "A clue token was revealed", "#turn-table")
        tap_text(host, "A clue was solved", "#turn-table")
        end_round(host)
        expect(viewer.page.locator("#clock-label")).to_have_text("III")

        # A summon with the real dice: a blank fails, a room card is lost, and every phone is told.
        assert legal(table, "summon")
        tap_text(host, "Summon the ghost", "#turn-main")
        host.page.locator("#dice-tap").click()
        host.page.locator("#face-blank").click()
        sheet_ok(host)
        told(viewer, "Summon failed")
        expect(host.page.locator("#toast")).to_contain_text("the summon fails")

        # Three timer tokens: the clock jumps, and the viewer is told.
        for _ in range(3):
            tap_text(host, "The team takes a timer token", "#turn-table")
        told(viewer, "Third timer")
        expect(viewer.page.locator("#clock-label")).to_have_text("VI")

        # Clues until every séance symbol is matched: the ghost card is not filled in yet, so after each solve the host
        # is asked whether it is (the third solve: yes), and Ghost Mode begins with the host's yes.
        shot(host, "13-host-ghost-seance-question")
        while not svc.state()["seance_available"] and svc.state()["clues_revealed"] < 7:
            answer_ghost(host, svc)
            tap_text(host, "A clue token was revealed", "#turn-table")
            host.page.wait_for_timeout(150)
            if legal(table, "solve"):
                tap_text(host, "A clue was solved", "#turn-table")
                host.page.wait_for_timeout(150)
            answer_ghost(host, svc)
        assert svc.state()["ghost_mode"] and svc.state()["clues_revealed"] < 7
        # Ghost Mode took the viewer's screen (until OK, or until the host played on: then it went by itself)
        expect(viewer.page.locator("#said")).to_contain_text("Ghost Mode")
        viewer.page.locator("#banner").is_visible() and viewer.page.locator("#banner-ok").click()
        host.page.locator("#banner-ok").click() if host.page.locator("#banner").is_visible() else None
        # The séance cannot be declared at IX; end the round(s) until it can.
        while not legal(table, "seance"):
            host.page.locator("#banner").is_visible() and host.page.locator("#banner-ok").click()
            end_round(host)
            host.page.wait_for_timeout(200)
        host.page.locator("#banner").is_visible() and host.page.locator("#banner-ok").click()
        viewer.page.locator("#banner").is_visible() and viewer.page.locator("#banner-ok").click()

        # The séance asks for the first player's space, on the map; the ghost comes there.
        tap_text(host, "Declare the séance", "#turn-main")
        expect(host.page.locator("#pick-note")).to_contain_text("first player's space")
        host.page.locator("#map g.room[data-room='3']").click()
        told(viewer, "Séance declared")
        assert svc.state()["seance_declared"]
        host.page.locator("#banner").is_visible() and host.page.locator("#banner-ok").click()
        end_round(host)
        banner(viewer, "The séance")
        state = svc.state()
        assert state["ghost_room"] == 3 and state["ghost_reason"] == "seance"
        expect(viewer.page.locator("#ghost-line")).to_contain_text("room 3")
        expect(viewer.page.locator("#map #ghost-pawn")).to_have_count(1)
        host.page.locator("#banner").is_visible() and host.page.locator("#banner-ok").click()

        # Undo says what it takes back and asks once; redo gives back exactly the state after the command.
        host.page.locator("#turn-spend summary").click()
        tap_text(host, "^Move$", "#turn-spend")
        # (wait for this move's own sentence: "The clock moves ..." of an earlier command must not do)
        expect(host.page.locator("#undo-btn")).to_contain_text(re.compile(r"\w+ moves \(\d actions? left\)"))
        after = svc.state()
        host.page.locator("#undo-btn").click()
        expect(host.page.locator("#sheet-body")).to_contain_text(re.compile(r"\w+ moves \("))
        shot(host, "05-host-undo-asks")
        sheet_ok(host)
        expect(host.page.locator("#redo-btn")).to_be_visible()
        expect(viewer.page.locator("#actions")).to_have_text(str(after["actions_left"] + 1))
        assert svc.state()["actions_left"] == after["actions_left"] + 1
        host.page.locator("#redo-btn").click()
        expect(host.page.locator("#redo-btn")).to_be_hidden()
        expect(viewer.page.locator("#actions")).to_have_text(str(after["actions_left"]))
        keys = ("clock", "round", "actions_left", "current_player", "ghost_room", "room_deck_left", "timers")
        assert {k: svc.state()[k] for k in keys} == {k: after[k] for k in keys}

        # Prove every icon set: the host says the card shows five, then for each picks the set, counts its icons on the
        # card (the companion does not know them), and taps the real dice. The viewer hears each one.
        if svc.state()["question"]:
            shot(host, "14-host-ghost-sets-question")
        answer_ghost(host, svc)
        assert len(svc.state()["icon_sets"]) == 5 and svc.state()["question"] is None
        printed = load_packs().ghosts["child"].icon_sets  # the icons on "the card on the table" in this test
        faces = {
            "eye:1": ["eye", "cobweb", "cobweb"],
            "camera:1": ["camera", "cobweb", "cobweb"],
            "eye:1,camera:1": ["eye", "camera", "cobweb"],
            "eye:2": ["eye", "eye", "cobweb"],
            "cobweb:1": ["cobweb", "cobweb", "cobweb"],
        }
        for icon_set in svc.state()["icon_sets"]:
            if svc.state()["outcome"]:
                break
            if svc.state()["actions_left"] == 0:
                tap_text(host, "turn$", "#turn-end")
                host.page.wait_for_timeout(200)
            host.page.locator("#tabs button[data-view=game]").click()
            tap(host, "#prove-pick")
            tap_text(host, f"Prove icon set {icon_set['index']}", "#sheet")
            need = printed[icon_set["index"] - 1]
            expect(host.page.locator("#card-icons-note")).to_contain_text("not filled in yet")
            for part in need.split(","):
                face, count = part.split(":")
                for _ in range(int(count)):
                    host.page.locator(f"#step-{face}-plus").click()
            expect(host.page.locator("#need-words")).to_contain_text(
                ": 3 dice."
            )  # what adds dice, asked before the roll
            expect(host.page.locator("#lingering")).to_contain_text("top row")  # the ghost's lingering rule, warned
            if icon_set["index"] == 4:
                shot(host, "15-host-prove-icons-stand-in")
            host.page.locator("#on-ghost-space").check()  # "if they are on the same space as the Ghost" (:225)
            sheet_ok(host)
            assert svc.state()["attempt"]["need"] == need
            expect(host.page.locator("#v-dice")).to_be_visible()
            host.tab("game")
            roll_faces(host, faces[need])
            title = "You won" if all(s["proven"] for s in svc.state()["icon_sets"]) else "Icon set proven"
            if title == "You won":
                banner(viewer, title)
            else:
                told(viewer, title)
            if host.page.locator("#banner").is_visible():
                shot(host, "06-host-banner")
                host.page.locator("#banner-ok").click()
        state = svc.state()
        assert state["outcome"] == "won"

        # The end card: in plain words, and the host's turn controls are gone; "New game" opens the wizard.
        expect(viewer.page.locator("#end-card")).to_be_visible()
        expect(viewer.page.locator("#end-title")).to_contain_text("You won")
        expect(viewer.page.locator("#end-lines")).to_contain_text("5 of 5 icon sets proven")
        expect(host.page.locator("#turn-card")).to_be_hidden()
        shot(viewer, "07-viewer-end-card")
        for view in ("ghost", "dice", "log"):
            viewer.tab(view)
            shot(viewer, f"08-viewer-{view}")
        viewer.tab("game")
        history = svc.history()
        log = viewer.page.locator("#history li").all_inner_texts()
        assert len(log) == len(history)
        assert {h["text"] for h in history} <= {re.sub(r"^\d\d:\d\d\s*", "", t) for t in log}

        # Nothing a player read holds the terminal's spelling.
        for p in (viewer, host):
            texts = said(p) + log + [p.text("#end-card")]
            assert len(texts) > 10
            for text in texts:
                assert "=" not in text and "placeholder" not in text.lower(), text  # nor a stand-in's words
                for word in COMMAND_WORDS:
                    assert word not in text, (word, text)
        host.page.locator("#end-new").click()
        expect(host.page.locator("#wizard")).to_be_visible()

        # The table display: clock, map, room and environment cards side by side, read from across the table.
        board = phone(browser, table, TABLE_VIEW)
        board.page.goto(f"{table.url}/?table=1")
        board.page.wait_for_selector("#map g.room")
        clock, board_map = (
            board.page.locator("#clock-card").bounding_box(),
            board.page.locator(".map-card").bounding_box(),
        )
        assert clock["x"] + clock["width"] <= board_map["x"] + 1 and abs(clock["y"] - board_map["y"]) < 40
        shot(board, "09-table-display")
        board.context.close()
        viewer.check_clean()
        host.check_clean()
    finally:
        viewer.context.close()
        host.context.close()


def test_after_a_summon_the_host_moves_the_ghost_on_the_map_and_the_viewer_reads_it(browser: Any, live: Table) -> None:
    """Action 8: Summon (the free pull) and Action 7: Pull Ghost: only reachable rooms are offered, in gold."""
    svc = live.service
    svc.do("end-round")  # III: summons are allowed
    svc.do("reveal-clue")
    svc.do("solve")
    with host_and_viewer(browser, live) as (host, viewer):
        host.page.click("#turn-card button[data-legal=summon]")
        host.page.click("#dice-tap")
        host.page.click("#face-summon")
        host.page.click("#sheet-ok")
        expect(viewer.page.locator("#toast")).to_contain_text("the summon succeeds")
        assert "ghost is gone" not in viewer.text("#toast")
        targets = sorted(int(a["args"]["to"]) for a in svc.state()["legal"] if a["name"] == "move-ghost")
        assert targets
        # The reachable rooms light up at once, with what to do beside the map.
        expect(host.page.locator("#map g.room.target")).to_have_count(len(targets))
        expect(host.page.locator("#map-note")).to_contain_text("move the ghost")
        shot(host, "10-host-move-ghost")
        host.page.click(f"#map g.room[data-room='{targets[0]}']")
        expect(viewer.page.locator("#ghost-line")).to_contain_text(f"room {targets[0]}")
        assert svc.state()["ghost_room"] == targets[0] and not svc.state()["pull_pending"]


def test_an_environment_card_not_filled_in_yet_is_asked_about_on_the_host_panel(browser: Any, live: Table) -> None:
    """Environment Cards: a stand-in is not the card on the table; it plays nothing until the host taps what the real
    card does (docs/rules-engine.md, "Cards not filled in yet")."""
    svc = live.service
    for _ in range(8):
        svc.do("end-round")
        if svc.state()["question"]:
            break
    state = svc.state()
    assert state["question"] and state["other_actions_limit"] == 0
    with host_and_viewer(browser, live) as (host, viewer):
        dismiss(host)
        expect(host.page.locator("#card-question")).to_contain_text("not filled in yet")
        shot(host, "11-host-card-question")
        host.page.set_viewport_size(TABLE_VIEW)
        shot(host, "11-host-card-question-table")
        host.page.set_viewport_size(PHONE)
        host.page.locator("#turn-main button[data-legal=tell-card]", has_text="Two actions").click()
        expect(host.page.locator("#card-question")).to_be_visible()
        for _ in range(250):  # the tap's answer comes in its own time: wait up to 5 s for the engine to have it
            if svc.state()["other_actions_limit"] == 2:
                break
            host.page.wait_for_timeout(20)
        assert svc.state()["other_actions_limit"] == 2
        host.page.locator("#turn-main button[data-legal=tell-card]", has_text="until its objective is met").click()
        # the environment card is told; the ghost that appeared at this Ghost Hour is on a card not filled in yet, so
        # its questions follow, with their own taps: what its Ghost Hour ability did (skeptics-rulebook.txt:209), then
        # how many icon sets the card shows
        expect(host.page.locator("#card-question")).to_contain_text("Ghost Hour ability")
        assert svc.state()["question"] == {"kind": "ghost", "ask": "ability", "left": 1}
        host.page.locator("#turn-main button[data-legal=tell-ghost]", has_text="Something else").click()
        expect(host.page.locator("#card-question")).to_contain_text("how many icon sets")
        assert svc.state()["question"] == {"kind": "ghost", "ask": "sets", "left": 0}
        host.page.locator("#turn-main button[data-legal=tell-ghost]", has_text="4 sets").click()
        expect(host.page.locator("#card-question")).to_have_count(0)
        assert svc.state()["question"] is None and len(svc.state()["icon_sets"]) == 4
        assert all("placeholder" not in t.lower() for t in said(viewer))


def test_an_unlock_of_a_door_not_filled_in_yet_counts_the_keys_on_the_board(browser: Any, live: Table) -> None:
    """Action 2: Unlock: "The number of Keys necessary is represented by either a single Key icon or an icon with a
    number above it": the bundled Asylum's ways are stand-ins, so the unlock sheet counts the keys at the door on the
    board, with a stepper, and the roll is for them."""
    svc = live.service
    door = next(
        a["args"]["door"]
        for a in svc.state()["legal"]
        if a["name"] == "attempt" and a["args"].get("action") == "unlock" and "need" in a["asks"]
    )
    with host_and_viewer(browser, live) as (host, viewer):
        # the map shows no made-up keys at a door not filled in yet: the legend sends players to the board's own
        stand_ins = {
            c["key"] for c in live.service.packs.boards[svc.state()["board"]].to_dict()["connections"] if c["stand_in"]
        }
        assert door in stand_ins
        expect(viewer.page.locator(f"#map g.door[data-door='{door}'] text")).to_have_count(0)
        expect(viewer.page.locator(f"#map g.door[data-door='{door}'] title")).to_contain_text(
            "printed at it on the board"
        )
        expect(viewer.page.locator("#map-legend")).to_contain_text("count the keys printed at it on the board")
        shot(viewer, "16-viewer-map-doors-stand-in")
        dismiss(host)
        tap(host, "#unlock-pick")
        host.page.locator(f"#map g.door[data-door='{door}']").click()
        expect(host.page.locator("#card-icons-note")).to_contain_text("not filled in yet")
        for _ in range(3):
            host.page.locator("#step-key-plus").click()
        expect(host.page.locator("#step-key")).to_have_text("3")
        expect(host.page.locator("#need-words")).to_contain_text("3 keys")
        SHOTS.mkdir(parents=True, exist_ok=True)
        host.page.screenshot(path=str(SHOTS / "16-host-unlock-keys-stand-in.png"))  # the sheet, as the phone shows it
        sheet_ok(host)
        attempt = svc.state()["attempt"]
        assert attempt is not None and attempt["need"] == "key:3" and attempt["door"] == door
        assert all("placeholder" not in t.lower() for t in said(viewer))


def test_the_host_chooses_which_dice_to_keep_and_a_lost_game_ends_in_plain_words(browser: Any, live: Table) -> None:
    """Player Turn (keep and reroll: the player chooses what to set aside) and Game End: Losing."""
    svc = live.service
    with host_and_viewer(browser, live) as (host, viewer):
        host.page.click("#turn-card button[data-legal='attempt:search']")
        host.page.click("#step-eye-plus")
        host.page.click("#step-eye-plus")
        host.page.click("#sheet-ok")
        expect(host.page.locator("#attempt")).to_contain_text("Needs 2 eyes")
        host.tab("game")
        host.page.click("#roll-tap2")
        for face in ("eye", "camera", "cobweb"):
            host.page.click(f"#face-{face}")
        expect(host.page.locator("#keep-row")).to_be_visible()
        host.page.select_option("#keep-choice", "none")
        host.page.click("#sheet-ok")
        expect(viewer.page.locator("#toast")).to_contain_text(
            "Rolled eye, camera, cobweb on the blue clue dice: none kept, all to roll again"
        )
        assert svc.state()["attempt"]["kept"] == []
        assert svc.history()[-1]["command"]["args"]["keep"] == "none"
        # The search succeeds: the page asks what was under the token, and a clue is one tap.
        host.page.click("#roll-tap2")
        for face in ("eye", "eye", "camera"):
            host.page.click(f"#face-{face}")
        host.page.click("#sheet-ok")
        expect(host.page.locator("#sheet-title")).to_have_text("What was under the search token?")
        host.page.click("#found-clue")
        expect(viewer.page.locator("#clues-revealed")).to_have_text("1")
        assert svc.state()["clues_revealed"] == 1
        # The game runs out of room cards: every phone says it is lost, and why, in words.
        final = False
        while svc.state()["outcome"] is None:
            svc.do("end-round", source="test")
            if svc.state()["final_round"] and not final:
                final = True  # every phone hears it, whatever else that command brought
                expect(viewer.page.locator("#said")).to_contain_text(re.compile("final round", re.I))
        expect(viewer.page.locator("#end-title")).to_contain_text("You lost")
        reason = viewer.text("#end-reason")
        assert reason and "=" not in reason and "(Game End" not in reason
        expect(viewer.page.locator("#end-lines")).to_contain_text("removed face down at setup")
        expect(host.page.locator("#turn-card")).to_be_hidden()
        banner(viewer, "The ghost got away")
        shot(viewer, "11-viewer-lost")
        tap(host, "#end-new")
        expect(host.page.locator("#wizard")).to_be_visible()


def test_the_host_sees_the_phones_by_name_removes_one_and_keeps_backups(browser: Any, live: Table) -> None:
    with host_and_viewer(browser, live) as (host, viewer):
        # Two alike browsers on one address are told apart before anyone names them: kind, browser, a number.
        host.tab("host")
        names = [p["name"] for p in live.app.extensions["skeptics_web"].phones.phones()]
        assert len(names) == 2 and len(set(names)) == 2 and names[0].startswith("Linux computer, Chrome"), names
        expect(host.page.locator("#phones")).to_contain_text("Linux computer, Chrome 2")
        expect(host.page.locator("#phones")).not_to_contain_text("127.0.0.1")
        host.tab("game")
        viewer.tab("host")
        viewer.page.fill("#phone-form input[name=name]", "Ben's phone")
        viewer.page.click("#phone-form button")
        expect(viewer.page.locator("#toast")).to_contain_text("This phone is called Ben's phone")
        assert viewer.page.locator("#phones-card").is_hidden()  # only the host looks after the phones
        host.tab("host")
        expect(host.page.locator("#phones")).to_contain_text("Ben's phone")
        expect(host.page.locator("#security")).to_contain_text("No wrong PIN")
        host.page.click("#backup-now")
        expect(host.page.locator("#backups li")).to_contain_text("made by hand")
        # The host renames a phone; a name another phone has is refused, in words, and nothing changes.
        host.page.locator("#phones li", has_text="this phone").get_by_role("button", name="Rename").click()
        host.page.fill("#sheet-body input[name=phone-name]", "ben's phone")
        host.page.click("#sheet-ok")
        expect(host.page.locator("#toast")).to_contain_text("Another phone at the table is called Ben's phone already")
        expect(host.page.locator("#sheet")).to_be_visible()
        assert [e for e in host.errors if "409" in e] and len(host.errors) == 1  # the refused name, nothing else
        host.errors.clear()
        host.page.screenshot(path=str(SHOTS / "12-host-rename-phone.png"))
        host.page.fill("#sheet-body input[name=phone-name]", "Host tablet")
        host.page.click("#sheet-ok")
        expect(host.page.locator("#phones")).to_contain_text("Host tablet (host) · this phone")
        expect(host.page.locator("#phone-form input[name=name]")).to_have_value("Host tablet")
        shot(host, "12-host-phones-backups")
        host.page.locator("#phones li", has_text="Ben's phone").get_by_role("button", name="Remove").click()
        expect(host.page.locator("#sheet-body")).to_contain_text("Ben's phone leaves the table")
        host.page.click("#sheet-ok")
        expect(host.page.locator("#phones")).not_to_contain_text("Ben's phone")
        # The removed phone is a stranger now: the page asks for the join code again.
        viewer.page.reload()
        expect(viewer.page.locator("#join")).to_be_visible()


def test_the_table_view_keeps_its_cards_in_columns_and_fits_a_phone(browser: Any, live: Table) -> None:
    """On a tablet the items card sits in the third column under the room cards, not alone above the clock; on a
    phone the table view is one column, with nothing to scroll sideways."""
    board = open_phone(browser, live, viewport=TABLE_VIEW, scale=1)
    try:
        board.page.goto(f"{live.url}/?table=1")
        board.page.wait_for_selector("#map g.room")
        clock = board.page.locator("#clock-card").bounding_box()
        board_map = board.page.locator(".map-card").bounding_box()
        hands = board.page.locator(".hands-card").bounding_box()
        rooms = board.page.locator(".rooms-card").bounding_box()
        assert hands["x"] >= board_map["x"] + board_map["width"] - 1 and hands["y"] >= rooms["y"] + rooms["height"] - 1
        assert hands["y"] > clock["y"]
    finally:
        board.context.close()
    phone = open_phone(browser, live)
    try:
        phone.page.goto(f"{live.url}/?table=1")
        phone.page.wait_for_selector("#map g.room")
        assert phone.page.evaluate("document.body.classList.contains('table')")
        width = phone.page.evaluate("document.documentElement.clientWidth")
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= width
        assert phone.page.locator(".map-card").bounding_box()["width"] <= width
        phone.check_clean()
    finally:
        phone.context.close()
