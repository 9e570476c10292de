// The host: signing in, the invitation (the join link and its QR code), the new-game wizard, the setup checklist,
// this phone's name, and what the host's buttons do. The page loads it with the entry.
import {
  $, $$, app, el, fill, plural, capital, isHost, toast, api, act, command, confirmSheet, modules, page, cardName,
} from "./core.js?v=__VERSION__";
import { turn } from "./skeptics.js?v=__VERSION__";

// The host's cares (the box's summary, the phones, the sign-in attempts, the backups), for the host only.
export const hostCare = () => { if (isHost()) modules.care().then((m) => m.loadHostCare()); };
// A phone was renamed, joined or removed: the host's list, when it is on the screen, shows it at once; this phone's
// own name field shows the name the host gave it (unless the player is typing in it).
export const phonesChanged = () => {
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
};

export function showHost() {
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
  if (app.state) { const st = app.state; app.state = null; page.render(st); } else renderHostPanels();
}

export function renderHostPanels() {
  const s = app.state;
  const none = !s || s.game_id === null || s.game_id === undefined;
  const wizard = $("#wizard");
  if (isHost()) {
    wizard.hidden = !(none || (s && s.outcome) || app.wantWizard);
    $("#new-game-card").hidden = !wizard.hidden;
    $("#nogame-start").hidden = !none;
  }
}

export async function refreshSession() {
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

function openWizard() { app.wantWizard = true; renderHostPanels(); page.showView("host"); $("#wizard").scrollIntoView({ block: "start" }); }

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
  else if (rules === "spooks") body = { rules, names, variant: f.variant.value, decks: Number(f.sp_decks.value), master_effects: f.master_effects.checked, master_lasting: f.master_lasting.value, confirm: !!running };
  else body = { names, board: f.board.value, ghost: f.ghost.value, special_items: Number(f.special_items.value), easier: Number(f.easier.value), physical: f.decks.value === "physical", confirm: !!running };
  const go = async () => {
    const out = await act("/api/new-game", body);
    if (out) {
      app.wantWizard = false; renderHostPanels(); page.showView("game");
      toast(rules === "among-cultists" ? "The game starts with the night: deal the envelopes, then read the night out." : rules === "spooks" ? "The game starts: " + names[0] + " deals the first hand." : "The game starts. Set up the table, then " + names[0] + " begins.");
    }
  };
  if (running) confirmSheet("Leave the game under way?", "It stays in the history; a new game starts now.", "Start the new game", go); else await go();
}

export async function loadChecklist() {
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

export async function loadPhone() {
  try { const me = await api("/api/phone"); if (me.name && !$("#phone-form").name.value) $("#phone-form").name.value = me.name; } catch (e) { /* optional */ }
}

export async function loadSetupOptions() {
  try {
    const o = await api("/api/setup-options");
    app.options = o;
    const f = $("#new-form");
    fill(f.board, (o.boards || []).map((b) => el("option", { value: b.id }, b.name)));
    fill(f.ghost, (o.ghosts || []).map((g) => el("option", { value: g.id }, cardName(g))));
    fill(f.ancient_one, [el("option", { value: "" }, "drawn at random")].concat((o.ancient_ones || []).map((a) => el("option", { value: a.id }, a.name))));
    const standIns = (o.ac_events || []).every((e) => e.stand_in);
    f.ac_physical.checked = standIns;
    $("#ac-setup-note").textContent = "Give the victory points your box's rulebook says the investigators need: the rules text gives no number. The first name above holds the knife." +
      (standIns ? " The companion's event markers are not filled in yet, so draw them from your own bag." : "");
    app.names = {};
    app.evStandIn = new Set();
    for (const c of o.evidence || []) { app.names[c.id] = c.name; if (c.stand_in) app.evStandIn.add(c.id); }
    if (app.state) { const s = app.state; app.state = null; page.render(s); }
  } catch (e) { /* filled on the next visit */ }
}

export function bindHost() {
  const box = (then) => modules.box().then(then);
  const tray = (then) => modules.tray().then(then);
  $("#open-box").addEventListener("click", () => page.showView("box"));
  $("#ghost-fill").addEventListener("click", () => box((m) => m.fillIn("ghosts", app.state && app.state.ghost && app.state.ghost.id)));
  $("#box-back").addEventListener("click", () => page.showView("host"));
  $("#box-board").addEventListener("change", (e) => { app.boxBoard = e.target.value; app.boxFrom = null; box((m) => m.renderBoxMap()); });
  $("#box-file").addEventListener("change", (e) => { const file = e.target.files[0]; box((m) => m.importBox(file)); e.target.value = ""; });
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
      loadChecklist();
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
    if (await act("/api/host/logout", {})) { await refreshSession(); showHost(); toast("Signed out."); } else s.host = true; // not signed out: still the host
  });
  $("#cmd-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const parts = e.target.text.value.trim().split(/\s+/);
    const args = {};
    for (const p of parts.slice(1)) { const i = p.indexOf("="); if (i > 0) args[p.slice(0, i)] = p.slice(i + 1); else args[p] = "true"; }
    if (await command(parts[0], args)) e.target.reset();
  });
  $("#roll-now").addEventListener("click", () => act("/api/roll", {}));
  $("#roll-tap").addEventListener("click", () => turn().then((m) => m.askFaces("roll")));
  $("#tray-use").addEventListener("click", () => tray((m) => m.sendTray(false)));
  $("#tray-fix").addEventListener("click", () => tray((m) => m.sendTray(true)));
  $("#teach-keep").addEventListener("click", () => tray((m) => m.keepTeach()));
  $("#teach-run").addEventListener("click", async () => { const out = await act("/api/host/teach/run", {}); if (out) tray((m) => m.loadTeach(out)); });
  $("#teach-reset").addEventListener("click", () => confirmSheet("Back to the shipped reader?", "The photos stay kept, so the reader can be taught again.", "Go back", async () => { const out = await act("/api/host/teach/reset", {}); if (out) tray((m) => m.loadTeach(out)); }));
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
  $("#ac-event-fill").addEventListener("click", () => { const ev = app.state && app.state.event; if (ev) box((m) => m.fillIn("events", ev.id)); });
  nameInputs(3);
  $("#end-new").addEventListener("click", openWizard);
  $("#nogame-start").addEventListener("click", openWizard);
  $("#open-wizard").addEventListener("click", openWizard);
  $("#phone-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = e.target.name.value.trim();
    if (!name) { toast("Give this phone a name first.", true); return; }
    if (await act("/api/phone/name", { name })) { toast("This phone is called " + name + "."); hostCare(); }
  });
  $("#backup-now").addEventListener("click", async () => { if (await act("/api/host/backups", {})) { toast("A backup of every game is made."); hostCare(); } });
  $("#checklist-done").addEventListener("click", () => {
    const s = app.state;
    const done = () => { if (s) localStorage.setItem("setup-done-" + s.game_id + "-" + (s.started || 0), "1"); $("#checklist-card").hidden = true; };
    const left = $$("#checklist input").filter((b) => !b.checked).length;
    if (left) confirmSheet("Is the table set up?", plural(left, "step is", "steps are") + " not ticked yet.", "Yes, start playing", done); else done();
  });
}
