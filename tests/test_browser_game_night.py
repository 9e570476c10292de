"""Game night: what a host and players trip over at a real table, in real headless Chromium at 390x844.

Each test plays a piece of a real game on the real app (waitress, GameService, engine, SQLite) and checks
what the phone shows against the service's own state, so a wrong number on the page fails the test.
Screenshots go to tests/artifacts/ (gitignored).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from test_browser_web import PHONE, TABLET, Phone, browser, live, open_phone, wait_text  # noqa: F401  (fixtures)
from web_fixtures import Table

from companion.engine import Command
from companion.history import replay_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def close(*phones: Phone) -> None:
    for p in phones:
        p.context.close()


def test_the_game_tab_answers_the_tables_questions_at_a_glance(browser: Any, live: Table) -> None:
    """Quick Reference: hour, ghost, room cards left, summon dice, timers and what is in force, without scrolling."""
    svc = live.service
    for _ in range(4):  # The Ghost Hour: an environment card and a room card come up at XII
        svc.do("end-round", source="test")
    svc.do("reveal-clue", source="test")
    svc.do("solve", source="test")
    svc.do("timer", source="test")
    state = svc.state()
    viewer = open_phone(browser, live)
    try:
        wait_text(viewer, "#g-deck", str(state["room_deck_left"]))
        wait_text(viewer, "#g-summon", str(state["summon_dice"]))
        wait_text(viewer, "#g-timers", str(state["timers"]))
        names = [c["name"] for c in state["environment"]]
        assert names, "the Ghost Hour drew an environment card"
        expect(viewer.page.locator("#g-env")).to_have_text("In force: " + ", ".join(names))
        ghost = viewer.text("#ghost-line")
        assert f"room {state['ghost_room']}" in ghost and "appeared at the Ghost Hour" in ghost
        # A room named only by its number is not said twice ("room 10 (Room 10)").
        assert not re.search(r"room (\d+) \(Room \1\)", ghost)
        # Everything above sits in the first screen of a phone, above the bottom tabs.
        nav_top = viewer.page.locator("#tabs").bounding_box()["y"]
        for sel in ("#clock-label", "#ghost-line", "#g-deck", "#g-env"):
            box = viewer.page.locator(sel).bounding_box()
            assert box["y"] + box["height"] <= nav_top, sel
        # The viewer has no host buttons; the duration is said in words, not as a pack id.
        assert viewer.page.locator(".hostbar").is_hidden()
        assert viewer.page.locator("#env button[data-discard]").count() == 0
        viewer.tab("ghost")
        assert viewer.page.locator("button.try-set").count() == 0  # the ghost is on the board, but this is a viewer
        viewer.tab("game")
        assert "until_met" not in viewer.text("#env") and "_" not in viewer.text("#env")
        viewer.shot("night-glance")
        viewer.check_clean()
    finally:
        close(viewer)


def test_the_host_runs_rounds_from_the_game_tab(browser: Any, live: Table) -> None:
    """Turn Sequence: End turn, End round and Undo sit under the clock on the host's Game tab."""
    host = open_phone(browser, live, host=True)
    try:
        bar = host.page.locator(".hostbar")
        expect(bar).to_be_visible()
        host.page.click("button[data-quick=end-turn]")
        wait_text(host, "#player", "2")
        expect(host.page.locator("#toast")).to_contain_text("Player 2's turn")
        host.page.click("button[data-quick=end-round]")
        wait_text(host, "#clock-label", "III")
        assert live.service.state()["clock"] == "III"
        host.page.click("button[data-quick=undo]")
        wait_text(host, "#clock-label", "XII")
        assert live.service.state()["clock"] == "XII"
        expect(host.page.locator("#toast")).to_contain_text("Undone")
        # The host stays on the Game tab the whole time.
        assert host.page.locator("#v-game").is_visible()
        # Every tap on the Host tab answers with what happened (Action 4: Solve).
        host.tab("host")
        host.page.click("button[data-cmd=reveal-clue]")
        expect(host.page.locator("#toast")).to_have_text("Clue 1/7 revealed")
        host.page.click("button[data-cmd=solve]")
        expect(host.page.locator("#toast")).to_have_text(re.compile(r"^Clue solved: 1 summon die · flipped \S"))
        assert live.service.state()["summon_dice"] == 1
        host.check_clean()
    finally:
        close(host)


def test_prove_a_set_in_one_tap_and_see_what_the_roll_is_for(browser: Any, live: Table) -> None:
    """Action 6: Prove: the host starts the attempt from the ghost card; every phone sees the need, what is still
    missing, how many dice to roll and the companion's exact odds for the actions left."""
    svc = live.service
    for _ in range(4):  # the Ghost Hour puts an environment card in force and the ghost on the board
        svc.do("end-round", source="test")
    assert svc.state()["environment"] and svc.state()["ghost_room"] is not None
    state = svc.state()
    target = max(state["icon_sets"], key=lambda s: len(s["need"].split(",")))
    host = open_phone(browser, live, host=True)
    viewer = open_phone(browser, live)
    try:
        host.tab("ghost")
        host.page.click(f"button.try-set[data-set='{target['index']}']")
        host.page.wait_for_selector("#v-dice:not([hidden])")  # the host lands where the roll is
        attempt = svc.state()["attempt"]
        assert attempt is not None and attempt["set"] == target["index"] and attempt["need"] == target["need"]
        viewer.tab("dice")
        expect(viewer.page.locator("#attempt .attempt-title")).to_have_text(f"Prove set {target['index']}")
        expect(viewer.page.locator("#attempt")).to_contain_text(f"Next roll: {attempt['dice']} clue dice")
        expect(viewer.page.locator("#attempt")).to_contain_text("Kept: none")
        odds = svc.state()["odds"]
        wait_text(viewer, "#odds-now", f"{round(odds * 1000) / 10:.1f} %")
        expect(viewer.page.locator("#odds-what")).to_contain_text(f"with the {svc.state()['actions_left']} actions left")
        # Environment effects are the table's to apply: the roll card reminds them of every card in force.
        reminders = viewer.page.locator("#attempt .env-reminder").all_inner_texts()
        assert reminders == [f"In force: {c['name']} – {c['effect']}" for c in svc.state()["environment"] if c["effect"]]
        # On the viewer's Game tab a line says what is being rolled, with the same odds; a tap opens the Dice tab.
        viewer.tab("game")
        expect(viewer.page.locator("#g-attempt")).to_contain_text(f"Prove set {target['index']}")
        viewer.page.click("#g-attempt")
        viewer.page.wait_for_selector("#v-dice:not([hidden])")
        viewer.shot("night-attempt")
        # The host lets the companion roll: the roll shows up with what was rolled.
        host.page.click("#roll-now")
        expect(viewer.page.locator("#toast")).to_contain_text("Rolled ")
        after = svc.state()
        rolled = [h for h in svc.history() if h["command"]["name"] == "roll"]
        assert len(rolled) == 1
        faces = rolled[0]["command"]["args"]["faces"].replace(",", ", ")
        if after["attempt"] is None:  # the roll succeeded and proved the set
            expect(viewer.page.locator("#last-result")).to_contain_text(faces)
            assert after["icon_sets"][target["index"] - 1]["proven"]
        else:
            expect(viewer.page.locator("#last-roll")).to_have_text("Last roll: " + faces)
            kept = after["attempt"]["kept"]
            expect(viewer.page.locator("#attempt")).to_contain_text("Kept: " + (", ".join(kept) or "none"))
            expect(viewer.page.locator("#attempt")).to_contain_text(f"Next roll: {after['attempt']['dice_to_roll']}")
        host.check_clean()
        viewer.check_clean()
    finally:
        close(host, viewer)


def test_hand_entry_says_how_many_dice_and_offers_only_their_faces(browser: Any, live: Table) -> None:
    """Keep-and-reroll: the pad asks for the faces of the dice not kept; a correction asks for as many as the roll
    it replaces. Clue dice have no blank or key face."""
    svc = live.service
    svc.do("attempt", {"action": "search", "need": "eye:2,camera:1"}, source="test")
    svc.do("roll", {"faces": "eye,cobweb,cobweb"}, source="test")  # one eye kept, two dice to roll
    host = open_phone(browser, live, host=True)
    try:
        host.tab("dice")
        left = svc.state()["attempt"]["dice_to_roll"]
        assert left == 2
        expect(host.page.locator("#pad-hint")).to_have_text(f"Tap {left} clue dice for the roll under way.")
        for face in ("key", "blank", "summon"):
            assert host.page.locator(f"#face-pad button[data-face={face}]").is_hidden(), face
        host.page.click("#face-pad button[data-face=camera]")
        expect(host.page.locator("#dice-count")).to_have_text(f"1 of {left}")
        # Correcting the last read: three faces, as many as that roll had.
        host.page.check("#dice-form input[name=replace]")
        expect(host.page.locator("#pad-hint")).to_contain_text("Tap 3 clue dice to correct the last roll (eye, cobweb, cobweb)")
        expect(host.page.locator("#dice-count")).to_have_text("1 of 3")
        host.page.click("#dice-clear")
        for face in ("eye", "cobweb", "camera"):
            host.page.click(f"#face-pad button[data-face={face}]")
        expect(host.page.locator("#dice-count")).to_have_text("3 of 3")
        host.page.click("#dice-form button:has-text('Send dice')")
        expect(host.page.locator("#dice-entered .chip")).to_have_count(0)
        rolls = [h["command"]["args"]["faces"] for h in svc.history() if h["command"]["name"] == "roll"]
        assert rolls == ["eye,cobweb,camera"]  # the correction replaced the read, it did not add a roll
        assert sorted(svc.state()["attempt"]["kept"]) == ["camera", "eye"]
        host.page.uncheck("#dice-form input[name=replace]")
        expect(host.page.locator("#pad-hint")).to_have_text("Tap 1 clue die for the roll under way.")
        # For a summon the pad offers the summon die's faces, one per summon die the team holds.
        host.page.select_option("#dice-form select[name=command]", "summon")
        expect(host.page.locator("#pad-hint")).to_have_text("The team has no summon die yet.")
        assert host.page.locator("#face-pad button[data-face=summon]").is_visible()
        assert host.page.locator("#face-pad button[data-face=eye]").is_hidden()
        host.shot("night-hand-entry")
        host.check_clean()
    finally:
        close(host)


def test_after_a_pull_the_host_taps_the_room_on_the_map(browser: Any, live: Table) -> None:
    """Action 7: Pull Ghost: the rooms the ghost may be pulled to are marked on the map, exactly those the engine
    accepts, and a tap moves it there on every phone."""
    svc = live.service
    svc.do("reveal-clue", source="test")
    svc.do("solve", source="test")
    svc.do("end-round", source="test")  # III: summons allowed
    svc.do("ghost-at", {"room": "8"}, source="test")
    host = open_phone(browser, live, host=True)
    viewer = open_phone(browser, live)
    try:
        assert host.page.locator("#map g.room.target").count() == 0  # nothing to tap without a pull
        host.tab("host")
        host.page.click("button[data-cmd=pull][data-args*=true]")
        host.page.wait_for_selector("#v-game:not([hidden])")  # the host is taken to the map
        expect(host.page.locator("#map-note")).to_contain_text("tap the room")
        host.page.wait_for_selector("#map g.room.target")
        offered = {int(n) for n in host.page.eval_on_selector_all("#map g.room.target", "els => els.map(e => e.dataset.room)")}
        game = replay_game(svc.store, svc.game_id, svc.packs)
        rooms = set(svc.packs.boards[svc.state()["board"]].rooms) | {0}
        legal = {n for n in rooms if game.is_legal(Command.parse(f"move-ghost to={n}"))}
        assert offered == legal and offered
        assert viewer.page.locator("#map g.room.target").count() == 0  # a viewer cannot move it
        to = min(offered - {9})
        host.shot("night-pull-targets")
        host.page.click(f"#map g.room.target[data-room='{to}']")
        expect(viewer.page.locator("#map g.room.ghost")).to_have_attribute("data-room", str(to))
        assert svc.state()["ghost_room"] == to and not svc.state()["pull_pending"]
        host.check_clean()
        viewer.check_clean()
    finally:
        close(host, viewer)


def test_a_failed_summon_never_shows_the_card_and_removed_cards_show_only_at_the_end(browser: Any, live: Table) -> None:
    """Action 8: Summon (a failed summon discards a room card unseen) and Room Deck (cards removed face down):
    no phone learns either before the end of the game."""
    svc = live.service
    svc.do("reveal-clue", source="test")
    svc.do("solve", source="test")
    svc.do("end-round", source="test")
    svc.do("summon", {"faces": "blank"}, source="test")
    viewer = open_phone(browser, live)
    try:
        wait_text(viewer, "#unseen-discards", "1")
        drawn = viewer.page.locator("#rooms-drawn .chip").all_inner_texts()
        viewer.tab("log")
        expect(viewer.page.locator("#history li")).to_have_count(len(svc.history()))
        log = [re.sub(r"^#\d+ \d\d:\d\d ", "", t) for t in viewer.page.locator("#history li").all_inner_texts()]
        viewer.tab("game")
        end_text = viewer.text("#end-card") if viewer.page.locator("#end-card").is_visible() else ""
        # Which card was it? Undo and summon again: the same card comes up (the undo puts it back on top).
        svc.undo(source="test")
        shown = [e for e in svc.do("summon", {"faces": "summon"}, source="test").events if e["type"] == "room_drawn"]
        secret = shown[0]["room"]
        assert str(secret) not in drawn
        assert not any(re.search(rf"\b{secret}\b", line) for line in log), log
        assert end_text == ""
        assert viewer.page.locator("#end-card").is_hidden()
        assert "removed_rooms" not in svc.state()
        # The end of the game: the removed cards are shown, exactly those.
        for s in svc.state()["icon_sets"]:
            svc.do("prove", {"set": str(s["index"])}, source="test")
        state = svc.state()
        assert state["outcome"] == "won"
        expect(viewer.page.locator("#end-card")).to_be_visible()
        expect(viewer.page.locator("#end-title")).to_have_text("You won! The ghost is proven.")
        removed = ", ".join(str(r) for r in state["removed_rooms"])
        expect(viewer.page.locator("#end-removed")).to_have_text(f"Room cards removed face down at setup: {removed}.")
        viewer.shot("night-won")
        viewer.check_clean()
    finally:
        close(viewer)


def test_a_lost_game_says_so_and_offers_the_host_a_new_game(browser: Any, live: Table) -> None:
    """Game End: the round in which the last room card was drawn ends: lost."""
    svc = live.service
    while svc.state()["outcome"] is None:
        svc.do("end-round", source="test")
    state = svc.state()
    host = open_phone(browser, live, host=True)
    try:
        host.page.click("#banner-ok") if host.page.locator("#banner").is_visible() else None
        expect(host.page.locator("#end-card")).to_have_class(re.compile(r"\blost\b"))
        expect(host.page.locator("#end-reason")).to_have_text(state["outcome_reason"])
        host.page.click("#end-new")
        host.page.wait_for_selector("#v-host:not([hidden])")
        assert host.page.locator("#new-form").is_visible()
        host.shot("night-lost")
        host.check_clean()
    finally:
        close(host)


def test_an_until_met_card_is_discarded_in_one_tap(browser: Any, live: Table) -> None:
    """Environment cards that last "until met" end when the host says so (discard-environment)."""
    svc = live.service
    found = None
    for _ in range(40):
        svc.do("end-round", source="test")
        found = next((c for c in svc.state()["environment"] if c["duration"] == "until_met"), None)
        if found:
            break
    assert found, "the seeded game draws an until-met card"
    host = open_phone(browser, live, host=True)
    try:
        host.page.click("#banner-ok") if host.page.locator("#banner").is_visible() else None
        host.page.click(f"#env button[data-discard='{found['id']}']")
        expect(host.page.locator("#toast")).to_contain_text("ended")
        assert found["id"] not in [c["id"] for c in svc.state()["environment"]]
        expect(host.page.locator(f"#env button[data-discard='{found['id']}']")).to_have_count(0)
        host.check_clean()
    finally:
        close(host)


def test_physical_decks_a_refused_draw_opens_the_card_form(browser: Any, live: Table) -> None:
    """Physical deck mode: End round at IX needs the cards drawn; the page takes the host to the form."""
    host = open_phone(browser, live, host=True)
    try:
        host.tab("host")
        host.page.check("#new-form input[name=physical]")
        host.page.click("#new-form button")
        host.page.on("dialog", lambda d: d.accept())
        host.page.wait_for_selector("#physical-card:not([hidden])")
        for _ in range(3):
            live.service.do("end-round", source="test")
        wait_text(host, "#clock-label", "IX")
        host.tab("game")
        host.page.click("button[data-quick=end-round]")
        host.page.wait_for_selector("#v-host:not([hidden])")
        expect(host.page.locator("#toast")).to_contain_text("room=N")
        form = host.page.locator("#physical-form")
        expect(form.locator("select[name=command]")).to_have_value("end-round")
        box = host.page.locator("#physical-card").bounding_box()
        header = host.page.locator("#top").bounding_box()
        assert header["y"] + header["height"] <= box["y"] < PHONE["height"] / 2  # in sight, not under the header
        unseen = live.service.state()["rooms_unseen"]
        form.locator("input[name=room]").fill(str(unseen[0]))
        form.locator("select[name=environment]").select_option(index=1)
        form.locator("button").click()
        host.page.wait_for_selector("#banner:not([hidden])")
        assert live.service.state()["ghost_room"] == unseen[0]
        expect(form.locator("input[name=room]")).to_have_value("")
        # The refused End round is the one 4xx answer Chromium logs; nothing else went wrong.
        assert host.outside() == []
        assert len(host.errors) == 1 and "status of 400" in host.errors[0], host.errors
    finally:
        close(host)


def test_the_bottom_tabs_never_cover_the_last_card(browser: Any, live: Table) -> None:
    """At 390x844 the end of every tab scrolls clear of the tab bar; on a tablet the host bar spans the grid."""
    host = open_phone(browser, live, host=True)
    try:
        at: dict[str, int] = {}
        for view in ("game", "ghost", "dice", "log", "host"):
            host.tab(view)
            host.page.mouse.wheel(0, 20000)
            host.page.wait_for_timeout(100)  # let the scroll settle (page time, not a test sleep on the server)
            at[view] = host.page.evaluate("window.scrollY")
            last = host.page.locator(f"#v-{view} > .card:visible, #v-{view} > div:visible > .card:visible").last
            nav = host.page.locator("#tabs").bounding_box()
            box = last.bounding_box()
            assert box["y"] + box["height"] <= nav["y"] + 1, view
        # Each tab keeps its own scroll: back on Host after a look at the Game tab, the page is where it was left.
        assert at["host"] > at["game"] > 0
        host.tab("game")
        assert host.page.evaluate("window.scrollY") == at["game"]
        host.tab("host")
        assert host.page.evaluate("window.scrollY") == at["host"]
    finally:
        close(host)
    tablet = open_phone(browser, live, host=True, viewport=TABLET)
    try:
        bar = tablet.page.locator(".hostbar").bounding_box()
        clock = tablet.page.locator(".clockcard").bounding_box()
        board = tablet.page.locator("#map").bounding_box()
        assert abs(bar["width"] - clock["width"]) < 2
        assert board["y"] > bar["y"] + bar["height"]
        tablet.shot("night-tablet")
        tablet.check_clean()
    finally:
        close(tablet)


def test_a_phone_that_loses_the_companion_says_so(browser: Any, live: Table) -> None:
    """The Wi-Fi drops: the page says it is offline and reconnecting, not just a red dot."""
    viewer = open_phone(browser, live)
    try:
        assert viewer.page.locator("#conn-label").is_hidden()
        live.server.stop()
        expect(viewer.page.locator("#conn-label")).to_be_visible(timeout=5000)
        expect(viewer.page.locator("#conn")).to_have_class(re.compile(r"\boff\b"))
    finally:
        viewer.context.close()


def test_the_host_chooses_which_dice_to_keep(browser: Any, live: Table) -> None:
    """Keep-and-reroll: keeping every die that counts is not always best; the player may keep one face only."""
    svc = live.service
    svc.do("attempt", {"action": "search", "need": "eye:2,camera:1"}, source="test")
    host = open_phone(browser, live, host=True)
    try:
        host.tab("dice")
        assert host.page.locator("#keep-row").is_hidden()  # nothing to keep before the faces are in
        for face in ("eye", "camera", "cobweb"):
            host.page.click(f"#face-pad button[data-face={face}]")
        options = host.page.locator("#dice-form select[name=keep] option").all_inner_texts()
        assert options == ["every die that counts", "none (reroll them all)", "only the eye dice", "only the camera dice"]
        host.page.select_option("#dice-form select[name=keep]", "camera")
        host.page.click("#dice-form button:has-text('Send dice')")
        expect(host.page.locator("#attempt")).to_contain_text("Kept: camera")
        assert svc.state()["attempt"]["kept"] == ["camera"]
        expect(host.page.locator("#attempt")).to_contain_text("still needs: eye ×2")
        host.check_clean()
    finally:
        close(host)


def test_an_icon_set_is_built_with_taps(browser: Any, live: Table) -> None:
    """Action 3: Search / Action 4: Solve: the clue card's icons are entered with taps, not typed."""
    host = open_phone(browser, live, host=True)
    try:
        host.tab("host")
        form = host.page.locator("#attempt-form")
        for add in ("eye", "camera", "eye"):
            form.locator(f".needpad button[data-add='{add}']").click()
        expect(form.locator("input[name=need]")).to_have_value("eye:2,camera:1")
        form.locator("button:has-text('Start attempt')").click()
        host.page.wait_for_selector("#v-dice:not([hidden])")  # the host is taken to the roll
        expect(host.page.locator("#toast")).to_have_text("Roll under way: Search needs eye ×2, camera")
        expect(host.page.locator("#attempt .attempt-title")).to_have_text("Search")
        assert live.service.state()["attempt"]["need"] == "eye:2,camera:1"
        # The odds calculator has the same pad; "clear" empties it.
        host.page.locator("#odds-form .needpad button[data-add='']").click()
        host.page.locator("#odds-form .needpad button[data-add='key']").click()
        expect(host.page.locator("#odds-form input[name=need]")).to_have_value("key:1")
        host.check_clean()
    finally:
        close(host)


def test_a_page_opened_without_the_companion_says_so_and_recovers(browser: Any, live: Table) -> None:
    """A phone that opens the page while the companion cannot be reached sees no made-up clock, then the game."""
    phone = open_phone(browser, live)
    try:
        phone.page.route("**/api/session", lambda route: route.abort())
        phone.page.reload()
        expect(phone.page.locator("#offline")).to_be_visible()
        assert phone.page.locator("#v-game").is_hidden()
        phone.page.unroute("**/api/session")
        expect(phone.page.locator("#offline")).to_be_hidden(timeout=8000)
        phone.page.wait_for_selector("#conn.on")
        wait_text(phone, "#clock-label", live.service.state()["clock"])
        assert phone.page.locator("#v-game").is_visible()
        assert phone.outside() == []
    finally:
        close(phone)
