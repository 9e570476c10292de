// The Skeptics companion page: live state over Server-Sent Events; the host plays by tapping what is legal now.
// No framework, no build step; every request goes to the companion itself. Every sentence a player reads comes
// from the companion (companion/sentences.py): events carry "text" and "story", refusals carry "say".
"use strict";
(() => {
  const $ = (s) => document.querySelector(s);
  const $$ = (s) => Array.from(document.querySelectorAll(s));
  const SVG = "http://www.w3.org/2000/svg";
  // the hand's angle at each hour it can stand on (Among Cultists' round clock uses the hours between the marks)
  const HANDS = { XII: 0, I: 30, II: 60, III: 90, IV: 120, V: 150, VI: 180, VII: 210, VIII: 240, IX: 270 };
  // Plain text marks (no emoji: a phone without an emoji font would show empty boxes).
  const ICON = { eye: "\u25C9", camera: "\u25A3", cobweb: "\u2736", key: "\u2625", summon: "\u2620", blank: "\u25A1", timer: "", disruption: "" };
  const REASON = { ghost_hour: "appeared at the Ghost Hour", summon: "summoned", ghost_mode: "Ghost Mode", seance: "called by the séance", manual: "placed by the host" };
  const LASTS = { instant: "played at once", hour: "lasts until the next Ghost Hour", until_met: "lasts until its objective is met", once: "played at once" };
  const KIND_FACES = { clue: ["eye", "camera", "cobweb"], key: ["key", "blank"], summon: ["summon", "blank"] };
  const DIE_OF = { search: "clue", solve: "clue", prove: "clue", barrier: "clue", fire: "clue", unlock: "key" };
  const app = { session: null, state: null, board: null, boardId: null, es: null, lastMsg: 0, lastId: null, scroll: {}, audio: null, wake: null, told: new Set(), pick: null, history: [] };

  const el = (tag, attrs, text) => {
    const n = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const k in attrs || {}) n.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  };
  const fill = (node, items) => { node.replaceChildren(...items); };
  const chip = (text, cls) => el("span", { class: "chip " + (cls || "") }, text);
  const pct = (p) => (Math.round(p * 1000) / 10).toFixed(1) + " %";
  const plural = (n, one, many) => n + " " + (n === 1 ? one : (many || one + "s"));
  const isHost = () => !!(app.session && app.session.host);
  const ghostOn = (s) => s && s.ghost_room !== null && s.ghost_room !== undefined;
  const playerName = (s, i) => ((s && s.player_names) || [])[i] || "Player " + (Number(i) + 1);

  function toast(msg, bad) {
    if (!msg) return;
    const t = $("#toast");
    t.textContent = msg;
    // over an open sheet the message goes to the top, so it never covers the field it is about
    t.className = (bad ? "bad" : "") + ($("#sheet").hidden ? "" : " top");
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, bad ? 7000 : Math.min(9000, 2500 + msg.length * 45));
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
      const err = new Error(data.say || data.error || ("The companion answered " + res.status + "."));
      err.status = res.status;
      err.needs = data.needs || null;
      err.faces = data.faces || null;
      err.whys = data.needs_why || null;
      throw err;
    }
    return data;
  }

  // A host action: send it, show its result in words (the same story every phone gets), or the refusal.
  async function act(path, body) {
    try {
      const out = await api(path, body);
      if (out && out.state) render(out.state);
      if (out && Array.isArray(out.events)) tell(out.events);
      return out;
    } catch (e) {
      if (e.needs && body) return askCards(path, body, e.needs, e.faces, e.whys);
      if (e.status) toast(capital(e.message), true);
      return null;
    }
  }
  const capital = (t) => (t ? t.charAt(0).toUpperCase() + t.slice(1) : t);
  const command = (name, args) => act("/api/command", { command: name, args: args || {} });

  // ---- rendering ----------------------------------------------------------------------------
  function fresher(s) {
    const cur = app.state;
    if (!cur) return true;
    if (s.game_id !== cur.game_id) return true;
    return (s.last_event_id ?? -1) >= (cur.last_event_id ?? -1);
  }

  function render(s) {
    if (!s || !fresher(s)) return;
    const changedGame = !app.state || app.state.game_id !== s.game_id;
    app.state = s;
    const none = s.game_id === null || s.game_id === undefined;
    $("#nogame").hidden = !none;
    $("#nogame-text").textContent = isHost() ? "Start a game: choose the players, the board and the ghost." : "The host starts a game; this page follows by itself.";
    $$("#v-game > .card:not(#demo-note)").forEach((c) => { if (none) c.dataset.nogame = "1"; else delete c.dataset.nogame; });
    document.body.classList.toggle("no-game", none);
    if (none) { renderHostPanels(); return; }
    if (s.last_event_id !== null && s.last_event_id !== undefined) app.lastId = s.last_event_id;
    const other = isES(s) || isAC(s) || isSP(s);
    document.body.classList.toggle("es", isES(s));
    document.body.classList.toggle("ac", isAC(s));
    document.body.classList.toggle("sp", isSP(s));
    document.body.classList.toggle("other", other);
    $("#title").textContent = s.rules_title || "Skeptics";
    $("#clock-label").textContent = isAC(s) ? (s.phase === "night" ? "Night" : s.phase === "over" ? "Game over" : (AC_PHASES.find((p) => p[0] === s.phase) || [0, s.phase])[1]) : s.clock || "";
    $("#hand").setAttribute("transform", "rotate(" + (HANDS[s.clock] || 0) + ")");
    const live = !!app.rendered;
    app.rendered = true;
    playNarration(s, live);
    if (other) {
      $("#demo-note").hidden = true;
      if (isES(s)) renderES(s);
      if (isAC(s)) renderAC(s);
      if (isSP(s)) renderSP(s);
      renderEnd(s);
      renderUndo(s);
      renderHostPanels();
      if ((s.history_length ?? 0) !== app.historyLength || s.last_event_id !== app.historyEvent || changedGame) {
        app.historyLength = s.history_length; app.historyEvent = s.last_event_id; loadHistory();
      }
      return;
    }
    $("#demo-note").hidden = !(s.name && /^demo/i.test(s.name));
    $("#demo-note").textContent = "This is a demo game, so there is something to look at while the companion runs as a simulation. The host starts a real one on the Host tab.";
    $("#clock-label").textContent = s.clock;
    $("#hand").setAttribute("transform", "rotate(" + (HANDS[s.clock] || 0) + ")");
    $("#round").textContent = s.round;
    $("#hour").textContent = s.hour;
    $("#player").textContent = playerName(s, s.current_player ?? 0);
    $("#actions").textContent = s.actions_left ?? "–";
    $("#actions-word").textContent = s.actions_left === 1 ? "action" : "actions";
    $("#ghost-line").textContent = ghostOn(s) ? "The ghost is in " + roomWords(s.ghost_room, s.ghost_room_name) + (REASON[s.ghost_reason] ? " (" + REASON[s.ghost_reason] + ")" : "") + "." : "The ghost is not on the board.";
    const out = $("#outcome");
    out.hidden = !s.outcome;
    out.textContent = s.outcome ? (s.outcome === "won" ? "Won!" : "Lost.") : "";
    out.className = "outcome " + (s.outcome || "");
    renderGlance(s);
    renderEnd(s);

    fill($("#env"), (s.environment || []).map((c) => {
      const li = el("li");
      const unfilled = /^placeholder/i.test(c.effect || "");
      li.append(el("b", {}, c.name), el("div", { class: unfilled ? "warn" : "note" }, unfilled ? "Not filled in yet: read the effect from your card." : c.effect || ""), el("div", { class: "dim" }, LASTS[c.duration] || ""));
      if (c.fires && s.fires) li.append(el("div", { class: "warn", id: "fires-left" }, plural(s.fires, "fire") + " still " + (s.fires === 1 ? "burns" : "burn") + ": a cobweb on three clue dice puts one out."));
      const barrier = (s.barriers || []).find((x) => x.card === c.id);
      if (barrier) li.append(el("div", { class: "note" }, "Icon sets to roll: " + barrier.sets.map((x) => (x.done ? "\u2714 " : "") + x.text).join(" · ") + "."));
      if (c.actions) li.append(el("div", { class: "warn" }, "Each turn: " + plural(c.actions, "action") + " other than moves (" + (s.other_actions_used || 0) + " used this turn)."));
      if (c.placeholder && isHost()) li.append(button("Fill it in from the card", () => fillIn("environment", c.id), "small", "fill-env-" + c.id));
      const legal = legalOf(s, "discard-environment").find((a) => a.args.card === c.id);
      if (legal && isHost()) {
        const b = el("button", { type: "button", class: "small", "data-discard": c.id }, "Met: discard it");
        b.addEventListener("click", () => command("discard-environment", { card: c.id }));
        li.append(b);
      }
      return li;
    }));
    if (!(s.environment || []).length) fill($("#env"), [el("li", { class: "dim" }, "No environment card in force.")]);
    $("#deck-left").textContent = s.room_deck_left;
    $("#final-round").hidden = !s.final_round || !!s.outcome;
    const reds = new Set(s.red_markers || []);
    fill($("#rooms-drawn"), (s.rooms_revealed || []).map((r) => chip(r, reds.has(r) ? "red" : "")));
    if (!(s.rooms_revealed || []).length) fill($("#rooms-drawn"), [el("span", { class: "dim" }, "none yet")]);
    $("#unseen-discards").textContent = s.room_cards_discarded_unseen ?? 0;
    fill($("#rooms-unseen"), (s.rooms_unseen || []).map((r) => chip(r)));
    $("#removed-count").textContent = s.room_cards_removed ?? 0;
    $("#unseen-note").hidden = !s.room_cards_removed || !!s.outcome;

    renderGhost(s);
    renderHands(s);
    renderAttempt(s);
    renderTurn(s);
    renderUndo(s);
    renderHostPanels();
    renderMap();
    if (s.board && s.board !== app.boardId) loadBoard(s.board);
    if (changedGame) { loadChecklist(); }
    // The log follows every change (a corrected roll keeps the length but changes the last entry).
    if ((s.history_length ?? 0) !== app.historyLength || s.last_event_id !== app.historyEvent || changedGame) {
      app.historyLength = s.history_length; app.historyEvent = s.last_event_id; loadHistory();
    }
    if (app.session && app.session.hardware) { loadHardware(); clearTimeout(app.hwLater); app.hwLater = setTimeout(loadHardware, 2000); } // the hand takes a moment to turn
    if (app.session && app.session.tray && !$("#v-dice").hidden) loadTray();
  }

  function renderGhost(s) {
    const ghost = s.ghost || {};
    $("#ghost-name").textContent = ghost.name || "Ghost";
    $("#ghost-diff").textContent = ghost.difficulty !== undefined ? "Difficulty " + ghost.difficulty : "";
    const filled = (t) => t && !/^placeholder/i.test(t);
    $("#ghost-standin").hidden = !ghost.placeholder;
    $("#ghost-fill").hidden = !(ghost.placeholder && isHost());
    $("#ghost-standin").textContent = "This ghost card is not filled in yet, so the icon sets below are stand-ins: play by your card, and the host fills it in under Host, Your box.";
    $("#ghost-ability").textContent = (filled(ghost.ability) ? "Ghost Hour ability: " + ghost.ability + " " : "") + (filled(ghost.lingering) ? "Lingering effect: " + ghost.lingering : "") ||
      "This ghost card is not filled in yet: read its ability and lingering effect from your card.";
    const proveActs = legalOf(s, "attempt").filter((a) => a.args.action === "prove");
    fill($("#icon-sets"), (s.icon_sets || []).map((set) => {
      const li = el("li", { class: "set" + (set.proven ? " proven" : "") });
      const what = el("span", { class: "set-what" });
      what.append(el("b", {}, (set.proven ? "\u2714 " : "") + "Set " + set.index + ": "), needChips(set.need));
      li.append(what);
      const legal = proveActs.find((a) => a.args.set === String(set.index));
      if (set.proven) li.append(el("span", { class: "note" }, "proven"));
      else if (legal && isHost()) {
        const b = el("button", { type: "button", class: "try-set", "data-set": set.index, "aria-label": "Try to prove set " + set.index }, "Prove\u2026");
        b.addEventListener("click", () => runLegal(legal));
        li.append(b);
      }
      return li;
    }));
    const first = ghost.first_sets ? (ghost.first_sets === 1 ? "set 1" : "sets 1 to " + ghost.first_sets) : "";
    $("#sets-note").textContent = (first ? "The lingering effect: " + first + " (the top row) must be proven before any other. " : "") +
      (s.outcome ? "" : !ghostOn(s) ? "A set can be proven only while the ghost is on the board." : isHost() ? "Tap Prove\u2026 to start the roll for a set." : "");
    const standIn = (x) => (app.evStandIn && app.evStandIn.has(x) ? " (not filled in yet)" : "");
    const sym = (x) => ((app.names && app.names[x]) || x) + standIn(x);
    fill($("#evidence"), (s.evidence || []).map((e) => chip((e.name || sym(e.symbol)) + (e.name ? standIn(e.symbol) : ""), e.matched ? "ok" : "")));
    if (!(s.evidence || []).length) fill($("#evidence"), [el("span", { class: "dim" }, "No evidence flipped yet.")]);
    fill($("#seance"), (s.seance_symbols || []).map((x) => chip(sym(x))));
    $("#seance-state").textContent = s.seance_active ? "The séance is under way: the ghost is at the first player's space this round." : s.seance_declared ? "The séance is declared: at the end of this round the ghost comes to the first player's space." :
      s.seance_used ? "The séance has been held." : s.seance_available ? "Every symbol is matched: the host may declare the séance." : "Match every séance symbol with the evidence to hold a séance.";
    $("#summon-dice").textContent = s.summon_dice;
    $("#summon-odds").textContent = typeof s.summon_odds === "number" ? "(a summon or pull succeeds " + pct(s.summon_odds) + ")" : "";
    $("#timers").textContent = s.timers;
    $("#clues-revealed").textContent = s.clues_revealed;
    $("#clues-solved").textContent = s.clues_solved;
    $("#mode").textContent = (s.ghost_mode ? "Ghost Mode: the ghost appears every quarter hour, and no one can summon it. " : "") + (s.pull_pending ? "A pull is under way: the ghost may be moved up to two spaces." : "");
  }

  const itemWords = (it) => it.name + (it.dice ? " (+" + it.dice + " on " + it.actions.join(", ") + ")" : "");
  function renderHands(s) {
    fill($("#hands"), (s.hands || []).map((h) => {
      const li = el("li", { class: "hand", id: "hand-" + h.player });
      const head = el("div", { class: "row" });
      head.append(el("b", { class: "grow" }, playerName(s, h.player)), el("span", { class: "note" }, h.glass ? "magnifying glass: " + plural(h.glass, "use") + " left" : "no magnifying glass"));
      const items = el("div", { class: "chips" });
      for (const it of h.items) {
        const c = chip(itemWords(it) + (it.placeholder ? " · not filled in yet" : ""));
        if (isHost()) { c.classList.add("tap"); c.addEventListener("click", () => confirmSheet("Drop the " + it.name + "?", "Dropping is not an action. Put its numbered item token where it was dropped.", "Drop it", () => command("drop", { item: it.id }))); }
        items.append(c);
      }
      if (!h.items.length) items.append(el("span", { class: "dim" }, "no items"));
      li.append(head, items);
      if (isHost()) li.append(button("Gets an item\u2026", () => askItem(s, h.player), "small", "hold-" + h.player));
      return li;
    }));
  }
  // A give or a pick-up action: which item changes hands, and who gets it, in the same action.
  function askHandOver(a) {
    const s = app.state;
    const give = a.args.kind === "give";
    const held = (s.hands || []).flatMap((h) => h.items.map((it) => ({ ...it, from: h.player })));
    const items = give ? held : (s.items_free || []);
    const who = selectIn("to", (s.hands || []).map((h) => [h.player + 1, playerName(s, h.player)]), give ? ((s.current_player + 1) % Math.max(1, (s.hands || []).length)) + 1 : s.current_player + 1);
    const send = async (args) => { closeSheet(); await command("action", args); };
    sheet(give ? "Give an item" : "Pick up an item", [
      field(give ? "Who gets it" : "Who picks it up", who),
      ...items.map((it) => button(itemWords(it) + (it.from !== undefined ? " · from " + playerName(s, it.from) : ""), () => send({ ...a.args, item: it.id, to: who.value }), "wide", "hand-" + it.id)),
      button(give ? "Another item, or an exchange (the companion is not told)" : "Something else (a special item, a dropped glass)", () => send(a.args), "wide", "hand-other"),
    ], null, null);
  }

  function askItem(s, player) {
    const others = (s.hands || []).filter((h) => h.player !== player).flatMap((h) => h.items.map((it) => ({ ...it, from: h.player })));
    const pick = async (id) => { closeSheet(); await command("hold", { item: id, player: String(player + 1) }); };
    const rows = (s.items_free || []).map((it) => button(itemWords(it) + (it.placeholder ? " · not filled in yet" : ""), () => pick(it.id), "wide", "item-" + it.id));
    const given = others.map((it) => button(itemWords(it) + " · from " + playerName(s, it.from), () => pick(it.id), "wide", "item-" + it.id));
    sheet(playerName(s, player) + " gets an item", [el("p", { class: "note" }, "From the Item deck after a search, or given by another player (the give or pick-up action is tapped in the turn panel).")].concat(rows, given), null, null);
  }

  function needChips(need) {
    const span = el("span", { class: "need" });
    for (const part of String(need || "").split(",").filter(Boolean)) {
      const [k, n] = part.split(":");
      span.append(chip((ICON[k] || "") + " " + k + (n && n !== "1" ? " \u00D7" + n : "")));
    }
    return span;
  }
  const needWords = (need) => {
    const parts = [], extra = [];
    for (const p of String(need || "").split(",").filter(Boolean)) {
      const [k, n] = p.split(":");
      if (k === "timer" || k === "disruption") { extra.push(k); continue; }
      const c = Number(n || 1);
      parts.push(c === 1 ? ("aeiou".includes(k[0]) ? "an " : "a ") + k : c + " " + k + "s");
    }
    const w = parts.length ? (parts.length === 1 ? parts[0] : parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1]) : "nothing yet";
    return w + (extra.length ? " (" + extra.map((x) => "a " + x + " set").join(" and ") + ")" : "");
  };

  function oddsOf(s) {
    const o = s.odds;
    if (o === null || o === undefined) return null;
    if (typeof o === "number") return o;
    return typeof o.probability === "number" ? o.probability : null;
  }
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
  const ACTION_NAME = { search: "Search", solve: "Solve a clue", prove: "Prove", unlock: "Unlock", barrier: "Break a barrier", fire: "Fight the fire" };
  const attemptName = (a) => (ACTION_NAME[a.action] || "Roll") + (a.set ? " icon set " + a.set : "") + (a.door ? " the door " + doorWords(a.door) : "");

  function renderAttempt(s) {
    const box = $("#attempt");
    const a = s.attempt;
    $("#attempt-host").hidden = !(a && !a.succeeded && isHost() && legalOf(s, "roll").length);
    if (!a) { box.textContent = app.lastRoll ? "No roll under way. Last: " + app.lastRoll : "No roll under way."; return; }
    const odds = oddsOf(s);
    const toRoll = a.dice_to_roll ?? Math.max(0, a.dice - (a.kept || []).length);
    const die = DIE_OF[a.action] || "clue";
    const rows = [
      el("div", { class: "attempt-title" }, playerName(s, s.current_player) + ": " + attemptName(a) + (a.disruption ? " (disruption: no dice may be kept)" : "")),
      el("div", {}, "Needs " + needWords(a.need) + "." + (a.counted ? " Dice: " + a.counted + "." : "")),
      el("div", { class: "note" }, "Kept: " + ((a.kept || []).join(", ") || "none") + (a.succeeded ? "" : " \u00B7 still needs " + needWords(missingOf(a)))),
    ];
    if (a.succeeded) rows.push(el("div", { class: "big ok", id: "odds-now" }, "Success!"));
    else {
      rows.push(el("div", {}, "Next roll: " + plural(toRoll, die + " die", die + " dice") + "."));
      const left = s.actions_left ?? 0;
      rows.push(el("div", { class: "big", id: "odds-now" }, odds === null ? "" : pct(odds)));
      rows.push(el("div", { class: "note", id: "odds-what" }, odds === null ? "" : left > 0 ? "chance to succeed with the " + plural(left, "action") + " left this turn" + (a.disruption ? " (no dice may be kept)" : " (keeping the best dice)") : "no action left this turn"));
    }
    for (const c of s.environment || []) if (c.effect && !/^placeholder/i.test(c.effect)) rows.push(el("div", { class: "note env-reminder" }, "In force: " + c.name + " \u2013 " + c.effect));
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
      ga.textContent = "Rolling: " + attemptName(a) + " \u2013 " + needWords(a.need) + (a.succeeded ? " \u00B7 success" : o === null ? "" : " \u00B7 " + pct(o)) + " \u203A";
    }
    const extra = [];
    if (!s.outcome) {
      if (s.ghost_mode) extra.push("Ghost Mode");
      if (s.final_round) extra.push("Final round: the last room card is drawn");
      if (s.pull_pending) extra.push("The ghost may be moved up to two spaces" + (isHost() ? ": tap a gold room on the map" : ""));
      if (s.seance_active) extra.push("Séance under way: the ghost is at the first player's space this round");
      else if (s.seance_declared) extra.push("Séance declared: at the end of this round the ghost comes to the first player's space");
    }
    const gr = $("#g-removed");
    gr.hidden = !extra.length;
    gr.textContent = extra.join(" \u00B7 ");
  }

  function renderEnd(s) {
    const end = $("#end-card");
    end.hidden = !s.outcome;
    end.className = "card endcard " + (s.outcome || "");
    if (!s.outcome) return;
    const sum = s.summary || {};
    $("#end-title").textContent = sum.title || (s.outcome === "won" ? "You won!" : "You lost.");
    $("#end-reason").textContent = sum.why || sum.text || "";
    fill($("#end-lines"), (sum.lines || []).map((t) => el("li", {}, t)));
    $("#end-new").hidden = !isHost();
  }

  // "room 8, the Bath"; "room 8" while the pack names it only by its number; "the Entrance".
  function roomWords(n, known) {
    const b = app.board;
    const r = b && (b.spaces || []).find((x) => Number(x.number) === Number(n));
    const name = known || (r && r.name) || "";
    if (Number(n) === 0) return "the " + (name || "Entrance");
    return "room " + n + (name && !/^(room\s*)?\d+$/i.test(name.trim()) ? ", the " + name : "");
  }
  const doorWords = (key) => { const [a, b] = String(key).split("-"); return "between " + roomWords(a) + " and " + roomWords(b); };

  // ---- what the host may do now (the engine's legal actions) -------------------------------------
  const legalOf = (s, name) => ((s && s.legal) || []).filter((a) => a.name === name);

  function actButton(a, label, cls) {
    const b = el("button", { type: "button", class: cls || "", "data-legal": a.name + (a.args.action ? ":" + a.args.action : "") }, label || a.label);
    b.addEventListener("click", () => runLegal(a));
    return b;
  }

  function renderTurn(s) {
    const card = $("#turn-card");
    const show = isHost() && !s.outcome;
    card.hidden = !show;
    if (!show) return;
    $("#turn-title").textContent = playerName(s, s.current_player) + "'s turn \u00B7 " + plural(s.actions_left ?? 0, "action") + " left";
    const legal = s.legal || [];
    const rollBox = $("#turn-roll");
    const rolls = legal.filter((a) => a.name === "roll");
    if (rolls.length && s.attempt) {
      fill(rollBox, [el("div", { class: "attempt-title" }, attemptName(s.attempt) + ": needs " + needWords(missingOf(s.attempt)) + (oddsOf(s) !== null ? " \u00B7 " + pct(oddsOf(s)) : "")),
        rowOf([button("Roll for me", () => act("/api/roll", {}), "primary", "roll-me"), button("Tap the real dice", () => askFaces("roll"), "", "roll-tap2")])]);
    } else fill(rollBox, []);
    const main = [];
    const attempts = legal.filter((a) => a.name === "attempt");
    for (const kind of ["search", "solve", "fire"]) {
      const a = attempts.find((x) => x.args.action === kind);
      if (a) main.push(actButton(a));
    }
    for (const a of attempts.filter((x) => x.args.action === "barrier")) main.push(actButton(a));
    const proves = attempts.filter((x) => x.args.action === "prove");
    if (proves.length) main.push(button("Prove an icon set", () => pickFrom("Which icon set do you prove?", proves), "", "prove-pick"));
    const unlocks = attempts.filter((x) => x.args.action === "unlock");
    if (unlocks.length) main.push(button("Unlock a door", () => startPick("door", unlocks, "Tap the door to unlock on the map."), "", "unlock-pick"));
    for (const name of ["summon", "pull"]) for (const a of legalOf(s, name)) main.push(actButton(a));
    const moves = legalOf(s, "move-ghost");
    if (moves.length) main.push(button("Move the ghost", () => startPick("room", moves, "Tap the gold room to move the ghost to."), "", "move-pick"));
    for (const a of legalOf(s, "seance")) main.push(actButton(a));
    fill($("#turn-main"), main);
    fill($("#turn-spend-list"), legalOf(s, "action").map((a) => actButton(a)));
    $("#turn-spend").hidden = !legalOf(s, "action").length;
    const table = legal.filter((a) => ["reveal-clue", "timer", "solve", "prove", "unlock", "ghost-at"].includes(a.name));
    const tableButtons = [];
    for (const a of table) {
      if (a.name === "prove" || a.name === "unlock") continue;
      tableButtons.push(actButton(a));
    }
    const tproves = table.filter((a) => a.name === "prove");
    if (tproves.length) tableButtons.push(button("An icon set was proven", () => pickFrom("Which icon set was proven at the table?", tproves), "", "tprove-pick"));
    const tunlocks = table.filter((a) => a.name === "unlock");
    if (tunlocks.length) tableButtons.push(button("A door was opened", () => startPick("door", tunlocks, "Tap the door that was opened."), "", "tunlock-pick"));
    fill($("#turn-table-list"), tableButtons);
    const ends = [];
    for (const a of legalOf(s, "end-turn")) ends.push(actButton(a, null, "primary"));
    for (const a of legalOf(s, "end-round")) {
      const b = el("button", { type: "button", class: "quiet", "data-legal": "end-round" }, a.label);
      const waiting = (s.player_names || []).slice((s.current_player || 0) + 1);
      const still = s.actions_left ? playerName(s, s.current_player) + " still has " + plural(s.actions_left, "action") + ". " : "";
      const words = still + (waiting.length ? waiting.join(" and ") + (waiting.length === 1 ? " has" : " have") + " not played this round yet. " : "");
      b.addEventListener("click", () => (words ? confirmSheet("End the round now?", words + "The clock moves on.", "End the round", () => runLegal(a)) : runLegal(a)));
      ends.push(b);
    }
    fill($("#turn-end"), ends);
    if (app.pick) {
      const still = (app.pick.actions || []).filter((p) => legal.some((a) => a.name === p.name && JSON.stringify(a.args) === JSON.stringify(p.args)));
      if (!still.length) endPick();
    }
  }

  const button = (label, fn, cls, id) => { const b = el("button", { type: "button", class: cls || "", id: id || null }, label); if (!id) b.removeAttribute("id"); b.addEventListener("click", fn); return b; };
  const rowOf = (items) => { const r = el("div", { class: "row" }); r.append(...items); return r; };

  // One legal action: fill in what it still asks (icons, dice, a space), then send it.
  async function runLegal(a) {
    const asks = a.asks || [];
    if (a.name === "attempt" && asks.includes("need")) return askNeed(a);
    if (asks.includes("faces")) return askDice(a);
    if (asks.includes("room")) {
      const msg = a.name === "seance" ? "Tap the first player's space on the map: the ghost comes there at the end of this round." : "Tap the space on the map where the ghost is.";
      return startPick("space", [a], msg);
    }
    if (a.name === "attempt" && ["prove", "unlock", "solve", "search"].includes(a.args.action)) return askBonus(a);
    if (a.name === "reveal-clue" && ((app.state && app.state.clue_cards_to_name) || []).length) return askClueCard(a);
    if (a.name === "action" && ["give", "pickup"].includes(a.args.kind) && !a.args.glass) return askHandOver(a);
    const out = await command(a.name, a.args);
    if (out && a.name === "attempt") showView("dice");
    return out;
  }

  // ---- sheets: icons, dice faces, cards, a choice, a confirmation --------------------------------
  function sheet(title, body, okLabel, onOk) {
    $("#sheet-title").textContent = title;
    fill($("#sheet-body"), body);
    const ok = $("#sheet-ok");
    ok.textContent = okLabel || "OK";
    ok.hidden = !onOk;
    $("#sheet").hidden = false;
    app.sheetOk = onOk;
  }
  const closeSheet = () => { $("#sheet").hidden = true; app.sheetOk = null; };

  // What the player holds that adds dice (the companion counts them with the cards in play, FAQ order, five at most).
  function bonusControls(action, onChange) {
    const bonus = { glass: false, aid: false, items: 0 };
    const box = el("div", { class: "stack bonus" });
    const tog = (label, key, id) => {
      const l = el("label");
      const c = el("input", { type: "checkbox", id });
      c.addEventListener("change", () => { bonus[key] = c.checked; onChange(); });
      l.append(c, " " + label);
      return l;
    };
    const st = app.state || {};
    const hand = (st.hands || [])[st.current_player] || { glass: 0, items: [] };
    const glassWords = hand.glass ? "the magnifying glass (+1 die; " + plural(hand.glass, "use") + " left, this roll uses one)" : "a magnifying glass (+1 die): tick it if " + playerName(st, st.current_player) + " holds one; it counts as just taken, 3 uses";
    if (["search", "solve", "prove"].includes(action)) box.append(tog(glassWords, "glass", "bonus-glass"));
    const held = hand.items.filter((it) => it.dice && it.actions.includes(action));
    const heldDice = held.reduce((n, it) => n + it.dice, 0);
    bonus.items = heldDice;
    if (held.length) box.append(el("div", { class: "note", id: "bonus-held" }, "Counted from " + playerName(st, st.current_player) + "'s items: " + held.map((it) => it.name + " +" + it.dice).join(", ") + "."));
    if (action === "prove") box.append(tog("a player on the same space helps (+1 die)", "aid", "bonus-aid"));
    if (!["barrier", "fire"].includes(action)) {
      const n = el("span", { id: "bonus-items" }, String(bonus.items));
      box.append(rowOf([el("span", {}, "Dice from items:"), button("\u2212", () => { bonus.items = Math.max(0, bonus.items - 1); n.textContent = bonus.items; onChange(); }),
        n, button("+", () => { bonus.items = Math.min(5, bonus.items + 1); n.textContent = bonus.items; onChange(); }, "", "bonus-item-plus")]));
    } else box.append(el("div", { class: "note" }, "No item helps against an environment card: 3 dice, fewer if a card takes dice away."));
    const args = () => { const o = {}; if (bonus.glass) o.glass = "true"; if (bonus.aid) o.aid = "true"; if (bonus.items !== heldDice) o.items = String(bonus.items); return o; };
    return { box, args, words: () => (bonus.glass ? " + glass" : "") + (bonus.aid ? " + aid" : "") + (bonus.items ? " + " + bonus.items + " from items" : "") };
  }

  function askNeed(a) {
    const counts = {};
    let timer = false, disruption = false;
    const words = el("div", { class: "big-ish", id: "need-words" });
    const bonus = bonusControls(a.args.action, () => show());
    const show = () => {
      const need = Object.entries(counts).filter(([, n]) => n > 0).map(([k, n]) => k + ":" + n).join(",");
      words.textContent = "Needs " + needWords(need + (timer ? ",timer" : "") + (disruption ? ",disruption" : "")) + ": 3 dice" + bonus.words() + ".";
      return need;
    };
    const pad = el("div", { class: "needpad" });
    for (const f of ["eye", "camera", "cobweb"]) pad.append(button(ICON[f] + " + " + f, () => { counts[f] = (counts[f] || 0) + 1; show(); }, "", "need-" + f));
    pad.append(button("Clear", () => { for (const k in counts) counts[k] = 0; show(); }));
    const toggles = el("div", { class: "row" });
    const tog = (label, set) => { const l = el("label"); const c = el("input", { type: "checkbox" }); c.addEventListener("change", () => { set(c.checked); show(); }); l.append(c, " " + label); return l; };
    toggles.append(tog("red timer icon", (v) => { timer = v; }), tog("red disruption icon", (v) => { disruption = v; }));
    const title = { search: "Search: tap the icons on the search token", solve: "Solve: tap the icons on the clue card", barrier: "Barrier: tap the icons of the barrier" }[a.args.action] || "Tap the icons";
    sheet(title, [pad, words, toggles, bonus.box, el("div", { class: "note" }, "Cards in play that take dice away are counted by the companion.")], "Start the roll", async () => {
      const need = show();
      if (!need) { toast("Tap the icons the roll needs first.", true); return false; }
      const args = { ...a.args, need, ...bonus.args() };
      if (timer) args.timer = "true";
      if (disruption) args.disruption = "true";
      const out = await command("attempt", args);
      if (out) showView("dice");
      return !!out;
    });
    show();
  }

  // A prove or an unlock: the icons come from the card or the door; the player says what adds dice.
  function askBonus(a) {
    const bonus = bonusControls(a.args.action, () => { line.textContent = "3 dice" + bonus.words() + "."; });
    const line = el("div", { class: "big-ish", id: "bonus-words" }, "3 dice" + bonus.words() + ".");
    const note = el("div", { class: "note" }, "Cards in play that take dice away are counted by the companion; the roll card shows the count.");
    const ghost = (app.state && app.state.ghost) || {};
    const lingering = a.args.action === "prove" && ghost.lingering && !/^placeholder/i.test(ghost.lingering)
      ? [el("p", { class: "warn", id: "lingering" }, "While the ghost is here: " + ghost.lingering)] : [];
    const clue = a.args.action === "solve" ? ((app.state && app.state.clues) || []).find((c) => !c.solved && c.need) : null;
    const needs = clue ? [el("p", { class: "big-ish", id: "clue-needs" }, capital(clue.label) + " needs " + needWords(clue.need) + ".")] : [];
    sheet(a.label, [...needs, line, bonus.box, note, ...lingering], "Start the roll", async () => {
      const out = await command("attempt", { ...a.args, ...bonus.args() });
      if (out) showView("dice");
      return !!out;
    });
  }

  // A clue token came up: which clue card is it? (Only the cards filled in can be named; their icons are then known.)
  function askClueCard(a) {
    const cards = app.state.clue_cards_to_name || [];
    const pick = async (args) => { closeSheet(); await command(a.name, args); };
    sheet("Which clue card came up?", [el("p", { class: "note" }, "Turn over the next clue card. If it is one you filled in, tap it: the Solve then knows its icons.")]
      .concat(cards.map((c) => button(c.label + ": " + needWords(c.need), () => pick({ ...a.args, card: String(c.card) }), "wide", "clue-card-" + c.card)))
      .concat([button("A card not filled in yet", () => pick(a.args), "wide", "clue-card-other")]), null, null);
  }

  // A summon or a pull: the companion rolls the team's summon dice, or the host taps the real ones.
  function askDice(a) {
    const s = app.state;
    if (a.name === "roll") return askFaces("roll");
    const n = s.summon_dice || 0;
    sheet(a.label, [el("p", {}, "Roll " + plural(n, "summon die", "summon dice") + (typeof s.summon_odds === "number" ? " (" + pct(s.summon_odds) + " to succeed)." : "."))],
      null, null);
    $("#sheet-body").append(rowOf([button("Roll for me", async () => { closeSheet(); await act("/api/roll", { command: a.name }); }, "primary", "dice-me"),
      button("Tap the real dice", () => { closeSheet(); askFaces(a.name); }, "", "dice-tap")]));
  }

  function askFaces(target, replace) {
    const s = app.state || {};
    const a = s.attempt;
    const kind = target === "roll" ? (DIE_OF[a && a.action] || "clue") : "summon";
    const want = target === "roll" ? (a ? a.dice_to_roll ?? a.dice : 0) : (s.summon_dice || 0);
    const faces = [];
    const shown = el("div", { class: "chips", id: "faces-entered" });
    const count = el("div", { class: "note" });
    // The rulebook lets the player choose which dice to set aside: every one that counts, none, or one face only.
    const keep = el("select", { id: "keep-choice", "aria-label": "which dice to keep" });
    const keepRow = el("label", { id: "keep-row" }, "Keep ");
    keepRow.append(keep);
    const counting = a && target === "roll" ? Object.fromEntries(missingOf(a).split(",").filter(Boolean).map((p) => p.split(":"))) : {};
    const keepOptions = () => {
      const was = keep.value;
      const useful = [...new Set(faces)].filter((x) => counting[x]);
      fill(keep, [el("option", { value: "" }, "every die that counts"), el("option", { value: "none" }, "none (roll them all again)")]
        .concat(useful.length > 1 ? useful.map((x) => el("option", { value: x }, "only the " + x + " dice")) : []));
      if ([...keep.options].some((o) => o.value === was)) keep.value = was;
      keepRow.hidden = !(target === "roll" && a && !a.disruption && faces.length);
    };
    const redraw = () => { fill(shown, faces.map((f, i) => { const c = button((ICON[f] || "") + " " + f + " \u00D7", () => { faces.splice(i, 1); redraw(); }, "chip-button"); c.setAttribute("aria-label", "take back " + f); return c; })); count.textContent = faces.length + " of " + plural(want, "die", "dice"); count.className = faces.length > want ? "warn" : "note"; keepOptions(); };
    const pad = el("div", { class: "pad", id: "face-pad" });
    for (const f of KIND_FACES[kind]) pad.append(button((ICON[f] || "") + " " + f, () => { faces.push(f); redraw(); }, "", "face-" + f));
    pad.append(button("Clear", () => { faces.length = 0; redraw(); }));
    const title = (replace ? "Correct the last roll: " : "") + "tap what the " + plural(want, kind + " die", kind + " dice") + (want === 1 ? " shows" : " show");
    sheet(capital(title), [pad, shown, count, el("div", { class: "note" }, "Tapped a wrong face? Tap it above to take it back."), keepRow], "Send the dice", async () => {
      if (!faces.length) { toast("Tap the faces the dice show first.", true); return false; }
      const body = { faces: faces.slice(), command: target, replace: !!replace };
      if (!keepRow.hidden && keep.value) body.keep = keep.value === "none" ? "none" : faces.filter((x) => x === keep.value);
      const out = await act("/api/dice", body);
      return !!out;
    });
    redraw();
  }

  function pickFrom(title, actions) {
    sheet(title, actions.map((a) => button(a.label, async () => { closeSheet(); await runLegal(a); }, "wide")), null, null);
  }

  // Physical deck mode: the command draws cards; the host says which came up, in the order drawn.
  async function askCards(path, body, needs, faces, whys) {
    const s = app.state || {};
    const o = app.options || {};
    const selects = needs.map((n, i) => {
      const sel = el("select", { "data-card": n });
      let opts = [];
      if (n === "room") opts = (s.rooms_unseen || []).map((r) => [String(r), roomWords(r)]);
      else if (n === "environment") opts = (s.environment_drawable || o.environment || []).map((c) => [c.id, c.name])
        .sort((x, y) => x[1].localeCompare(y[1], undefined, { numeric: true }));  // "card 4" before "card 10"
      else opts = (o.evidence || []).filter((c) => !(s.evidence || []).some((e) => e.symbol === c.id)).map((c) => [c.id, c.name]);
      fill(sel, [el("option", { value: "" }, "choose\u2026")].concat(opts.map(([v, t]) => el("option", { value: v }, t))));
      const why = whys && whys[i] ? capital(whys[i]) : ({ room: "The room card drawn", environment: "The environment card drawn", evidence: "The evidence token flipped" }[n] || n);
      const label = el("label", {}, why + (needs.length > 1 ? " (" + (i + 1) + " of " + needs.length + ")" : ""));
      label.append(sel);
      return label;
    });
    return new Promise((resolve) => {
      sheet(needs.every((n) => n === "evidence") ? "Which evidence token came up?" : "What did you draw?", [el("p", { class: "note" }, "You play with the real decks: draw now and choose here what came up, in the order drawn.")].concat(selects), "Send", async () => {
        const args = { ...(body.args || {}) };
        const picked = {};
        for (const l of selects) {
          const sel = l.querySelector("select");
          if (!sel.value) { toast("Choose every card that came up first.", true); return false; }
          (picked[sel.dataset.card] = picked[sel.dataset.card] || []).push(sel.value);
        }
        const cards = {};
        for (const k in picked) cards[k] = picked[k].join(",");
        let out;
        if (path === "/api/command") out = await act(path, { ...body, args: { ...args, ...cards } });
        else if (faces || path === "/api/dice") {
          // The dice already rolled stay as they fell; send them again with the cards.
          const again = path === "/api/dice" ? { ...body } : { faces, command: body.command || "roll" };
          out = await act("/api/dice", { ...again, cards });
        } else out = null;
        resolve(out);
        return !!out;
      });
    });
  }

  function confirmSheet(title, text, okLabel, fn) {
    sheet(title, [el("p", {}, text)], okLabel, async () => { await fn(); return true; });
  }

  // ---- picking on the map ----------------------------------------------------------------------------
  function startPick(kind, actions, message) {
    app.pick = { kind, actions, message };
    $("#pick-note").hidden = false;
    fill($("#pick-note"), [document.createTextNode(message + " "), button("Cancel", endPick, "small")]);
    showView("game");
    renderMap();
    $(".map-card").scrollIntoView({ block: "center", behavior: "smooth" });
  }
  function endPick() { app.pick = null; $("#pick-note").hidden = true; renderMap(); }
  async function picked(value) {
    const p = app.pick;
    if (!p) return;
    let a = null;
    if (p.kind === "door") a = p.actions.find((x) => x.args.door === value);
    else if (p.kind === "room") a = p.actions.find((x) => x.args.to === String(value));
    else if (p.kind === "space") { a = { ...p.actions[0], args: { ...p.actions[0].args, room: String(value) }, asks: [] }; }
    if (!a) return;
    endPick();
    if (a.name === "attempt" && a.args.action === "unlock") { askBonus(a); return; }
    await command(a.name, a.args).then((out) => { if (out && a.name === "attempt") showView("dice"); });
  }

  // ---- the board map ----------------------------------------------------------------------------
  async function loadBoard(id) {
    app.boardId = id;
    try { app.board = await api("/api/board"); } catch (e) { app.board = null; }
    renderMap();
  }
  function posOf(r) {
    const p = r.pos || [r.x, r.y];
    return Array.isArray(p) ? { x: Number(p[0]), y: Number(p[1]) } : { x: Number(p.x), y: Number(p.y) };
  }

  function renderMap() {
    const svg = $("#map");
    const b = app.board;
    const s = app.state;
    if (!b || !s || s.game_id === null || s.game_id === undefined) return;
    const rooms = (b.spaces || []).map((r) => ({ n: Number(r.number), name: r.name, p: posOf(r) })).filter((r) => !Number.isNaN(r.p.x));
    if (!rooms.length) { $("#map-note").textContent = "This board has no map positions yet."; return; }
    const xs = rooms.map((r) => r.p.x), ys = rooms.map((r) => r.p.y);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    const W = Math.max(...xs) - minX + 1, H = Math.max(...ys) - minY + 1;
    const cell = 56, rw = 46, rh = 40;
    svg.setAttribute("viewBox", "0 0 " + W * cell + " " + H * cell);
    const at = {};
    for (const r of rooms) at[r.n] = { x: (r.p.x - minX) * cell + cell / 2, y: (r.p.y - minY) * cell + cell / 2 };
    const nodes = [];
    const open = new Set(s.doors_open || []);
    const pick = app.pick;
    const doorTargets = pick && pick.kind === "door" ? new Set(pick.actions.map((a) => a.args.door)) : new Set();
    for (const c of b.connections || []) {
      const [a, z] = c.between || [c.a, c.b];
      if (!at[a] || !at[z]) continue;
      const key = c.key || Math.min(a, z) + "-" + Math.max(a, z);
      const state = !c.door ? "open" : c.lock ? "locked" : open.has(key) ? "unlocked" : "closed";
      nodes.push(el("svg:line", { x1: at[a].x, y1: at[a].y, x2: at[z].x, y2: at[z].y, class: "link " + state }));
      if (c.door) {
        const mx = (at[a].x + at[z].x) / 2, my = (at[a].y + at[z].y) / 2;
        const g = el("svg:g", { transform: "translate(" + mx + " " + my + ")", class: "door " + state + (doorTargets.has(key) ? " target" : ""), "data-door": key });
        if (state === "unlocked") g.append(el("svg:rect", { x: -7, y: -7, width: 14, height: 14, rx: 3, class: "door-open" }));
        else g.append(el("svg:rect", { x: -8, y: -8, width: 16, height: 16, rx: 2 }));
        if (c.keys && state !== "unlocked") g.append(el("svg:text", { y: 4 }, c.keys));
        g.append(el("svg:title", {}, "Door " + doorWords(key) + ": " + (state === "unlocked" ? "unlocked" : state === "locked" ? "padlocked, " + plural(c.keys || 1, "key") : "closed, " + plural(c.keys || 1, "key"))));
        if (doorTargets.has(key)) {
          g.prepend(el("svg:circle", { r: 18, class: "hit" }));  // a finger-sized target around the small square
          g.addEventListener("click", () => picked(key));
        }
        nodes.push(g);
      }
    }
    const reds = new Set(s.red_markers || []);
    const moveTargets = pick && pick.kind === "room" ? new Set(pick.actions.map((a) => Number(a.args.to))) : new Set();
    const spacePick = pick && pick.kind === "space";
    const passages = {};
    (b.secret_passages || []).forEach((p, i) => { for (const n of p) (passages[n] = passages[n] || []).push(String.fromCharCode(65 + i)); });
    for (const r of rooms) {
      const target = moveTargets.has(r.n) || spacePick;
      const g = el("svg:g", { transform: "translate(" + at[r.n].x + " " + at[r.n].y + ")", class: "room" + (reds.has(r.n) ? " red" : "") + (s.ghost_room === r.n ? " ghost" : "") + (target ? " target" : ""), "data-room": r.n });
      g.addEventListener("click", () => { if (target) picked(r.n); else { $("#map-note").textContent = capital(roomWords(r.n, r.name)) + "."; } });
      g.append(el("svg:rect", { x: -rw / 2, y: -rh / 2, width: rw, height: rh, rx: 5 }), el("svg:text", { x: -rw / 2 + 4, y: -rh / 2 + 12, class: "num" }, r.n === 0 ? "E" : r.n));
      g.append(el("svg:title", {}, capital(roomWords(r.n, r.name))));
      if (reds.has(r.n)) g.append(el("svg:circle", { cx: rw / 2 - 6, cy: -rh / 2 + 6, r: 4, class: "marker" }));
      (passages[r.n] || []).forEach((letter, i) => {
        const p = el("svg:g", { class: "passage", transform: "translate(" + (rw / 2 - 8 - i * 14) + " " + (rh / 2 - 7) + ")" });
        p.append(el("svg:circle", { r: 6 }), el("svg:text", { y: 3 }, letter));
        g.append(p);
      });
      if (s.ghost_room === r.n && ghostOn(s)) {
        const pawn = el("svg:g", { transform: "translate(0 4)", class: "ghost-pawn", id: "ghost-pawn" });
        pawn.append(el("svg:path", { d: "M-8 8V-3a8 8 0 0 1 16 0V8l-4-3L0 8l-4-3z" }), el("svg:circle", { cx: -3, cy: -2, r: 1.6, class: "eye" }), el("svg:circle", { cx: 3, cy: -2, r: 1.6, class: "eye" }));
        g.append(pawn);
      }
      nodes.push(g);
    }
    fill(svg, nodes);
    const note = $("#map-note");
    note.textContent = pick ? pick.message : "Tap a room to see its name.";
    note.classList.toggle("warn", !!pick);
    $("#map-legend").textContent = "Gold square on a line: a closed door (the number: keys it needs); red: a padlocked door, which locks again; open green square: unlocked. " + ((b.secret_passages || []).length ? "Matching purple letters: a secret passage between those rooms. " : "") + "Red dot: a red marker.";
  }

  // ---- your box: the cards of the copy on the table, filled in once (companion/box.py) -----------------------
  const BOX_TABS = [["ghosts", "Ghosts"], ["environment", "Environment cards"], ["evidence", "Evidence"], ["clues", "Clue cards"], ["items", "Items"], ["board", "Board"], ["events", "Among Cultists: event markers"]];
  const UNFILLED = "not filled in yet";
  const isStandIn = (t) => /^placeholder/i.test(String(t || "").trim());
  const setText = (need) => {  // "eye:2,camera:1,timer" -> {eye: 2, camera: 1, timer: true}
    const out = { eye: 0, camera: 0, cobweb: 0, timer: false, disruption: false };
    for (const p of String(need || "").split(",").filter(Boolean)) {
      const [k, n] = p.split(":");
      if (k === "timer" || k === "disruption") out[k] = true; else if (k in out) out[k] = Number(n || 1);
    }
    return out;
  };
  const setOf = (c) => ["eye", "camera", "cobweb"].filter((k) => c[k] > 0).map((k) => k + ":" + c[k]).concat(c.timer ? ["timer"] : [], c.disruption ? ["disruption"] : []).join(",");

  async function loadBox(tab) {
    if (tab) app.boxTab = tab;
    app.boxTab = app.boxTab || "ghosts";
    try { app.box = await api("/api/box"); } catch (e) { toast(capital(e.message), true); return; }
    renderBox();
  }
  function openBox() { showView("box"); }
  // From the game: open the box at one entry's sheet ("Fill it in from the card").
  async function fillIn(tab, id) {
    app.boxTab = tab;
    showView("box");
    await app.boxLoading;
    const b = app.box;
    if (!b) return;
    if (tab === "environment") { const c = b.environment.find((x) => x.id === id); if (c) editEnv(c); }
    if (tab === "ghosts") { const g = b.ghosts.find((x) => x.id === id); if (g) editGhost(g); }
    if (tab === "events") { const ev = (b.events || []).find((x) => x.id === id); if (ev) editEvent(ev); }
  }

  function boxSummary() {
    const b = app.box;
    if (!b) return "";
    return b.left ? plural(b.left, "entry", "entries") + " of your box " + (b.left === 1 ? "is" : "are") + " " + UNFILLED + ": until then the page says so instead of showing a stand-in." : "Every card of your box is filled in.";
  }

  function renderBox() {
    const b = app.box;
    if (!b) return;
    $("#box-left").textContent = b.left ? plural(b.left, "entry", "entries") + " " + (b.left === 1 ? "is" : "are") + " " + UNFILLED + "." : "Every card of your box is filled in.";
    $("#box-folder").textContent = b.writable ? "Your box is kept on the companion, with the games (in " + b.folder + ")." : "This companion has no folder for your box yet: the installer's configuration sets one (docs/packs.md).";
    fill($("#box-tabs"), BOX_TABS.map(([k, label]) => button(label, () => { app.boxTab = k; renderBox(); }, app.boxTab === k ? "on" : "", "box-tab-" + k)));
    const list = $("#box-list");
    const row = (title, filled, detail, onEdit, id) => {
      const li = el("li", { class: "row box-entry", id });
      const text = el("div", { class: "grow" });
      text.append(el("b", {}, title), " ", chip(filled ? "filled in" : UNFILLED, filled ? "ok" : ""));
      if (detail) text.append(el("div", { class: "note" }, detail));
      li.append(text, button(filled ? "Change" : "Fill in", onEdit, "small"));
      return li;
    };
    $("#box-map-card").hidden = app.boxTab !== "board";
    $("#box-list").parentElement.hidden = app.boxTab === "board";
    if (app.boxTab === "ghosts") fill(list, b.ghosts.map((g) => row(g.name, g.filled, g.filled ? g.icon_sets.length + " icon sets · difficulty " + g.difficulty : "", () => editGhost(g), "box-ghost-" + g.id)));
    else if (app.boxTab === "environment") fill(list, b.environment.map((c) => row(c.name, c.filled, (c.deck === "common" ? "Common" : capital(c.deck)) + " card" + (c.filled ? " · " + (LASTS[c.duration] || "") : ""), () => editEnv(c), "box-env-" + c.id)));
    else if (app.boxTab === "evidence") fill(list, b.evidence.map((e) => row(e.name, e.filled, "", () => editEvidence(e), "box-ev-" + e.id)));
    else if (app.boxTab === "items") fill(list, b.items.map((it) => row(it.name, it.filled, it.dice ? "+" + it.dice + " on " + it.actions.join(", ") : "", () => editItem(it), "box-item-" + it.id)));
    else if (app.boxTab === "clues") fill(list, b.clues.map((c) => row(c.name || "Clue card " + c.number, c.filled, c.filled ? "Needs " + needWords(c.icon_set) : "", () => editClue(c), "box-clue-" + c.number)));
    else if (app.boxTab === "events") fill(list, (b.events || []).map((e) => row(e.name, e.filled, e.filled ? e.text : "", () => editEvent(e), "box-event-" + e.id)));
    else { fill(list, []); renderBoxMap(); }
  }

  async function saveBox(part, key, fields) {
    try {
      const out = await api("/api/box", { part, key: String(key), fields });
      app.box = out.box;
      toast(out.said);
      renderBox();
      loadSetupOptions();
      return true;
    } catch (e) { toast(capital(e.message), true); return false; }
  }

  const field = (label, input, note) => {
    const single = ["INPUT", "SELECT", "TEXTAREA"].includes(input.tagName);
    const l = el(single ? "label" : "div", { class: "field" });
    l.append(el("span", {}, label), input);
    if (note) l.append(el("div", { class: "note" }, note));
    return l;
  };
  const textIn = (value, name, hint) => { const i = el("input", { name, maxlength: "120", autocomplete: "off", placeholder: hint || "" }); i.value = isStandIn(value) ? "" : value || ""; return i; };
  const textArea = (value, name, hint) => { const i = el("textarea", { name, rows: "3", maxlength: "300", placeholder: hint || "Copy it from your card, in your own short words" }); i.value = isStandIn(value) ? "" : value || ""; return i; };
  const selectIn = (name, options, value) => { const s = el("select", { name }); for (const [v, label] of options) { const o = el("option", { value: String(v) }, label); if (String(v) === String(value)) o.selected = true; s.append(o); } return s; };

  // Icon sets tapped in, one row per set: the icons and the red icons printed on the card.
  function iconSetsEditor(sets, max, id) {
    const rows = sets.map(setText);
    const box = el("div", { class: "stack iconsets", id });
    const pre = id || "set";
    // A tap on an icon changes its row's words only: the list is rebuilt just when a set is added or removed,
    // so the sheet does not jump under the finger.
    const draw = () => {
      fill(box, rows.map((c, i) => {
        const r = el("div", { class: "iconset" });
        const head = el("div", { class: "row" });
        const words = el("span", { class: "grow", id: pre + "-words-" + (i + 1) }, needWords(setOf(c)));
        const update = () => { words.textContent = needWords(setOf(c)); };
        head.append(el("b", {}, (max === 1 ? "Icons" : "Set " + (i + 1)) + ": "), words);
        if (max > 1) head.append(button("Remove", () => { rows.splice(i, 1); draw(); }, "small danger", pre + "-remove-" + (i + 1)));
        const pad = el("div", { class: "row" });
        for (const f of ["eye", "camera", "cobweb"]) {
          pad.append(button(ICON[f] + " " + f + " +", () => { if (["eye", "camera", "cobweb"].reduce((n, k) => n + c[k], 0) < 5) c[f] += 1; update(); }, "small", pre + "-" + (i + 1) + "-" + f));
        }
        pad.append(button("Clear", () => { c.eye = c.camera = c.cobweb = 0; update(); }, "small"));
        const reds = el("div", { class: "row" });
        for (const red of ["timer", "disruption"]) {
          const l = el("label"); const cb = el("input", { type: "checkbox" }); cb.checked = c[red];
          cb.addEventListener("change", () => { c[red] = cb.checked; update(); });
          l.append(cb, " red " + red + " icon"); reds.append(l);
        }
        r.append(head, pad, reds);
        return r;
      }));
      if (rows.length < max) box.append(button(max === 1 ? "Tap the icons" : "Add an icon set", () => { rows.push(setText("")); draw(); }, "", pre + "-add"));
    };
    draw();
    return { node: box, value: () => rows.map(setOf).filter(Boolean), empty: () => rows.some((c) => !["eye", "camera", "cobweb"].some((k) => c[k] > 0)) };
  }

  function editGhost(g) {
    const b = app.box;
    const name = textIn(!g.filled && /^Ghost \d+$/.test(g.name) ? "" : g.name, "name", "the name on your card");
    const diff = selectIn("difficulty", Array.from({ length: 10 }, (_, i) => [i + 1, String(i + 1)]), g.difficulty);
    const symbols = el("div", { class: "row" });
    for (const e of b.evidence) {
      const l = el("label"); const cb = el("input", { type: "checkbox", value: e.id }); cb.checked = g.filled && g.seance_symbols.includes(e.id);
      l.append(cb, " " + e.name + (e.filled ? "" : " (not filled in yet)")); symbols.append(l);
    }
    const sets = iconSetsEditor(g.filled ? g.icon_sets : [], 8, "ghost-sets");
    const ability = textArea(g.ability, "ability");
    const lingering = textArea(g.lingering, "lingering");
    const first = selectIn("first_sets", [[0, "no: any set, in any order"]].concat([1, 2, 3, 4].map((n) => [n, "yes: the first " + plural(n, "set") + " (the top row)"])), g.first_sets);
    const doors = el("input", { type: "checkbox", name: "closes_doors" }); doors.checked = g.closes_doors;
    const doorsLabel = el("label"); doorsLabel.append(doors, " Its Ghost Hour ability closes the doors next to its room");
    sheet("The ghost card: " + g.name, [
      el("p", { class: "note" }, "Copy what your card shows. Icon sets in the order printed, row by row."),
      field("Name", name), field("Difficulty", diff), field("Séance symbols", symbols), field("Icon sets", sets.node),
      field("Ghost Hour ability", ability), field("Lingering effect", lingering),
      field("Must some sets be proven before the others?", first, "The companion then offers only those sets until they are proven."), doorsLabel,
    ], "Save the ghost", () => !name.value.trim() ? (toast("Give the ghost its name first.", true), false) : !sets.value().length ? (toast("Tap the icon sets of the card first.", true), false)
      : sets.empty() ? (toast("One icon set has no icon: tap its icons, or remove it.", true), false)
      : !symbols.querySelector("input:checked") ? (toast("Tick the séance symbols printed on the card first.", true), false) : saveBox("ghost", g.id, {
      name: name.value, difficulty: Number(diff.value), seance_symbols: Array.from(symbols.querySelectorAll("input:checked")).map((c) => c.value),
      icon_sets: sets.value(), ability: ability.value, lingering: lingering.value, first_sets: Number(first.value), closes_doors: doors.checked,
    }));
  }

  function editEnv(c) {
    const name = textIn(c.name, "name");
    const lasts = selectIn("duration", [["instant", "played at once"], ["hour", "until the next Ghost Hour"], ["until_met", "until its objective is met"]], c.duration);
    const effect = textArea(c.effect, "effect");
    const dice = selectIn("clue_dice", [[-2, "two dice fewer"], [-1, "one die fewer"], [0, "no change"], [1, "one die more"]], c.clue_dice);
    const actions = selectIn("actions", [[0, "no limit"], [2, "two"], [1, "one"]], c.actions);
    const fires = selectIn("fires", [[0, "none"], [1, "1"], [2, "2"], [3, "3"], [4, "4"]], c.fires);
    const sets = iconSetsEditor(c.icon_sets, 6, "env-sets");
    sheet("Environment card: " + c.name, [
      el("p", { class: "note" }, "Copy the card's name and effect. Where the effect changes the numbers, say how, and the companion applies it."),
      field("Name", name), field("How long it lasts", lasts), field("Its effect", effect),
      field("Clue dice on every roll while it is in play", dice), field("Actions other than moves, each turn", actions, "With a limit, moves stay free (the Corpse: whoever carries it cannot run)."),
      field("Fire tokens it puts on the board", fires, "Each is put out with a cobweb on three clue dice; the card ends with the last."),
      field("Icon sets to roll to end it (three clue dice, no items)", sets.node),
    ], "Save the card", () => !name.value.trim() || !effect.value.trim() ? (toast("Give the card its name and its effect first.", true), false) : saveBox("environment", c.id, {
      name: name.value, duration: Number(fires.value) || sets.value().length ? "until_met" : lasts.value, effect: effect.value,
      clue_dice: Number(dice.value), actions: Number(actions.value), fires: Number(fires.value), icon_sets: sets.value(),
    }));
  }

  // Among Cultists: one event marker of the bag, as printed (the companion draws it, and every phone shows it).
  function editEvent(e) {
    const name = textIn(e.filled ? e.name : "", "name", "the marker's name, e.g. Power cut");
    const text = textArea(e.filled ? e.text : "", "text");
    sheet("Event marker", [field("Its name", name), field("What it does this round, in a few words of your own", text)], "Save", () =>
      !name.value.trim() || !text.value.trim() ? (toast("Give the marker its name and what it does first.", true), false) : saveBox("event", e.id, { name: name.value, text: text.value }));
  }

  function editEvidence(e) {
    const name = textIn(e.filled ? e.name : "", "name", "the symbol's name, e.g. Handprint");
    sheet("Evidence token", [field("Name of the symbol", name)], "Save", () => !name.value.trim() ? (toast("Give the symbol its name first.", true), false) : saveBox("evidence", e.id, { name: name.value }));
  }

  function editItem(it) {
    const name = textIn(it.name, "name");
    const effect = textArea(it.effect, "effect");
    const dice = selectIn("dice", [[0, "none"], [1, "one die"], [2, "two dice"]], it.dice);
    const acts = el("div", { class: "row" });
    for (const a of ["search", "solve", "prove", "unlock"]) {
      const l = el("label"); const cb = el("input", { type: "checkbox", value: a }); cb.checked = it.actions.includes(a);
      l.append(cb, " " + a); acts.append(l);
    }
    sheet("Item card: " + it.name, [field("Name", name), field("Its effect", effect), field("Dice it adds to a roll", dice, "Key dice for an unlock, clue dice otherwise. The companion counts them on every roll of its owner."), field("On which actions", acts)],
      "Save the item", () => {
        const actions = Array.from(acts.querySelectorAll("input:checked")).map((c) => c.value);
        if (!name.value.trim() || !effect.value.trim()) { toast("Give the item its name and its effect first.", true); return false; }
        if (Number(dice.value) && !actions.length) { toast("Tick the actions the dice are for.", true); return false; }
        return saveBox("item", it.id, { name: name.value, effect: effect.value, dice: Number(dice.value), actions: Number(dice.value) ? actions : [] });
      });
  }

  function editClue(c) {
    const name = textIn(c.name, "name", "optional: a few words to know the card by");
    const sets = iconSetsEditor(c.filled ? [c.icon_set] : [""], 1, "clue-set");
    sheet("Clue card " + c.number, [el("p", { class: "note" }, "Tap the icons printed on the card. Until it is filled in, a Solve asks for them at the table."), field("Icons", sets.node), field("Name", name)],
      "Save the card", () => {
        const v = sets.value();
        if (!v.length) { toast("Tap the icons on the card first.", true); return false; }
        return saveBox("clue", c.number, { icon_set: v[0], name: name.value });
      });
  }

  // The board: tap a space to name or move it; tap two spaces for the way between them.
  function renderBoxMap() {
    const b = app.box;
    const boards = b.boards || [];
    if (!app.boxBoard || !boards.find((x) => x.id === app.boxBoard)) app.boxBoard = boards.length ? boards[0].id : null;
    const sel = $("#box-board");
    fill(sel, boards.map((x) => { const o = el("option", { value: x.id }, x.name); if (x.id === app.boxBoard) o.selected = true; return o; }));
    const board = boards.find((x) => x.id === app.boxBoard);
    const svg = $("#box-map");
    if (!board) { fill(svg, []); return; }
    const spaces = board.spaces.map((r) => ({ n: Number(r.number), name: r.name, filled: r.filled, p: posOf(r) }));
    const xs = spaces.map((r) => r.p.x), ys = spaces.map((r) => r.p.y);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    const W = Math.max(...xs) - minX + 1, H = Math.max(...ys) - minY + 1, cell = 56, rw = 46, rh = 40;
    svg.setAttribute("viewBox", "0 0 " + W * cell + " " + H * cell);
    const at = {};
    for (const r of spaces) at[r.n] = { x: (r.p.x - minX) * cell + cell / 2, y: (r.p.y - minY) * cell + cell / 2 };
    const nodes = [];
    for (const c of board.connections) {
      const [a, z] = c.between;
      const state = !c.door ? "open" : c.lock ? "locked" : "closed";
      nodes.push(el("svg:line", { x1: at[a].x, y1: at[a].y, x2: at[z].x, y2: at[z].y, class: "link " + state + (c.filled ? "" : " unfilled") }));
      if (c.door) {
        const g = el("svg:g", { transform: "translate(" + (at[a].x + at[z].x) / 2 + " " + (at[a].y + at[z].y) / 2 + ")", class: "door " + state });
        g.append(el("svg:rect", { x: -8, y: -8, width: 16, height: 16, rx: 2 }), el("svg:text", { y: 4 }, c.keys));
        nodes.push(g);
      }
    }
    for (const p of board.secret_passages) nodes.push(el("svg:line", { x1: at[p[0]].x, y1: at[p[0]].y, x2: at[p[1]].x, y2: at[p[1]].y, class: "link passage-line" }));
    for (const r of spaces) {
      const chosen = app.boxFrom === r.n;
      const g = el("svg:g", { transform: "translate(" + at[r.n].x + " " + at[r.n].y + ")", class: "room target" + (chosen ? " ghost" : "") + (r.filled ? "" : " unfilled"), "data-room": r.n });
      g.append(el("svg:rect", { x: -rw / 2, y: -rh / 2, width: rw, height: rh, rx: 5 }), el("svg:text", { x: -rw / 2 + 4, y: -rh / 2 + 12, class: "num" }, r.n === 0 ? "E" : r.n));
      g.append(el("svg:title", {}, r.name));
      g.addEventListener("click", () => boxTapSpace(board, r));
      nodes.push(g);
    }
    fill(svg, nodes);
    $("#box-map-note").textContent = app.boxFrom !== null && app.boxFrom !== undefined
      ? "Now tap the space on the other side of the way from " + spaceLabel(board, app.boxFrom) + ", or the same space again to name it."
      : "Tap a space to name it or to set the way to another space. Dashed: not filled in yet.";
  }
  const spaceLabel = (board, n) => { const sp = board.spaces.find((x) => Number(x.number) === n); return n === 0 ? "the Entrance" : "room " + n + (sp && sp.filled ? " (" + sp.name + ")" : ""); };

  function boxTapSpace(board, r) {
    const from = app.boxFrom;
    if (from === null || from === undefined) { app.boxFrom = r.n; renderBoxMap(); return; }
    app.boxFrom = null;
    renderBoxMap();
    if (from === r.n) editSpace(board, r); else editWay(board, Math.min(from, r.n), Math.max(from, r.n));
  }

  function editSpace(board, r) {
    const name = textIn(r.filled ? r.name : "", "name", r.n === 0 ? "Entrance" : "the room's name on your board");
    const col = selectIn("col", Array.from({ length: 12 }, (_, i) => [i, String(i + 1)]), r.p.x);
    const line = selectIn("row", Array.from({ length: 12 }, (_, i) => [i, String(i + 1)]), r.p.y);
    sheet(r.n === 0 ? "The Entrance" : "Room " + r.n, [field("Name", name), el("p", { class: "note" }, "Where it sits on the phone's map, so the map looks like your board:"), rowOf([field("Column", col), field("Row", line)])],
      "Save", () => saveBox("space", board.id + ":" + r.n, { name: name.value || (r.n === 0 ? "Entrance" : ""), pos: [Number(col.value), Number(line.value)] }));
  }

  function editWay(board, a, z) {
    const key = a + "-" + z;
    const conn = board.connections.find((c) => c.key === key);
    const passage = board.secret_passages.some((p) => p[0] === a && p[1] === z);
    const kind = selectIn("kind", [["none", "no way between them"], ["open", "an open way"], ["door", "a door"]], conn ? (conn.door ? "door" : "open") : "none");
    const keys = selectIn("keys", [1, 2, 3, 4].map((n) => [n, plural(n, "key")]), conn && conn.keys ? conn.keys : 1);
    const lock = el("input", { type: "checkbox", name: "lock" }); lock.checked = !!(conn && conn.lock);
    const lockLabel = el("label"); lockLabel.append(lock, " a red padlock (it locks again)");
    const secret = el("input", { type: "checkbox", name: "passage" }); secret.checked = passage;
    const secretLabel = el("label"); secretLabel.append(secret, " a secret passage joins them");
    const parts = [el("p", { class: "note" }, "Between " + spaceLabel(board, a) + " and " + spaceLabel(board, z) + "."), field("The way", kind), field("A door needs", keys), lockLabel];
    if (a > 0) parts.push(secretLabel);
    sheet("The way " + doorWords(key), parts, "Save", async () => {
      const ok = await saveBox("connection", board.id + ":" + key, { kind: kind.value, keys: Number(keys.value), lock: lock.checked });
      if (ok && a > 0 && secret.checked !== passage) return saveBox("passage", board.id + ":" + key, { on: secret.checked });
      return ok;
    });
  }

  async function importBox(file) {
    if (!file) return;
    let data;
    try { data = JSON.parse(await file.text()); } catch (e) { toast("That file is not a box file: choose the file that \"Save my box to a file\" made.", true); return; }
    confirmSheet("Bring back this box?", "Every card of your box becomes as the file has it. Save your box to a file first if you may want it back.", "Bring it back", async () => {
      try {
        const res = await fetch("/api/box/file", { method: "PUT", credentials: "same-origin", headers: { "Content-Type": "application/json", "X-CSRF-Token": app.session ? app.session.csrf : "" }, body: JSON.stringify(data) });
        const out = await res.json().catch(() => ({}));
        if (!res.ok) { toast(capital(out.say || out.error || "The companion answered " + res.status + "."), true); return; }
        app.box = out.box; toast(out.said); renderBox();
      } catch (e) { toast("The companion cannot be reached; check the Wi-Fi.", true); }
    });
  }

  // ---- Elder Sign (companion/games/elder_sign): the same clock, the doom track, the adventures and the rolls ----
  const ES_FACE = { inv1: "1 investigation", inv2: "2 investigation", inv3: "3 investigation", inv4: "4 investigation", lore: "lore", peril: "peril", terror: "terror", wild: "wild" };
  const esNeed = (need) => String(need || "").split(",").filter(Boolean).map((p) => { const [k, n] = p.split(":"); return k === "inv" ? n + " investigation" : (n === "1" ? "a " + k : n + " " + k); }).join(" and ");
  const isES = (s) => !!(s && s.rules === "elder-sign");

  function renderES(s) {
    const standNote = (what) => el("div", { class: "warn" }, what + " is not filled in yet: play by your card. The host enters its tasks under Card effects and corrections.");
    const standIn = s.stand_ins || {};
    const investigatorShown = s.active_investigator && !(standIn.investigators || []).includes(s.current_player);
    $("#es-line").textContent = "Turn " + s.turn + " · " + playerName(s, s.current_player) + (investigatorShown ? " (" + s.active_investigator + ")" : "") + " · " +
      (s.clock === "XII" && s.turn === 1 ? "midnight" : plural(s.turns_to_midnight, "turn") + " to midnight");
    fill($("#es-glance"), [
      el("span", { id: "es-doom" }, "Doom " + s.doom + " of " + s.doom_max),
      el("span", { id: "es-signs" }, "Elder Signs " + s.elder_signs + " of " + s.elder_signs_needed),
      el("span", {}, (standIn.ancient_one ? "The Ancient One" : s.ancient_one.name) + (s.ancient_one_awake ? " is awake!" : " sleeps") + (standIn.ancient_one ? " (its card is not filled in yet: doom and Elder Signs are stand-ins)" : "")),
    ]);
    const out = $("#outcome");
    out.hidden = !s.outcome;
    out.textContent = s.outcome ? (s.outcome === "won" ? "Won!" : "Lost.") : "";
    out.className = "outcome " + (s.outcome || "");
    const m = s.mythos;
    $("#es-mythos").textContent = m && standIn.mythos ? "A Mythos card not filled in yet: read it from the card drawn." : m ? m.name + (m.lingering ? ": " + (isStandIn(m.lingering) ? "not filled in yet: read it from the card." : m.lingering) : "") : "None yet.";
    fill($("#es-investigators"), (s.investigators || []).map((inv) => {
      const li = el("li", { class: inv.active ? "active" : "" });
      const named = !(standIn.investigators || []).includes(inv.player);
      li.append(el("b", {}, playerName(s, inv.player) + (named ? ": " + inv.name : " (investigator card not filled in yet)")), el("div", { class: "note" },
        inv.devoured ? "devoured" : "sanity " + inv.sanity + "/" + inv.max_sanity + " · stamina " + inv.stamina + "/" + inv.max_stamina + " · " + plural(inv.clues, "clue") + " · " + (inv.place === "entrance" ? "at the Entrance" : inv.place ? "at adventure " + inv.place : "not on an adventure")));
      return li;
    }));
    const odds = s.card_odds && (standIn.adventures || []).includes(s.card_odds.slot) ? { ...s.card_odds, name: "adventure " + s.card_odds.slot } : s.card_odds;
    fill($("#es-adventures"), (s.adventures || []).map((c) => {
      const li = el("li", { id: "es-adv-" + c.slot });
      li.append(el("b", {}, c.slot + ". " + c.name + (c.other_world ? " (Other World)" : "")), el("div", { class: "note" }, (c.ordered ? "In order: " : "") +
        c.tasks.map((t) => (t.done ? "\u2714 " : "") + esNeed(t.need) + (t.monster ? " (monster)" : "")).join(" · ") + (c.lock ? " · locks a " + c.lock + " die" : "")));
      if ((standIn.adventures || []).includes(c.slot)) li.append(standNote("This card"));
      if (odds && odds.slot === c.slot && typeof odds.probability === "number") li.append(el("div", { class: "warn" }, "Chance to complete it with the best play: " + pct(odds.probability)));
      return li;
    }));
    const a = s.attempt;
    const box = $("#es-attempt");
    if (!a) fill(box, [el("p", { class: "note" }, "No roll under way. " + (odds ? "At " + odds.name + ": " + odds.tasks.map((t) => esNeed(t.need) + " " + pct(t.probability)).join(" · ") + " (each task alone)." : ""))]);
    else {
      const parts = [el("p", {}, "At " + (a.place === "ancient-one" ? (standIn.ancient_one ? "the Ancient One" : s.ancient_one.name) : "adventure " + a.place) + ": " + plural(a.dice_to_roll, "die", "dice") + " to roll (" + (s.next_dice || []).join(", ") + ").")];
      if (a.last) { const r = el("div", { class: "chips", id: "es-last" }); for (const f of a.last) r.append(chip(ES_FACE[String(f).split(":").pop()] || f, a.failed ? "" : "ok")); parts.push(el("div", { class: "note" }, a.failed ? "The last roll completed nothing: one die is set aside." : "The last roll:"), r); }
      if (a.held.length) parts.push(el("div", { class: "note" }, "Held: " + a.held.map((h) => ES_FACE[h.face] || h.face).join(", ") + "."));
      if (odds) parts.push(el("div", { class: "warn", id: "es-odds" }, (typeof odds.probability === "number" ? "Chance to complete " + odds.name + ": " + pct(odds.probability) + ". " : "") + "Each task alone: " + odds.tasks.map((t) => esNeed(t.need) + " " + pct(t.probability)).join(" · ") + (odds.clues ? " (spending up to " + plural(odds.clues, "clue") + ")" : "") + "."));
      fill(box, parts);
    }
    renderESTurn(s);
  }

  function renderESTurn(s) {
    const card = $("#es-turn");
    const show = isHost() && !s.outcome;
    card.hidden = !show;
    if (!show) return;
    $("#es-turn-title").textContent = playerName(s, s.current_player) + "'s turn";
    const legal = s.legal || [];
    const rolls = legal.filter((x) => x.name === "roll" || x.name === "clue");
    fill($("#es-roll"), rolls.length ? [rowOf([
      button("Roll for me", () => act("/api/roll", {}), "primary", "es-roll-me"),
      button("Tap the real dice", () => esFaces(rolls.find((x) => x.name === "roll") || rolls[0]), "", "es-roll-tap"),
    ])] : []);
    const main = [];
    const moves = legal.filter((x) => x.name === "move");
    if (moves.length) main.push(button("Go to an adventure\u2026", () => pickFrom("Where does " + playerName(s, s.current_player) + " go?", moves), "", "es-move"));
    for (const x of legal.filter((y) => ["clue", "give-up", "add-die", "first-aid"].includes(y.name))) main.push(x.name === "clue" ? button(x.label, () => esFaces(x), "", "es-clue") : actButton(x));
    for (const x of legal.filter((y) => y.name === "end-turn")) main.push(actButton(x, null, "primary"));
    fill($("#es-main"), main);
    fill($("#es-fix-list"), legal.filter((x) => ["adjust", "doom", "elder-signs", "clock", "monster", "set-tasks"].includes(x.name)).map((x) => button(x.label, () => esAsk(x, s), "small")));
  }

  // The faces of the dice the next roll throws, tapped die by die (colours from the companion).
  function esFaces(a) {
    const s = app.state;
    const colours = s.next_dice || [];
    const picked = colours.map(() => null);
    const shown = el("div", { class: "big-ish", id: "es-faces-words" });
    const rows = colours.map((c, i) => {
      const r = el("div", { class: "row" });
      r.append(el("b", {}, capital(c) + " die " + (i + 1) + ":"));
      for (const f of (s.faces_of || {})[c] || []) r.append(button(ES_FACE[f] || f, () => { picked[i] = f; show(); }, "small", "es-die-" + (i + 1) + "-" + f));
      return r;
    });
    const show = () => { shown.textContent = picked.map((f) => (f ? ES_FACE[f] : "?")).join(", "); };
    show();
    sheet(a.name === "clue" ? "A clue: the dice rolled again" : "The dice as they lie", [...rows, shown], "Send the dice", async () => {
      if (picked.some((f) => !f)) { toast("Tap a face for every die first.", true); return false; }
      const out = await command(a.name, { ...a.args, faces: picked.map((f, i) => colours[i] + ":" + f).join(",") });
      return !!out;
    });
  }

  // A card's effect or a correction: a number, an investigator's change, a monster or an adventure's tasks.
  function esAsk(a, s) {
    const num = (name, low, high, value, label) => { const i = el("input", { type: "number", name, min: String(low), max: String(high), value: String(value), inputmode: "numeric" }); return field(label, i); };
    const value = (name) => $("#sheet-body [name=" + name + "]").value;
    if (a.name === "doom" || a.name === "elder-signs") {
      sheet(a.label, [num("n", -5, 5, 1, a.name === "doom" ? "Doom tokens to add (fewer than 0 takes them away)" : "Elder Signs to add")], "Send", () => command(a.name, { n: value("n") }));
    } else if (a.name === "clock") {
      sheet(a.label, [field("Hours to move the clock forward", selectIn("hours", [[3, "3 hours"], [6, "6 hours"], [9, "9 hours"]], 3))], "Send", () => command("clock", { hours: value("hours") }));
    } else if (a.name === "adjust") {
      const who = selectIn("player", (s.investigators || []).map((inv) => [inv.player + 1, playerName(s, inv.player) + " (" + inv.name + ")"]), (s.current_player || 0) + 1);
      sheet(a.label, [field("Who", who), num("sanity", -9, 9, 0, "Sanity change"), num("stamina", -9, 9, 0, "Stamina change"), num("clues", -9, 9, 0, "Clue tokens change")], "Send", () => {
        const args = { player: value("player") };
        for (const k of ["sanity", "stamina", "clues"]) if (Number(value(k))) args[k] = value(k);
        return command("adjust", args);
      });
    } else if (a.name === "monster" || a.name === "set-tasks") {
      const text = el("input", { name: "need", autocomplete: "off", placeholder: a.name === "monster" ? "e.g. inv:3,peril:1" : "e.g. inv:4,lore:1; peril:1" });
      const ord = el("input", { type: "checkbox", name: "ordered" }); const ordL = el("label"); ordL.append(ord, " the tasks are done in order (an arrow on the card)");
      sheet(a.label, [field(a.name === "monster" ? "What the monster asks" : "The tasks, in the card's order (a semicolon between tasks)", text, "investigation as inv:N, then lore:N, peril:N, terror:N"), ...(a.name === "set-tasks" ? [ordL] : [])],
        "Send", () => command(a.name, a.name === "monster" ? { ...a.args, need: text.value } : { ...a.args, tasks: text.value, ...(ord.checked ? { ordered: "true" } : {}) }));
    } else runLegal(a);
  }

  // ---- Among Cultists (companion/games/among_cultists): the night read out, ten rounds of four phases, the vote ----
  const isAC = (s) => !!(s && s.rules === "among-cultists");
  const isSP = (s) => !!(s && s.rules === "spooks");
  const seatName = (s, seat) => playerName(s, Number(seat) - 1);
  const AC_PHASES = [["movement", "Movement"], ["event", "Event"], ["action", "Action"], ["cleanup", "Clean-up"]];
  const AC_HINT = {
    night: "Everyone closes their eyes while the companion reads the night out; the host starts it when the table is ready.",
    movement: "In turn from the knife, each player moves their character.",
    event: "The event of the round is drawn from the bag; it holds for this round only.",
    action: "In turn from the knife, each player does their action. The vote may be called once this round, in the cafeteria.",
    cleanup: "The vote marker turns back and the knife passes to the next player; then the clock moves on.",
  };
  const PAUSES = [[2, "short pauses (2 s)"], [4, "pauses of 4 s"], [6, "pauses of 6 s"], [9, "long pauses (9 s)"], [14, "very long pauses (14 s)"]];
  const pauseNow = () => Number(localStorage.getItem("narration-pause") || 4);

  function pauseSelect() {
    const sel = selectIn("pause", PAUSES, pauseNow());
    sel.id = "narration-pause";
    sel.addEventListener("change", () => localStorage.setItem("narration-pause", sel.value));
    return field("Between the steps", sel);
  }

  async function readOut(kind) {
    return act("/api/host/narrate", { kind, pause: pauseNow() });
  }

  function renderAC(s) {
    const night = s.phase === "night";
    $("#ac-line").textContent = night ? "Before round 1" : s.phase === "over" ? "After " + plural(s.round, "round") : "Round " + s.round + " of " + s.rounds;
    fill($("#ac-glance"), [
      el("span", { id: "ac-knife" }, "The knife: " + seatName(s, s.start_player)),
      el("span", { id: "ac-points" }, "Victory points " + s.points + " of " + s.points_needed),
      el("span", {}, plural(s.cultists, "cultist") + (s.seer ? ", with the seer" : "")),
    ]);
    const out = $("#outcome");
    out.hidden = !s.outcome;
    out.textContent = s.outcome ? (s.outcome === "won" ? "The investigators win!" : "The cultists win.") : "";
    out.className = "outcome " + (s.outcome || "");
    fill($("#ac-phases"), [el("li", { class: night ? "on" : "done" }, "The night")].concat(AC_PHASES.map(([key, word], i) => {
      const at = AC_PHASES.findIndex((p) => p[0] === s.phase);
      return el("li", { class: key === s.phase ? "on" : (!night && at > i) || s.phase === "over" ? "done" : "" }, word);
    })));
    const ev = s.event;
    $("#ac-event").textContent = ev ? (ev.placeholder ? "The companion's event markers are not filled in yet: draw one from your bag and read it out." + (isHost() ? " Enter its name with \u201CThe marker drawn from the real bag\u201D, and every phone shows it." : "") : ev.name + (ev.text ? ": " + ev.text : ""))
      : s.phase === "event" || s.phase === "movement" ? "Not drawn yet this round." : night ? "The first event is drawn in round 1." : "None this round.";
    $("#ac-event-fill").hidden = !(ev && ev.placeholder && isHost() && ev.id);
    const votes = s.votes || [];
    const last = votes[votes.length - 1];
    $("#ac-vote").textContent = (s.body_votes ? "A body was found: the table votes now. " : "") + (s.vote_used ? "The vote has been used this round; it comes back in the clean-up." : "The vote is still open this round: it may be called once, and only in the cafeteria.") +
      (last ? " Last vote (round " + last.round + "): " + (last.seat ? seatName(s, last.seat) + " was voted out" + (last.last ? ", and was the last cultist." : ".") : "nobody had a majority.") : "");
    fill($("#ac-seats"), (s.seats || []).map((x) => {
      const li = el("li", { class: x.start ? "active" : "" });
      li.append(el("b", {}, x.name), el("span", { class: "note" }, " " + [x.start ? "holds the knife" : "", x.out === "voted" ? "voted out: plays on as a ghost" : x.out === "dead" ? "found dead: plays on as a ghost" : ""].filter(Boolean).join(" \u00B7 ")));
      return li;
    }));
    renderACNight(s);
    renderACHost(s);
  }

  function renderACNight(s) {
    const card = $("#ac-night");
    const night = s.phase === "night";
    card.hidden = !night;
    if (!night) return;
    const script = s.night_script || [];
    $("#ac-night-note").textContent = "The companion reads this out with the voice, the table's screen and every phone, with pauses for the eyes to open and close.";
    fill($("#ac-night-steps"), script.map((st) => el("li", {}, st.text)));
    if (!isHost()) return;
    fill($("#ac-night-host"), [pauseSelect(),
      rowOf([button(s.narration && s.narration.kind === "night" ? "Read the night again" : "Read the night out", () => readOut("night"), "primary", "ac-read-night")]),
      ...legalOf(s, "night-done").map((a) => actButton(a, null, "wide"))]);
  }

  function renderACHost(s) {
    const card = $("#ac-host");
    const show = isHost() && !s.outcome && s.phase !== "night";
    card.hidden = !show;
    if (!show) return;
    $("#ac-host-title").textContent = (AC_PHASES.find((p) => p[0] === s.phase) || [0, "This"])[1] + " phase \u00B7 round " + s.round;
    $("#ac-phase-hint").textContent = AC_HINT[s.phase] || "";
    const legal = s.legal || [];
    const main = [];
    for (const a of legal.filter((x) => x.name === "draw-event")) main.push(actButton(a, null, "primary"));
    const entered = legal.filter((x) => x.name === "event");
    if (entered.length) main.push(button("The marker drawn from the real bag\u2026", () => acEvent(entered[0], s), s.physical || (app.options && (app.options.ac_events || []).every((e) => e.placeholder)) ? "primary" : "", "ac-event-enter"));
    const votes = legal.filter((x) => x.name === "vote" && !x.args.called);
    const bodyVotes = legal.filter((x) => x.name === "vote" && x.args.called);
    if (s.body_votes && bodyVotes.length) {
      main.push(el("p", { class: "warn", id: "ac-body-note" }, "A body was found: the table votes now, before the round goes on. This vote does not use up the cafeteria's vote."));
      main.push(button("Count down: 3, 2, 1, point!", () => readOut("vote"), "primary", "ac-countdown-body"));
      main.push(button("Who was voted out?\u2026", () => acVote(bodyVotes[0], s, true), "primary", "ac-body-vote"));
    } else if (votes.length) {
      main.push(button("Count down: 3, 2, 1, point!", () => readOut("vote"), "primary", "ac-countdown"));
      main.push(button("Who was voted out?\u2026", () => acVote(votes[0], s), "", "ac-vote-result"));
    }
    for (const a of legal.filter((x) => x.name === "next-phase" || x.name === "end-round")) main.push(actButton(a, null, "wide"));
    fill($("#ac-main"), main);
    const fix = [];
    for (const a of legal.filter((x) => x.name === "points")) {
      fix.push(button("The investigators gain a victory point", () => command("points", { n: "1" }), "small", "ac-point-plus"));
      if (s.points > 0) fix.push(button("Take a victory point back", () => command("points", { n: "-1" }), "small", "ac-point-minus"));
    }
    for (const a of legal.filter((x) => x.name === "found-dead")) fix.push(button(a.label + "\u2026", () => acSeat(a, s, "Whose character was found dead?"), "small", "ac-dead"));

    for (const a of legal.filter((x) => x.name === "cultists-win")) fix.push(button(a.label, () => confirmSheet("The cultists win?", "Only when the cultists have reached their win at the table. The game ends.", "They win", () => runLegal(a)), "small", "ac-cultists-win"));
    fill($("#ac-fix-list"), fix);
  }

  function acSeat(a, s, title) {
    const seats = (s.seats || []).filter((x) => !x.out);
    sheet(title, seats.map((x) => button(x.name, async () => { closeSheet(); await command(a.name, { ...a.args, seat: String(x.seat) }); }, "wide")), null, null);
  }

  function acVote(a, s, body) {
    const seats = (s.seats || []).filter((x) => !x.out);
    let picked = null;
    const shown = el("div", { class: "big-ish", id: "ac-vote-picked" }, "Nobody chosen yet.");
    const lastBox = el("input", { type: "checkbox", name: "last", id: "ac-vote-last" });
    const lastLabel = el("label"); lastLabel.append(lastBox, " The player voted out showed the last cultist's card");
    const pick = (seat, words) => { picked = seat; shown.textContent = words; };
    const mark = (b) => { rows.forEach((r) => r.classList.toggle("on", r === b)); };
    const rows = seats.map((x) => { const b = button(x.name, () => { pick(String(x.seat), x.name + " is voted out."); mark(b); }, "", "ac-vote-seat-" + x.seat); return b; });
    const nobody = button("Nobody: no majority", () => { pick("none", "Nobody is voted out."); lastBox.checked = false; mark(nobody); }, "", "ac-vote-none");
    rows.push(nobody);
    sheet(body ? "The vote the body called" : "The vote's result", [el("p", { class: "note" }, "A simple majority of the fingers pointing votes a player out."), ...rows, shown, lastLabel], "Send the result", async () => {
      if (!picked) { toast("Tap who was voted out, or nobody, first.", true); return false; }
      const args = { ...a.args, seat: picked };
      if (lastBox.checked && picked !== "none") args.last = "yes";
      return !!(await command("vote", args));
    });
  }

  function acEvent(a, s) {
    const options = ((app.options && app.options.ac_events) || []).filter((e) => !e.placeholder);
    const name = el("input", { name: "event-name", maxlength: "40", autocomplete: "off", placeholder: "as printed on the marker", id: "ac-event-name" });
    const body = [field("Its name", name)];
    let sel = null;
    if (options.length) {
      sel = selectIn("id", [["", "choose\u2026"], ...options.map((e) => [e.id, e.name])], "");
      body.unshift(field("The marker, from your box", sel));
    }
    sheet("Which event marker came out of the bag?", body, "Send", async () => {
      if (sel && sel.value) return !!(await command("event", { id: sel.value }));
      if (!name.value.trim()) { toast(options.length ? "Choose the marker, or type its name, first." : "Type the marker's name first.", true); return false; }
      return !!(await command("event", { name: name.value.trim() }));
    });
  }

  // ---- the script read out (the night, the countdown): big on every phone, in step with the voice ----
  function playNarration(s, live) {
    const n = s && s.narration;
    const box = $("#narration");
    if (!n) {
      if (app.narration) {
        const ended = app.narration.ended;
        stopNarrationView();
        if (!ended && live) toast("The reading was stopped.");
      }
      return;
    }
    if (app.narration && app.narration.id === n.id) return;
    if (app.narration) stopNarrationView();
    app.narration = { id: n.id, timers: [], ended: false };
    if (!live) return;  // a page opened after it began: the steps are on the page, not played over again
    $("#narration-title").textContent = n.title || "";
    $("#narrating-title").textContent = (n.title || "The reading") + " is being read out";
    $("#narration-stop").hidden = !isHost();
    fill($("#narration-steps"), (n.steps || []).map((st, i) => el("span", { class: "dot", id: "narration-dot-" + i })));
    box.hidden = false;
    (n.steps || []).forEach((st, i) => {
      app.narration.timers.push(setTimeout(() => {
        $("#narration-text").textContent = st.text;
        $("#narrating-step").textContent = "step " + (i + 1) + " of " + n.steps.length + ": " + st.text;
        $$("#narration-steps .dot").forEach((d, k) => d.classList.toggle("on", k <= i));
        if (n.kind === "night") $$("#ac-night-steps li").forEach((li, k) => li.classList.toggle("on", k === i));
        if (st.buzz) { buzz([500]); chime([523, 659, 784]); }
      }, Math.max(0, (st.at || 0) * 1000)));
    });
    const end = ((n.length || 0) + 2.5) * 1000;
    app.narration.timers.push(setTimeout(() => {
      box.hidden = true; $("#narrating").hidden = true; if (app.narration) app.narration.ended = true;
      $$("#ac-night-steps li").forEach((li) => li.classList.remove("on"));
    }, end));
  }

  function stopNarrationView() {
    if (app.narration) app.narration.timers.forEach((t) => clearTimeout(t));
    app.narration = null;
    $("#narration").hidden = true;
    $("#narrating").hidden = true;
    $$("#ac-night-steps li").forEach((li) => li.classList.remove("on"));
  }

  // ---- Spooks (companion/games/spooks): the score pad, and what the top card allows ----
  const SP_SUITS = [["spiders", "Spiders"], ["spooks", "Spooks"], ["goblins", "Goblins"], ["bones", "Bones"], ["bats", "Bats"]];
  const SP_CARDS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "M", "cat"];
  const cardWord = (c) => (c === "M" ? "Master" : c === "cat" ? "Black Cat" : c);

  function renderSP(s) {
    const over = !!s.outcome;
    $("#sp-line").textContent = over ? "Game over after " + plural((s.hands || []).length, "hand") + "." :
      "Hand " + s.hand + " \u00B7 " + seatName(s, s.dealer) + " deals";
    const out = $("#outcome");
    out.hidden = !over;
    out.textContent = over ? (s.winner ? seatName(s, s.winner) + " wins with the lowest score!" : (s.winners || []).map((w) => seatName(s, w)).join(" and ") + " share the win!") : "";
    out.className = "outcome " + (over ? "won" : "");
    const limit = s.loss_limit || 200;
    const head = el("tr"); head.append(el("th", {}, "Player"), el("th", { class: "num" }, "Score"), el("th", {}, "to " + limit));
    const rows = (s.scores || []).map((score, i) => {
      const seat = i + 1;
      const tr = el("tr", { class: (s.out || []).includes(seat) ? "out" : seat === s.winner ? "won" : "" , id: "sp-score-" + seat });
      const bar = el("div", { class: "bar" }); const fillBar = el("span"); fillBar.style.width = Math.min(100, (100 * score) / limit) + "%"; bar.append(fillBar);
      const who = el("td"); who.append(el("b", {}, seatName(s, seat)), el("span", { class: "note" }, (seat === s.dealer && !over ? " deals" : "") + ((s.out || []).includes(seat) ? " out" : "")));
      const sc = el("td", { class: "num" }, String(score)); const br = el("td"); br.append(bar);
      tr.append(who, sc, br);
      return tr;
    });
    fill($("#sp-scores"), [head, ...rows]);
    $("#sp-limit").textContent = s.variant === "long" ? "A player who reaches " + limit + " drops out, until three are left; then the lowest score wins." : "When a player reaches " + limit + ", the game ends and the lowest score wins.";
    $("#sp-top-card").hidden = over;
    $("#sp-rules-card").hidden = over;
    const top = s.top;
    $("#sp-top").textContent = top ? "On top: " + (top.suit === "cat" ? "the Black Cat" : cardWord(String(top.number ?? "")) + " of " + (SP_SUITS.find((x) => x[0] === top.suit) || [0, top.suit])[1]) : "No top card entered.";
    fill($("#sp-may"), [].concat(s.may_play || []).map((t) => el("li", {}, t)));
    fill($("#sp-rules"), (s.rules_in_force || []).map((t) => el("li", {}, t)));
    const hh = el("tr"); hh.append(el("th", {}, "Hand"), ...(s.player_names || []).map((n) => el("th", { class: "num" }, n)));
    fill($("#sp-hands"), [hh, ...(s.hands || []).map((h, k) => { const tr = el("tr"); tr.append(el("td", {}, String(k + 1)), ...h.map((p) => el("td", { class: "num" }, p === null || p === undefined ? "\u2013" : String(p)))); return tr; })]);
    if (!(s.hands || []).length) fill($("#sp-hands"), [el("tr", {}, "")]);
    renderSPHost(s);
  }

  function renderSPHost(s) {
    const card = $("#sp-host");
    const show = isHost() && !s.outcome;
    card.hidden = !show;
    fill($("#sp-top-host"), []);
    if (!show) return;
    $("#sp-host-title").textContent = "When hand " + s.hand + " is over";
    const legal = s.legal || [];
    const hands = legal.filter((x) => x.name === "hand");
    const main = [];
    if (hands.length) {
      main.push(button("Count the cards left in each hand\u2026", () => spCards(s), "primary", "sp-count"));
      main.push(button("Type each player's points\u2026", () => spPoints(s), "", "sp-points"));
    }
    fill($("#sp-main"), main);
    const tops = legal.filter((x) => x.name === "top");
    if (tops.length) fill($("#sp-top-host"), [button("Set the top card\u2026", () => spTop(s), "", "sp-top-set")]);
    const fix = [];
    for (const a of legal.filter((x) => x.name === "master")) {
      const rule = (s.master_rules || {})[a.args.suit];
      fix.push(button(a.label, () => (rule ? confirmSheet(a.label + "?", rule, "Yes, it was played", () => runLegal(a)) : runLegal(a)), "small", "sp-master-" + a.args.suit));
    }
    for (const a of legal.filter((x) => x.name === "end")) fix.push(button(a.label, () => confirmSheet("No score for this hand?", "The hand is given up (a misdeal) and the deal moves on.", "Give it up", () => runLegal(a)), "small", "sp-end"));
    fill($("#sp-fix-list"), fix);
  }

  function spSeatsIn(s) { return (s.seats_in || (s.scores || []).map((_, i) => i + 1)); }

  function spPoints(s) {
    const seats = spSeatsIn(s);
    const inputs = seats.map((seat) => { const i = el("input", { type: "number", name: "p" + seat, min: "0", max: "999", value: "", inputmode: "numeric", id: "sp-p-" + seat }); return field(seatName(s, seat), i); });
    sheet("This hand's points", [el("p", { class: "note" }, "The points of the cards left in each hand; the player who went out has 0."), ...inputs], "Add the hand", async () => {
      const blank = seats.filter((seat) => !$("#sp-p-" + seat).value.trim());
      if (blank.length) { toast("Give " + blank.map((seat) => seatName(s, seat)).join(" and ") + " a number: 0 for the player who went out.", true); return false; }
      const points = seats.map((seat) => String(Number($("#sp-p-" + seat).value)));  // the seats still in
      return !!(await command("hand", { points: points.join(",") }));
    });
  }

  function spCards(s) {
    const seats = spSeatsIn(s);
    const left = {}; seats.forEach((seat) => { left[seat] = []; });
    const value = s.card_points || {};
    const rows = seats.map((seat) => {
      const box = el("div", { class: "stack sp-seat" });
      const words = el("div", { class: "note", id: "sp-left-" + seat });
      const show = () => {
        const sum = left[seat].reduce((t, c) => t + (value[c] || 0), 0);
        words.textContent = left[seat].length ? left[seat].map(cardWord).join(", ") + " = " + sum + " points" : "No cards left (0 points).";
      };
      const pad = el("div", { class: "pad" });
      for (const c of SP_CARDS) pad.append(button(cardWord(c), () => { left[seat].push(c); show(); }, "small", "sp-card-" + seat + "-" + c));
      pad.append(button("Take back", () => { left[seat].pop(); show(); }, "small quiet", "sp-undo-" + seat));
      box.append(el("b", {}, seatName(s, seat)), pad, words);
      show();
      return box;
    });
    sheet("The cards left in each hand", [el("p", { class: "note" }, "Tap each card still in a player's hand. The companion counts them."), ...rows], "Add the hand", async () => {
      const cards = seats.map((seat) => left[seat].join("+"));  // the seats still in, in seat order
      return !!(await command("hand", { cards: cards.join(";") }));
    });
  }

  function spTop(s) {
    let suit = null;
    const nums = el("div", { class: "pad", id: "sp-top-numbers" });
    const suits = el("div", { class: "chips sp-suits" });
    for (const [key, word] of SP_SUITS) {
      const b = button(word, () => { suit = key; nums.hidden = false; $$("#sheet-body .sp-suits button").forEach((x) => x.classList.toggle("on", x === b)); }, "small", "sp-suit-" + key);
      suits.append(b);
    }
    suits.append(button("The Black Cat", async () => { closeSheet(); await command("top", { suit: "cat" }); }, "small", "sp-suit-cat"));
    nums.hidden = true;
    for (const c of SP_CARDS.slice(0, 11)) nums.append(button(cardWord(c), async () => { if (!suit) return; closeSheet(); await command("top", { suit, number: c }); }, "small", "sp-num-" + c));
    sheet("The card on top of the discard pile", [el("p", { class: "note" }, "Its suit, then its number."), suits, nums], null, null);
  }

  // ---- history, hardware, tray ---------------------------------------------------------------
  async function loadHistory() {
    let items;
    try { items = await api("/api/history"); } catch (e) { return; }
    app.history = items;
    const hhmm = (t) => (t ? new Date(t * 1000).toTimeString().slice(0, 5) : "");
    fill($("#history"), items.slice().reverse().map((h) => {
      const li = el("li");
      li.append(el("span", { class: "when" }, hhmm(h.at)), el("span", { class: "what" }, h.text));
      return li;
    }));
    if (!items.length) fill($("#history"), [el("li", { class: "dim" }, "Nothing yet.")]);
    renderUndo(app.state);
  }

  function renderUndo(s) {
    const last = app.history[app.history.length - 1];
    const can = !!last && s && s.game_id !== null && s.game_id !== undefined;
    for (const id of ["#undo-btn", "#log-undo"]) {
      const b = $(id);
      b.disabled = !can;
      b.textContent = can ? "Undo: " + shorten(last.text) : "Nothing to undo";
    }
    for (const id of ["#redo-btn", "#log-redo"]) {
      const b = $(id);
      b.hidden = !(s && s.redo);
      b.textContent = s && s.redo ? "Redo: " + shorten(s.redo) : "Redo";
    }
  }
  const shorten = (t) => (t && t.length > 70 ? t.slice(0, 67) + "\u2026" : t || "");

  function undoAsk() {
    const last = app.history[app.history.length - 1];
    if (!last) return;
    confirmSheet("Take this back?", last.text, "Undo it", () => act("/api/undo", {}));
  }
  const redoNow = () => act("/api/redo", {});

  async function loadHardware() {
    try {
      const hw = await api("/api/hardware");
      $("#hw-card").hidden = false;
      const marks = { 0: "XII", 90: "III", 180: "VI", 270: "IX" };
      const angle = hw.hand_angle === null ? null : ((Math.round(hw.hand_angle) % 360) + 360) % 360;
      $("#hw-angle").textContent = angle === null ? "–" : marks[angle] ? "at " + marks[angle] : "turning";
      $("#oled").src = "/api/hardware/oled.png?t=" + Date.now();
    } catch (e) { /* hardware is optional */ }
  }

  async function loadTray() {
    if (!app.session || !app.session.tray) return;
    try {
      const t = await api("/api/tray");
      $("#tray-card").hidden = false;
      app.tray = t;
      fill($("#tray-dice"), (t.dice || []).map((d) => chip((d.cocked ? "cocked: reroll it" : (d.value ?? "?")) + (d.color ? " \u00B7 " + d.color : ""), d.value ? "" : "red")));
      if (!(t.dice || []).length) fill($("#tray-dice"), [el("span", { class: "dim" }, "No dice read yet.")]);
      $("#tray-at").textContent = t.at ? "read at " + new Date(t.at * 1000).toTimeString().slice(0, 5) : "";
      const lastName = (app.history[app.history.length - 1] || { command: {} }).command.name;
      $("#tray-fix").hidden = !["roll", "summon", "pull"].includes(lastName);
      $("#tray-use").hidden = !(app.state && (app.state.attempt || legalOf(app.state, "summon").length));
      $("#tray-error").hidden = !t.error;
      $("#tray-error").textContent = t.error || "";
      const img = $("#tray-photo");
      img.hidden = !t.photo;
      if (t.photo) img.src = "/api/tray/photo?t=" + Date.now();
      if (isHost() && t.teach) renderTeach(t);
    } catch (e) { /* no tray */ }
  }

  // Teaching the reader: each die of the last photo gets the value the host sees (vision.teach.Teacher).
  function renderTeach(t) {
    $("#teach").hidden = false;
    fill($("#teach-dice"), (t.dice || []).map((d, i) => {
      const li = el("li", { class: "row" });
      const pick = selectIn("value", [["", d.value ? "read " + d.value + ": right" : "unsure: choose"]].concat([1, 2, 3, 4, 5, 6].map((v) => [v, String(v)]), [["none", "not a die"]]), "");
      pick.dataset.die = i;
      li.append(el("span", { class: "grow" }, "Die " + (i + 1) + (d.color ? " (" + d.color + ")" : "") + ": read " + (d.value ?? "?")), pick);
      return li;
    }));
    if (!(t.dice || []).length) fill($("#teach-dice"), [el("li", { class: "dim" }, "No dice in the last photo.")]);
    loadTeach();
  }
  async function loadTeach(status) {
    try {
      const st = status || await api("/api/host/teach");
      $("#teach-status").textContent = (st.running ? "Teaching the reader\u2026 (about half a minute on the Pi)" : st.error ? capital(st.error) : st.taught ? "Taught from " + plural(st.taught.photos, "photo") + " (" + plural(st.taught.dice, "die", "dice") + ") in " + st.taught.seconds + " s." : "")
        + " " + plural(st.kept, "photo") + " kept for teaching." + (st.in_use ? " The tray reads with the taught reader." : " The tray reads with the shipped reader.");
      $("#teach-run").disabled = st.running || !st.kept;
      if (st.running) setTimeout(() => loadTeach(), 2000);
    } catch (e) { $("#teach").hidden = true; }
  }
  async function keepTeach() {
    const dice = (app.tray && app.tray.dice) || [];
    const chosen = $$("#teach-dice select").map((sel) => { const d = dice[Number(sel.dataset.die)]; const v = sel.value === "" ? d.value : sel.value === "none" ? null : Number(sel.value); return { value: v ?? null, box: d.box, unsure: sel.value === "" && !d.value }; });
    if (chosen.some((c) => c.unsure)) { toast("Choose a value for every die the reader was unsure of (or \u201Cnot a die\u201D).", true); return; }
    const out = await act("/api/host/teach/keep", { dice: chosen.map((c) => ({ value: c.value, box: c.box })) });
    if (out) { toast("The photo is kept for teaching."); loadTeach(out); }
  }

  // ---- telling the table: toasts, the Ghost Hour and the other big moments ---------------------------
  function chime(notes) {
    if (localStorage.getItem("muted") === "1") return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      const ctx = app.audio || (app.audio = new Ctx());
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      const t0 = ctx.currentTime;
      (notes || [392, 330, 262, 196]).forEach((f, i) => {
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
  function buzz(pattern) {
    const ua = navigator.userActivation;
    if (navigator.vibrate && (!ua || ua.hasBeenActive)) navigator.vibrate(pattern);
  }

  function showBanner(kind, title, line1, line2, id) {
    $("#banner-title").textContent = title;
    $("#banner-room").textContent = line1 || "";
    $("#banner-env").textContent = line2 || "";
    const b = $("#banner");
    b.dataset.kind = kind;
    b.dataset.eventId = id;
    b.hidden = false;
    app.bannerAt = performance.now();
  }

  // The records of one or more commands (from the host's own answer or the live stream), each told once.
  function tell(records) {
    const fresh = records.filter((r) => r.id === undefined || !app.told.has(r.id));
    fresh.forEach((r) => { if (r.id !== undefined) app.told.add(r.id); });
    if (!fresh.length) return;
    // One command's story at a time: after a catch-up (a phone that slept) only the newest is toasted; the Log has all.
    const stories = fresh.filter((r) => r.story).map((r) => r.story);
    const story = stories.length ? stories[stories.length - 1] : "";
    let bannered = false;
    const gh = fresh.find((r) => r.type === "ghost_hour");
    const ending = fresh.some((r) => r.type === "game_won" || r.type === "game_lost");
    if (gh && !ending) {
      const env = fresh.find((r) => r.type === "environment_drawn");
      const standInEnv = env && /^placeholder/i.test(env.effect || "");
      const envLine = env ? (standInEnv ? "Environment: a card not filled in yet came up (\u201C" + env.name + "\u201D in Your box). Play the real deck's top card, or the host fills the cards in." : "Environment: " + env.name + ". " + (env.effect || "")) : gh.environment ? "Environment: " + gh.environment : "";
      const ghost = (app.state && app.state.ghost) || {};
      const ability = ghost.ability && !/^placeholder/i.test(ghost.ability) ? " " + (ghost.name || "The ghost") + "'s Ghost Hour ability: " + ghost.ability : "";
      showBanner("ghost_hour", "Ghost Hour", gh.room !== null && gh.room !== undefined ? "The ghost appears in " + roomWords(gh.room, gh.room_name) + "." : "", envLine + ability, gh.id);
      buzz([400, 150, 400, 150, 800]);
      chime();
      bannered = true;
    }
    const big = ending ? fresh.filter((r) => r.type === "game_won" || r.type === "game_lost") : fresh.filter((r) => r.announce);
    if (big.length && !bannered) {
      const last = big[big.length - 1];
      const rest = big.slice(0, -1).map((r) => r.announce.text).join(" ");
      showBanner(last.announce.kind, last.announce.title, last.announce.text, rest, last.id);
      buzz([200, 100, 200]);
      chime(last.announce.kind === "lost" || last.announce.kind === "lost_card" ? [330, 262, 196] : [392, 494, 587]);
    } else if (big.length) {
      $("#banner-env").textContent += " " + big.map((r) => r.announce.text).join(" ");
    }
    const rolled = fresh.find((r) => r.type === "rolled");
    if (rolled) { app.lastRoll = rolled.text; if (app.state) renderAttempt(app.state); }
    if (fresh.some((r) => r.type === "undone") && !$("#banner").hidden && !bannered) $("#banner").hidden = true;
    if (story) toast(story, fresh.some((r) => r.type === "game_lost"));
    const searched = fresh.find((r) => r.type === "attempt_succeeded" && r.action === "search");
    if (searched && isHost()) {
      const reveal = legalOf(app.state, "reveal-clue")[0];
      sheet("What was under the search token?", [el("p", {}, "Turn the search token over.")].concat(reveal ? [button("A clue token", async () => { closeSheet(); await runLegal(reveal); }, "wide", "found-clue")] : [])
        .concat([button("An item, a special item or nothing", closeSheet, "wide", "found-other")]), null, null);
    }
    const pulled = fresh.find((r) => (r.type === "summon" || r.type === "pull") && r.success);
    if (pulled && isHost()) {
      // The ghost may be moved now: the reachable rooms light up on the map at once.
      const moves = legalOf(app.state, "move-ghost");
      if (moves.length) startPick("room", moves, "Tap the gold room to move the ghost to (up to two spaces), or Cancel to leave it.");
      else showView("game");
    }
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
    es.addEventListener("game", (m) => {
      app.lastMsg = Date.now();
      const r = JSON.parse(m.data);
      clearTimeout(app.tellLater);
      (app.pending = app.pending || []).push(r);
      app.tellLater = setTimeout(() => { const rs = app.pending; app.pending = []; tell(rs); }, 60);
    });
    es.addEventListener("nogame", () => { app.lastMsg = Date.now(); render({ game_id: null }); });
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
    } catch (e) { /* offline: the connection dot says so */ }
  }

  async function watchdog() {
    const quiet = (app.session && app.session.poll_after ? app.session.poll_after : 20) * 1000;
    if (Date.now() - app.lastMsg > quiet) poll();
    if (app.es && app.es.readyState === EventSource.CLOSED) connect();
    // Before the host has chosen the PIN, follow that choice without a reload.
    if (app.session && !app.session.pin_set) { try { await refreshSession(); } catch (e) { /* offline */ } }
  }

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

  // ---- the host: sign-in, invite, the new-game wizard and the setup checklist ----------------------
  function showHost() {
    const s = app.session;
    const host = !!(s && s.host);
    $$(".host-only").forEach((n) => { n.hidden = !host; });
    $("#pin-title").textContent = host ? "Host" : s.pin_set ? "Host sign-in" : "Choose the host PIN";
    $("#pin-help").textContent = host ? "You are the host: your taps change the game for everyone." :
      s.pin_set ? "Only the host changes the game. The host enters the PIN here; everyone else just watches." : "First start: the host chooses a PIN of 4 to 12 digits. Whoever knows it runs the game.";
    $("#pin-form").hidden = host;
    $("#pin-btn").textContent = s.pin_set ? "Sign in" : "Set the PIN";
    if (host && s.join_url) {
      $("#join-code").textContent = s.join_code;
      $("#join-link").textContent = s.join_url;
      if (!$("#join-qr").src) $("#join-qr").src = "/api/join-qr.svg";
    }
    document.body.classList.toggle("is-host", host);
    if (app.state) { const st = app.state; app.state = null; render(st); } else renderHostPanels();
  }

  function renderHostPanels() {
    const s = app.state;
    const none = !s || s.game_id === null || s.game_id === undefined;
    const wizard = $("#wizard");
    if (isHost()) {
      wizard.hidden = !(none || (s && s.outcome) || app.wantWizard);
      $("#new-game-card").hidden = !wizard.hidden;
      $("#nogame-start").hidden = !none;
    }
  }

  async function refreshSession() {
    const before = app.session && app.session.pin_set;
    app.session = await api("/api/session");
    if (before === undefined || before !== app.session.pin_set || !app.shownHost || app.shownHost !== app.session.host) { app.shownHost = app.session.host; showHost(); }
  }

  function nameInputs(n) {
    const box = $("#names");
    const have = $$("#names input").map((i) => i.value);
    const rows = [];
    for (let i = 0; i < n; i++) {
      const input = el("input", { name: "name" + i, maxlength: "24", autocomplete: "off", placeholder: "Player " + (i + 1), "aria-label": "Name of player " + (i + 1) });
      input.value = have[i] || "";
      const label = el("label", {}, (i + 1) + ". ");
      label.append(input);
      rows.push(label);
    }
    fill(box, rows);
    const [low, high] = seatsOf($("#new-form").rules.value);
    $("#add-player").disabled = n >= high;
    $("#drop-player").disabled = n <= low;
    $("#new-start").textContent = "Start the game for " + plural(n, "player");
  }

  // how many players each game seats (its engine checks it again)
  const SEATS = { skeptics: [1, 4], "elder-sign": [1, 8], "among-cultists": [4, 8], spooks: [3, 10] };
  const seatsOf = (rules) => SEATS[rules] || [1, 4];

  function openWizard() { app.wantWizard = true; renderHostPanels(); showView("host"); $("#wizard").scrollIntoView({ block: "start" }); }

  async function startGame(e) {
    e.preventDefault();
    const f = e.target;
    const names = $$("#names input").map((i, k) => i.value.trim() || "Player " + (k + 1));
    const s = app.state;
    const running = s && s.game_id !== null && s.game_id !== undefined && !s.outcome && s.history_length > 0;
    const rules = f.rules.value;
    let body;
    if (rules === "elder-sign") body = { rules, names, ancient_one: f.ancient_one.value || undefined, confirm: !!running };
    else if (rules === "among-cultists") body = { rules, names, cultists: f.cultists.value ? Number(f.cultists.value) : undefined, seer: f.seer.checked, points_needed: f.points_needed.value ? Number(f.points_needed.value) : undefined, physical: f.ac_physical.checked, confirm: !!running };
    else if (rules === "spooks") body = { rules, names, variant: f.variant.value, decks: Number(f.sp_decks.value), master_effects: f.master_effects.checked, confirm: !!running };
    else body = { names, board: f.board.value, ghost: f.ghost.value, special_items: Number(f.special_items.value), easier: Number(f.easier.value), physical: f.decks.value === "physical", confirm: !!running };
    const go = async () => {
      const out = await act("/api/new-game", body);
      if (out) {
        app.wantWizard = false; renderHostPanels(); showView("game");
        toast(rules === "among-cultists" ? "The game starts with the night: deal the envelopes, then read the night out." : rules === "spooks" ? "The game starts: " + names[0] + " deals the first hand." : "The game starts. Set up the table, then " + names[0] + " begins.");
      }
    };
    if (running) confirmSheet("Leave the game under way?", "It stays in the history; a new game starts now.", "Start the new game", go); else await go();
  }

  async function loadChecklist() {
    const card = $("#checklist-card");
    const s = app.state;
    const gameKey = s ? s.game_id + "-" + (s.started || 0) : "";
    if (!isHost() || !s || s.game_id === null || s.game_id === undefined || s.outcome || s.history_length > 0 || localStorage.getItem("setup-done-" + gameKey)) { card.hidden = true; return; }
    try {
      const c = await api("/api/setup-checklist");
      const key = "setup-" + gameKey;
      const ticked = new Set(JSON.parse(localStorage.getItem(key) || "[]"));
      fill($("#checklist"), c.items.map((it) => {
        const li = el("li");
        const box = el("input", { type: "checkbox", "data-item": it.id });
        box.checked = ticked.has(it.id);
        box.addEventListener("change", () => { if (box.checked) ticked.add(it.id); else ticked.delete(it.id); localStorage.setItem(key, JSON.stringify([...ticked])); });
        const label = el("label");
        label.append(box, " " + it.text);
        li.append(label);
        return li;
      }));
      card.hidden = false;
    } catch (e) { card.hidden = true; }
  }

  // ---- what the host looks after: problems, phones, sign-in attempts, backups ----------------------
  const ago = (t) => { const m = Math.round((Date.now() / 1000 - t) / 60); return m < 1 ? "just now" : m < 60 ? m + " min ago" : Math.round(m / 60) + " h ago"; };

  async function loadProblems() {
    try {
      const p = await api("/api/problems");
      const items = p.problems || [];
      $("#problems").hidden = !items.length;
      fill($("#problems-list"), items.map((t) => el("li", {}, t)));
    } catch (e) { /* shown again on the next look */ }
  }

  async function loadPhone() {
    try { const me = await api("/api/phone"); if (me.name && !$("#phone-form").name.value) $("#phone-form").name.value = me.name; } catch (e) { /* optional */ }
  }

  async function loadHostCare() {
    if (!isHost()) return;
    api("/api/box").then((b) => { app.box = b; $("#box-card-note").textContent = boxSummary(); }).catch(() => { $("#box-card-note").textContent = ""; });
    try {
      const ph = await api("/api/host/phones");
      fill($("#phones"), (ph.phones || []).map((x) => {
        const li = el("li", { class: "row" });
        li.append(el("span", { class: "grow" }, (x.name || "A phone without a name") + (x.host ? " (host)" : "") + (x.this ? " · this phone" : "") + " · seen " + ago(x.seen)));
        if (!x.this) li.append(button("Remove", () => confirmSheet("Remove this phone?", (x.name || "This phone") + " leaves the table; it can join again with the join code.", "Remove it", async () => { await act("/api/host/phones/remove", { id: x.id }); loadHostCare(); }), "small danger"));
        return li;
      }));
    } catch (e) { /* not offered by this companion */ }
    try {
      const sec = await api("/api/host/security");
      const lines = [];
      for (const [key, what] of [["pin", "wrong host PINs"], ["join", "wrong join codes"]]) {
        const r = sec[key] || {};
        if (r.failures_in_window) lines.push(r.failures_in_window + " " + (r.failures_in_window === 1 ? what.replace(/s$/, "").replace("PINs", "PIN") : what) + " lately.");
        for (const l of r.locked || []) lines.push("A phone at " + l.address + " must wait " + Math.ceil(l.wait) + " s after " + l.failures + " " + what + ".");
        if (r.everyone_waits) lines.push("Too many " + what + " from everywhere: everyone waits " + Math.ceil(r.everyone_waits) + " s.");
      }
      $("#security").textContent = lines.join(" ") || "No wrong PIN or join code lately.";
    } catch (e) { $("#security").textContent = ""; }
    try {
      const b = await api("/api/host/backups");
      const why = { "game-end": "at the end of a game", daily: "daily", manual: "made by hand", "before-restore": "before a restore" };
      fill($("#backups"), (b.backups || []).slice(0, 6).map((x) => {
        const li = el("li", { class: "row" });
        li.append(el("span", { class: "grow" }, new Date(x.at * 1000).toLocaleString() + " · " + (why[x.reason] || x.reason)));
        li.append(button("Restore", () => confirmSheet("Go back to this backup?", "Every game returns to how it was then. A backup of now is made first, so this can be undone.", "Restore it",
          async () => { if (await act("/api/host/backups/restore", { name: x.name, confirm: true })) toast("The games are back as they were " + new Date(x.at * 1000).toLocaleString() + "."); loadHostCare(); }), "small"));
        return li;
      }));
      if (!(b.backups || []).length) fill($("#backups"), [el("li", { class: "dim" }, "No backup yet.")]);
    } catch (e) { /* not offered by this companion */ }
  }

  async function loadSetupOptions() {
    try {
      const o = await api("/api/setup-options");
      app.options = o;
      const f = $("#new-form");
      fill(f.board, (o.boards || []).map((b) => el("option", { value: b.id }, b.name)));
      fill(f.ghost, (o.ghosts || []).map((g) => el("option", { value: g.id }, g.name + (g.placeholder ? " (not filled in yet)" : ""))));
      fill(f.ancient_one, [el("option", { value: "" }, "drawn at random")].concat((o.ancient_ones || []).map((a) => el("option", { value: a.id }, a.name))));
      const standIns = (o.ac_events || []).every((e) => e.placeholder);
      f.points_needed.placeholder = String(o.ac_points_needed || "");
      f.ac_physical.checked = standIns;
      $("#ac-setup-note").textContent = "Leave the victory points empty for " + (o.ac_points_needed || "the default") + ", or give your box's number. The first name above holds the knife." +
        (standIns ? " The companion's event markers are not filled in yet, so draw them from your own bag." : "");
      app.names = {};
      app.evStandIn = new Set();
      for (const c of o.evidence || []) { app.names[c.id] = c.name; if (c.placeholder) app.evStandIn.add(c.id); }
      if (app.state) { const s = app.state; app.state = null; render(s); }
    } catch (e) { /* filled on the next visit */ }
  }

  function bindHost() {
    $("#open-box").addEventListener("click", openBox);
    $("#ghost-fill").addEventListener("click", () => fillIn("ghosts", app.state && app.state.ghost && app.state.ghost.id));
    $("#box-back").addEventListener("click", () => showView("host"));
    $("#box-board").addEventListener("change", (e) => { app.boxBoard = e.target.value; app.boxFrom = null; renderBoxMap(); });
    $("#box-file").addEventListener("change", (e) => { importBox(e.target.files[0]); e.target.value = ""; });
    $("#undo-btn").addEventListener("click", undoAsk);
    $("#log-undo").addEventListener("click", undoAsk);
    $("#redo-btn").addEventListener("click", redoNow);
    $("#log-redo").addEventListener("click", redoNow);
    $("#pin-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const pin = e.target.pin.value;
      const path = app.session.pin_set ? "/api/host/login" : "/api/host/pin";
      const err = $("#pin-error");
      try {
        await api(path, { pin });
        err.hidden = true;
        e.target.reset();
        await refreshSession();
        showHost();
        loadChecklist();
        toast("Signed in as host.");
      } catch (x) {
        err.hidden = false;
        err.textContent = capital(x.message);  // the field keeps what was typed
      }
    });
    $("#logout").addEventListener("click", async () => { if (await act("/api/host/logout", {})) { await refreshSession(); showHost(); toast("Signed out."); } });
    $("#cmd-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const parts = e.target.text.value.trim().split(/\s+/);
      const args = {};
      for (const p of parts.slice(1)) { const i = p.indexOf("="); if (i > 0) args[p.slice(0, i)] = p.slice(i + 1); else args[p] = "true"; }
      if (await command(parts[0], args)) e.target.reset();
    });
    $("#roll-now").addEventListener("click", () => act("/api/roll", {}));
    $("#roll-tap").addEventListener("click", () => askFaces("roll"));
    $("#tray-use").addEventListener("click", () => sendTray(false));
    $("#tray-fix").addEventListener("click", () => sendTray(true));
    $("#teach-keep").addEventListener("click", keepTeach);
    $("#teach-run").addEventListener("click", async () => { const out = await act("/api/host/teach/run", {}); if (out) loadTeach(out); });
    $("#teach-reset").addEventListener("click", () => confirmSheet("Back to the shipped reader?", "The photos stay kept, so the reader can be taught again.", "Go back", async () => { const out = await act("/api/host/teach/reset", {}); if (out) loadTeach(out); }));
    $("#new-form").addEventListener("submit", startGame);
    $("#new-form").rules.addEventListener("change", (e) => {
      const rules = e.target.value;
      $$("#new-form .sk-setup").forEach((n) => { n.hidden = rules !== "skeptics"; });
      $$("#new-form .es-setup").forEach((n) => { n.hidden = rules !== "elder-sign"; });
      $$("#new-form .ac-setup").forEach((n) => { n.hidden = rules !== "among-cultists"; });
      $$("#new-form .sp-setup").forEach((n) => { n.hidden = rules !== "spooks"; });
      const [low, high] = seatsOf(rules);
      nameInputs(Math.min(high, Math.max(low, $$("#names input").length)));
    });
    $("#add-player").addEventListener("click", () => nameInputs(Math.min(seatsOf($("#new-form").rules.value)[1], $$("#names input").length + 1)));
    $("#drop-player").addEventListener("click", () => nameInputs(Math.max(seatsOf($("#new-form").rules.value)[0], $$("#names input").length - 1)));
    $("#narration-close").addEventListener("click", () => { $("#narration").hidden = true; if (app.narration && !app.narration.ended) $("#narrating").hidden = false; });
    $("#ac-event-fill").addEventListener("click", () => { const ev = app.state && app.state.event; if (ev) fillIn("events", ev.id); });
    $("#narrating-show").addEventListener("click", () => { $("#narrating").hidden = true; $("#narration").hidden = false; });
    $("#narration-stop").addEventListener("click", () => act("/api/host/narrate/stop", {}));
    nameInputs(3);
    $("#end-new").addEventListener("click", openWizard);
    $("#nogame-start").addEventListener("click", openWizard);
    $("#open-wizard").addEventListener("click", openWizard);
    $("#phone-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = e.target.name.value.trim();
      if (!name) { toast("Give this phone a name first.", true); return; }
      if (await act("/api/phone/name", { name })) { toast("This phone is called " + name + "."); loadHostCare(); }
    });
    $("#backup-now").addEventListener("click", async () => { if (await act("/api/host/backups", {})) { toast("A backup of every game is made."); loadHostCare(); } });
    $("#checklist-done").addEventListener("click", () => {
      const s = app.state;
      const done = () => { if (s) localStorage.setItem("setup-done-" + s.game_id + "-" + (s.started || 0), "1"); $("#checklist-card").hidden = true; };
      const left = $$("#checklist input").filter((b) => !b.checked).length;
      if (left) confirmSheet("Is the table set up?", plural(left, "step is", "steps are") + " not ticked yet.", "Yes, start playing", done); else done();
    });
  }

  // The tray's reading, for the roll under way or a summon; or as a correction of the last roll.
  function sendTray(replace) {
    const s = app.state || {};
    const lastName = (app.history[app.history.length - 1] || { command: {} }).command.name;
    if (replace && !["roll", "summon", "pull"].includes(lastName)) { toast("The last thing done was not a roll, so there is no roll to correct.", true); return; }
    const pips = ((app.tray && app.tray.dice) || []).map((d) => d.value);
    if (!pips.length || pips.some((p) => !p)) { toast("A die was not read for sure: tap the real dice instead.", true); return; }
    const a = s.attempt;
    const target = replace ? lastName : a ? "roll" : "summon";
    const kind = target === "roll" ? DIE_OF[(a || {}).action] || "clue" : "summon";
    act("/api/dice", { pips, kind, command: target, replace: !!replace });
  }

  // ---- start --------------------------------------------------------------------------------------
  function showView(name) {
    const cur = $$(".view").find((v) => !v.hidden);
    if (cur) app.scroll[cur.id] = window.scrollY;
    $$(".view").forEach((v) => { v.hidden = v.id !== "v-" + name; });
    window.scrollTo(0, app.scroll["v-" + name] || 0);
    $$("#tabs button").forEach((b) => b.classList.toggle("on", b.dataset.view === name));
    if (name === "dice") loadTray();
    if (name === "host") loadHostCare();
    if (name === "box") app.boxLoading = loadBox();
  }

  function oddsPad() {
    const f = $("#odds-form");
    const counts = { eye: 2, camera: 1 };
    const show = () => { const need = Object.entries(counts).filter(([, n]) => n > 0).map(([k, n]) => k + ":" + n).join(","); f.need.value = need; $("#odds-need-words").textContent = needWords(need); };
    const pad = $("#odds-pad");
    for (const k of ["eye", "camera", "cobweb", "key"]) pad.append(button(ICON[k] + " + " + k, () => { counts[k] = (counts[k] || 0) + 1; show(); }));
    pad.append(button("Clear", () => { for (const k in counts) counts[k] = 0; show(); }));
    show();
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!f.need.value) { toast("Tap the icons first.", true); return; }
      const q = new URLSearchParams({ need: f.need.value, dice: f.dice.value, rolls: f.rolls.value, keep: f.disruption.checked ? "false" : "true" });
      try { const o = await api("/api/odds?" + q); $("#odds-out").textContent = pct(o.probability); } catch (err) { if (err.status) toast(capital(err.message), true); }
    });
  }

  function layoutControls() {
    const params = new URLSearchParams(location.search);
    if (params.has("table")) localStorage.setItem("table-view", params.get("table") === "0" ? "0" : "1");
    const tv = $("#table-view");
    const applyTable = () => { const on = localStorage.getItem("table-view") === "1"; document.body.classList.toggle("table", on); tv.setAttribute("aria-pressed", String(on)); tv.textContent = on ? "Phone view" : "Table view"; if (on) showView("game"); };
    tv.addEventListener("click", () => { localStorage.setItem("table-view", localStorage.getItem("table-view") === "1" ? "0" : "1"); applyTable(); });
    applyTable();
    const sizes = ["16px", "19px", "22px"];
    const applySize = () => { document.documentElement.style.fontSize = sizes[Number(localStorage.getItem("text-size") || 0)] || sizes[0]; document.body.dataset.textSize = localStorage.getItem("text-size") || "0"; };
    $("#text-size").addEventListener("click", () => { localStorage.setItem("text-size", String((Number(localStorage.getItem("text-size") || 0) + 1) % sizes.length)); applySize(); });
    applySize();
  }

  async function start() {
    $$("#tabs button").forEach((b) => b.addEventListener("click", () => showView(b.dataset.view)));
    $("#banner-ok").addEventListener("click", () => { $("#banner").hidden = true; });
    $("#banner").addEventListener("click", (e) => { if (e.target === $("#banner") || e.target.closest(".banner-in")) $("#banner").hidden = true; });
    $("#g-attempt").addEventListener("click", () => showView("dice"));
    $("#sheet-cancel").addEventListener("click", closeSheet);
    $("#sheet-ok").addEventListener("click", async () => { const fn = app.sheetOk; if (!fn) { closeSheet(); return; } const ok = await fn(); if (ok !== false && app.sheetOk === fn) closeSheet(); });
    const mute = $("#mute");
    const showMute = () => { const m = localStorage.getItem("muted") === "1"; mute.setAttribute("aria-pressed", String(m)); mute.textContent = m ? "Sound off" : "Sound on"; };
    mute.addEventListener("click", () => { localStorage.setItem("muted", localStorage.getItem("muted") === "1" ? "0" : "1"); showMute(); });
    showMute();
    layoutControls();
    oddsPad();
    document.addEventListener("pointerdown", () => {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (Ctx && !app.audio) { try { app.audio = new Ctx(); } catch (e) { /* no audio */ } }
    }, { once: true });
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
    showHost();
    loadSetupOptions();
    loadProblems();
    loadPhone();
    setInterval(loadProblems, 30000);
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
