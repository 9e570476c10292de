// The host's own part of the page: the new-game wizard, the setup checklist, and what the host's buttons do. Only the
// host's page loads it (core.js modules.host, when this phone signs in as the host); signing in, the invitation and
// this phone's name are every phone's, in app.js.
import {
  $, $$, app, el, fill, plural, isHost, toast, act, api, command, confirmSheet, modules, page, cardName,
} from "./core.js?v=__VERSION__";
import { turn } from "./skeptics.js?v=__VERSION__";

// The host's cares (the box's summary, the phones, the sign-in attempts, the backups), on the Host tab.
export const hostCare = () => modules.care().then((m) => m.loadHostCare());

let wizardOptions = null;  // the setup options the wizard's lists were filled from (core.js loadOptions)

export function renderHostPanels() {
  const s = app.state;
  const none = !s || s.game_id === null || s.game_id === undefined;
  const wizard = $("#wizard");
  if (!isHost()) return;
  if (app.options && app.options !== wizardOptions) fillWizard(app.options);
  wizard.hidden = !(none || (s && s.outcome) || app.wantWizard);
  $("#new-game-card").hidden = !wizard.hidden;
  $("#nogame-start").hidden = !none;
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

// The wizard's lists: the boards, the ghosts, the Ancient Ones, the Among Cultists note (from /api/setup-options).
function fillWizard(o) {
  wizardOptions = o;
  const f = $("#new-form");
  fill(f.board, (o.boards || []).map((b) => el("option", { value: b.id }, b.name)));
  // each card by the words the game's module lists it by (a stand-in named by the companion said plainly as one)
  const choice = (c) => el("option", { value: c.id }, c.label || cardName(c));
  // the closed list shows the chosen card's short label; what it is (a stand-in of the box), the module's note, under it
  const noted = (select, cards, note) => {
    const show = () => { const c = cards.find((x) => x.id === select.value); note.textContent = (c && c.note) || ""; note.hidden = !note.textContent; };
    select.onchange = show;
    show();
  };
  fill(f.ghost, (o.ghosts || []).map(choice));
  noted(f.ghost, o.ghosts || [], $("#ghost-note"));
  fill(f.ancient_one, [el("option", { value: "" }, "drawn at random")].concat((o.ancient_ones || []).map(choice)));
  noted(f.ancient_one, o.ancient_ones || [], $("#ancient-one-note"));
  const standIns = (o.ac_events || []).every((e) => e.stand_in);
  f.ac_physical.checked = standIns;
  $("#ac-setup-note").textContent = "Give the number of cultists and the victory points your box's rulebook gives for your number of players: the rules text gives neither. The first name above holds the knife." +
    (standIns ? " The companion's event markers are not filled in yet, so draw them from your own bag." : "");
}

export function bindHost() {
  const box = (then) => modules.box().then(then);
  const tray = (then) => modules.tray().then(then);
  $("#open-box").addEventListener("click", () => page.showView("box"));
  $("#ghost-fill").addEventListener("click", () => box((m) => m.fillIn("ghosts", app.state && app.state.ghost && app.state.ghost.id)));
  $("#box-back").addEventListener("click", () => page.showView("host"));
  $("#box-board").addEventListener("change", (e) => { app.boxBoard = e.target.value; app.boxFrom = null; box((m) => m.renderBoxMap()); });
  $("#box-file").addEventListener("change", (e) => { const file = e.target.files[0]; box((m) => m.importBox(file)); e.target.value = ""; });
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
  $("#backup-now").addEventListener("click", async () => { if (await act("/api/host/backups", {})) { toast("A backup of every game is made."); hostCare(); } });
  $("#checklist-done").addEventListener("click", () => {
    const s = app.state;
    const done = () => { if (s) localStorage.setItem("setup-done-" + s.game_id + "-" + (s.started || 0), "1"); $("#checklist-card").hidden = true; };
    const left = $$("#checklist input").filter((b) => !b.checked).length;
    if (left) confirmSheet("Is the table set up?", plural(left, "step is", "steps are") + " not ticked yet.", "Yes, start playing", done); else done();
  });
}
