// Skeptics on the page: the clock's round, the ghost and its icon sets, the hands, the roll under way and its odds,
// the board's map, what the table is told at the Ghost Hour, and the odds pad. The default game: the page loads it
// with the entry; the host's turn panel and its sheets are skeptics_turn.js, loaded on the host's phone.
import {
  $, ICON, LASTS, DIE_OF, REASON, app, el, fill, chip, pct, plural, capital, isHost, ghostOn, playerName, api,
  command, legalOf, button, runLegal, confirmSheet, posOf, chime, buzz, showBanner, modules, notFilled,
  noRollWords as rollWords,
} from "./core.js?v=__VERSION__";

// The host's part (skeptics_turn.js): loaded the first time it is needed, on the host's phone only.
let hostTurn = null;
export const turn = () => modules.skepticsTurn().then((m) => (hostTurn = m));

// The Dice tab's odds calculator (odds.js): loaded the first time the Dice tab opens, then it follows every state.
let oddsCalc = null;
export const odds = () => modules.odds().then((m) => {
  if (!oddsCalc) { oddsCalc = m; m.oddsPad(); }
  return m;
});

// The host's turn panel; on any other phone it stays hidden and its module unloaded.
function renderTurn(s) {
  if (hostTurn) hostTurn.renderTurn(s);
  else if (isHost()) turn().then((m) => { if (app.state === s) m.renderTurn(s); });
  else $("#turn-card").hidden = true;
}

// After the story is told, on the host's phone: what the host does next (skeptics_turn.js).
export function afterTold(fresh) {
  if (isHost()) turn().then((m) => m.afterTold(fresh));
}

// The Skeptics cards of the game view (the entry renders what every game shares around them).
export function render(s) {
  $("#demo-note").hidden = !(s.name && /^demo/i.test(s.name));
  $("#demo-note").textContent = "This is a demo game, so there is something to look at while the companion runs as a simulation. The host starts a real one on the Host tab.";
  $("#round").textContent = s.round;
  $("#hour").textContent = s.hour;
  $("#player").textContent = playerName(s, s.current_player ?? 0);
  $("#actions").textContent = s.actions_left ?? "–";
  $("#actions-word").textContent = s.actions_left === 1 ? "action" : "actions";
  $("#actions-limit").textContent = s.actions_limit_words || "";  // what the Corpse leaves of them
  $("#ghost-line").textContent = ghostOn(s) ? "The ghost is in " + roomWords(s.ghost_room, s.ghost_room_name) + (REASON[s.ghost_reason] ? " (" + REASON[s.ghost_reason] + ")" : "") + "." : "The ghost is not on the board.";
  const out = $("#outcome");
  out.hidden = !s.outcome;
  out.textContent = s.outcome ? (s.outcome === "won" ? "Won!" : "Lost.") : "";
  out.className = "outcome " + (s.outcome || "");
  renderGlance(s);

  // after the end no card is played any more: the cards not filled in yet are one short line, not a button each
  const ended = !!s.outcome;
  const unfilledAtEnd = ended ? (s.environment || []).filter((c) => c.stand_in) : [];
  fill($("#env"), (s.environment || []).filter((c) => !unfilledAtEnd.includes(c)).map((c) => {
    const li = el("li");
    const unfilled = c.stand_in || /^placeholder/i.test(c.effect || "");
    li.append(el("b", {}, envName(s, c)), el("div", { class: unfilled ? "warn" : "note" }, unfilled ? "Not filled in yet: read the effect from your card." : c.effect || ""), el("div", { class: "dim", id: "env-lasts-" + c.id }, c.duration ? LASTS[c.duration] || "" : "How long it lasts: read it from your card."));
    const where = (s.fire_spaces || []).length ? " (" + s.fire_spaces.map((n) => roomWords(n)).join(", ") + ")" : "";
    if (c.fires && s.fires) li.append(el("div", { class: "warn", id: "fires-left" }, plural(s.fires, "fire") + " still " + (s.fires === 1 ? "burns" : "burn") + where + ": a cobweb on three clue dice on its space puts one out."));
    const barrier = (s.barriers || []).find((x) => x.card === c.id);
    if (barrier) li.append(el("div", { class: "note" }, "Icon sets to roll: " + barrier.sets.map((x) => (x.done ? "\u2714 " : "") + x.text).join(" · ") + "."));
    if (c.actions) li.append(el("div", { class: "warn" }, "Each turn: " + plural(c.actions, "action") + " other than moves (" + (s.other_actions_used || 0) + " used this turn)."));
    if (c.stand_in && isHost()) li.append(button("Fill it in from the card", () => modules.box().then((m) => m.fillIn("environment", c.id)), "small", "fill-env-" + c.id));
    const legal = legalOf(s, "discard-environment").find((a) => a.args.card === c.id);
    if (legal && isHost()) {
      const b = el("button", { type: "button", class: "small", "data-discard": c.id }, "Met: discard it");
      b.addEventListener("click", () => command("discard-environment", { card: c.id }));
      li.append(b);
    }
    return li;
  }));
  if (unfilledAtEnd.length) $("#env").append(el("li", { class: "dim", id: "env-unfilled-end" }, plural(unfilledAtEnd.length, "card") + " in force at the end " + (unfilledAtEnd.length === 1 ? "was" : "were") + " not filled in yet" + (isHost() ? " (Host, Your box)." : ".")));
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
  if (oddsCalc) oddsCalc.followOdds(s);
  renderTurn(s);
  renderMap();
  if (s.board && s.board !== app.boardId) loadBoard(s.board);
}

function renderGhost(s) {
  const ghost = s.ghost || {};
  $("#ghost-name").textContent = ghost.name || "Ghost";
  $("#ghost-diff").textContent = ghost.difficulty !== undefined && ghost.difficulty !== null ? "Difficulty " + ghost.difficulty : "";
  const filled = (t) => t && !/^placeholder/i.test(t);
  $("#ghost-standin").hidden = !ghost.stand_in;
  $("#ghost-fill").hidden = !(ghost.stand_in && isHost());
  $("#ghost-standin").textContent = "This ghost card is not filled in yet: play by your card. The companion asks the host for each set's icons, how many sets the card has and when its séance symbols are matched; the host can fill it in under Host, Your box.";
  $("#ghost-ability").textContent = (filled(ghost.ability) ? "Ghost Hour ability: " + ghost.ability + " " : "") + (filled(ghost.lingering) ? "Lingering effect: " + ghost.lingering : "") ||
    "This ghost card is not filled in yet: read its ability and lingering effect from your card.";
  const proveActs = legalOf(s, "attempt").filter((a) => a.args.action === "prove");
  fill($("#icon-sets"), (s.icon_sets || []).map((set) => {
    const li = el("li", { class: "set" + (set.proven ? " proven" : "") });
    const what = el("span", { class: "set-what" });
    // a card not filled in yet: a set's icons are the card's, shown once the table gave them
    what.append(el("b", {}, (set.proven ? "\u2714 " : "") + "Set " + set.index + ": "), set.need ? needChips(set.need) : el("span", { class: "note" }, "as on your card"));
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
  // a card not filled in yet: how many icon sets it shows is the host's to tell (asked when the ghost first appears)
  if (ghost.stand_in && s.ghost_sets_told === 0) $("#icon-sets").append(el("li", { class: "note", id: "sets-untold" }, "How many icon sets your card shows: the companion asks when the ghost first appears; each set's icons when it is first rolled for."));
  const first = ghost.first_sets ? (ghost.first_sets === 1 ? "set 1" : "sets 1 to " + ghost.first_sets) : "";
  $("#sets-note").textContent = (first ? "The lingering effect: " + first + " (the top row) must be proven before any other. " : "") +
    (s.outcome ? "" : !ghostOn(s) ? "A set can be proven only while the ghost is on the board." : isHost() ? "Tap Prove\u2026 to start the roll for a set." : "");
  const standIn = (x) => notFilled(app.evStandIn && app.evStandIn.has(x));
  const sym = (x) => ((app.names && app.names[x]) || x) + standIn(x);
  // a token the companion cannot name (not filled in yet): the one the table turned over
  fill($("#evidence"), (s.evidence || []).map((e) => chip(e.stand_in ? "a token turned over at the table" : (e.name || sym(e.symbol)) + (e.name ? standIn(e.symbol) : ""), e.matched ? "ok" : "")));
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

export const itemWords = (it) => it.name + (it.dice ? " (+" + it.dice + " on " + it.actions.join(", ") + ")" : "");
function renderHands(s) {
  fill($("#hands"), (s.hands || []).map((h) => {
    const li = el("li", { class: "hand", id: "hand-" + h.player });
    const head = el("div", { class: "row" });
    head.append(el("b", { class: "grow" }, playerName(s, h.player)), el("span", { class: "note" }, h.glass ? "magnifying glass: " + plural(h.glass, "use") + " left" : "no magnifying glass"));
    const items = el("div", { class: "chips" });
    for (const it of h.items) {
      const c = chip(itemWords(it) + notFilled(it.stand_in));
      if (isHost() && !s.outcome) { c.classList.add("tap"); c.addEventListener("click", () => confirmSheet("Drop the " + it.name + "?", "Dropping is not an action. Put its numbered item token where it was dropped.", "Drop it", () => command("drop", { item: it.id }))); }
      items.append(c);
    }
    if (!h.items.length) items.append(el("span", { class: "dim" }, "no items"));
    li.append(head, items);
    if (isHost() && !s.outcome) li.append(button("Gets an item\u2026", () => turn().then((m) => m.askItem(s, h.player)), "small", "hold-" + h.player));
    return li;
  }));
}

export function needChips(need) {
  const span = el("span", { class: "need" });
  for (const part of String(need || "").split(",").filter(Boolean)) {
    const [k, n] = part.split(":");
    span.append(chip((ICON[k] || "") + " " + k + (n && n !== "1" ? " \u00D7" + n : "")));
  }
  return span;
}
export const needWords = (need) => {
  const parts = [], extra = [];
  for (const p of String(need || "").split(",").filter(Boolean)) {
    const [k, n] = p.split(":");
    if (k === "timer" || k === "disruption") { extra.push(k); continue; }
    const c = Number(n || 1);
    parts.push(c === 1 ? ("aeiou".includes(k[0]) ? "an " : "a ") + k : c + " " + k + "s");
  }
  const w = parts.length ? (parts.length === 1 ? parts[0] : parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1]) : "nothing yet";
  return w + (extra.length ? ", " + extra.map((x) => "a " + x + " set").join(" and ") : "");
};

export function oddsOf(s) {
  const o = s.odds;
  if (o === null || o === undefined) return null;
  if (typeof o === "number") return o;
  return typeof o.probability === "number" ? o.probability : null;
}
export function missingOf(a) {
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
export const attemptName = (a) => (ACTION_NAME[a.action] || "Roll") + (a.set ? " icon set " + a.set : "") + (a.door ? " the door " + doorWords(a.door) : "") + (a.space !== null && a.space !== undefined ? " in " + roomWords(a.space) : "");

// The rolls the attempt under way may still make this turn (the engine's count: a card may limit them).
export const rollsLeft = (s) => s.attempt_rolls_left ?? s.actions_left ?? 0;
// What the roll card and the odds calculator say when there is no roll to work out ("" while one is under way). With
// no attempt the rolls left are the actions left (a roll is an action: skeptics-rulebook.txt:101, :131), no more than
// the actions other than moves a card leaves (the Corpse).
export const noRollWords = (s) => rollWords(s, !s ? null : s.attempt ? rollsLeft(s) : s.other_actions_left ?? s.actions_left ?? null);

// The colours of the dice, as the rulebook gives them ("three blue Clue Dice and three green Key Dice",
// skeptics-rulebook.txt:83; it gives the summon dice none): a die is shown by its face and its colour, the colour
// in words too (a colour-blind player reads "blue"), its swatch by the tray's colour classes (.die-blue).
const DIE_COLOUR = { clue: "blue", key: "green" };
export const dieWords = (kind) => (DIE_COLOUR[kind] ? DIE_COLOUR[kind] + " " : "") + kind;
const dieChip = (face, kind) => chip((ICON[face] ? ICON[face] + " " : "") + face + (DIE_COLOUR[kind] ? " \u00B7 " + DIE_COLOUR[kind] : ""), "die die-" + (DIE_COLOUR[kind] || "none"));

export function renderAttempt(s) {
  const box = $("#attempt");
  const a = s.attempt;
  $("#attempt-host").hidden = !(a && !a.succeeded && isHost() && legalOf(s, "roll").length);
  if (!a) { box.textContent = noRollWords(s) + (app.lastRoll ? " Last: " + app.lastRoll.text + (app.lastRoll.end ? " " + app.lastRoll.end : "") : ""); return; }
  const odds = oddsOf(s);
  const toRoll = a.dice_to_roll;  // as the companion counts them
  const die = DIE_OF[a.action] || "clue";
  const kept = el("div", { class: "note", id: "attempt-kept" }, "Kept: ");
  kept.append(...((a.kept || []).length ? a.kept.map((f) => dieChip(f, die)) : ["none"]), a.succeeded ? "" : " \u00B7 still needs " + needWords(missingOf(a)));
  const rows = [
    el("div", { class: "attempt-title" }, playerName(s, s.current_player) + ": " + attemptName(a) + (a.disruption ? " (disruption: no dice may be kept)" : "")),
    el("div", {}, "Needs " + needWords(a.need) + "." + (a.counted ? " Dice: " + a.counted + "." : "")),
    kept,
  ];
  if (a.succeeded) rows.push(el("div", { class: "big ok", id: "odds-now" }, "Success!"));
  else if (rollsLeft(s) <= 0) {
    // the last roll this turn has failed (no action left, the Corpse, a third timer): said plainly, no next roll
    // and no chance of one (the rolls the odds count: rollsLeft)
    rows.push(el("div", { class: "warn", id: "attempt-next" }, noRollWords(s)));
  } else {
    rows.push(el("div", { id: "attempt-next" }, "Next roll: " + plural(toRoll, dieWords(die) + " die", dieWords(die) + " dice") + "."));
    const left = rollsLeft(s);  // the rolls the odds count
    rows.push(el("div", { class: "big", id: "odds-now" }, odds === null ? "" : pct(odds)));
    rows.push(el("div", { class: "note", id: "odds-what" }, odds === null ? "" : "chance to succeed with the " + plural(left, "roll") + " left this turn" + (a.disruption ? " (no dice may be kept)" : " (keeping the best dice)")));
  }
  for (const c of s.environment || []) if (c.effect && !/^placeholder/i.test(c.effect)) rows.push(el("div", { class: "note env-reminder" }, "In force: " + c.name + " \u2013 " + c.effect));
  fill(box, rows);
}

// An environment card in force. One not filled in yet that the companion drew for itself ("Common card 6") is no card
// the table can find: it is the card the table drew from its own environment deck, and the host tells what it does;
// known in Your box by that entry. In physical deck mode the host chose the entry.
function envName(s, c, short) {
  if (!c.stand_in || s.physical) return c.name;
  return short ? "the card drawn from your deck (the host tells what it does)" : "The card drawn from the real deck (\u201C" + c.name + "\u201D in Your box)";
}

function renderGlance(s) {
  $("#g-deck").textContent = s.room_deck_left ?? 0;
  $("#g-summon").textContent = s.summon_dice ?? 0;
  $("#g-timers").textContent = s.timers ?? 0;
  const env = (s.environment || []).map((c) => envName(s, c, true));
  $("#g-env").textContent = env.length ? "In force: " + env.join(", ") : "No environment card in force.";
  const a = s.attempt;
  const ga = $("#g-attempt");
  // no roll left for it this turn (no action, the Corpse, a third timer): no strip of a roll that cannot be made
  ga.hidden = !a || (!a.succeeded && rollsLeft(s) <= 0);  // the rolls the roll card and the odds count
  if (!ga.hidden) {
    const o = oddsOf(s);
    // the chance said with what it is of: the icons still missing (the kept dice show the rest), in the game's words
    const missing = needWords(missingOf(a));
    const chance = " \u00B7 " + pct(o) + " to roll " + missing + ((a.kept || []).length ? " still missing" : "");
    ga.textContent = "Rolling: " + attemptName(a) + " \u2013 " + needWords(a.need) + (a.succeeded ? " \u00B7 success" : o === null ? "" : chance) + " \u203A";
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

// "room 8, the Bath"; "room 8" while the pack names it only by its number; "the Entrance".
export function roomWords(n, known) {
  const b = app.board;
  const r = b && (b.spaces || []).find((x) => Number(x.number) === Number(n));
  const name = known || (r && r.name) || "";
  if (Number(n) === 0) return "the " + (name || "Entrance");
  return "room " + n + (name && !/^(room\s*)?\d+$/i.test(name.trim()) ? ", the " + name : "");
}
export const doorWords = (key) => { const [a, b] = String(key).split("-"); return "between " + roomWords(a) + " and " + roomWords(b); };



// ---- the board map ----------------------------------------------------------------------------
export async function loadBoard(id) {
  app.boardId = id;
  try { app.board = await api("/api/board"); } catch (e) { app.board = null; }
  renderMap();
}

export function renderMap() {
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
      const keys = c.stand_in ? "the keys printed at it on the board" : plural(c.keys || 1, "key");
      g.append(el("svg:title", {}, "Door " + doorWords(key) + ": " + (state === "unlocked" ? "unlocked" : state === "locked" ? "padlocked, " + keys : "closed, " + keys)));
      if (doorTargets.has(key)) {
        g.prepend(el("svg:circle", { r: 18, class: "hit" }));  // a finger-sized target around the small square
        g.addEventListener("click", () => turn().then((m) => m.picked(key)));
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
    g.addEventListener("click", () => { if (target) turn().then((m) => m.picked(r.n)); else { $("#map-note").textContent = capital(roomWords(r.n, r.name)) + "."; } });
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
  renderChoices(pick);
  const note = $("#map-note");
  note.textContent = pick ? pick.message : "Tap a room to see its name.";
  note.classList.toggle("warn", !!pick);
  $("#map-legend").textContent = "Gold square on a line: a closed door (the number: keys it needs" + ((b.connections || []).some((c) => c.stand_in) ? "; no number: a door not filled in yet, count the keys printed at it on the board" : "") + "); red: a padlocked door, which locks again; open green square: unlocked. " + ((b.secret_passages || []).length ? "Matching purple letters: a secret passage between those rooms. " : "") + "Red dot: a red marker.";
}

// The doors, rooms or spaces (séance, ghost) the host may pick, as buttons under the map by number and name: the
// same pick as a tap on the drawing, for a finger that misses and for a screen reader.
function renderChoices(pick) {
  const box = $("#map-choices");
  const kind = pick && ["door", "room", "space"].includes(pick.kind) ? pick.kind : null;
  box.hidden = !kind;
  box.classList.toggle("grid", kind === "space");
  box.classList.toggle("stack", kind !== "space");
  if (!kind) { fill(box, []); return; }
  box.setAttribute("aria-label", kind === "door" ? "The doors you can pick" : kind === "room" ? "The rooms you can pick" : "The spaces of the board");
  const choice = (value, words) => {
    const b = button(words, () => turn().then((m) => m.picked(value)), kind === "space" ? "" : "wide", "choice-" + String(value));
    b.dataset.choice = String(value);
    return b;
  };
  if (kind === "space") {
    const numbers = ((app.board && app.board.spaces) || []).map((r) => Number(r.number)).filter((n) => !Number.isNaN(n)).sort((x, y) => x - y);
    fill(box, numbers.map((n) => choice(n, capital(roomWords(n)))));
    return;
  }
  fill(box, pick.actions.map((a) => {
    const value = kind === "door" ? a.args.door : Number(a.args.to);
    return choice(value, a.label || (kind === "door" ? "The door " + doorWords(value) : capital(roomWords(value))));
  }));
}

// ---- what the table is told ------------------------------------------------------------------------
// The Ghost Hour: the big banner (the environment card drawn, where the ghost appears, the ghost's ability, in the
// order of the Ghost Hour Sequence), the buzz and the chime; true when it was shown (a game's end is told instead).
export function ghostHourBanner(fresh, ending) {
  const gh = fresh.find((r) => r.type === "ghost_hour");
  if (!gh || ending) return false;
  const env = fresh.find((r) => r.type === "environment_drawn");
  const standInEnv = env && (env.stand_in || /^placeholder/i.test(env.effect || ""));
  // "An Environment Card is always drawn first, then a Room Card" (skeptics-rulebook.txt:207): the banner says so
  const first = "The environment card, drawn before the room card: ";
  const envLine = env ? (standInEnv ? env.text || "" : first + env.name + ". " + (env.effect || "")) : gh.environment ? first + gh.environment : "";
  const ghost = (app.state && app.state.ghost) || {};
  // a ghost card not filled in yet plays no ability of its own: the table plays the real card's, the host tells it
  const ability = ghost.stand_in ? " The ghost's Ghost Hour ability: read it on your ghost card and play it; the host tells the companion what it did."
    : ghost.ability && !/^placeholder/i.test(ghost.ability) ? " " + (ghost.name || "The ghost") + "'s Ghost Hour ability: " + ghost.ability : "";
  const appears = gh.room !== null && gh.room !== undefined ? "The ghost appears in " + roomWords(gh.room, gh.room_name) + "." : "";
  // the sequence's order (skeptics-rulebook.txt:204-209): the environment card, then the room card, then the ability
  showBanner("ghost_hour", "Ghost Hour", envLine, (appears + ability).trim(), gh.id);
  buzz([400, 150, 400, 150, 800]);
  chime();
  return true;
}

// The last roll and how its attempt ended (maybe in a later command), for the roll card; a new attempt or game, or
// the roll undone, forgets it.
export function rolled(fresh) {
  let changed = false;
  for (const r of fresh) {
    if (r.type === "rolled") app.lastRoll = { text: r.text, end: "", done: !!r.success };
    else if (r.type === "attempt_ended" && app.lastRoll && !app.lastRoll.done) { app.lastRoll.end = r.text; app.lastRoll.done = true; }
    else if (r.type === "attempt_started" || r.type === "game_started" || (r.type === "undone" && (r.events || []).some((x) => x.type === "rolled" || x.type === "attempt_ended"))) app.lastRoll = null;
    else continue;
    changed = true;
  }
  if (changed && app.state) renderAttempt(app.state);
}
