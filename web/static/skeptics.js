// Skeptics on the page: the clock's round, the ghost and its icon sets, the hands, the roll under way and its odds,
// the host's turn panel and the sheets it opens (the icons, the dice, the cards drawn), the board's map, and what
// the table is told at the Ghost Hour. The default game: the page loads it with the entry.
import {
  $, ICON, LASTS, KIND_FACES, DIE_OF, REASON, app, el, fill, chip, pct, plural, capital, isHost, ghostOn, playerName,
  toast, api, act, command, legalOf, actButton, button, rowOf, runLegal, sheet, closeSheet, pickFrom, confirmSheet,
  field, selectIn, posOf, chime, buzz, showBanner, modules, page,
} from "./core.js?v=__VERSION__";

// The Skeptics cards of the game view (the entry renders what every game shares around them).
export function render(s) {
  $("#demo-note").hidden = !(s.name && /^demo/i.test(s.name));
  $("#demo-note").textContent = "This is a demo game, so there is something to look at while the companion runs as a simulation. The host starts a real one on the Host tab.";
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

  fill($("#env"), (s.environment || []).map((c) => {
    const li = el("li");
    const unfilled = /^placeholder/i.test(c.effect || "");
    li.append(el("b", {}, c.name), el("div", { class: unfilled ? "warn" : "note" }, unfilled ? "Not filled in yet: read the effect from your card." : c.effect || ""), el("div", { class: "dim" }, LASTS[c.duration] || ""));
    if (c.fires && s.fires) li.append(el("div", { class: "warn", id: "fires-left" }, plural(s.fires, "fire") + " still " + (s.fires === 1 ? "burns" : "burn") + ": a cobweb on three clue dice puts one out."));
    const barrier = (s.barriers || []).find((x) => x.card === c.id);
    if (barrier) li.append(el("div", { class: "note" }, "Icon sets to roll: " + barrier.sets.map((x) => (x.done ? "\u2714 " : "") + x.text).join(" · ") + "."));
    if (c.actions) li.append(el("div", { class: "warn" }, "Each turn: " + plural(c.actions, "action") + " other than moves (" + (s.other_actions_used || 0) + " used this turn)."));
    if (c.placeholder && isHost()) li.append(button("Fill it in from the card", () => modules.box().then((m) => m.fillIn("environment", c.id)), "small", "fill-env-" + c.id));
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
  renderMap();
  if (s.board && s.board !== app.boardId) loadBoard(s.board);
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

// "room 8, the Bath"; "room 8" while the pack names it only by its number; "the Entrance".
export function roomWords(n, known) {
  const b = app.board;
  const r = b && (b.spaces || []).find((x) => Number(x.number) === Number(n));
  const name = known || (r && r.name) || "";
  if (Number(n) === 0) return "the " + (name || "Entrance");
  return "room " + n + (name && !/^(room\s*)?\d+$/i.test(name.trim()) ? ", the " + name : "");
}
export const doorWords = (key) => { const [a, b] = String(key).split("-"); return "between " + roomWords(a) + " and " + roomWords(b); };

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

// What a legal action still asks before it is sent (icons, dice, a space, a card, an item), as the sheet that
// asks it; null when it asks nothing (core's runLegal sends it at once).
export function askFor(a) {
  const asks = a.asks || [];
  if (a.name === "attempt" && asks.includes("need")) return () => askNeed(a);
  if (asks.includes("faces")) return () => askDice(a);
  if (asks.includes("room")) {
    const msg = a.name === "seance" ? "Tap the first player's space on the map: the ghost comes there at the end of this round." : "Tap the space on the map where the ghost is.";
    return () => startPick("space", [a], msg);
  }
  if (a.name === "attempt" && ["prove", "unlock", "solve", "search"].includes(a.args.action)) return () => askBonus(a);
  if (a.name === "reveal-clue" && ((app.state && app.state.clue_cards_to_name) || []).length) return () => askClueCard(a);
  if (a.name === "action" && ["give", "pickup"].includes(a.args.kind) && !a.args.glass) return () => askHandOver(a);
  return null;
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
    if (out) page.showView("dice");
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
    if (out) page.showView("dice");
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

export function askFaces(target, replace) {
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

// Physical deck mode: the command draws cards; the host says which came up, in the order drawn.
export async function askCards(path, body, needs, faces, whys) {
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
  await command(a.name, a.args).then((out) => { if (out && a.name === "attempt") page.showView("dice"); });
}

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

// ---- what the table is told ------------------------------------------------------------------------
// The Ghost Hour: the big banner (where the ghost appears, the environment card drawn, the ghost's ability), the
// buzz and the chime; true when it was shown (a game's end is told instead).
export function ghostHourBanner(fresh, ending) {
  const gh = fresh.find((r) => r.type === "ghost_hour");
  if (!gh || ending) return false;
  const env = fresh.find((r) => r.type === "environment_drawn");
  const standInEnv = env && /^placeholder/i.test(env.effect || "");
  const envLine = env ? (standInEnv ? "Environment: a card not filled in yet came up (\u201C" + env.name + "\u201D in Your box). Play the real deck's top card, or the host fills the cards in." : "Environment: " + env.name + ". " + (env.effect || "")) : gh.environment ? "Environment: " + gh.environment : "";
  const ghost = (app.state && app.state.ghost) || {};
  const ability = ghost.ability && !/^placeholder/i.test(ghost.ability) ? " " + (ghost.name || "The ghost") + "'s Ghost Hour ability: " + ghost.ability : "";
  showBanner("ghost_hour", "Ghost Hour", gh.room !== null && gh.room !== undefined ? "The ghost appears in " + roomWords(gh.room, gh.room_name) + "." : "", envLine + ability, gh.id);
  buzz([400, 150, 400, 150, 800]);
  chime();
  return true;
}

// A roll told: the roll card says it until the next one.
export function rolled(fresh) {
  const roll = fresh.find((r) => r.type === "rolled");
  if (roll) { app.lastRoll = roll.text; if (app.state) renderAttempt(app.state); }
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
    if (moves.length) startPick("room", moves, "Tap the gold room to move the ghost to (up to two spaces), or Cancel to leave it.");
    else page.showView("game");
  }
}

// ---- the odds pad of the Dice view ------------------------------------------------------------------
export function oddsPad() {
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
