// Your box: the cards of the copy on the table, filled in once (companion/box.py), its board's map, and the whole
// box as a file. Loaded when the host first opens it.
import {
  $, ICON, LASTS, app, el, fill, chip, plural, capital, toast, api, button, rowOf, sheet, confirmSheet, field, textIn,
  textArea, selectIn, posOf, page, closeSheet, loadOptions,
} from "./core.js?v=__VERSION__";
import { needWords, doorWords } from "./skeptics.js?v=__VERSION__";

// Evidence before the ghosts: a ghost's séance symbols are chosen from the evidence tokens.
const BOX_TABS = [["evidence", "Evidence"], ["ghosts", "Ghosts"], ["environment", "Environment cards"], ["clues", "Clue cards"], ["items", "Items"], ["board", "Board"], ["events", "Among Cultists: event markers"], ["es", "Elder Sign"]];
const UNFILLED = "not filled in yet";
const setText = (need) => {  // "eye:2,camera:1,timer" -> {eye: 2, camera: 1, timer: true}
  const out = { eye: 0, camera: 0, cobweb: 0, timer: false, disruption: false };
  for (const p of String(need || "").split(",").filter(Boolean)) {
    const [k, n] = p.split(":");
    if (k === "timer" || k === "disruption") out[k] = true; else if (k in out) out[k] = Number(n || 1);
  }
  return out;
};
const setOf = (c) => ["eye", "camera", "cobweb"].filter((k) => c[k] > 0).map((k) => k + ":" + c[k]).concat(c.timer ? ["timer"] : [], c.disruption ? ["disruption"] : []).join(",");

export async function loadBox(tab) {
  if (tab) app.boxTab = tab;
  try { app.box = await api("/api/box"); } catch (e) { toast(capital(e.message), true); return; }
  app.boxTab = app.boxTab || (app.box.evidence.some((e) => !e.filled) ? "evidence" : "ghosts");
  renderBox();
}
// From the game: open the box at one entry's sheet ("Fill it in from the card").
export async function fillIn(tab, id) {
  app.boxTab = tab;
  page.showView("box");
  await app.boxLoading;
  const b = app.box;
  if (!b) return;
  if (tab === "environment") { const c = b.environment.find((x) => x.id === id); if (c) editEnv(c); }
  if (tab === "ghosts") { const g = b.ghosts.find((x) => x.id === id); if (g) editGhost(g); }
  if (tab === "events") { const ev = (b.events || []).find((x) => x.id === id); if (ev) editEvent(ev); }
}

export function boxSummary() {
  const b = app.box;
  if (!b) return "";
  return b.left ? plural(b.left, "entry", "entries") + " of your box " + (b.left === 1 ? "is" : "are") + " " + UNFILLED + ": until then the page says so instead of showing a stand-in." : "Every card of your box is filled in.";
}

export function renderBox() {
  const b = app.box;
  if (!b) return;
  $("#box-left").textContent = b.left ? plural(b.left, "entry", "entries") + " " + (b.left === 1 ? "is" : "are") + " " + UNFILLED + "." : "Every card of your box is filled in.";
  $("#box-folder").textContent = b.writable ? "Your box is kept on the companion, with the games (in " + b.folder + ")." : "This companion has no folder for your box yet: the one who installed it names one in its configuration file.";
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
  const evidenceFirst = () => {
    const missing = b.evidence.filter((e) => !e.filled).length;
    return missing ? [el("li", { class: "warn", id: "box-evidence-first" }, "First the evidence: " + plural(missing, "token") + " " + (missing === 1 ? "is" : "are") + " " + UNFILLED + ". A ghost's séance symbols are chosen from them."), rowOf([button("Fill in the evidence first", () => { app.boxTab = "evidence"; renderBox(); }, "small")])] : [];
  };
  if (app.boxTab === "evidence") fill(list, [el("li", { class: "note" }, "Start here: the evidence tokens' symbols, then the ghosts (their séance symbols are chosen from these)."), ...b.evidence.map((e) => row(e.name, e.filled, "", () => editEvidence(e), "box-ev-" + e.id))]);
  else if (app.boxTab === "ghosts") fill(list, [...evidenceFirst(), ...b.ghosts.map((g) => row(g.name, g.filled, g.filled ? g.icon_sets.length + " icon sets · difficulty " + g.difficulty : "", () => editGhost(g), "box-ghost-" + g.id))]);
  else if (app.boxTab === "environment") fill(list, b.environment.map((c) => row(c.name, c.filled, (c.deck === "common" ? "Common" : capital(c.deck)) + " card" + (c.filled ? " · " + (LASTS[c.duration] || "") : ""), () => editEnv(c), "box-env-" + c.id)));
  else if (app.boxTab === "items") fill(list, b.items.map((it) => row(it.name, it.filled, it.dice ? "+" + it.dice + " on " + it.actions.join(", ") : "", () => editItem(it), "box-item-" + it.id)));
  else if (app.boxTab === "clues") fill(list, b.clues.map((c) => row(c.name || "Clue card " + c.number, c.filled, c.filled ? "Needs " + needWords(c.icon_set) : "", () => editClue(c), "box-clue-" + c.number)));
  else if (app.boxTab === "events") fill(list, (b.events || []).map((e) => row(e.name, e.filled, e.filled ? e.text : "", () => editEvent(e), "box-event-" + e.id)));
  else if (app.boxTab === "es") {
    // Elder Sign's cards: their own module, loaded when this tab is first opened
    import("./box_es.js?v=__VERSION__").then((m) => {
      if (app.boxTab !== "es") return;
      const pick = el("div", { class: "row box-tabs", id: "box-es-tabs" });
      pick.addEventListener("pick", (e) => { app.boxEsTab = e.detail; renderBox(); });
      const items = el("ul");
      m.renderElderSign(b.elder_sign || {}, app.boxEsTab || "adventures", items, row, saveBox, pick, b.elder_sign_who);
      const head = el("li");
      head.append(el("div", { class: "warn", id: "box-es-left" }, m.elderSignSummary(b)), pick);
      fill(list, [head, ...Array.from(items.children)]);
    }).catch(() => toast("Elder Sign's cards could not be loaded; try again.", true));
  }
  else { fill(list, []); renderBoxMap(); }
}

async function saveBox(part, key, fields) {
  try {
    const out = await api("/api/box", { part, key: String(key), fields });
    app.box = out.box;
    toast(out.said);
    renderBox();
    loadOptions();
    return true;
  } catch (e) { toast(capital(e.message), true); return false; }
}


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
  // the séance symbols are evidence tokens: while some are not named yet, the sheet says to name them first
  const unnamed = b.evidence.filter((x) => !x.filled).length;
  if (unnamed) {
    const first = el("div", { class: "warn", id: "ghost-evidence-first" }, plural(unnamed, "evidence token") + " of your box " + (unnamed === 1 ? "has" : "have") + " no name yet: name them first (the Evidence tab), then tick the ghost's séance symbols by their names.");
    first.append(el("br"), button("Name the evidence first", () => { closeSheet(); app.boxTab = "evidence"; renderBox(); }, "small", "ghost-evidence-go"));
    symbols.append(first);
  }
  for (const e of b.evidence) {
    const l = el("label"); const cb = el("input", { type: "checkbox", value: e.id }); cb.checked = g.filled && g.seance_symbols.includes(e.id);
    l.append(cb, " " + e.name); symbols.append(l);
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
  // "one Fire Token is placed onto each Fire icon on the game board" (skeptics-rulebook.txt:286): the count is the
  // board's, asked of the host when the card comes, never the card's
  const fires = selectIn("fires", [[0, "no"], [1, "yes: one on each fire icon of the board"]], c.fires ? 1 : 0);
  const sets = iconSetsEditor(c.icon_sets, 6, "env-sets");
  sheet("Environment card: " + c.name, [
    el("p", { class: "note" }, "Copy the card's name and effect. Where the effect changes the numbers, say how, and the companion applies it."),
    field("Name", name), field("How long it lasts", lasts), field("Its effect", effect),
    field("Clue dice on every roll while it is in play", dice), field("Actions other than moves, each turn", actions, "With a limit, moves stay free (the Corpse: whoever carries it cannot run)."),
    field("Fire tokens it puts on the board", fires, "The companion asks where the fire icons are when the card comes; each fire is put out with a cobweb on three clue dice; the card ends with the last."),
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
export function renderBoxMap() {
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

export async function importBox(file) {
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
