// The dice tray's camera: its last reading and photo, the reading sent as the roll (or as a correction of the last
// one), and teaching the reader the table's own dice. Loaded when the companion has a tray.
import {
  $, $$, DIE_OF, app, el, fill, chip, plural, capital, isHost, toast, api, act, legalOf, selectIn,
} from "./core.js?v=__VERSION__";

export async function loadTray() {
  if (!app.session || !app.session.tray) return;
  try {
    const t = await api("/api/tray");
    $("#tray-card").hidden = false;
    app.tray = t;
    // The chips and "Use these dice" are the reading as the service took it (numbered, played at most once).
    const r = t.roll || null;
    // dice read before this game began (the last game's) are not shown as this game's: nor their time, nor the photo
    const shown = t.this_game !== false;
    const dice = r ? r.dice : shown ? (t.dice || []) : [];
    // each die by its face and its colour, in words and a swatch (.die-blue): not by colour alone
    fill($("#tray-dice"), dice.map((d) => chip((d.cocked ? "cocked: reroll it" : (d.face || d.value || "?")) + (d.color ? " \u00B7 " + d.color : ""), (d.value ? (r && !r.usable ? "dim" : "") : "red") + (d.color ? " die die-" + String(d.color).toLowerCase().replace(/[^a-z]/g, "") : ""))));
    const at = r ? r.at : shown ? t.at : null;
    const time = at ? new Date(at * 1000).toTimeString().slice(0, 5) : "";
    if (!dice.length) fill($("#tray-dice"), [el("span", { class: "dim" }, time ? "The tray was empty when last read, at " + time + "." : shown ? "No dice read yet." : "No dice read in this game yet.")]);
    $("#tray-at").textContent = dice.length && time ? "read at " + time : "";
    const note = !r || !dice.length ? "" : r.played ? "Played as a roll. Throw the dice again for the next roll." : r.usable ? "" : "Read before the last roll or move: not this roll. Throw the dice again.";
    $("#tray-note").textContent = note;
    $("#tray-note").hidden = !note;
    const lastName = (app.history[app.history.length - 1] || { command: {} }).command.name;
    // a correction with dice read before the last roll (or already played) would book the wrong dice too
    $("#tray-fix").hidden = !(dice.length && ["roll", "summon", "pull"].includes(lastName) && (!r || r.usable));
    $("#tray-use").hidden = !(r && r.usable && dice.length && app.state && (app.state.attempt || legalOf(app.state, "summon").length || legalOf(app.state, "pull").length));
    $("#tray-error").hidden = !t.error;
    $("#tray-error").textContent = t.error || "";
    const img = $("#tray-photo");
    img.hidden = !t.photo || !shown;
    // the photo is fetched again only for a new reading (the Dice tab asks for the reading every few seconds)
    const seen = [r && r.reading, t.at, t.reads].join("|");
    if (t.photo && (seen !== app.trayPhoto || !img.src)) { app.trayPhoto = seen; img.src = "/api/tray/photo?t=" + Date.now(); }
    if (isHost() && t.teach) renderTeach(t);
    loadThrow();
  } catch (e) { /* no tray */ }
}

// --sim's tray (vision.sim_tray): nobody throws real dice, so any phone throws the dice of the roll under way
// into it; the tray reads them when they settle, as it reads a real throw. On the card of the roll that shows now
// (the Dice tray card, or the game's own roll card); a game with neither shows none.
export async function loadThrow() {
  const box = $("#sim-throw");
  if (!app.session || !app.session.sim_throw) { box.hidden = true; return; }
  const home = $$("[data-throw-home]").find((h) => getComputedStyle(h).display !== "none");
  if (!home) { box.hidden = true; return; }
  if (box.parentElement !== home) home.append(box);
  try {
    const v = await api("/api/tray/throw");
    box.hidden = false;
    $("#sim-throw-btn").disabled = !v.dice.length;
    $("#sim-throw-btn").classList.toggle("primary", !!v.dice.length);  // a throw that cannot be is no primary
    // one highlighted button on the Dice tab: the throw when there are dice to throw, else "Roll for me"
    $("#roll-now").classList.toggle("primary", !(v.dice.length && home.id === "tray-card"));
    // none while a card question is open: a player's phone says what the table waits for (the game's table_waits),
    // once: where its card says it already (.table-waits), the note only what that means for the throw
    const waits = !isHost() && app.state && app.state.table_waits;
    const said = waits && home.querySelector(".table-waits");
    $("#sim-throw-note").textContent = v.dice.length ? "No one throws real dice in the simulation: this throws " + plural(v.dice.length, "die", "dice") + " (" + v.dice.join(", ") + ") into the tray, which reads them when they settle." : said ? "No dice to throw until then." : waits || capital(v.why);
  } catch (e) { box.hidden = true; }
}
export async function throwDice() {
  const out = await act("/api/tray/throw", {});
  loadThrow();
  if (!out) return;
  toast("Thrown: " + out.thrown.join(", ") + ". The tray reads them when they settle.");
  setTimeout(loadTray, 2000);  // a reading that is no roll (dice.auto_roll off) changes no state: look again
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
export async function loadTeach(status) {
  try {
    const st = status || await api("/api/host/teach");
    $("#teach-status").textContent = (st.running ? "Teaching the reader\u2026 (about half a minute on the Pi)" : st.error ? capital(st.error) : st.taught ? "Taught from " + plural(st.taught.photos, "photo") + " (" + plural(st.taught.dice, "die", "dice") + ") in " + st.taught.seconds + " s." : "")
      + " " + plural(st.kept, "photo") + " kept for teaching." + (st.in_use ? " The tray reads with the taught reader." : " The tray reads with the shipped reader.");
    $("#teach-run").disabled = st.running || !st.kept;
    if (st.running) setTimeout(() => loadTeach(), 2000);
  } catch (e) { $("#teach").hidden = true; }
}
export async function keepTeach() {
  const dice = (app.tray && app.tray.dice) || [];
  const chosen = $$("#teach-dice select").map((sel) => { const d = dice[Number(sel.dataset.die)]; const v = sel.value === "" ? d.value : sel.value === "none" ? null : Number(sel.value); return { value: v ?? null, box: d.box, unsure: sel.value === "" && !d.value }; });
  if (chosen.some((c) => c.unsure)) { toast("Choose a value for every die the reader was unsure of (or \u201Cnot a die\u201D).", true); return; }
  const out = await act("/api/host/teach/keep", { dice: chosen.map((c) => ({ value: c.value, box: c.box })) });
  if (out) { toast("The photo is kept for teaching."); loadTeach(out); }
}

// The tray's reading, for the roll under way or a summon; or as a correction of the last roll.
export function sendTray(replace) {
  const s = app.state || {};
  const lastName = (app.history[app.history.length - 1] || { command: {} }).command.name;
  if (replace && !["roll", "summon", "pull"].includes(lastName)) { toast("The last thing done was not a roll, so there is no roll to correct.", true); return; }
  const r = app.tray && app.tray.roll;
  if (!replace) {
    // the reading the card shows, by its number: the companion plays its own copy of it, once
    if (!r) { toast("The tray has not been read yet: throw the dice, or tap the real dice.", true); return; }
    act("/api/tray/use", { reading: r.reading }).then((out) => { if (out) loadTray(); });
    return;
  }
  const pips = ((r ? r.dice : app.tray && app.tray.dice) || []).map((d) => d.value);
  if (!pips.length || pips.some((p) => !p)) { toast("A die was not read for sure: tap the real dice instead.", true); return; }
  const a = s.attempt;
  const kind = lastName === "roll" ? DIE_OF[(a || {}).action] || "clue" : "summon";
  act("/api/dice", { pips, kind, command: lastName, replace: true });
}
