// The Skeptics companion page: live state over Server-Sent Events, controls for the host.
// No framework, no build step; every request goes to the companion itself.
"use strict";
(() => {
  const $ = (s) => document.querySelector(s);
  const $$ = (s) => Array.from(document.querySelectorAll(s));
  const SVG = "http://www.w3.org/2000/svg";
  const HANDS = { XII: 0, III: 90, VI: 180, IX: 270 };
  const FACES = ["eye", "camera", "cobweb", "key", "summon", "blank"];
  // Plain text marks (no emoji: a phone without an emoji font would show empty boxes).
  const ICON = { eye: "\u25C9", camera: "\u25A3", cobweb: "\u2736", key: "\u2625", summon: "\u2620", blank: "\u25A1", timer: "\u29D7", disruption: "\u21AF" };
  const REASON = { ghost_hour: "appeared at the Ghost Hour", summon: "summoned", ghost_mode: "Ghost Mode", seance: "séance", manual: "put there by the host" };
  const LASTS = { instant: "played at once", hour: "lasts until the next Ghost Hour", until_met: "lasts until met: the host discards it then", once: "played at once" };
  const KIND_FACES = { clue: ["eye", "camera", "cobweb"], key: ["key", "blank"], summon: ["summon", "blank"] };
  const app = { session: null, state: null, board: null, boardId: null, es: null, lastMsg: 0, lastId: null, dice: [], scroll: {}, audio: null, wake: null };

  const el = (tag, attrs, text) => {
    const n = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const k in attrs || {}) n.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  };
  const fill = (node, items) => { node.replaceChildren(...items); };
  const chip = (text, cls) => el("span", { class: "chip " + (cls || "") }, text);
  const pct = (p) => (Math.round(p * 1000) / 10).toFixed(1) + " %";

  function toast(msg, bad) {
    const t = $("#toast");
    t.textContent = msg;
    t.className = bad ? "bad" : "";
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, bad ? 6000 : 2500);
  }

  async function api(path, body) {
    const opts = { credentials: "same-origin", headers: {} };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.headers["X-CSRF-Token"] = app.session ? app.session.csrf : "";
      opts.body = JSON.stringify(body);
    }
    let res;
    try { res = await fetch(path, opts); } catch (e) { toast("The companion cannot be reached; check the Wi-Fi.", true); throw e; }
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(data.error || ("HTTP " + res.status));
      err.status = res.status;
      throw err;
    }
    return data;
  }

  async function act(path, body, okText) {
    try {
      const out = await api(path, body);
      if (out && out.state) render(out.state);
      if (okText) toast(okText);
      return out;
    } catch (e) {
      app.lastError = e.message;
      if (e.status) toast(e.message, true);
      return null;
    }
  }

  // ---- rendering ----------------------------------------------------------------------------
  function fresher(s) {
    const cur = app.state;
    if (!cur) return true;
    if (s.game_id !== cur.game_id) { app.lastResult = null; app.lastRoll = null; return true; }
    return (s.last_event_id ?? -1) >= (cur.last_event_id ?? -1);
  }

  function render(s) {
    if (!s || !fresher(s)) return;
    app.state = s;
    if (s.game_id === null || s.game_id === undefined) { $("#nogame").hidden = false; return; }
    if (s.last_event_id !== null && s.last_event_id !== undefined) app.lastId = s.last_event_id;
    $("#nogame").hidden = true;
    $("#clock-label").textContent = s.clock;
    $("#hand").setAttribute("transform", "rotate(" + (HANDS[s.clock] || 0) + ")");
    $("#round").textContent = s.round;
    $("#hour").textContent = s.hour;
    $("#player").textContent = (s.current_player ?? 0) + 1;
    $("#actions").textContent = s.actions_left ?? "–";
    const g = s.ghost_room;
    $("#ghost-line").textContent = g === null || g === undefined ? "The ghost is not on the board." :
      "Ghost in room " + g + roomName(g, s.ghost_room_name) + (REASON[s.ghost_reason] ? " \u00B7 " + REASON[s.ghost_reason] : "");
    const out = $("#outcome");
    out.hidden = !s.outcome;
    out.textContent = s.outcome ? (s.outcome === "won" ? "Won!" : "Lost.") : "";
    out.className = "outcome " + (s.outcome || "");
    renderGlance(s);

    fill($("#env"), (s.environment || []).map((c) => {
      const li = el("li");
      li.append(el("b", {}, c.name), el("div", { class: "note" }, c.effect || ""), el("div", { class: "dim" }, LASTS[c.duration] || c.duration || ""));
      if (c.duration === "until_met" && isHost() && !s.outcome) {
        const b = el("button", { type: "button", class: "host-only small", "data-discard": c.id }, "Met: discard it");
        b.addEventListener("click", () => command("discard-environment", { card: c.id }));
        li.append(b);
      }
      return li;
    }));
    if (!(s.environment || []).length) fill($("#env"), [el("li", { class: "dim" }, "No environment card in force.")]);
    $("#deck-left").textContent = s.room_deck_left;
    $("#final-round").hidden = !s.final_round;
    const reds = new Set(s.red_markers || []);
    fill($("#rooms-drawn"), (s.rooms_revealed || []).map((r) => chip(r, reds.has(r) ? "red" : "")));
    if (!(s.rooms_revealed || []).length) fill($("#rooms-drawn"), [el("span", { class: "dim" }, "none yet")]);
    $("#unseen-discards").textContent = s.room_cards_discarded_unseen ?? 0;
    fill($("#rooms-unseen"), (s.rooms_unseen || []).map((r) => chip(r)));
    $("#removed-count").textContent = s.room_cards_removed ?? 0;
    $("#unseen-note").hidden = !s.room_cards_removed;

    const ghost = s.ghost || {};
    $("#ghost-name").textContent = ghost.name || "Ghost";
    $("#ghost-diff").textContent = ghost.difficulty !== undefined ? "Difficulty " + ghost.difficulty : "";
    fill($("#icon-sets"), (s.icon_sets || []).map((set) => {
      const li = el("li", { class: "set" + (set.proven ? " proven" : ""), title: set.text || "" });
      const what = el("span", { class: "set-what" });
      what.append(el("b", {}, (set.proven ? "\u2714 " : "") + "Set " + set.index + ": "), needChips(set.need));
      li.append(what);
      if (set.proven) li.append(el("span", { class: "note" }, "proven"));
      else if (!s.outcome && isHost() && s.ghost_room !== null && s.ghost_room !== undefined) {
        const b = el("button", { type: "button", class: "host-only try-set", "data-set": set.index, "aria-label": "Try to prove set " + set.index }, "Prove\u2026");
        b.addEventListener("click", async () => { if (await command("attempt", { action: "prove", set: String(set.index) })) showView("dice"); });
        li.append(b);
      }
      return li;
    }));
    $("#sets-note").textContent = s.outcome ? "" : s.ghost_room === null || s.ghost_room === undefined ? "A set can be proven only while the ghost is on the board." : isHost() ? "Tap Prove\u2026 to start the roll for a set." : "";
    const sym = (x) => (app.names && app.names[x]) || x;
    fill($("#evidence"), (s.evidence || []).map((e) => chip(sym(e.symbol), e.matched ? "ok" : "")));
    if (!(s.evidence || []).length) fill($("#evidence"), [el("span", { class: "dim" }, "No evidence flipped yet.")]);
    fill($("#seance"), (s.seance_symbols || []).map((x) => chip(sym(x))));
    $("#seance-state").textContent = s.seance_active ? "The séance is under way." : s.seance_declared ? "The séance is declared for the end of this round." :
      s.seance_used ? "The séance has been held." : s.seance_available ? "Every symbol is matched: the host may declare the séance (not at IX)." : "Match every séance symbol with the evidence to hold a séance.";
    $("#summon-dice").textContent = s.summon_dice;
    $("#summon-odds").textContent = typeof s.summon_odds === "number" ? "(a summon or pull succeeds " + pct(s.summon_odds) + ")" : "";
    $("#timers").textContent = s.timers;
    $("#clues-revealed").textContent = s.clues_revealed;
    $("#clues-solved").textContent = s.clues_solved;
    $("#mode").textContent = (s.ghost_mode ? "Ghost Mode: the ghost appears every quarter hour. " : "") + (s.pull_pending ? "A pull is pending: move the ghost." : "");
    renderAttempt(s);
    padHint();
    $("#physical-card").hidden = !s.physical;
    renderMap();
    if (s.board && s.board !== app.boardId) loadBoard(s.board);
    if ((s.history_length ?? 0) !== app.historyLength) { app.historyLength = s.history_length; loadHistory(); }
    if (app.session && app.session.hardware) { loadHardware(); clearTimeout(app.hwLater); app.hwLater = setTimeout(loadHardware, 2000); } // the hand takes a moment to turn
    if (app.session && app.session.tray && !$("#v-dice").hidden) loadTray();
  }

  function needChips(need) {
    const span = el("span", { class: "need" });
    const text = typeof need === "string" ? need : Object.entries(need || {}).map(([k, v]) => k + ":" + v).join(",");
    for (const part of text.split(",").filter(Boolean)) {
      const [k, n] = part.split(":");
      span.append(chip((ICON[k] || "") + " " + k + (n && n !== "1" ? " \u00D7" + n : "")));
    }
    return span;
  }

  function oddsOf(s) {
    const o = s.odds;
    if (o === null || o === undefined) return null;
    if (typeof o === "number") return o;
    return typeof o.probability === "number" ? o.probability : null;
  }

  // What the need asks for that the kept dice do not give yet, e.g. "eye:2,camera:1" minus [eye] -> {eye:1, camera:1}.
  function missingOf(a) {
    const left = {};
    for (const part of String(a.need || "").split(",").filter(Boolean)) {
      const [k, n] = part.split(":");
      if (k === "timer" || k === "disruption") continue;
      left[k] = (left[k] || 0) + Number(n || 1);
    }
    for (const f of a.kept || []) if (left[f]) left[f] -= 1;
    return Object.entries(left).filter(([, n]) => n > 0).map(([k, n]) => k + ":" + n).join(",");
  }
  const needText = (need) => String(need || "").split(",").filter(Boolean).map((p) => { const [k, n] = p.split(":"); return k + (n && n !== "1" ? " \u00D7" + n : ""); }).join(", ");
  const attemptName = (a) => (ACTION_NAME[a.action] || a.action) + (a.set ? " set " + a.set : "") + (a.door ? " door " + a.door : "");
  const kindOf = (need) => (/\bkey\b/.test(String(need || "")) ? "key" : "clue");
  const ACTION_NAME = { search: "Search", solve: "Solve a clue", prove: "Prove", unlock: "Unlock", barrier: "Barrier", fire: "Fight the fire" };

  function renderAttempt(s) {
    const box = $("#attempt");
    const a = s.attempt;
    $("#attempt-host").hidden = !(a && !a.succeeded && isHost());
    if (!a) {
      const r = app.lastResult;
      if (!r) { box.textContent = "No roll under way."; return; }
      fill(box, [el("div", {}, "No roll under way."), el("div", { id: "last-result", class: r.success ? "ok" : "note" },
        "Last: " + r.what + " \u2013 rolled " + r.faces.join(", ") + (r.success ? ": success" : ""))]);
      return;
    }
    const odds = oddsOf(s);
    const toRoll = a.dice_to_roll ?? Math.max(0, a.dice - (a.kept || []).length);
    const missing = missingOf(a);
    const what = attemptName(a);
    const rows = [
      el("div", { class: "attempt-title" }, what + (a.timer ? " \u00B7 timer" : "") + (a.disruption ? " \u00B7 disruption (no keeping)" : "")),
      el("div", {}, "Needs: "), el("div", { class: "note" }, ""),
    ];
    rows[1].append(needChips(a.need));
    rows[2].textContent = "Kept: " + ((a.kept || []).join(", ") || "none") + (a.succeeded ? "" : " \u00B7 still needs: " + (needText(missing) || "–"));
    if (a.succeeded) rows.push(el("div", { class: "big ok", id: "odds-now" }, "Success!"));
    else {
      rows.push(el("div", {}, "Next roll: " + toRoll + " " + kindOf(a.need) + (toRoll === 1 ? " die" : " dice") + " \u00B7 rolls so far: " + (Array.isArray(a.rolls) ? a.rolls.length : a.rolls)));
      const left = s.actions_left ?? 0;
      rows.push(el("div", { class: "big", id: "odds-now" }, odds === null ? "" : pct(odds)));
      rows.push(el("div", { class: "note", id: "odds-what" }, odds === null ? "" : left > 0 ? "chance to succeed with the " + left + (left === 1 ? " action" : " actions") + " left this turn (keeping the best dice)" : "no action left this turn: end the turn"));
    }
    if (app.lastRoll) rows.splice(3, 0, el("div", { id: "last-roll" }, "Last roll: " + app.lastRoll.join(", ")));
    // The companion does not apply environment effects (docs/rules-engine.md): remind the table of them here.
    for (const c of s.environment || []) if (c.effect) rows.push(el("div", { class: "note env-reminder" }, "In force: " + c.name + " \u2013 " + c.effect));
    fill(box, rows);
  }

  function renderGlance(s) {
    $("#g-deck").textContent = s.room_deck_left ?? 0;
    $("#g-summon").textContent = s.summon_dice ?? 0;
    $("#g-timers").textContent = s.timers ?? 0;
    const env = (s.environment || []).map((c) => c.name);
    $("#g-env").textContent = env.length ? "In force: " + env.join(", ") : "No environment card in force.";
    const a = s.attempt;
    const ga = $("#g-attempt");
    ga.hidden = !a;
    if (a) {
      const o = oddsOf(s);
      ga.textContent = "Rolling: " + attemptName(a) + " \u2013 " + needText(a.need) + (a.succeeded ? " \u00B7 success" : o === null ? "" : " \u00B7 " + pct(o)) + " \u203A";
    }
    const end = $("#end-card");
    end.hidden = !s.outcome;
    end.className = "card endcard " + (s.outcome || "");
    if (s.outcome) {
      $("#end-title").textContent = s.outcome === "won" ? "You won! The ghost is proven." : "Lost. The ghost got away.";
      $("#end-reason").textContent = s.outcome_reason || "";
      const rm = Array.isArray(s.removed_rooms) ? s.removed_rooms : null;
      $("#end-removed").textContent = rm ? "Room cards removed face down at setup: " + (rm.join(", ") || "none") + "." : "";
      $("#end-new").hidden = !isHost();
    }
    const extra = [];
    if (s.outcome) { $("#g-removed").hidden = true; return; }
    if (s.ghost_mode) extra.push("Ghost Mode" + (s.ghost_mode_why ? ": " + s.ghost_mode_why : ""));
    if (s.final_round) extra.push("Final round: the last room card is drawn");
    if (s.pull_pending) extra.push("A pull is pending: move the ghost" + (isHost() ? " (tap a gold room on the map)" : ""));
    if (s.seance_active) extra.push("Séance under way: the ghost is at the first player's space this round");
    else if (s.seance_declared) extra.push("Séance declared: at the end of this round the ghost comes to the first player's space");
    const gr = $("#g-removed");
    gr.hidden = !extra.length;
    gr.textContent = extra.join(" \u00B7 ");
  }

  // " (Bath)"; nothing when the pack names the room only by its number ("Room 8").
  function roomName(n, known) {
    const b = app.board;
    const r = b && (b.spaces || b.rooms || []).find((x) => Number(x.number ?? x.id) === Number(n));
    const name = known || (r && r.name) || "";
    return name && !/^(room\s*)?\d+$/i.test(name.trim()) ? " (" + name + ")" : "";
  }

  // ---- the board map ----------------------------------------------------------------------------
  async function loadBoard(id) {
    app.boardId = id;
    try { app.board = await api("/api/board"); } catch (e) { app.board = null; }
    renderMap();
  }

  function posOf(r) {
    const p = r.pos || r.position || r.grid || [r.x, r.y];
    return Array.isArray(p) ? { x: Number(p[0]), y: Number(p[1]) } : { x: Number(p.x), y: Number(p.y) };
  }

  // Where a pull may move the ghost (Action 7: Pull Ghost): two spaces through open connections, one
  // through a closed door, never through a secret passage. The engine checks the move again.
  function reachable(b, s, start) {
    const open = new Set(s.doors_open || []);
    const closed = (c) => c.door && (c.lock || !open.has(c.key || c.between.join("-")));
    const next = (n) => (b.connections || []).filter((c) => (c.between || []).includes(n)).map((c) => [c.between[0] === n ? c.between[1] : c.between[0], c]);
    const out = new Set();
    for (const [n1, c1] of next(start)) {
      out.add(n1);
      if (closed(c1)) continue;
      for (const [n2, c2] of next(n1)) if (n2 !== start && !closed(c2)) out.add(n2);
    }
    return out;
  }

  function renderMap() {
    const svg = $("#map");
    const b = app.board;
    const s = app.state;
    if (!b || !s) return;
    const rooms = (b.spaces || b.rooms || []).map((r) => ({ n: Number(r.number ?? r.id), name: r.name, p: posOf(r) })).filter((r) => !Number.isNaN(r.p.x));
    if (!rooms.length) { $("#map-note").textContent = "This board pack has no map positions."; return; }
    const xs = rooms.map((r) => r.p.x), ys = rooms.map((r) => r.p.y);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    const W = Math.max(...xs) - minX + 1, H = Math.max(...ys) - minY + 1;
    const cell = 40;
    svg.setAttribute("viewBox", "0 0 " + W * cell + " " + H * cell);
    const at = {};
    for (const r of rooms) at[r.n] = { x: (r.p.x - minX) * cell + cell / 2, y: (r.p.y - minY) * cell + cell / 2 };
    const nodes = [];
    const links = (b.connections || []).map((c) => ({ ends: c.between || [c.a, c.b], door: c.door, lock: c.lock }))
      .concat((b.secret_passages || []).map((p) => ({ ends: p, secret: true })));
    for (const c of links) {
      const [a, z] = c.ends;
      if (!at[a] || !at[z]) continue;
      const kind = c.secret ? "secret" : c.door ? "door" : "open";
      nodes.push(el("svg:line", { x1: at[a].x, y1: at[a].y, x2: at[z].x, y2: at[z].y, class: "link " + kind }));
      if (kind === "door") nodes.push(el("svg:rect", { x: (at[a].x + at[z].x) / 2 - 4, y: (at[a].y + at[z].y) / 2 - 4, width: 8, height: 8, class: "door" }));
    }
    const reds = new Set(s.red_markers || []);
    const movable = !!(s.pull_pending && isHost() && s.ghost_room !== null && s.ghost_room !== undefined);
    const reach = movable ? reachable(b, s, s.ghost_room) : new Set();
    for (const r of rooms) {
      const g = el("svg:g", { transform: "translate(" + at[r.n].x + " " + at[r.n].y + ")", class: "room" + (reds.has(r.n) ? " red" : "") + (s.ghost_room === r.n ? " ghost" : "") + (reach.has(r.n) ? " target" : ""), "data-room": r.n });
      if (reach.has(r.n)) g.addEventListener("click", () => command("move-ghost", { to: String(r.n) }));
      g.append(el("svg:rect", { x: -16, y: -13, width: 32, height: 26, rx: 4 }), el("svg:text", { y: 5 }, r.n === 0 ? "E" : r.n));
      const title = el("svg:title", {}, r.n + " " + (r.name || ""));
      g.append(title);
      if (reds.has(r.n)) g.append(el("svg:circle", { cx: 12, cy: -9, r: 4, class: "marker" }));
      nodes.push(g);
    }
    if (s.ghost_room && at[s.ghost_room]) {
      const p = at[s.ghost_room];
      const pawn = el("svg:g", { transform: "translate(" + p.x + " " + (p.y - 14) + ")", class: "ghost-pawn", id: "ghost-pawn" });
      pawn.append(el("svg:path", { d: "M-7 6V-2a7 7 0 0 1 14 0V6l-3.5-2.5L0 6l-3.5-2.5z" }), el("svg:circle", { cx: -2.5, cy: -2, r: 1.4, class: "eye" }), el("svg:circle", { cx: 2.5, cy: -2, r: 1.4, class: "eye" }));
      nodes.push(pawn);
    }
    fill(svg, nodes);
    $("#map-note").textContent = movable ? "Pull: tap the room to move the ghost to (up to 2 spaces)." : "Red dot: red marker. Dashed: door. Dotted: secret passage.";
    $("#map-note").classList.toggle("warn", movable);
  }

  // ---- history, hardware, tray ---------------------------------------------------------------
  async function loadHistory() {
    let items;
    try { items = await api("/api/history"); } catch (e) { return; }
    app.historyItems = items;
    padHint();
    const hhmm = (t) => (t ? new Date(t * 1000).toTimeString().slice(0, 5) + " " : "");
    fill($("#history"), items.slice().reverse().map((h) => el("li", {}, "#" + h.seq + " " + hhmm(h.at) + h.text + (h.source && h.source !== "web" ? " \u00B7 " + h.source : ""))));
    const last = items[items.length - 1];
    $("#undo-btn").textContent = last ? "Undo #" + last.seq + ": " + last.text : "Undo last";
  }

  async function loadHardware() {
    try {
      const hw = await api("/api/hardware");
      $("#hw-card").hidden = false;
      $("#hw-angle").textContent = hw.hand_angle === null ? "–" : Math.round(hw.hand_angle) + "\u00B0";
      $("#oled").src = "/api/hardware/oled.png?t=" + Date.now();
    } catch (e) { /* hardware is optional */ }
  }

  async function loadTray() {
    if (!app.session || !app.session.tray) return;
    try {
      const t = await api("/api/tray");
      $("#tray-card").hidden = false;
      app.tray = t;
      fill($("#tray-dice"), (t.dice || []).map((d) => chip((d.value ?? "?") + (d.color ? " \u00B7 " + d.color : ""), d.value ? "" : "red")));
      if (!(t.dice || []).length) fill($("#tray-dice"), [el("span", { class: "dim" }, "No dice read yet.")]);
      $("#tray-at").textContent = t.at ? "read at " + new Date(t.at * 1000).toTimeString().slice(0, 5) : "";
      $("#tray-error").hidden = !t.error;
      $("#tray-error").textContent = t.error || "";
      const img = $("#tray-photo");
      img.hidden = !t.photo;
      if (t.photo) img.src = "/api/tray/photo?t=" + Date.now();
    } catch (e) { /* no tray */ }
  }

  // ---- the Ghost Hour -----------------------------------------------------------------------------
  function chime() {
    if (localStorage.getItem("muted") === "1") return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      const ctx = app.audio || (app.audio = new Ctx());
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      const t0 = ctx.currentTime;
      [392, 330, 262, 196].forEach((f, i) => {
        const o = ctx.createOscillator(), g = ctx.createGain();
        o.type = "sine"; o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, t0 + i * 0.6);
        g.gain.exponentialRampToValueAtTime(0.4, t0 + i * 0.6 + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, t0 + i * 0.6 + 1.5);
        o.connect(g).connect(ctx.destination);
        o.start(t0 + i * 0.6); o.stop(t0 + i * 0.6 + 1.6);
      });
    } catch (e) { /* audio not allowed yet */ }
  }

  function ghostHour(ev) {
    $("#banner-room").textContent = ev.room ? "The ghost appears in room " + ev.room + roomName(ev.room, ev.room_name) : "";
    const eff = app.lastEnv && app.lastEnv.name === ev.environment && app.lastEnv.effect ? ": " + app.lastEnv.effect : "";
    $("#banner-env").textContent = ev.environment ? "Environment: " + ev.environment + eff : "";
    const b = $("#banner");
    b.hidden = false;
    b.dataset.eventId = ev.id;
    app.bannerAt = performance.now();
    const ua = navigator.userActivation;
    if (navigator.vibrate && (!ua || ua.hasBeenActive)) navigator.vibrate([400, 150, 400, 150, 800]);
    chime();
  }

  function onGameEvent(ev) {
    if (ev.type === "rolled") {
      app.lastRoll = ev.faces || null;
      const a = app.state && app.state.attempt;
      app.lastResult = { what: a ? attemptName(a) : (ACTION_NAME[ev.action] || ev.action || "roll"), faces: ev.faces || [], success: !!ev.success };
      toast("Rolled " + (ev.faces || []).join(", ") + (ev.success ? ": success!" : ev.kept && ev.kept.length ? ": kept " + ev.kept.join(", ") : ": nothing counts"));
    } else if (ev.type === "attempt_started") { app.lastRoll = null; app.lastResult = null; }
    else if (ev.type === "attempt_ended") app.lastRoll = null;
    else if (ev.type === "set_proven") {
      const t = $("#toast");
      toast((!t.hidden && t.textContent.startsWith("Rolled") ? t.textContent + " " : "") + "Set " + ev.index + " proven!");
    }
    else if (ev.type === "summon" || ev.type === "pull") {
      const moveNow = ev.success && isHost();
      toast((ev.type === "summon" ? "Summon " : "Pull ") + (ev.success ? "succeeded" : "failed") + (ev.faces ? " (" + ev.faces.join(", ") + ")" : "") + (moveNow ? ": tap the room on the map to move the ghost." : ev.type === "pull" ? ": the ghost is gone." : "."), !ev.success);
      if (moveNow) showView("game");
    }
    if (ev.type === "environment_drawn") app.lastEnv = ev;
    else if (ev.type === "ghost_appeared" && ev.reason !== "ghost_hour" && !isHost()) toast("The ghost appears in room " + ev.room + roomName(ev.room, ev.room_name) + " (" + (REASON[ev.reason] || ev.reason) + ").");
    if (ev.type === "ghost_hour") ghostHour(ev);
    else if (ev.type === "undone") {
      const ids = JSON.stringify(ev);
      if (!$("#banner").hidden && ids.includes("ghost_hour")) $("#banner").hidden = true;
      toast("Undone: " + (ev.text || (ev.command && ev.command.name) || "last command"));
    } else if (ev.type === "game_won") toast("The ghost is proven. You won!");
    else if (ev.type === "game_lost") toast("Lost: " + (ev.reason || "time ran out"), true);
  }

  // ---- live updates -------------------------------------------------------------------------------
  function setConn(ok) { $("#conn").className = "conn " + (ok ? "on" : "off"); $("#conn-label").hidden = ok; }

  function connect() {
    if (app.es) app.es.close();
    const q = app.lastId !== null && app.lastId !== undefined ? "?last_event_id=" + app.lastId : "";
    const es = new EventSource("/api/events" + q);
    app.es = es;
    es.onopen = () => { setConn(true); app.lastMsg = Date.now(); };
    es.addEventListener("state", (m) => { app.lastMsg = Date.now(); render(JSON.parse(m.data)); });
    es.addEventListener("game", (m) => { app.lastMsg = Date.now(); onGameEvent(JSON.parse(m.data)); });
    es.addEventListener("nogame", () => { app.lastMsg = Date.now(); $("#nogame").hidden = false; });
    es.onerror = () => {
      setConn(false);
      if (es.readyState === EventSource.CLOSED) setTimeout(() => { if (app.es === es) connect(); }, 3000);
    };
  }

  async function poll() {
    try {
      const s = await api("/api/state");
      render(s);
      app.lastMsg = Date.now();
    } catch (e) { if (e.status === 409) $("#nogame").hidden = false; }
  }

  function watchdog() {
    const quiet = (app.session && app.session.poll_after ? app.session.poll_after : 20) * 1000;
    if (Date.now() - app.lastMsg > quiet) poll();
    if (app.es && app.es.readyState === EventSource.CLOSED) connect();
  }

  // ---- screen wake lock and install --------------------------------------------------------------
  async function keepAwake() {
    const body = document.body;
    if (!("wakeLock" in navigator)) { body.dataset.wake = "unsupported"; return; }
    if (document.visibilityState !== "visible") return;
    try {
      app.wake = await navigator.wakeLock.request("screen");
      body.dataset.wake = "held";
      app.wake.addEventListener("release", () => { body.dataset.wake = "released"; });
    } catch (e) { app.wake = null; body.dataset.wake = "refused"; }
  }

  // ---- host controls ----------------------------------------------------------------------------
  const isHost = () => !!(app.session && app.session.host);

  function showHost() {
    const s = app.session;
    const host = !!(s && s.host);
    $$(".host-only").forEach((n) => { n.hidden = !host; });
    $("#pin-title").textContent = host ? "Host" : s.pin_set ? "Host sign-in" : "Choose the host PIN";
    $("#pin-help").textContent = host ? "You are the host: your taps change the game for everyone." :
      s.pin_set ? "Only the host may change the game. Enter the host PIN." : "First start: choose a PIN of 4-12 digits. Whoever knows it may run the game.";
    $("#pin-form").hidden = host;
    $("#pin-btn").textContent = s.pin_set ? "Sign in" : "Set PIN";
    $("#join-info").textContent = host && s.join_url ? "Players join with code " + s.join_code + " or the link " + s.join_url : "";
    document.body.classList.toggle("is-host", host);
    if (app.state) { const st = app.state; app.state = null; render(st); }
  }

  async function refreshSession() {
    app.session = await api("/api/session");
    showHost();
  }

  // Physical decks: a command that draws cards was refused for want of them; open the form to enter them.
  function openPhysical(name) {
    const f = $("#physical-form");
    if ([...f.command.options].some((o) => o.value === name)) f.command.value = name;
    showView("host");
    $("#physical-card").scrollIntoView({ block: "start" });
    f.room.focus({ preventScroll: true });
  }

  // A short line for the host after a command, so a tap on the Host tab is never silent.
  const SAY = {
    clock_advanced: (e) => "Clock to " + e.clock, timer_added: (e) => "Timer " + e.timers + "/3", timers_reset: () => "Third timer: tokens discarded",
    clue_revealed: (e) => "Clue " + e.count + "/7 revealed", clue_solved: (e) => "Clue solved: " + e.summon_dice + (e.summon_dice === 1 ? " summon die" : " summon dice"),
    evidence_flipped: (e) => "flipped " + ((app.names && app.names[e.symbol]) || e.symbol) + (e.matched ? " (matches a séance symbol)" : ""),
    ghost_mode_started: () => "Ghost Mode!", seance_declared: () => "Séance declared", seance_started: () => "Séance under way",
    ghost_appeared: (e) => "Ghost in room " + e.room, ghost_moved: (e) => "Ghost moved to room " + e.to, ghost_disappeared: () => "The ghost is gone",
    room_discarded_unseen: () => "A room card was discarded unseen", turn_started: (e) => "Player " + (e.player + 1) + "'s turn",
    door_unlocked: (e) => "Door " + (e.door || "") + " unlocked", environment_ended: (e) => (e.name || e.card || "Environment card") + " ended",
    final_round: () => "Final round!", attempt_started: (e) => "Roll under way: " + attemptName(e) + " needs " + needText(e.need), game_won: () => "Won!", game_lost: () => "Lost",
  };
  async function command(name, args) {
    app.lastError = "";
    const out = await act("/api/command", { command: name, args: args || {} });
    if (!out && app.state && app.state.physical && /physical deck mode/.test(app.lastError || "")) openPhysical(name);
    if (out && Array.isArray(out.events)) {
      const said = out.events.map((e) => SAY[e.type] && SAY[e.type](e)).filter(Boolean);
      const quiet = out.events.some((e) => ["rolled", "summon", "pull", "set_proven", "ghost_hour"].includes(e.type));
      if (!quiet) toast(said.length ? said.join(" \u00B7 ") : "Done: " + name);
    }
    return out;
  }

  function parseText(text) {
    const parts = text.trim().split(/\s+/);
    const args = {};
    for (const p of parts.slice(1)) {
      const i = p.indexOf("=");
      if (i > 0) args[p.slice(0, i)] = p.slice(i + 1); else args[p] = "true";
    }
    return { command: parts[0], args };
  }

  function formObj(form) {
    const d = {};
    for (const [k, v] of new FormData(form).entries()) d[k] = v;
    return d;
  }

  // Summon and pull: the companion rolls the team's summon dice (one per solved clue).
  const rollFor = (kind) => act("/api/roll", { command: kind });

  function bindHost() {
    $$("[data-cmd]").forEach((b) => b.addEventListener("click", () => command(b.dataset.cmd, b.dataset.args ? JSON.parse(b.dataset.args) : {})));
    $$("[data-roll]").forEach((b) => b.addEventListener("click", () => rollFor(b.dataset.roll)));
    const undo = () => act("/api/undo", {});
    $("#undo-host").addEventListener("click", undo);
    $("#undo-btn").addEventListener("click", undo);
    $("#pin-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const pin = e.target.pin.value;
      const path = app.session.pin_set ? "/api/host/login" : "/api/host/pin";
      const ok = await act(path, { pin });
      e.target.reset();
      if (ok) { await refreshSession(); toast("Signed in as host."); }
    });
    $("#physical-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const f = formObj(e.target);
      const args = f.command === "summon" ? { success: "true" } : {};
      for (const k of ["room", "environment", "evidence"]) if (f[k]) args[k] = f[k];
      const form = e.target;
      command(f.command, args).then((ok) => { if (ok) { form.room.value = ""; form.environment.value = ""; form.evidence.value = ""; } });
    });
    $("#logout").addEventListener("click", async () => { if (await act("/api/host/logout", {})) { await refreshSession(); toast("Signed out."); } });
    $("#move-form").addEventListener("submit", (e) => { e.preventDefault(); command("move-ghost", { to: e.target.to.value }); });
    $("#ghostat-form").addEventListener("submit", (e) => { e.preventDefault(); command("ghost-at", { room: e.target.room.value.trim() }); });
    $("#prove-form").addEventListener("submit", (e) => { e.preventDefault(); command("prove", { set: e.target.set.value }); });
    $("#cmd-form").addEventListener("submit", (e) => { e.preventDefault(); const c = parseText(e.target.text.value); command(c.command, c.args); });
    $("#attempt-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const f = formObj(e.target);
      const args = { action: f.action, dice: f.dice };
      if (f.need.trim()) args.need = f.need.trim();
      if (f.set) args.set = f.set;
      if (f.door && f.door.trim()) args.door = f.door.trim();
      if (f.timer) args.timer = "true";
      if (f.disruption) args.disruption = "true";
      command("attempt", args).then((ok) => { if (ok) showView("dice"); });
    });
    $("#roll-btn").addEventListener("click", () => act("/api/roll", {}));
    $("#roll-now").addEventListener("click", () => act("/api/roll", {}));
    $$("[data-quick]").forEach((b) => b.addEventListener("click", () => (b.dataset.quick === "undo" ? undo() : command(b.dataset.quick))));
    $("#new-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = formObj(e.target);
      const s = app.state;
      const running = s && !s.outcome && s.history_length > 0;
      if (running && !confirm("Leave the game under way and start a new one?")) return;
      await act("/api/new-game", { players: Number(f.players), board: f.board, ghost: f.ghost, special_items: Number(f.special_items), physical: !!f.physical, confirm: running }, "New game started.");
    });
    const pad = $("#face-pad");
    for (const f of FACES) {
      const b = el("button", { type: "button", "data-face": f }, (ICON[f] || "") + " " + f);
      b.addEventListener("click", () => { app.dice.push(f); showDice(); });
      pad.append(b);
    }
    $("#dice-clear").addEventListener("click", () => { app.dice = []; showDice(); });
    const df = $("#dice-form");
    df.command.addEventListener("change", padHint);
    df.replace.addEventListener("change", padHint);
    $("#tray-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const pips = ((app.tray && app.tray.dice) || []).map((d) => d.value);
      if (!pips.length || pips.some((p) => !p)) { toast("A die was not read; enter the dice by hand.", true); return; }
      const f = formObj(e.target);
      const cmd = f.kind === "summon" ? "summon" : "roll";
      act("/api/dice", { pips, kind: f.kind, command: cmd, replace: !!f.replace }, "Dice sent.");
    });
    $("#dice-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!app.dice.length) { toast("Tap the faces the dice show first.", true); return; }
      const f = formObj(e.target);
      const body = { faces: app.dice, command: f.command, replace: !!f.replace };
      if (f.command === "roll" && f.keep) body.keep = f.keep === "none" ? "none" : app.dice.filter((x) => x === f.keep);
      const ok = await act("/api/dice", body, "Dice entered.");
      if (ok) { app.dice = []; showDice(); }
    });
  }

  // How many faces the host must tap, and of which die: the roll under way, the last roll to correct, or the summon dice.
  function padWants() {
    const s = app.state || {};
    const f = $("#dice-form");
    const cmd = f.command.value;
    const replace = f.replace.checked;
    const kind = cmd === "roll" ? kindOf(s.attempt && s.attempt.need) : "summon";
    let count = null, why = "";
    const last = (app.historyItems || [])[(app.historyItems || []).length - 1];
    if (replace) {
      if (last && last.command && last.command.name === cmd && last.command.args && last.command.args.faces) {
        count = String(last.command.args.faces).split(",").length;
        why = "to correct the last " + cmd + " (" + last.command.args.faces.replace(/,/g, ", ") + ")";
      } else why = "the last command is not a " + cmd + ": nothing to correct";
    } else if (cmd === "roll") {
      const a = s.attempt;
      if (!a || a.succeeded) why = "no roll is under way: start an attempt first (Host tab, or Ghost tab for an icon set)";
      else { count = a.dice_to_roll ?? a.dice; why = "for the roll under way"; }
    } else {
      count = s.summon_dice || 0;
      why = count ? "one per summon die the team holds" : "the team has no summon die yet";
    }
    return { kind, count, why };
  }

  function padHint() {
    if (!$("#pad-hint")) return;
    const w = padWants();
    $("#pad-hint").textContent = w.count ? "Tap " + w.count + " " + w.kind + (w.count === 1 ? " die" : " dice") + " " + w.why + "." : w.why ? w.why.charAt(0).toUpperCase() + w.why.slice(1) + "." : "";
    const faces = KIND_FACES[w.kind] || FACES;
    $$("#face-pad button").forEach((b) => { b.hidden = !faces.includes(b.dataset.face); });
    showDice();
  }

  // The player may keep fewer dice than count (the rulebook's choice): every die that counts, none, or one face only.
  function keepOptions() {
    const f = $("#dice-form");
    if (!f || !f.keep) return;
    const a = app.state && app.state.attempt;
    const counting = a ? Object.fromEntries(missingOf(a).split(",").filter(Boolean).map((p) => p.split(":"))) : {};
    const faces = [...new Set(app.dice)].filter((x) => counting[x]);
    const show = f.command.value === "roll" && !!a && !a.disruption && app.dice.length > 0;
    $("#keep-row").hidden = !show;
    const was = f.keep.value;
    const opts = [el("option", { value: "" }, "every die that counts"), el("option", { value: "none" }, "none (reroll them all)")]
      .concat(faces.length > 1 ? faces.map((x) => el("option", { value: x }, "only the " + x + " dice")) : []);
    fill(f.keep, opts);
    if ([...f.keep.options].some((o) => o.value === was)) f.keep.value = was;
  }

  function showDice() {
    fill($("#dice-entered"), app.dice.map((f) => chip((ICON[f] || "") + " " + f)));
    keepOptions();
    const w = $("#dice-form") ? padWants() : { count: null };
    const n = $("#dice-count");
    if (n) { n.textContent = w.count ? app.dice.length + " of " + w.count : ""; n.className = "note" + (w.count && app.dice.length > w.count ? " warn" : ""); }
  }

  async function loadSetupOptions() {
    try {
      const o = await api("/api/setup-options");
      fill($("#new-form").board, (o.boards || []).map((b) => el("option", { value: b.id }, b.name)));
      fill($("#new-form").ghost, (o.ghosts || []).map((g) => el("option", { value: g.id }, g.name)));
      const none = () => el("option", { value: "" }, "none");
      app.names = {};
      for (const c of o.evidence || []) app.names[c.id] = c.name;
      if (app.state) { const s = app.state; app.state = null; render(s); }
      fill($("#physical-form").environment, [none()].concat((o.environment || []).map((c) => el("option", { value: c.id }, c.name))));
      fill($("#physical-form").evidence, [none()].concat((o.evidence || []).map((c) => el("option", { value: c.id }, c.name))));
    } catch (e) { /* filled on the next visit */ }
  }

  // ---- start --------------------------------------------------------------------------------------
  function showView(name) {
    const cur = $$(".view").find((v) => !v.hidden);
    if (cur) app.scroll[cur.id] = window.scrollY;
    $$(".view").forEach((v) => { v.hidden = v.id !== "v-" + name; });
    window.scrollTo(0, app.scroll["v-" + name] || 0);
    $$("#tabs button").forEach((b) => b.classList.toggle("on", b.dataset.view === name));
    if (name === "dice") loadTray();
  }

  async function start() {
    $$("#tabs button").forEach((b) => b.addEventListener("click", () => showView(b.dataset.view)));
    $("#banner-ok").addEventListener("click", () => { $("#banner").hidden = true; });
    $("#g-attempt").addEventListener("click", () => showView("dice"));
    // Build an icon set with taps instead of typing "eye:2,camera:1" on a phone keyboard.
    $$(".needpad button").forEach((b) => b.addEventListener("click", () => {
      const input = document.getElementById(b.parentNode.dataset.for).need;
      const counts = {};
      for (const part of input.value.split(",").map((x) => x.trim()).filter(Boolean)) { const [k, n] = part.split(":"); counts[k] = (counts[k] || 0) + Number(n || 1); }
      if (!b.dataset.add) { input.value = ""; return; }
      counts[b.dataset.add] = (counts[b.dataset.add] || 0) + 1;
      input.value = Object.entries(counts).map(([k, n]) => k + ":" + n).join(",");
    }));
    $("#end-new").addEventListener("click", () => { showView("host"); $("#new-form").scrollIntoView({ block: "start" }); });
    $("#banner").addEventListener("click", (e) => { if (e.target === $("#banner") || e.target.closest(".banner-in")) $("#banner").hidden = true; });
    const mute = $("#mute");
    const showMute = () => { const m = localStorage.getItem("muted") === "1"; mute.setAttribute("aria-pressed", String(m)); mute.textContent = m ? "Sound off" : "Sound on"; };
    mute.addEventListener("click", () => { localStorage.setItem("muted", localStorage.getItem("muted") === "1" ? "0" : "1"); showMute(); });
    showMute();
    $("#odds-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = formObj(e.target);
      const q = new URLSearchParams({ need: f.need, dice: f.dice, rolls: f.rolls, keep: f.disruption ? "false" : "true" });
      try { const o = await api("/api/odds?" + q); $("#odds-out").textContent = pct(o.probability); } catch (err) { if (err.status) toast(err.message, true); }
    });
    // Audio may only start after a tap: warm it up on the first one.
    document.addEventListener("pointerdown", () => {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (Ctx && !app.audio) { try { app.audio = new Ctx(); } catch (e) { /* no audio */ } }
    }, { once: true });
    // No companion (the phone opened the page from its cache, or the Wi-Fi is another one): say so, never show
    // the page's placeholder clock as if it were the game, and keep trying.
    for (;;) {
      try { await refreshSession(); break; } catch (e) {
        $("#offline").hidden = false;
        $$(".view").forEach((v) => { v.hidden = true; });
        setConn(false);
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
    if (!$("#offline").hidden) { $("#offline").hidden = true; showView("game"); }
    if (!app.session.viewer) {
      $("#join").hidden = false;
      $$(".view").forEach((v) => { v.hidden = true; });
      $("#tabs").hidden = true;
      return;
    }
    bindHost();
    loadSetupOptions();
    connect();
    setInterval(watchdog, 5000);
    if (app.session.hardware) setInterval(loadHardware, 10000);
    keepAwake();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") { keepAwake(); poll(); if (!app.es || app.es.readyState === EventSource.CLOSED) connect(); }
    });
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
