// Elder Sign (companion/games/elder_sign) on the page: the same clock, the doom track, the adventures and the
// rolls. Loaded when an Elder Sign game is first shown.
import {
  $, app, el, fill, chip, plural, capital, isHost, playerName, isStandIn, toast, act, command, actButton, button,
  rowOf, runLegal, sheet, pickFrom, field, selectIn, cardQuestion,
} from "./core.js?v=__VERSION__";

const ES_FACE = { inv1: "1 investigation", inv2: "2 investigation", inv3: "3 investigation", inv4: "4 investigation", lore: "lore", peril: "peril", terror: "terror", wild: "wild" };
// as the companion's sentences say a task (need_words): "4 investigation and 1 lore", "2 perils"
const SYMBOL = { lore: ["lore", "lore"], peril: ["peril", "perils"], terror: ["terror", "terrors"] };
export const esNeed = (need) => String(need || "").split(",").filter(Boolean).map((p) => { const [k, n] = p.split(":"); return k === "inv" ? n + " investigation" : n + " " + (SYMBOL[k] ? SYMBOL[k][n === "1" ? 0 : 1] : k); }).join(" and ");

// The Elder Sign cards of the game view.
export function render(s) {
  const standNote = (what) => el("div", { class: "warn" }, what + " is not filled in yet: play by the real card" + (isHost() ? " (its tasks: under Card effects and corrections, or in Your box)." : "."));
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
  // One row a player: a devoured investigator whose player plays on with another is a note under the new one.
  const all = s.investigators || [];
  const lost = (p) => all.filter((x) => x.player === p && x.devoured).map((x) => x.name);
  const shown = all.filter((inv) => !inv.devoured || !all.some((x) => x.player === inv.player && !x.devoured));
  fill($("#es-investigators"), shown.map((inv) => {
    const li = el("li", { class: inv.active ? "active" : "" });
    const named = !(standIn.investigators || []).includes(inv.player);
    const gone = inv.devoured ? [] : lost(inv.player);
    li.append(el("b", {}, playerName(s, inv.player) + (named ? ": " + inv.name : " (investigator card not filled in yet)")), el("div", { class: "note" },
      (inv.devoured ? "devoured" : "sanity " + inv.sanity + "/" + inv.max_sanity + " · stamina " + inv.stamina + "/" + inv.max_stamina + " · " + plural(inv.clues, "clue") + " · " + ((s.where || {})[String(inv.player)] || "")) +
      (gone.length ? " · " + gone.join(", ") + " devoured before" : "")));
    return li;
  }));
  const odds = s.card_odds;
  // each card by the name the companion's sentences give it (a stand-in by its place: one name for one card)
  const named = s.adventure_names || {};
  fill($("#es-adventures"), (s.adventures || []).map((c) => {
    const li = el("li", { id: "es-adv-" + c.slot });
    const name = (standIn.adventures || []).includes(c.slot) ? capital(named[c.slot] || c.name) : c.slot + ". " + (named[c.slot] || c.name);
    li.append(el("b", {}, name + (c.other_world ? " (Other World)" : "")), el("div", { class: "note" }, (c.ordered ? "In order: " : "") +
      c.tasks.map((t) => (t.done ? "\u2714 " : "") + esNeed(t.need) + (t.monster ? " (monster)" : "")).join(" · ") + (c.lock ? " · locks a " + c.lock + " die" : "")));
    if ((standIn.adventures || []).includes(c.slot)) li.append(standNote("This card"));
    if (odds && odds.slot === c.slot && (s.odds_words || []).length) li.append(el("div", { class: "warn" }, s.odds_words[0]));
    return li;
  }));
  const a = s.attempt;
  const box = $("#es-attempt");
  // the chances as the companion says them: what "Roll for me" does, the best play, each task alone
  const oddsLines = () => (s.odds_words || []).map((t, i) => el("div", i ? { class: "note" } : { class: "warn", id: "es-odds" }, t));
  if (!a) fill(box, [el("p", { class: "note" }, "No roll under way." + (odds ? " Before the first roll " + (odds.combat ? "against " : "at ") + odds.name + ":" : "")), ...oddsLines()]);
  else {
    const parts = [el("p", {}, capital(s.attempt_at || "the roll") + ": " + (a.dice_to_roll ? plural(a.dice_to_roll, "die", "dice") + " to roll (" + (s.next_dice || []).join(", ") + ")." : "no dice left to roll."))];
    if (a.last) { const r = el("div", { class: "chips", id: "es-last" }); for (const f of a.last) r.append(chip(ES_FACE[String(f).split(":").pop()] || f, a.failed ? "" : "ok")); parts.push(el("div", { class: "note" }, a.failed ? "The last roll completed nothing: one die is set aside." : "The last roll:"), r); }
    if (a.held.length) parts.push(el("div", { class: "note" }, "Held: " + a.held.map((h) => ES_FACE[h.face] || h.face).join(", ") + "."));
    if (!a.dice_to_roll) parts.push(el("div", { class: "warn", id: "es-no-dice" }, "No dice are left to roll."));
    else parts.push(...oddsLines());
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
  const dice = s.attempt ? s.attempt.dice_to_roll : (s.next_dice || []).length;
  fill($("#es-roll"), rolls.length && dice ? [rowOf([
    button("Roll for me", () => act("/api/roll", {}), "primary", "es-roll-me"),
    button("Tap the real dice", () => esFaces(rolls.find((x) => x.name === "roll") || rolls[0]), "", "es-roll-tap"),
  ])] : []);
  const main = [];
  const moves = legal.filter((x) => x.name === "move");
  if (moves.length) main.push(button("Go to an adventure\u2026", () => pickFrom("Where does " + playerName(s, s.current_player) + " go?", moves), "", "es-move"));
  for (const x of legal.filter((y) => ["clue", "give-up", "add-die", "first-aid"].includes(y.name))) main.push(x.name === "clue" ? button(x.label, () => esFaces(x), "", "es-clue") : actButton(x));
  for (const x of legal.filter((y) => y.name === "end-turn")) main.push(actButton(x, null, "primary"));
  // a card not filled in yet came up: the companion played nothing of it; the host taps what the real card did
  const told = legal.filter((x) => x.name === "card-did");
  if (told.length && s.card_question) {
    main.unshift(...cardQuestion("es-card-question", s.card_question + (s.question && s.question.left ? " (" + plural(s.question.left, "more card") + " to tell after this one.)" : ""), told));
  }
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
    const who = selectIn("player", (s.investigators || []).filter((inv) => !inv.devoured).map((inv) => [inv.player + 1, playerName(s, inv.player) + " (" + inv.name + ")"]), (s.current_player || 0) + 1);
    sheet(a.label, [field("Who", who), num("sanity", -9, 9, 0, "Sanity change"), num("stamina", -9, 9, 0, "Stamina change"), num("clues", -9, 9, 0, "Clue tokens change")], "Send", () => {
      const args = { player: value("player") };
      for (const k of ["sanity", "stamina", "clues"]) if (Number(value(k))) args[k] = value(k);
      return command("adjust", args);
    });
  } else if (a.name === "monster" || a.name === "set-tasks") {
    const combat = a.args.adventure === "ancient-one";
    const pad = tasksPad(a.name === "monster" || combat ? 1 : 0, [], combat ? "The combat task" : null);
    const ord = el("input", { type: "checkbox", name: "ordered" }); const ordL = el("label"); ordL.append(ord, " the tasks are done in order (an arrow on the card)");
    sheet(a.label, [el("p", { class: "note" }, a.name === "monster" ? "What the monster asks: tap its icons." : combat ? "The combat task printed on the Ancient One's card: tap its icons." : "The tasks as the card shows them, from the top: tap each task's icons."), pad.node, ...(a.name === "set-tasks" && !combat ? [ordL] : [])],
      "Send", () => {
        const need = pad.value();
        if (!need) { toast("Tap the icons of at least one task first.", true); return false; }
        return command(a.name, a.name === "monster" ? { ...a.args, need } : { ...a.args, tasks: need, ...(ord.checked ? { ordered: "true" } : {}) });
      });
  } else runLegal(a);
}

// The tasks of a card, tapped icon by icon: a row of steppers (investigation, lore, peril, terror) a task, the
// words of each task under it. `one` keeps it to a single task (a monster). value() is the companion's spelling.
const TASK_ICONS = [["inv", "investigation", 12], ["lore", "lore", 3], ["peril", "peril", 3], ["terror", "terror", 3]];
export function tasksPad(one, start, title) {
  const tasks = (start && start.length ? start : [""]).map((t) => Object.fromEntries(TASK_ICONS.map(([k]) => [k, Number((String(t).match(new RegExp("\\b" + k + ":(\\d+)")) || [])[1] || 0)])));
  const node = el("div", { class: "stack tasks-pad" });
  const spell = (t) => TASK_ICONS.filter(([k]) => t[k] > 0).map(([k]) => k + ":" + t[k]).join(",");
  const draw = () => {
    const rows = tasks.map((t, i) => {
      const box = el("div", { class: "iconset", id: "task-" + (i + 1) });
      box.append(el("b", {}, one ? title || "The monster" : "Task " + (i + 1)));
      for (const [k, word, most] of TASK_ICONS) {
        const n = el("b", { class: "count", id: "task-" + (i + 1) + "-" + k }, String(t[k]));
        const step = (d) => () => { t[k] = Math.max(0, Math.min(most, t[k] + d)); n.textContent = String(t[k]); words.textContent = esNeed(spell(t)) || "nothing yet"; };
        const r = rowOf([el("span", { class: "grow" }, capital(word)), button("\u2212", step(-1), "small", "task-" + (i + 1) + "-" + k + "-less"), n, button("+", step(1), "small", "task-" + (i + 1) + "-" + k + "-more")]);
        box.append(r);
      }
      const words = el("div", { class: "note" }, esNeed(spell(t)) || "nothing yet");
      box.append(words);
      return box;
    });
    const more = one ? [] : [rowOf([
      button("Add a task", () => { tasks.push({ inv: 0, lore: 0, peril: 0, terror: 0 }); draw(); }, "small", "task-add"),
      ...(tasks.length > 1 ? [button("Remove the last task", () => { tasks.pop(); draw(); }, "small", "task-drop")] : []),
    ])];
    fill(node, [...rows, ...more]);
  };
  draw();
  return { node, value: () => tasks.map(spell).filter(Boolean).join("; ") };
}
