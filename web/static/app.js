// The companion's page: live state over Server-Sent Events; the host plays by tapping what is legal now.
// No framework, no build step: ES modules, each loaded from the companion itself. This entry renders what every
// game shares, follows the live updates and signs the host in; core.js holds what every module shares, skeptics.js
// loads with it, host.js on the host's phone only, and each other game (elder_sign.js, among_cultists.js, spooks.js)
// and view (box.js, care.js, tray.js) when it is first in use. Every sentence a player reads comes from the companion (its sentences): events
// carry "text" and "story", refusals carry "say".
import {
  $, $$, app, el, fill, toast, hideToast, api, act, confirmSheet, closeSheet, chime, buzz, showBanner, hideBanner, isHost, modules, page, capital,
  loadOptions,
} from "./core.js?v=__VERSION__";
import * as skeptics from "./skeptics.js?v=__VERSION__";

// the hand's angle at each hour it can stand on (Among Cultists' round clock uses the hours between the marks)
const HANDS = { XII: 0, I: 30, II: 60, III: 90, IV: 120, V: 150, VI: 180, VII: 210, VIII: 240, IX: 270 };
// The games other than Skeptics, each by its module (loaded when a game of it is first shown) and its body class.
const OTHER_GAMES = { "elder-sign": "es", "among-cultists": "ac", spooks: "sp" };
const loaded = {};

// ---- rendering ----------------------------------------------------------------------------
function fresher(s) {
  const cur = app.state;
  if (!cur) return true;
  if (s.game_id !== cur.game_id) return true;
  return (s.last_event_id ?? -1) >= (cur.last_event_id ?? -1);
}

function render(s) {
  if (!s || !fresher(s)) return;
  // another game (a new one, or one reopened): the last game's banner ("You won!") and message go at its first
  // state, before its module loads; its own records are told after it (the stream sends them just before it)
  if (app.gameSeen !== undefined && s.game_id !== app.gameSeen) { hideBanner(); hideToast(); }
  app.gameSeen = s.game_id;
  const rules = OTHER_GAMES[s.rules] ? s.rules : null;
  if (rules && !loaded[rules]) {
    // The game's module first; a newer state that arrives meanwhile wins (fresher).
    modules[rules]().then((m) => { loaded[rules] = m; render(s); }).catch(() => { /* offline: the next state tries again */ });
    return;
  }
  const game = rules ? loaded[rules] : null;
  const changedGame = !app.state || app.state.game_id !== s.game_id;
  const justEnded = !!s.outcome && (changedGame || !app.state.outcome);
  if (changedGame) $("#last-said").textContent = "";  // never a game before's announcement: the log fills it in
  if (justEnded) hideToast();  // the end card says how it ended: no message of a move before it stays
  app.state = s;
  // the open Games view lists the game that just ended (or the new one) without being opened again
  if ((justEnded || changedGame) && !$("#v-games").hidden) modules.games().then((m) => m.show($("#v-games"))).catch(() => { /* offline: opened again later */ });
  const none = s.game_id === null || s.game_id === undefined;
  $("#nogame").hidden = !none;
  $("#nogame-text").textContent = isHost() ? "Start a game: choose the players, the board and the ghost." : "The host starts a game; this page follows by itself.";
  $$("#v-game > .card:not(#demo-note)").forEach((c) => { if (none) c.dataset.nogame = "1"; else delete c.dataset.nogame; });
  document.body.classList.toggle("no-game", none);
  if (none) { hosting((h) => h.renderHostPanels()); return; }
  if (s.last_event_id !== null && s.last_event_id !== undefined) app.lastId = s.last_event_id;
  const other = !!game;
  for (const [key, cls] of Object.entries(OTHER_GAMES)) document.body.classList.toggle(cls, rules === key);
  document.body.classList.toggle("other", other);
  if (changedGame) followTabs();
  if ($("#title").textContent !== (s.rules_title || "Skeptics")) { $("#title").textContent = s.rules_title || "Skeptics"; fitTitle(); }
  $("#clock-label").textContent = game && game.clockLabel ? game.clockLabel(s) : s.clock || "";
  $("#clock").setAttribute("aria-label", "Clock: " + $("#clock-label").textContent);  // the hour, not just "clock"
  $("#hand").setAttribute("transform", "rotate(" + (HANDS[s.clock] || 0) + ")");
  markHour(s.clock);
  const live = !!app.rendered;
  app.rendered = true;
  playNarration(s, live);
  if (app.session && app.session.hardware) { if (changedGame) loadHardware(); clearTimeout(app.hwLater); app.hwLater = setTimeout(loadHardware, 2000); } // the hand takes a moment to turn
  loadThrow();
  if (other) {
    $("#demo-note").hidden = true;
    game.render(s);
    renderEnd(s);
    renderUndo(s);
    hosting((h) => { h.renderHostPanels(); if (changedGame) h.loadChecklist(); });
    followHistory(s, changedGame);
    return;
  }
  skeptics.render(s);
  renderEnd(s);
  renderUndo(s);
  hosting((h) => { h.renderHostPanels(); if (changedGame) h.loadChecklist(); });
  followHistory(s, changedGame);
  if (app.session && app.session.tray && !$("#v-dice").hidden) loadTray();
}

// The log follows every change (a corrected roll keeps the length but changes the last entry).
function followHistory(s, changedGame) {
  if ((s.history_length ?? 0) !== app.historyLength || s.last_event_id !== app.historyEvent || changedGame) {
    app.historyLength = s.history_length; app.historyEvent = s.last_event_id; loadHistory();
  }
}

// The tray's last reading, on a companion with a tray camera.
const loadTray = () => { if (app.session && app.session.tray) modules.tray().then((m) => m.loadTray()); };
// --sim's tray: a phone throws its dice (tray.js), on the card of the roll under way.
const loadThrow = () => { if (app.session && app.session.sim_throw) modules.tray().then((m) => m.loadThrow()); };

function renderEnd(s) {
  const end = $("#end-card");
  end.hidden = !s.outcome;
  end.className = "card endcard " + (s.outcome || "");
  if (!s.outcome) return;
  const sum = s.summary || {};
  $("#end-title").textContent = sum.title || (s.outcome === "won" ? "You won!" : "You lost.");
  $("#end-reason").textContent = sum.why || sum.text || "";
  fill($("#end-lines"), (sum.lines || []).map((t) => el("li", {}, t)));
  modules.games().then((m) => m.endCard(s)).catch(() => { /* offline: the next state tries again */ });  // the luck, the timeline
  $("#end-new").hidden = !isHost();
}

// ---- the script read out (the night, the countdown): big on every phone, in step with the voice ----
function playNarration(s, live) {
  const n = s && s.narration;
  const box = $("#narration");
  if (!n) {
    if (app.narration) {
      const ended = app.narration.ended;
      stopNarrationView();
      // stopped by a move (the vote told during its countdown, the next phase): the page shows the move, and the
      // stop is its expected result; only the Stop button (or an undo) stopping it is told
      const moved = (s.history_length ?? 0) > (app.historyLength ?? 0);
      if (!ended && live && !moved) toast("The reading was stopped.");
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

// ---- the session: signing in as the host, the invitation, this phone's name ---------------------------
// The host's part of the page (host.js), loaded on the host's phone only; `then` runs with it.
function hosting(then) {
  if (isHost()) modules.host().then(then).catch(() => { /* offline: the next state tries again */ });
}

// A phone was renamed, joined or removed: the host's list, when it is on the screen, shows it at once; this phone's
// own name field shows the name the host gave it (unless the player is typing in it).
function phonesChanged() {
  // The list is the host's alone: the page asks again whether it still is the host first (a new PIN typed on
  // another phone makes this one a guest, and the server's refusal would be an error in the console).
  const listed = () => isHost() && !$("#v-host").hidden;
  if (listed()) refreshSession().then(() => {
    if (listed()) return modules.care().then((m) => m.loadPhones());
    if (!isHost()) toast("Signed out: a new host PIN was chosen. Sign in with it.", true);
    return null;
  }).catch(() => { /* offline: the next message tells again */ });
  const field = $("#phone-form").name;
  if (document.activeElement !== field) api("/api/phone").then((me) => { if (me.name && document.activeElement !== field) field.value = me.name; }).catch(() => { /* offline: the next message tells again */ });
}

function showHost() {
  const s = app.session;
  const host = !!(s && s.host);
  $$(".host-only").forEach((n) => { n.hidden = !host; });
  if (!host) $("#voice-card").hidden = true; // care.js shows it to the host where the table speaks
  $("#pin-title").textContent = host ? "Host" : s.pin_set ? "Host sign-in" : "Choose the host PIN";
  $("#pin-help").textContent = host ? "You are the host: your taps change the game for everyone." :
    s.pin_set ? "Only the host changes the game. The host enters the PIN here; everyone else just watches." : "First start: the host chooses a PIN of 4 to 12 digits. Whoever knows it runs the game.";
  $("#pin-form").hidden = host;
  $("#pin-btn").textContent = s.pin_set ? "Sign in" : "Set the PIN";
  // the first PIN is typed twice: a typo would lock the host out
  const again = $("#pin-form input[name=again]");
  again.hidden = !!s.pin_set; again.required = !s.pin_set;
  $("#pin-form input[name=pin]").autocomplete = s.pin_set ? "current-password" : "new-password";
  if (host && s.join_url) {
    $("#join-code").textContent = s.join_code;
    $("#join-link").textContent = s.join_url;
    $("#table-link").textContent = s.join_url + "&table=1";
    if (!$("#join-qr").src) $("#join-qr").src = "/api/join-qr.svg";
  }
  document.body.classList.toggle("is-host", host);
  if (app.state) { const st = app.state; app.state = null; render(st); } else hosting((h) => h.renderHostPanels());
}

async function refreshSession() {
  const before = app.session && app.session.pin_set;
  app.session = await api("/api/session");
  if (before === undefined || before !== app.session.pin_set || !app.shownHost || app.shownHost !== app.session.host) { app.shownHost = app.session.host; showHost(); }
}

async function loadPhone() {
  try { const me = await api("/api/phone"); if (me.name && !$("#phone-form").name.value) $("#phone-form").name.value = me.name; } catch (e) { /* optional */ }
}

// Signing in or out gives this phone a new id: the event stream opened before ends, and the page opens its own at
// once (the host's carries the legal actions, web.events.for_phone) and reads the state anew.
function bindSession() {
  $("#pin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const pin = e.target.pin.value;
    const first = !app.session.pin_set;
    const path = first ? "/api/host/pin" : "/api/host/login";
    const err = $("#pin-error");
    const code = $("#table-code");
    try {
      await api(path, first ? { pin, again: e.target.again.value } : !code.hidden && code.value ? { pin, table_code: code.value.trim() } : { pin });
      err.hidden = true;
      code.hidden = true;
      e.target.reset();
      await refreshSession();
      showHost();
      connect();
      poll();
      hosting((h) => h.loadChecklist());
      toast("Signed in as host.");
    } catch (x) {
      err.hidden = false;
      err.textContent = capital(x.message);  // the field keeps what was typed
      if (x.tableCode) { code.hidden = false; code.required = true; code.focus(); }
    }
  });
  $("#logout").addEventListener("click", async () => {
    // From the tap on this page asks nothing of the host's: the sign-out's own "phones" message can come before
    // its answer, and the host's list would be refused.
    const s = app.session;
    s.host = false;
    if (await act("/api/host/logout", {})) { await refreshSession(); showHost(); connect(); toast("Signed out."); } else s.host = true; // not signed out: still the host
  });
  $("#phone-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = e.target.name.value.trim();
    if (!name) { toast("Give this phone a name first.", true); return; }
    if (await act("/api/phone/name", { name })) { toast("This phone is called " + name + "."); hosting((h) => h.hostCare()); }
  });
}

// ---- history, hardware ---------------------------------------------------------------
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
  if (!$("#last-said").textContent && items.length) $("#last-said").textContent = items[items.length - 1].text;
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

// The face prints only XII, III, VI and IX: any other hour the hand points at is written on the face at its place,
// so the face and the words ("the clock shows VII") say the same hour.
function markHour(hour) {
  const mark = $("#hand-hour");
  const at = HANDS[hour];
  const printed = at === undefined || at % 90 === 0;
  mark.toggleAttribute("hidden", printed);  // an SVG element: the attribute, it has no .hidden
  if (printed) return;
  const rad = (at * Math.PI) / 180;
  mark.setAttribute("x", (45 * Math.sin(rad)).toFixed(1));
  mark.setAttribute("y", (-45 * Math.cos(rad)).toFixed(1));
  mark.textContent = hour;
}

async function loadHardware() {
  try {
    const hw = await api("/api/hardware");
    $("#hw-card").hidden = false;
    const marks = { 0: "XII", 90: "III", 180: "VI", 270: "IX" };
    const angle = hw.hand_angle === null ? null : ((Math.round(hw.hand_angle) % 360) + 360) % 360;
    $("#hw-angle").textContent = angle === null ? "–" : marks[angle] ? "at " + marks[angle] : "turning";
    // the simulated OLED shows the game under way: fetched anew with every change, not on a table display without it
    if (!document.body.classList.contains("table") || document.body.classList.contains("oled")) $("#oled").src = "/api/hardware/oled.png?t=" + Date.now();
  } catch (e) { /* hardware is optional */ }
}

// ---- telling the table: toasts, the Ghost Hour and the other big moments ---------------------------
// The records of one or more commands (from the host's own answer or the live stream), each told once.
function tell(records) {
  const fresh = records.filter((r) => r.id === undefined || !app.told.has(r.id));
  fresh.forEach((r) => { if (r.id !== undefined) app.told.add(r.id); });
  if (!fresh.length) return;
  // One command's story at a time: after a catch-up (a phone that slept) only the newest is toasted; the Log has all.
  const stories = fresh.filter((r) => r.story).map((r) => r.story);
  const story = stories.length ? stories[stories.length - 1] : "";
  const ending = fresh.some((r) => r.type === "game_won" || r.type === "game_lost");
  const bannered = skeptics.ghostHourBanner(fresh, ending);
  // By the announcement's own weight (the game's sentences say it): "screen" is the big banner until OK, the rest
  // is a toast, shown whole, that goes by itself. The banner blocks the page
  // only at the game's end (nothing is left to play); at a midnight, the night, a vote, the game goes on under it.
  const big = ending ? fresh.filter((r) => r.type === "game_won" || r.type === "game_lost") : fresh.filter((r) => r.announce && r.announce.weight !== "toast");
  const routine = fresh.filter((r) => r.announce && r.announce.weight === "toast");
  if (big.length && !bannered) {
    const last = big[big.length - 1];
    const rest = big.slice(0, -1).map((r) => r.announce.text).join(" ");
    showBanner(last.announce.kind, last.announce.title, last.announce.text, rest, last.id, ending);
    // the host must answer something now (a card not filled in yet, the attack's choices): OK takes the host to it
    const question = isHost() && !ending ? $("#v-game .turn:not([hidden]) [id$='-question']") : null;
    app.bannerQuestion = question ? question.id : null;
    if (question) $("#banner-ok").textContent = "Answer the question";
    buzz([200, 100, 200]);
    chime(last.announce.kind === "lost" || last.announce.kind === "lost_card" ? [330, 262, 196] : [392, 494, 587]);
  } else if (big.length) {
    $("#banner-env").textContent += " " + big.map((r) => r.announce.text).join(" ");
  }
  skeptics.rolled(fresh);
  // A banner still up when the game moves on (the host tapped OK and played on; nobody taps the table's) goes:
  // the game's next command, or an undo, ends it. The Ghost Hour's waits for OK until then.
  const movedOn = fresh.some((r) => r.story) && !fresh.some((r) => String(r.id) === $("#banner").dataset.eventId);
  if (!$("#banner").hidden && !bannered && !big.length && movedOn) hideBanner();
  const said = routine.length && !big.length && !bannered ? routine[routine.length - 1].announce : null;
  // the host reads what the command did (the story); the others what it means for the table (the announcement)
  // "Round 1: Round 1 of 10 ..." once; a title that is a sentence already ("You won!") is followed, not colon'd
  const words = (a) => (a.text.startsWith(a.title) ? a.text : a.title + (/[!?.:]$/.test(a.title) ? " " : ": ") + a.text);
  if (big.length || bannered) hideToast();  // the banner says it: no toast of the same command left beside or under it
  else if (said && !(isHost() && story)) toast(words(said), false, "routine");
  // a roll (or a summon) that failed is no good news: its toast is not the success colour (the event says success)
  else if (story) toast(story, fresh.some((r) => r.type === "game_lost"), said ? "routine" : fresh.some((r) => r.success === false) ? "failed" : "");
  const last = big.length ? big[big.length - 1].announce : said;
  if (last || story) $("#last-said").textContent = last ? words(last) : story;
  skeptics.afterTold(fresh);
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
  es.addEventListener("phones", () => { app.lastMsg = Date.now(); phonesChanged(); });
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
  // a reading that plays no roll (the dice taken out, auto_roll off) changes no state: the open Dice tab asks for it
  if (!$("#v-dice").hidden) loadTray();
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

async function loadProblems() {
  try {
    const p = await api("/api/problems");
    const items = p.problems || [];
    $("#problems").hidden = !items.length;
    fill($("#problems-list"), items.map((t) => el("li", {}, capital(t))));
  } catch (e) { /* shown again on the next look */ }
}

// The tabs are the game's now in play: a view open on this phone that the new game has no tab for (Skeptics'
// Ghost and Dice after a switch to another game) gives way to the Game view, its tab lit, on every phone.
function followTabs() {
  const open = $$(".view").find((v) => !v.hidden);
  const tab = open && $("#tabs button[data-view=" + open.id.slice(2) + "]");
  if (tab && getComputedStyle(tab).display === "none") showView("game");
}

// ---- start --------------------------------------------------------------------------------------
function showView(name) {
  const cur = $$(".view").find((v) => !v.hidden);
  if (cur) app.scroll[cur.id] = window.scrollY;
  $$(".view").forEach((v) => { v.hidden = v.id !== "v-" + name; });
  window.scrollTo(0, app.scroll["v-" + name] || 0);
  $$("#tabs button").forEach((b) => b.classList.toggle("on", b.dataset.view === name));
  if (name === "dice") { loadTray(); skeptics.odds().catch(() => toast("The odds calculator could not be loaded; check the Wi-Fi and open the Dice tab again.", true)); }
  if (name === "host") hosting((h) => h.hostCare());
  if (name === "box") app.boxLoading = modules.box().then((m) => m.loadBox()).catch(() => { /* offline: opened again later */ });
  if (name === "games") modules.games().then((m) => m.show($("#v-games"))).catch(() => toast("The Games view could not be loaded; check the Wi-Fi and open it again.", true));
}

// The game's name on one line of the header, whole: its type steps down (to 60%) until the name fits beside the
// header's buttons; a name too long even then wraps between its words ("Among / Cultists"), never cut
function fitTitle() {
  const t = $("#title");
  t.style.fontSize = ""; t.classList.remove("wraps");
  const full = parseFloat(getComputedStyle(t).fontSize);
  for (let k = 0.95; t.scrollWidth > t.clientWidth && k >= 0.6; k -= 0.05) t.style.fontSize = (full * k).toFixed(1) + "px";
  if (t.scrollWidth > t.clientWidth) { t.style.fontSize = ""; t.classList.add("wraps"); }
}

function layoutControls() {
  const params = new URLSearchParams(location.search);
  if (params.has("table")) localStorage.setItem("table-view", params.get("table") === "0" ? "0" : "1");
  document.body.classList.toggle("oled", params.get("oled") === "1");  // the simulated OLED on the table display
  const tv = $("#table-view");
  const applyTable = () => { const on = localStorage.getItem("table-view") === "1"; document.body.classList.toggle("table", on); tv.setAttribute("aria-pressed", String(on)); tv.textContent = on ? "Phone view" : "Table view"; if (on) showView("game"); };
  tv.addEventListener("click", () => { localStorage.setItem("table-view", localStorage.getItem("table-view") === "1" ? "0" : "1"); applyTable(); });
  applyTable();
  const sizes = ["16px", "19px", "22px"];
  const applySize = () => { document.documentElement.style.fontSize = sizes[Number(localStorage.getItem("text-size") || 0)] || sizes[0]; document.body.dataset.textSize = localStorage.getItem("text-size") || "0"; };
  $("#text-size").addEventListener("click", () => { localStorage.setItem("text-size", String((Number(localStorage.getItem("text-size") || 0) + 1) % sizes.length)); applySize(); });
  applySize();
  let width = 0;  // a new text size, a turned phone: the name is fitted again (its own size changes are not watched)
  new ResizeObserver(() => { const w = $("#top").clientWidth + "/" + document.documentElement.style.fontSize; if (w !== String(width)) { width = w; fitTitle(); } }).observe($("#top"));
}

// The game view's buttons that every game has: undo and redo, the script read out.
function bindGame() {
  $("#undo-btn").addEventListener("click", undoAsk);
  $("#log-undo").addEventListener("click", undoAsk);
  $("#redo-btn").addEventListener("click", redoNow);
  $("#log-redo").addEventListener("click", redoNow);
  $("#narration-close").addEventListener("click", () => { $("#narration").hidden = true; if (app.narration && !app.narration.ended) $("#narrating").hidden = false; });
  $("#narrating-show").addEventListener("click", () => { $("#narrating").hidden = true; $("#narration").hidden = false; });
  $("#narration-stop").addEventListener("click", () => act("/api/host/narrate/stop", {}));
}

async function start() {
  Object.assign(page, {
    render, tell, showView,
    askFor: async (a) => (await skeptics.turn()).askFor(a),
    askCards: async (...args) => (await skeptics.turn()).askCards(...args),
  });
  $$("#tabs button").forEach((b) => b.addEventListener("click", () => showView(b.dataset.view)));
  $("#banner-ok").addEventListener("click", () => {
    $("#banner").hidden = true;
    const question = app.bannerQuestion && document.getElementById(app.bannerQuestion);
    if (question) { showView("game"); question.scrollIntoView({ block: "center" }); }
  });
  $("#toast-close").addEventListener("click", hideToast);
  $("#odds-form").addEventListener("submit", (e) => e.preventDefault());  // before odds.js is loaded: no page reload
  $("#banner").addEventListener("click", (e) => { if (e.target === $("#banner") || e.target.closest(".banner-in")) $("#banner").hidden = true; });
  $("#g-attempt").addEventListener("click", () => showView("dice"));
  $("#sim-throw-btn").addEventListener("click", () => modules.tray().then((m) => m.throwDice()));
  // Cancel gives up what the sheet was for: a refusal of its answer goes with it (what was typed is the sheet's to keep)
  $("#sheet-cancel").addEventListener("click", () => { const back = app.sheetCancel; closeSheet(); if ($("#toast").classList.contains("bad")) hideToast(); if (back) back(); });
  $("#sheet-ok").addEventListener("click", async () => { const fn = app.sheetOk; if (!fn) { closeSheet(); return; } const ok = await fn(); if (ok !== false && app.sheetOk === fn) closeSheet(); });
  const mute = $("#mute");
  const showMute = () => { const m = localStorage.getItem("muted") === "1"; mute.setAttribute("aria-pressed", String(m)); mute.textContent = m ? "Sound off" : "Sound on"; };
  mute.addEventListener("click", () => { localStorage.setItem("muted", localStorage.getItem("muted") === "1" ? "0" : "1"); showMute(); });
  showMute();
  layoutControls();
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
  bindGame();
  bindSession();
  showHost();
  loadOptions();
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
