// Skeptics on the host's phone: the turn panel, the sheets it opens (the icons, the dice, the cards drawn, an item
// changing hands) and picking a door or a room on the map. Loaded for the host only.
import {
  $, ICON, KIND_FACES, DIE_OF, app, el, fill, pct, plural, capital, isHost, playerName, toast, api, act, command, legalOf, actButton, stepButton,
  button, rowOf, runLegal, sheet, closeSheet, pickFrom, confirmSheet, field, selectIn, page, cardQuestion, cardName, notFilled,
} from "./core.js?v=__VERSION__";
import { attemptName, dieWords, itemWords, missingOf, needWords, oddsOf, renderMap, roomWords } from "./skeptics.js?v=__VERSION__";

// A give or a pick-up action: which item changes hands, and who gets it, in the same action.
export function askHandOver(a) {
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

export function askItem(s, player) {
  const others = (s.hands || []).filter((h) => h.player !== player).flatMap((h) => h.items.map((it) => ({ ...it, from: h.player })));
  const pick = async (id) => { closeSheet(); await command("hold", { item: id, player: String(player + 1) }); };
  const rows = (s.items_free || []).map((it) => button(itemWords(it) + notFilled(it.stand_in), () => pick(it.id), "wide", "item-" + it.id));
  const given = others.map((it) => button(itemWords(it) + " · from " + playerName(s, it.from), () => pick(it.id), "wide", "item-" + it.id));
  sheet(playerName(s, player) + " gets an item", [el("p", { class: "note" }, "From the Item deck after a search, or given by another player (the give or pick-up action is tapped in the turn panel).")].concat(rows, given), null, null);
}

export function renderTurn(s) {
  const card = $("#turn-card");
  const show = isHost() && !s.outcome;
  card.hidden = !show;
  if (!show) return;
  $("#turn-title").textContent = playerName(s, s.current_player) + "'s turn \u00B7 " + plural(s.actions_left ?? 0, "action") + " left" + (s.actions_limit_words || "");
  const legal = s.legal || [];
  const rollBox = $("#turn-roll");
  const rolls = legal.filter((a) => a.name === "roll");
  // a card not filled in yet: an environment card plays nothing until the host taps what the real card does; a ghost
  // card's icon sets, last set and séance symbols are the host's to tell (the engine's question says which)
  const tap = { ghost: "tell-ghost", fires: "tell-fires" }[s.question && s.question.kind] || "tell-card";
  const told = legal.filter((a) => a.name === tap);
  const asked = !!(told.length && s.card_question);
  // one highlighted button, the likely next step: a card's question, else the roll under way, else ending the turn
  const rolling = !!(rolls.length && s.attempt);
  if (rolling) {
    fill(rollBox, [el("div", { class: "attempt-title" }, attemptName(s.attempt) + ": needs " + needWords(missingOf(s.attempt)) + (oddsOf(s) !== null ? " \u00B7 " + pct(oddsOf(s)) : "")),
      rowOf([button("Roll for me", () => act("/api/roll", {}), asked ? "" : "primary", "roll-me"), button("Tap the real dice", () => askFaces("roll"), "", "roll-tap2")])]);
  } else fill(rollBox, []);
  const main = [];
  if (asked && tap === "tell-fires") main.push(el("div", { class: "warn span-all", id: "card-question" }, s.card_question), actButton(told[0], null, "primary span-all"));
  else if (asked) main.push(...cardQuestion("card-question", s.card_question, told));
  const attempts = legal.filter((a) => a.name === "attempt");
  for (const kind of ["search", "solve"]) {
    const a = attempts.find((x) => x.args.action === kind);
    if (a) main.push(actButton(a));
  }
  for (const a of attempts.filter((x) => x.args.action === "fire")) main.push(actButton(a));  // a fight names its space
  for (const a of attempts.filter((x) => x.args.action === "barrier")) main.push(actButton(a));
  const proves = attempts.filter((x) => x.args.action === "prove");
  if (proves.length) main.push(button("Prove an icon set", () => pickFrom("Which icon set do you prove?", proves), "", "prove-pick"));
  const unlocks = attempts.filter((x) => x.args.action === "unlock");
  if (unlocks.length) main.push(button("Unlock a door", () => startPick("door", unlocks, "Tap the door to unlock on the map, or pick it from the list under the map."), "", "unlock-pick"));
  for (const name of ["summon", "pull"]) for (const a of legalOf(s, name)) main.push(actButton(a));
  const moves = legalOf(s, "move-ghost");
  if (moves.length) main.push(button("Move the ghost", () => startPick("room", moves, "Tap the gold room to move the ghost to, on the map or in the list under it."), "", "move-pick"));
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
  if (tunlocks.length) tableButtons.push(button("A door was opened", () => startPick("door", tunlocks, "Tap the door that was opened, on the map or in the list under it."), "", "tunlock-pick"));
  fill($("#turn-table-list"), tableButtons);
  const ends = [];
  for (const a of legalOf(s, "end-turn")) ends.push(actButton(a, null, rolling || asked ? "" : "primary"));
  for (const a of legalOf(s, "end-round")) {
    const b = el("button", { type: "button", class: "quiet", "data-legal": "end-round" }, a.label);
    const words = s.end_round_words || "";  // companion/games/skeptics/sentences.py end_round_warning
    b.addEventListener("click", () => (words ? confirmSheet("End the round now?", words, "End the round", () => runLegal(a)) : runLegal(a)));
    ends.push(b);
  }
  fill($("#turn-end"), ends);
  if (app.pick) {
    const still = (app.pick.actions || []).filter((p) => legal.some((a) => a.name === p.name && JSON.stringify(a.args) === JSON.stringify(p.args)));
    if (!still.length) endPick();
  }
}

// What a legal action still asks before it is sent (icons, dice, a space, a card, an item), as the sheet that
// asks it; null when it asks nothing (core's runLegal sends it at once).
export function askFor(a) {
  const asks = a.asks || [];
  if (a.name === "attempt" && asks.includes("need")) return () => askIcons(a);
  if (a.name === "tell-fires") return () => askFireSpaces();
  if (asks.includes("faces")) return () => askDice(a);
  if (asks.includes("room")) {
    const msg = a.name === "seance" ? "Tap the first player's space on the map, or pick it in the list under the map: the ghost comes there at the end of this round." : "Tap the space on the map where the ghost is, or pick it in the list under the map.";
    return () => startPick("space", [a], msg);
  }
  if (a.name === "attempt" && ["prove", "unlock", "solve", "search"].includes(a.args.action)) return () => askBonus(a);
  if (a.name === "reveal-clue" && ((app.state && app.state.clue_cards_to_name) || []).length) return () => askClueCard(a);
  if (a.name === "action" && ["give", "pickup"].includes(a.args.kind) && !a.args.glass) return () => askHandOver(a);
  if (a.name === "attempt") return async () => { const out = await command(a.name, a.args); if (out) showRoll(); return out; };
  return null;
}

// An attempt started: the Dice tab at its top, where the roll card and its buttons are (not where the tab was left
// scrolled, the odds pad or the tray's photo): the next step in sight on a phone.
function showRoll() {
  page.showView("dice");
  window.scrollTo(0, 0);
}

// ---- sheets: icons, dice faces, cards ----------------------------------------------------------------
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
    const n = el("b", { class: "step-n", id: "bonus-items" }, String(bonus.items));
    const row = rowOf([el("span", { class: "step-what" }, "Dice from items:"), stepButton("Dice from items", -1, () => { bonus.items = Math.max(0, bonus.items - 1); n.textContent = bonus.items; onChange(); }, "small"),
      n, stepButton("Dice from items", 1, () => { bonus.items = Math.min(5, bonus.items + 1); n.textContent = bonus.items; onChange(); }, "small", "bonus-item-plus")]);
    row.classList.add("stepper");  // in the icons' columns (askIcons)
    box.append(row);
  } else box.append(el("div", { class: "note" }, "No item helps against an environment card: 3 dice, fewer if a card takes dice away."));
  const args = () => { const o = {}; if (bonus.glass) o.glass = "true"; if (bonus.aid) o.aid = "true"; if (bonus.items !== heldDice) o.items = String(bonus.items); return o; };
  return { box, args, words: () => (bonus.glass ? " + glass" : "") + (bonus.aid ? " + aid" : "") + (bonus.items ? " + " + bonus.items + " from items" : "") };
}

// The icons a roll needs, asked the one way on every sheet that asks them (a search token, a clue card not filled
// in yet, a barrier, a ghost card's icon set, the keys at a door not filled in yet): a counter for each icon (−
// and +), the red icons ticked; then what adds dice, as for a card filled in.
const ICONS_ASKED = {
  search: ["Search: the icons of the object", "Count each blue icon printed on the board's object under the search token (the token covers them only partly), with its red icons."],
  solve: ["Solve: the icons on the clue card", "This clue card is not filled in yet: count the icons printed on it, with its red icons."],
  barrier: ["Barrier: the icons of the barrier", "Count the icons of the barrier's set on the card, with its red icons."],
  unlock: ["Unlock: the keys at the door", "This door is not filled in yet: count the keys printed at it on the board."],
};
// Whether the game would start the roll the sheet sends (the engine's own check, POST /api/command/refusal, nothing
// played): its refusal shown in the sheet before the tap, and no "Start the roll" while it stands (a set of more
// icons than the dice rolled: skeptics-rulebook.txt:148). `args()` is what Start sends; null: nothing to ask yet.
function startChecked(args) {
  const box = el("p", { class: "warn", id: "roll-refused", "aria-live": "polite" });
  box.hidden = true;
  let asked = 0;
  const check = async () => {
    const n = ++asked;
    const sent = args();
    let why = "";
    if (sent) {
      try { why = capital((await api("/api/command/refusal", { command: "attempt", args: sent })).refusal || ""); } catch (e) { return; }
    }
    if (n !== asked || !box.isConnected) return;  // a later change asked again (or the sheet closed): not this answer
    box.textContent = why;
    box.hidden = !why;
    $("#sheet-ok").hidden = !!why;
  };
  return { box, check };
}

function askIcons(a) {
  const action = a.args.action;
  const unlock = action === "unlock";
  const faces = unlock ? ["key"] : ["eye", "camera", "cobweb"];
  const counts = Object.fromEntries(faces.map((f) => [f, 0]));
  const red = { timer: false, disruption: false };
  const words = el("div", { class: "big-ish", id: "need-words" });
  const need = () => faces.filter((f) => counts[f] > 0).map((f) => f + ":" + counts[f]).join(",");
  const bonus = bonusControls(action, () => show());
  const reds = () => Object.keys(red).filter((k) => red[k]);
  const sent = () => { const args = { ...a.args, need: need(), ...bonus.args() }; for (const k of reds()) args[k] = "true"; return args; };
  const start = startChecked(() => (need() ? sent() : null));
  const show = () => {
    start.check();
    const redNeed = reds().map((k) => "," + k).join("");
    words.className = need() ? "big-ish" : "note";  // before any count: guidance, not a warning
    words.textContent = need() ? "Needs " + needWords(need() + redNeed) + ": 3 dice" + bonus.words() + "." : (unlock ? "Count the keys shown at the door." : "Count each icon with its \u2212 and +.");
  };
  const steppers = faces.map((f) => {
    const n = el("b", { class: "step-n", id: "step-" + f }, "0");
    const step = (d) => { counts[f] = Math.max(0, Math.min(unlock ? 4 : 5, counts[f] + d)); n.textContent = counts[f]; show(); };
    const row = rowOf([el("span", { class: "step-what" }, (ICON[f] || "") + " " + f), stepButton(capital(f), -1, () => step(-1), "small", "step-" + f + "-minus"), n, stepButton(capital(f), 1, () => step(1), "small", "step-" + f + "-plus")]);
    row.classList.add("stepper");
    return row;
  });
  const toggles = el("div", { class: "row" });
  if (!unlock) for (const k of Object.keys(red)) {
    const l = el("label");
    const c = el("input", { type: "checkbox", id: "red-" + k });
    c.addEventListener("change", () => { red[k] = c.checked; show(); });
    l.append(c, " red " + k + " icon");
    toggles.append(l);
  }
  const [title, say] = action === "prove"
    ? ["Prove set " + a.args.set + ": its icons on the card", "This ghost card is not filled in yet: count the icons of set " + a.args.set + " as printed on the card on the table, with its red icons."]
    : ICONS_ASKED[action] || ["The icons of the roll", "Count each icon the roll needs, with its red icons."];
  const note = el("p", { class: "note", id: "card-icons-note" }, say);
  const dice = el("div", { class: "note" }, "Cards in play that take dice away are counted by the companion.");
  const here = onGhostSpace(a);
  sheet(title, [note, ...steppers, toggles, words, start.box, bonus.box, ...here.box, ...lingeringWarning(a), dice], "Start the roll", async () => {
    if (!need()) { toast(unlock ? "Count the keys first." : "Count the icons the roll needs first.", true); return false; }
    if (!here.ok()) return false;
    const out = await command("attempt", sent());
    if (out) showRoll();
    return !!out;
  });
  show();
}

// "Action 6: Prove": "if they are on the same space as the Ghost, the player may make a Prove Action" (rulebook
// :225; "Prove (if player is in room with Ghost)", :108). The companion does not know where the investigators stand,
// so the prove sheets ask it: the roll starts only once the host ticks it.
function onGhostSpace(a) {
  if (a.args.action !== "prove") return { box: [], ok: () => true };
  const s = app.state || {};
  const c = el("input", { type: "checkbox", id: "on-ghost-space" });
  const l = el("label", { class: "warn" });
  l.append(c, " " + playerName(s, s.current_player) + " is on the ghost's space" + (s.ghost_room !== null && s.ghost_room !== undefined ? " (" + roomWords(s.ghost_room, s.ghost_room_name) + ")" : ""));
  return { box: [l], ok: () => { if (!c.checked) toast("A prove is made on the ghost's space only: move there first, or tick that " + playerName(s, s.current_player) + " is on it.", true); return c.checked; } };
}

// A prove while the ghost is here: its lingering effect, when the card says it (a warning on the prove sheets).
function lingeringWarning(a) {
  const ghost = (app.state && app.state.ghost) || {};
  return a.args.action === "prove" && ghost.lingering && !/^placeholder/i.test(ghost.lingering)
    ? [el("p", { class: "warn", id: "lingering" }, "While the ghost is here: " + ghost.lingering)] : [];
}

// A prove or an unlock: the icons come from the card or the door; the player says what adds dice.
function askBonus(a) {
  const bonus = bonusControls(a.args.action, () => { line.textContent = "3 dice" + bonus.words() + "."; start.check(); });
  const start = startChecked(() => ({ ...a.args, ...bonus.args() }));
  const line = el("div", { class: "big-ish", id: "bonus-words" }, "3 dice" + bonus.words() + ".");
  const note = el("div", { class: "note" }, "Cards in play that take dice away are counted by the companion; the roll card shows the count.");
  const lingering = lingeringWarning(a);
  const clue = a.args.action === "solve" ? ((app.state && app.state.clues) || []).find((c) => !c.solved && c.need) : null;
  // a prove: the set's icons, from the card or as the table gave them before
  const set = a.args.action === "prove" ? ((app.state && app.state.icon_sets) || []).find((x) => String(x.index) === a.args.set && x.need) : null;
  const needs = clue ? [el("p", { class: "big-ish", id: "clue-needs" }, capital(clue.label) + " needs " + needWords(clue.need) + ".")]
    : set ? [el("p", { class: "big-ish", id: "set-needs" }, "Set " + set.index + " needs " + needWords(set.need) + ".")] : [];
  const here = onGhostSpace(a);
  sheet(a.label, [...needs, line, start.box, bonus.box, ...here.box, note, ...lingering], "Start the roll", async () => {
    if (!here.ok()) return false;
    const out = await command("attempt", { ...a.args, ...bonus.args() });
    if (out) showRoll();
    return !!out;
  });
  start.check();
}

// "Fire Card": "one Fire Token is placed onto each Fire icon on the game board" (skeptics-rulebook.txt:286). The board
// packs do not show the fire icons, so the host taps the spaces of the real board that show one: no made-up count.
function askFireSpaces() {
  const s = app.state || {};
  const picked = new Set();
  const words = el("div", { class: "big-ish", id: "fire-words" });
  const sorted = () => [...picked].sort((x, y) => x - y);
  const show = () => {
    words.className = picked.size ? "big-ish" : "note";
    words.textContent = picked.size ? plural(picked.size, "fire token") + ": on " + sorted().map((n) => roomWords(n)).join(" and ") + "." : "Tap each space of your board that shows a fire icon.";
  };
  const numbers = ((app.board && app.board.spaces) || []).map((r) => Number(r.number)).filter((n) => !Number.isNaN(n)).sort((x, y) => x - y);
  const grid = el("div", { class: "grid", id: "fire-spaces" });
  for (const n of numbers) {
    const b = button(capital(roomWords(n)), () => {
      if (picked.has(n)) picked.delete(n); else picked.add(n);
      b.classList.toggle("primary", picked.has(n));
      b.setAttribute("aria-pressed", String(picked.has(n)));
      show();
    }, "", "fire-space-" + n);
    b.setAttribute("aria-pressed", "false");
    grid.append(b);
  }
  const none = button("This board shows no fire icon", async () => { closeSheet(); await command("tell-fires", { spaces: "none" }); }, "wide", "fire-none");
  sheet("Where are the fire icons?", [el("p", { class: "note" }, s.card_question || ""), words, grid, none], "Put the fire tokens there", async () => {
    if (!picked.size) { toast("Tap the spaces that show a fire icon first, or: this board shows no fire icon.", true); return false; }
    return !!(await command("tell-fires", { spaces: sorted().join(",") }));
  });
  show();
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
  const sim = !!(app.session && app.session.sim_throw) && !(s.attempt && !s.attempt.succeeded);
  // --sim's tray, as on the other roll cards (tray.js): its throw is the one highlighted button
  if (sim) $("#sheet-body").append(button($("#sim-throw-btn").textContent, () => throwSummon(a), "primary wide", "dice-throw"));
  $("#sheet-body").append(rowOf([button("Roll for me", async () => { closeSheet(); await act("/api/roll", { command: a.name }); }, sim ? "" : "primary", "dice-me"),
    button("Tap the real dice", () => { closeSheet(); askFaces(a.name); }, "", "dice-tap")]));
}

// --sim's tray: the team's summon dice thrown into it (POST /api/tray/throw). A summon is no roll under way, so the
// tray does not play its reading as it settles: once read, it is played as this summon or pull ("Use these dice").
async function throwSummon(a) {
  const last = await api("/api/tray").then((t) => (t.roll && t.roll.reading) || 0, () => 0);
  const out = await act("/api/tray/throw", {});
  if (!out) return;
  closeSheet();
  toast("Thrown: " + out.thrown.join(", ") + ". The tray reads them when they settle.");
  for (let i = 0; i < 60; i += 1) {
    await new Promise((done) => setTimeout(done, 500));
    const r = await api("/api/tray").then((t) => t.roll, () => null);
    if (!r || r.reading <= last) continue;
    if (r.usable) await act("/api/tray/use", { reading: r.reading });
    else toast(capital(r.refusal || "the tray's reading cannot be played now."), true);
    return;
  }
  toast("The tray has not read the dice: " + a.label.toLowerCase() + " with the real dice instead.", true);
}

export function askFaces(target, replace) {
  const s = app.state || {};
  const a = s.attempt;
  const kind = target === "roll" ? (DIE_OF[a && a.action] || "clue") : "summon";
  const want = target === "roll" ? (a ? a.dice_to_roll : 0) : (s.summon_dice || 0);
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
  const title = (replace ? "Correct the last roll: " : "") + "tap what the " + plural(want, dieWords(kind) + " die", dieWords(kind) + " dice") + (want === 1 ? " shows" : " show");
  sheet(capital(title), [pad, shown, count, el("div", { class: "note" }, "Tapped a wrong face? Tap it above to take it back."), keepRow], "Send the dice", async () => {
    if (!faces.length) {  // said by the sheet's button too, not only in a toast at the top of the screen
      count.textContent = "0 of " + plural(want, "die", "dice") + ": tap the faces the dice show first.";
      count.className = "warn";
      toast("Tap the faces the dice show first.", true);
      return false;
    }
    const body = { faces: faces.slice(), command: target, replace: !!replace };
    if (!keepRow.hidden && keep.value) body.keep = keep.value === "none" ? "none" : faces.filter((x) => x === keep.value);
    const out = await act("/api/dice", body);
    return !!out;
  });
  redraw();
}

// Physical deck mode: the command draws cards; the host says which came up, in the order drawn.
export async function askCards(path, body, needs, faces, whys) {
  const s = app.state || {};
  const o = app.options || {};
  const selects = needs.map((n, i) => {
    const sel = el("select", { "data-card": n });
    let opts = [];
    if (n === "room") opts = (s.rooms_unseen || []).map((r) => [String(r), roomWords(r)]);
    else if (n === "environment") opts = [...(s.environment_drawable || o.environment || [])]
      .sort((x, y) => !!x.stand_in - !!y.stand_in || x.name.localeCompare(y.name, undefined, { numeric: true }))  // the cards filled in first; "card 4" before "card 10"
      .map((c) => [c.id, cardName(c)]);
    else opts = (o.evidence || []).filter((c) => !(s.evidence || []).some((e) => e.symbol === c.id))
      .map((c) => [c.id, c.name + ((s.seance_symbols || []).includes(c.id) ? " (a séance symbol of the ghost)" : "")]);
    fill(sel, [el("option", { value: "" }, "choose\u2026")].concat(opts.map(([v, t]) => el("option", { value: v }, t))));
    const why = whys && whys[i] ? capital(whys[i]) : ({ room: "The room card drawn", environment: "The environment card drawn", evidence: "The evidence token flipped" }[n] || n);
    const label = el("label", {}, why + (needs.length > 1 ? " (" + (i + 1) + " of " + needs.length + ")" : ""));
    label.append(sel);
    return label;
  });
  return new Promise((resolve) => {
    sheet(needs.every((n) => n === "evidence") ? "Which evidence token came up?" : "What did you draw?", [el("p", { class: "note" }, s.physical ? "You play with the real decks: draw now and choose here what came up, in the order drawn." : "This evidence token is not filled in yet: turn over one of the face-down evidence tokens and choose the symbol it shows.")].concat(selects), "Send", async () => {
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

// ---- picking on the map ----------------------------------------------------------------------------
function startPick(kind, actions, message) {
  app.pick = { kind, actions, message };
  $("#pick-note").hidden = false;
  fill($("#pick-note"), [document.createTextNode(message + " "), button("Cancel", endPick, "small")]);
  page.showView("game");
  renderMap();
  $(".map-card").scrollIntoView({ block: "center", behavior: "smooth" });
}
function endPick() { app.pick = null; $("#pick-note").hidden = true; renderMap(); }
export async function picked(value) {
  const p = app.pick;
  if (!p) return;
  let a = null;
  if (p.kind === "door") a = p.actions.find((x) => x.args.door === value);
  else if (p.kind === "room") a = p.actions.find((x) => x.args.to === String(value));
  else if (p.kind === "space") { a = { ...p.actions[0], args: { ...p.actions[0].args, room: String(value) }, asks: [] }; }
  if (!a) return;
  endPick();
  // the pick is made: the game view back at the turn panel (the map is below it), where the roll's buttons come
  if (isHost()) $("#turn-card").scrollIntoView({ block: "start" });
  if (a.name === "attempt" && a.args.action === "unlock") { ((a.asks || []).includes("need") ? askIcons : askBonus)(a); return; }
  await command(a.name, a.args).then((out) => { if (out && a.name === "attempt") showRoll(); });
}

// After the story is told: what the host does next (what was under the search token; where the pulled ghost goes).
export function afterTold(fresh) {
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
    if (moves.length) startPick("room", moves, "Tap the gold room to move the ghost to (up to two spaces), on the map or in the list under it, or Cancel to leave it.");
    else page.showView("game");
  }
}
