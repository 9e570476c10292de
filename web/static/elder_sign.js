// Elder Sign (companion/games/elder_sign) on the page: the same clock, the doom track, the adventures and the
// rolls. Loaded when an Elder Sign game is first shown.
import {
  $, app, el, fill, chip, plural, capital, isHost, playerName, isStandIn, toast, act, command, actButton, button, stepButton,
  rowOf, runLegal, sheet, pickFrom, field, selectIn, cardQuestion, closeSheet, noRollWords,
} from "./core.js?v=__VERSION__";

const ES_FACE = { inv1: "1 investigation", inv2: "2 investigation", inv3: "3 investigation", inv4: "4 investigation", lore: "lore", peril: "peril", terror: "terror", wild: "wild" };
// as the companion's sentences say a task (need_words): "4 investigation and 1 lore", "2 perils"
const SYMBOL = { lore: ["lore", "lore"], peril: ["peril", "perils"], terror: ["terror", "terrors"] };
export const esNeed = (need) => String(need || "").split(",").filter(Boolean).map((p) => { const [k, n] = p.split(":"); return k === "inv" ? n + " investigation" : n + " " + (SYMBOL[k] ? SYMBOL[k][n === "1" ? 0 : 1] : k); }).join(" and ");
// what doing a task costs (elder-sign-rules.txt:185), as the companion's sentences say it (cost_words)
const esCost = (t) => { const parts = ["sanity", "stamina"].filter((k) => t[k]).map((k) => k + " " + (t[k] > 0 ? "+" : "") + t[k]); if (t.clock) parts.push("the clock " + t.clock + " hours on"); return parts.length ? " (" + parts.join(", ") + ")" : ""; };
const esTask = (t) => (t.done ? "\u2714 " : "") + esNeed(t.need) + esCost(t) + (t.monster ? " (monster)" : "");
// a player's phone has no "Roll for me" button: it reads what that roll is (every die thrown as it lands)
const oddsWords = (t) => (isHost() ? t : t.replace('"Roll for me" with ', "Rolling all "));

// The Elder Sign cards of the game view.
export function render(s) {
  const standNote = (what) => el("div", { class: "warn" }, what + " is not filled in yet: play by the real card" + (isHost() ? " (or fill it in once, in Your box)." : "."));
  const standIn = s.stand_ins || {};
  const investigatorShown = s.active_investigator && !cardMissing(s, { player: s.current_player });
  $("#es-line").textContent = "Turn " + s.turn + " · " + playerName(s, s.current_player) + (investigatorShown ? " (" + s.active_investigator + ")" : "") + " · " +
    (s.clock === "XII" && s.turn === 1 ? "midnight" : plural(s.turns_to_midnight, "turn") + " to midnight");
  // a stand-in Ancient One's track length and Elder Sign limit are not entered yet: the note says so
  const aoMissing = !!standIn.ancient_numbers;
  const aoEnter = aoMissing && isHost() && (s.legal || []).find((x) => x.name === "set-ancient-one");
  fill($("#es-glance"), [
    // the view tells no limit while a stand-in's numbers are not entered (Game.doom_max): the count alone
    el("span", { id: "es-doom" }, "Doom " + s.doom + (s.doom_max == null ? "" : " of " + s.doom_max)),
    el("span", { id: "es-signs" }, "Elder Signs " + s.elder_signs + (s.elder_signs_needed == null ? "" : " of " + s.elder_signs_needed)),
    el("span", { id: "es-ancient" }, (standIn.ancient_one ? "The Ancient One" : s.ancient_one.name) + (s.ancient_one_awake ? " is awake!" : " sleeps") +
      (aoMissing ? " (its card is not filled in yet: its doom track and Elder Sign limit are not entered" + (isHost() ? ")" : "; the host copies them from the card)") : standIn.ancient_one ? " (its card is not filled in yet: its numbers are the ones the host entered)" : "")),
    ...(aoEnter ? [button("Enter the numbers printed on it", () => enterNumbers(s, aoEnter), "small", "es-enter-ancient")] : []),
    // a stand-in the companion drew at random (elder-sign-rules.txt:81): which card it is, or that it is none of the deck's
    ...(s.ancient_one_drawn ? [el("div", { class: "note", id: "es-ancient-drawn" }, s.ancient_one_drawn)] : []),
  ]);
  const out = $("#outcome");
  out.hidden = !s.outcome;
  out.textContent = s.outcome ? (s.outcome === "won" ? "Won!" : "Lost.") : "";
  out.className = "outcome " + (s.outcome || "");
  const m = s.mythos;
  // the Ancient One's waking ends the lingering effect of the Mythos card in play (elder-sign-rules.txt:431)
  $("#es-mythos").textContent = m && !m.active ? "None in force: the Ancient One is awake, and its waking ended " + (standIn.mythos ? "the last Mythos card's" : m.name + "'s") + " lingering effect." : m && standIn.mythos ? "A Mythos card not filled in yet: read it from the card drawn." : m ? m.name + (m.lingering ? ": " + (isStandIn(m.lingering) ? "not filled in yet: read it from the card." : m.lingering) : "") : "None yet.";
  // One row a player: a devoured investigator whose player plays on with another is a note under the new one.
  const all = s.investigators || [];
  // a devoured investigator by the name the table may read (a stand-in's is not its card's)
  const lost = (p) => all.map((x, i) => [x, (s.investigators_said || [])[i] || x.name]).filter(([x]) => x.player === p && x.devoured).map(([, said]) => said);
  const shown = all.filter((inv) => !inv.devoured || !all.some((x) => x.player === inv.player && !x.devoured));
  fill($("#es-investigators"), shown.map((inv) => {
    const li = el("li", { class: inv.active ? "active" : "" });
    const named = !cardMissing(s, inv);
    const gone = inv.devoured ? [] : lost(inv.player);
    // a card not filled in yet: its numbers are the stand-in's until the host copies the card's (none shown)
    const missing = !inv.devoured && numbersMissing(s, inv.player);
    li.append(el("b", {}, playerName(s, inv.player) + (named ? ": " + inv.name : " (" + CARD_MISSING + ")")), el("div", { class: "note" + (missing ? " missing" : ""), id: "es-inv-" + (inv.player + 1) },
      (inv.devoured ? "devoured" : (missing ? "sanity, stamina and clues not entered yet (" + (isHost() ? "copy them from the card" : "the host copies them from the card") + ")" : "sanity " + inv.sanity + "/" + inv.max_sanity + " · stamina " + inv.stamina + "/" + inv.max_stamina + " · " + plural(inv.clues, "clue")) + " · " + ((s.where || {})[String(inv.player)] || "")) +
      (gone.length ? " · " + gone.join(", ") + " devoured before" : "")));
    if (!inv.devoured) li.append(heldItems(inv));
    const enter = missing && isHost() && (s.legal || []).find((x) => x.name === "set-investigator" && Number(x.args.player) === inv.player + 1);
    if (enter) li.append(button("Enter the numbers printed on it", () => enterNumbers(s, enter), "small", "es-enter-numbers-" + (inv.player + 1)));
    return li;
  }));
  const odds = s.card_odds;
  // each card by the name the companion's sentences give it (a stand-in by its place: one name for one card)
  const named = s.adventure_names || {};
  fill($("#es-adventures"), (s.adventures || []).map((c) => {
    const li = el("li", { id: "es-adv-" + c.slot });
    const name = (standIn.adventures || []).includes(c.slot) ? capital(named[c.slot] || c.name) : c.slot + ". " + (named[c.slot] || c.name);
    // a card not filled in yet has no tasks of its own until the host enters the ones printed on it: none is made up
    const shown = c.tasks_missing ? ["Tasks not entered yet", ...c.tasks.map(esTask)] : c.tasks.map(esTask);
    li.append(el("b", {}, name + (c.other_world ? " (Other World)" : "")), el("div", { class: "note" + (c.tasks_missing ? " missing" : ""), id: "es-tasks-" + c.slot }, (c.ordered ? "In order: " : "") +
      shown.join(" · ") + (c.lock ? " · locks a " + c.lock + " die" : "")));
    const enter = c.tasks_missing && !s.ancient_one_awake && legalTasks(s, c.slot);  // no adventures in the battle (:431)
    if (enter && isHost()) li.append(button("Enter the tasks printed on it", () => tasksSheet(enter, s), "small", "es-enter-tasks-" + c.slot));
    else if (!c.tasks_missing && (standIn.adventures || []).includes(c.slot)) li.append(standNote("This card"));
    if (odds && odds.slot === c.slot && (s.odds_words || []).length) li.append(el("div", { class: "warn" }, oddsWords(s.odds_words[0])));
    return li;
  }));
  if (!isHost() && (s.adventures || []).some((c) => c.tasks_missing)) {
    $("#es-adventures").prepend(el("li", { class: "note", id: "es-tasks-note" }, "A card whose tasks are not entered yet is not filled in: the host enters the tasks printed on it before anyone rolls there."));
  }
  const a = s.attempt;
  const box = $("#es-attempt");
  const choosing = (s.attack_choices || []).map((p) => playerName(s, p));
  if (choosing.length) {
    fill(box, [el("p", { class: "warn", id: "es-attack-choosing" }, "The Ancient One attacked at midnight: each investigator lowers their maximum sanity or their maximum stamina by 1, as they choose. Still to choose: " + choosing.join(", ") + (isHost() ? "." : " (tell the host)."))]);
    renderESTurn(s);
    return;
  }
  // the chances as the companion says them: what "Roll for me" does, the best play, each task alone
  const oddsLines = () => (s.odds_words || []).map((t, i) => el("div", i ? { class: "note" } : { class: "warn", id: "es-odds" }, oddsWords(t)));
  const at = (s.adventures || []).find((c) => c.slot === ((all.find((x) => x.active) || {}).place));
  // the game over, or this turn's roll done: no roll to work out (the words Skeptics' roll card says too)
  const none = !a || s.outcome ? noRollWords(s, s.rolls_over ? 0 : null) : "";
  // a stand-in Ancient One awake: its combat task is entered first (no roll against it before), said so even on the
  // turn it awoke, which goes on to the clock (elder-sign-rules.txt:433) with no roll made at it
  const combatMissing = !a && !s.outcome && s.ancient_one_awake && (s.ancient_one || {}).combat_missing;
  if (s.outcome || (!a && s.rolls_over && !combatMissing)) fill(box, [el("p", { class: "note", id: "es-no-roll" }, none)]);
  else if (combatMissing) fill(box, [el("p", { class: "warn", id: "es-no-tasks" }, (s.rolls_over ? awokeWords(s) + " " : "") + "The Ancient One's combat task is not entered yet (its card is not filled in), so there is nothing to roll against. " + (isHost() ? "Enter the combat task printed on its card first." : "The host enters it from the real card first."))]);
  else if (!a && at && at.tasks_missing && s.moved) fill(box, [el("p", { class: "warn", id: "es-no-tasks" }, capital(named[at.slot] || at.name) + ": its tasks are not entered yet, so there is nothing to roll against. " + (isHost() ? "Enter the tasks printed on the card first." : "The host enters them from the real card first."))]);
  // a die left on a Spell card from an earlier roll or turn is not rolled, and counts (elder-sign-rules.txt:345-349)
  else if (!a) fill(box, [el("p", { class: "note", id: "es-no-roll" }, none + (odds ? " Before the first roll " + (odds.combat ? "against " : "at ") + odds.name + ":" : "")), ...(s.spell_words ? [el("div", { class: "note", id: "es-spell-dice" }, s.spell_words)] : []), ...oddsLines()]);
  else {
    const parts = [el("p", {}, capital(s.attempt_at || "the roll") + ": " + (a.choose ? "its dice are judged when the task is chosen." : a.dice_to_roll ? plural(a.dice_to_roll, "die", "dice") + " to roll (" + (s.next_dice || []).join(", ") + ")" + clueWords(s, a) + "." : "no dice left to roll."))];
    // the failed roll's one die is the one set aside (:211): no other to hold or roll again, only a clue (:359) or an
    // item's die (:109) lets the rolls go on
    const lastDie = Object.values(a.free || {}).reduce((n, k) => n + k, 0) <= 1;
    if (a.choose) parts.push(...taskChoice(s, a));
    else if (a.last && a.failed && a.aside && !lastDie) parts.push(...asideChoice(s, a));
    else if (a.last) {
      const r = el("div", { class: "chips", id: "es-last" }); for (const f of a.last) r.append(chip(ES_FACE[String(f).split(":").pop()] || f, "ok")); parts.push(el("div", { class: "note" }, "The last roll:"), r);
      if (!a.failed) parts.push(...spellAfterTask(s, a, playerName(s, s.current_player)));
    }
    if (a.held.length) parts.push(el("div", { class: "note" }, "Held: " + a.held.map((h) => ES_FACE[h.face] || h.face).join(", ") + "."));
    if (a.choose) { /* the choice first: no roll is due */ } else if (!a.dice_to_roll) parts.push(el("div", { class: "warn", id: "es-no-dice" }, "No dice are left to roll" + (lastDie ? ": the rolls go on only with a clue (the last roll's dice rolled again) or an item's die; else the attempt fails." : ".")));
    else parts.push(...oddsLines());
    fill(box, parts);
  }
  // a card question the host tells from the real card (a terror before the rolls go on, elder-sign-rules.txt:202-211;
  // a penalty or the Mythos card at midnight before the next turn, :219, :323): the other phones say what the table
  // waits for, in the companion's one sentence (table_waits); the host's phone asks it (#es-card-question)
  if (s.table_waits && !isHost() && !s.outcome) box.prepend(el("div", { class: "warn table-waits", id: "es-table-waits" }, s.table_waits));
  renderESTurn(s);
}

// The one place a roll's task is chosen, however it was rolled ("Roll for me", the tray, the real dice tapped): when
// its dice meet more than one task the player chooses the one it completes, "I can only pick one" (elder-sign-rules.txt
// :177, :189), or none (:179). The roll's dice, then one tap a task for the host; the other phones read who chooses.
function taskChoice(s, a) {
  const who = playerName(s, s.current_player);
  const r = el("div", { class: "chips", id: "es-last" });
  for (const f of a.last || []) r.append(chip(ES_FACE[String(f).split(":").pop()] || f, "ok"));
  const card = (s.adventures || []).find((c) => c.slot === a.place) || { tasks: [] };
  const offers = isHost() ? (s.legal || []).filter((x) => x.name === "complete") : [];
  const words = (x) => { const t = card.tasks.find((k) => String(k.index) === x.args.task); return t ? "Task " + t.index + ": " + esTask(t) : "None: the roll completes no task"; };
  return [el("div", { class: "note" }, "The roll:"), r,
    el("p", { class: "warn", id: "es-choose-note" }, "Its dice meet " + a.choose.length + " tasks, and one roll completes one: " + who + " chooses which" + (isHost() ? ". Tap it." : " (the host taps it).")),
    ...(offers.length ? [(() => { const box = el("div", { class: "stack", id: "es-choose" }); box.append(...offers.map((x) => button(words(x), () => runLegal(x), x.args.task === "none" ? "wide" : "primary wide", "es-choose-" + x.args.task))); return box; })()] : [])];
}

// After a roll that completed nothing the player chooses which of its dice is set aside (elder-sign-rules.txt:211):
// the dice of the roll, the one set aside marked (the companion's suggestion until someone taps another); the host
// taps a die of another colour to choose it (only its colour matters: the others are all rolled again).
const dieColour = (f) => (String(f).includes(":") ? String(f).split(":")[0] : "green");
// a die as the companion's sentences say it (dice_words): "yellow 4 investigation", "lore" (a green die by its face alone)
const esDie = (f) => (dieColour(f) === "green" ? "" : dieColour(f) + " ") + (ES_FACE[String(f).split(":").pop()] || f);
// The dice `shown` (indexes into `dice`), the one at `at` marked (`mark`, `cls`), each other one the host may choose a
// button (`offerFor`: its legal action), the rest chips.
function diceRow(dice, shown, id, at, offerFor, mark, cls) {
  const row = el("div", { class: "chips", id });
  for (const i of shown) {
    const words = esDie(dice[i]);
    const offer = i === at ? null : offerFor(dice[i]);
    if (offer) row.append(button(words, () => runLegal(offer), "small", id + "-" + (i + 1)));
    else row.append(chip(i === at ? words + mark : words, i === at ? cls : ""));
  }
  return row;
}
const allDice = (dice) => dice.map((_, i) => i);

// Which die of the failed roll each choice is (indexes into a.last, -1: none): focus holds "a different die" than the
// one set aside (elder-sign-rules.txt:211, :213, :365), and a Spell's die is another again (:345). The held die and
// the Spell's are the first of their faces; the die set aside is one of its colour that is neither, as the engine sets
// it aside (a die of that colour showing neither's face, else one left after those two), so each choice is shown on a
// die of its own. `only`: the die set aside is the one die of its colour, so it cannot be held or go on the Spell (any
// other of its colour could be set aside in its place).
function diceChosen(a) {
  const last = a.last || [];
  const face = (f) => String(f).split(":").pop();
  const wanted = [a.hold, a.spell].filter(Boolean);
  const ofColour = allDice(last).filter((i) => dieColour(last[i]) === a.aside);
  const spare = ofColour.filter((i) => !wanted.includes(last[i]) && !wanted.includes(face(last[i])));
  // every die of the colour shows a face chosen: one of the colour left after the held die and the Spell's
  const held = last.indexOf(a.hold);
  const spells = last.findIndex((f, i) => i !== held && f === a.spell);
  const after = ofColour.filter((i) => i !== held && i !== spells);
  const aside = a.aside ? [...spare, ...after, ...ofColour, -1][0] : -1;
  const hold = a.hold ? last.findIndex((f, i) => i !== aside && f === a.hold) : -1;
  const spell = a.spell ? last.findIndex((f, i) => i !== aside && i !== hold && f === a.spell) : -1;
  return { aside, hold, spell, only: ofColour.length === 1 ? aside : -1 };
}

function asideChoice(s, a) {
  const offers = isHost() ? (s.legal || []).filter((x) => x.name === "set-aside") : [];
  const row = diceRow(a.last, allDice(a.last), "es-last", diceChosen(a).aside, (f) => offers.find((x) => x.args.colour === dieColour(f)), " (set aside)", "red");
  const who = playerName(s, s.current_player);
  const said = (a.aside_chosen ? who + " sets " : "The companion suggests setting ") + "a " + a.aside + " die aside";
  return [el("div", { class: "note", id: "es-aside-note" }, "The last roll completed nothing: one of its dice is set aside, as " + who + " chooses. " + said +
    (offers.length ? "; tap another die to set that one aside instead." : new Set(a.last.map(dieColour)).size === 1 ? " (its dice are all " + a.aside + ": any one, the others are all rolled again)." : ".")), row, ...holdChoice(s, a, who), ...spellChoice(s, a, who)];
}

// One other die of the failed roll may go on the investigator's own marker (focus, elder-sign-rules.txt:213,
// :365-371): it keeps its face and counts for the next rolls. The host taps it; the next roll plays it.
function holdChoice(s, a, who) {
  const at = diceChosen(a);
  return dieChoice(s, a, "focus", "hold", " (held by focus)", who + " holds this die on their marker with the next roll (focus), another than the one set aside", "; tap another to hold that one instead.",
    "If " + who + " wants, one other die than the one set aside goes on their marker (focus): it keeps its face for the next rolls. Tap it.",
    a.last, allDice(a.last).filter((i) => i !== at.only && i !== at.spell), at.hold);
}

// The offer of a Spell's die begins so: a Spell is played from the investigator's hand (elder-sign-rules.txt:345), so
// with the items counted the engine offers it only with a Spell held, and the words say how many; while they are not
// counted the companion does not know whether one is held, and the words ask it (never claim it).
function spellIf(s, who) {
  const inv = (s.investigators || []).find((x) => x.active) || {};
  const n = inv.items ? inv.items.spells : null;
  return n ? who + " holds " + plural(n, "Spell") + ": if " + who + " plays " + (n === 1 ? "it" : "one") : "If " + who + " holds a Spell and plays it";
}

// One other die of the failed roll may go on a Spell card the investigator plays (elder-sign-rules.txt:345-347): it
// keeps its face and stays on the card until a task uses it (:349). Offered only when the engine's legal actions offer
// it (a Spell held, when the items are counted); the host taps it, the next roll plays it and takes the Spell off.
function spellChoice(s, a, who) {
  const at = diceChosen(a);
  return dieChoice(s, a, "spell", "spell", " (on the spell)", who + " puts a die on a Spell card with the next roll", "; tap another to put that one there instead.",
    spellIf(s, who) + ", one other die goes on its card: it keeps its face for the next rolls. Tap it.",
    a.last, allDice(a.last).filter((i) => i !== at.only && i !== at.hold), at.spell);
}

// After a roll that completed a task, a die it left (not placed on the task, elder-sign-rules.txt:185) may go on a
// Spell card too: "After you roll, you get to choose one of the dice" (:345). The dice the task left (the attempt's
// `left`, engine.left_by_task), to tap.
function spellAfterTask(s, a, who) {
  return dieChoice(s, a, "spell", "spell", " (on the spell)", who + " puts a die on a Spell card with the next roll", "; tap another to put that one there instead.",
    spellIf(s, who) + ", one die the task left goes on its card: it keeps its face for the next rolls. Tap it.", a.left, allDice(a.left), a.left.indexOf(a.spell));
}

// The roll's dice `shown` (indexes into `dice`) to tap for the legal action `name` (its die chosen is `a[key]`, the one
// at `at`, marked `mark`): the note says what was chosen (`chosenWords`, `again` while another may be tapped) or what a
// tap does (`ask`); nothing when the legal actions offer none and none was chosen.
function dieChoice(s, a, name, key, mark, chosenWords, again, ask, dice, shown, at) {
  const offers = isHost() ? (s.legal || []).filter((x) => x.name === name) : [];
  if (!offers.length && !a[key]) return [];
  const row = diceRow(dice, shown, "es-" + key, at, (f) => offers.find((x) => x.args.die === f), mark, "ok");
  return [el("div", { class: "note", id: "es-" + key + "-note" }, a[key] ? chosenWords + (offers.length ? again : ".") : ask), row];
}

// The turn the Ancient One awoke in, with no roll at it: the turn goes on to the clock (elder-sign-rules.txt:433).
const awokeWords = (s) => "The Ancient One has awoken: " + playerName(s, s.current_player) + "\u2019s turn goes on to the clock, with no roll at it this turn; the battle starts with the next turn.";

function renderESTurn(s) {
  const card = $("#es-turn");
  const show = isHost() && !s.outcome;
  card.hidden = !show;
  if (!show) return;
  $("#es-turn-title").textContent = playerName(s, s.current_player) + "'s turn";
  const legal = s.legal || [];
  const rolls = legal.filter((x) => x.name === "roll" || x.name === "clue");
  const dice = s.attempt ? s.attempt.dice_to_roll : (s.next_dice || []).length;
  // at a card whose tasks are not entered: entering them comes instead of the roll (no roll is judged without them)
  // a stand-in Ancient One awake with its combat task not entered: entering it is the first step, also on the turn
  // it awoke (that turn goes on to the clock, :433, and the next one's battle rolls against the task)
  const combat = s.ancient_one_awake && (s.ancient_one || {}).combat_missing && !s.attempt;
  const enter = legal.find((x) => x.name === "set-tasks" && (x.group === "roll" || (combat && x.args.adventure === "ancient-one")));
  // a question still open (a card not filled in yet, the Ancient One's attack): its answer is the primary action
  const told = legal.filter((x) => x.name === "card-did");
  const lowers = legal.filter((x) => x.name === "lower");
  const asking = (told.length && s.card_question) || lowers.length;
  // a failed roll's terror is resolved before trying again (elder-sign-rules.txt:202-211): the engine offers no roll
  // until it is told (terror_open); the rolls go on after it while the attempt does
  const terror = s.terror_open && s.attempt;
  const first = (s.numbers_first || []).length > 0;
  // no roll of the dice left can complete the card (each chance exactly 0, rules :217): the failing step, not a roll
  const giveUp = s.card_odds && s.card_odds.hopeless && legal.find((x) => x.name === "give-up");
  fill($("#es-roll"), first ? numbersFirst(s, asking) : giveUp && !terror ? [el("p", { class: "warn", id: "es-hopeless" }, (s.odds_words || [])[0] || ""), actButton(giveUp, null, "primary")] : terror ? [el("p", { class: "note", id: "es-roll-after-terror" }, "Tell what the terror did first: the rolls go on after it, as the rules resolve a terror before trying again.")]
    : rolls.length && dice ? [rowOf([
    button("Roll for me", () => act("/api/roll", {}), asking ? "" : "primary", "es-roll-me"),
    button("Tap the real dice", () => esFaces(rolls.find((x) => x.name === "roll") || rolls[0]), "", "es-roll-tap"),
  ])] : enter && enter.args.adventure === "ancient-one" ? [...(s.rolls_over ? [el("p", { class: "warn", id: "es-awoke-clock" }, "The Ancient One has awoken, and its card is not filled in: first enter the combat task printed on it, then end the turn (the battle starts with the next turn).")] : []), button("Enter the combat task printed on the Ancient One's card", () => esAsk(enter, s), "primary wide", "es-enter-combat")]
    : enter ? [button("Enter the tasks printed on the card", () => tasksSheet(enter, s), "primary wide", "es-enter-tasks")] : []);
  const main = [];
  const moves = legal.filter((x) => x.name === "move");
  if (moves.length) main.push(button("Go to an adventure\u2026", () => pickFrom("Where does " + playerName(s, s.current_player) + " go?", moves), "", "es-move"));
  // a clue re-rolls the failed roll's dice (:359): none offered when no die is left to roll again
  const free = s.attempt ? Object.values(s.attempt.free || {}).reduce((n, k) => n + k, 0) : 0;
  for (const x of legal.filter((y) => ["clue", "give-up", "add-die", "first-aid", "lost-found"].includes(y.name))) {
    if ((x.name === "clue" && (terror || !free)) || (x === giveUp && !terror)) continue;
    main.push(x.name === "clue" ? button(x.label, () => esFaces(x), "", "es-clue") : x.name === "lost-found" ? button(x.label, () => lostFound(s, x), "", "es-lost-found") : actButton(x));
  }
  for (const x of legal.filter((y) => y.name === "end-turn")) main.push(actButton(x, null, first || giveUp || asking || (rolls.length && dice) || enter ? "" : "primary"));  // one primary: the roll, entering the tasks, else the end
  // the Ancient One attacked at midnight: each investigator chooses which maximum goes down by 1 (rules :459)
  if (lowers.length) main.unshift(...attackChoices(s, lowers));
  // a card not filled in yet came up: the companion played nothing of it; the host taps what the real card did
  else if (told.length && s.card_question) {
    main.unshift(...cardQuestion("es-card-question", s.card_question + (s.question && s.question.left ? " (" + plural(s.question.left, "more card") + " to tell after this one.)" : ""), told));
  }
  // a monster appeared (a card told so, the doom track) and is not placed yet: where it went is asked, so the
  // adventures' tasks and odds follow the board (elder-sign-rules.txt:377, :391); after a card question asked first
  else if (s.monsters_pending > 0) main.unshift(...monsterQuestion(s, legal.filter((x) => x.name === "monster")));
  fill($("#es-main"), main);
  fill($("#es-fix-list"), legal.filter((x) => ["adjust", "items", "doom", "elder-signs", "clock", "monster", "set-tasks"].includes(x.name)).map((x) => button(x.label, () => esAsk(x, s), "small")));
}

// A monster appeared and is not on an adventure yet (s.monsters_pending): "the active player ... place[s] it on top of
// a monster task", or with none left under the bottom task of any adventure (elder-sign-rules.txt:377, :391). The host
// taps the adventure it went on, then its icons (the monster-placing command, as under "Card effects and corrections").
function monsterQuestion(s, places) {
  if (!places.length) return [];
  const n = s.monsters_pending;
  const q = el("div", { class: "warn span-all", id: "es-monster-question" }, (n === 1 ? "A monster appeared and is not placed yet" : n + " monsters appeared and are not placed yet") +
    ": which adventure did " + playerName(s, s.current_player) + " place " + (n === 1 ? "it" : "the next one") + " on? A monster task first; with none left, under the bottom task of any adventure. Tap it, then the monster's icons.");
  const r = el("div", { class: "stack span-all", id: "es-monster-places" });
  r.append(...places.map((x) => button(x.label, () => esAsk(x, s), "small wide", "es-monster-" + x.args.adventure)));
  return [q, r];
}

// The Ancient One's attack (elder-sign-rules.txt:459): a question each investigator answers, two taps each.
function attackChoices(s, lowers) {
  const players = [...new Set(lowers.map((x) => Number(x.args.player) - 1))];
  const out = [el("div", { class: "warn span-all", id: "es-attack-question" }, "The Ancient One attacks: each investigator chooses to lower their maximum sanity or their maximum stamina by 1. Tap each one's choice.")];
  for (const p of players) {
    const inv = (s.investigators || []).find((i) => i.player === p && !i.devoured) || {};
    // the name over its two taps, side by side (a fresh player found them stacked under a long name at 390 px)
    const numbers = numbersMissing(s, p) ? "" : " (sanity " + inv.sanity + "/" + inv.max_sanity + ", stamina " + inv.stamina + "/" + inv.max_stamina + ")";
    out.push(el("b", { class: "span-all es-attack-who", id: "es-attack-who-" + (p + 1) }, playerName(s, p) + numbers + ":"));
    const pair = el("div", { class: "span-all es-pair" });
    pair.append(...lowers.filter((x) => Number(x.args.player) - 1 === p).map((x) => { const b = actButton(x, null, "primary"); b.id = "es-lower-" + (p + 1) + "-" + x.args.stat; return b; }));
    out.push(pair);
  }
  return out;
}

// an investigator card not filled in yet: its stand-in's name is the companion's, never shown as the card's
// The item cards an investigator holds (elder-sign-rules.txt:329-351): counted, or not counted (the companion does not
// know them: a card not filled in yet, a game stored before) and then the host counts them; Allies are not counted.
function heldItems(inv) {
  const i = inv.items;
  return el("div", { class: "note" + (i ? "" : " missing"), id: "es-items-" + (inv.player + 1) }, i
    ? "Items: " + plural(i["common-items"], "Common Item") + " · " + plural(i["unique-items"], "Unique Item") + " · " + plural(i.spells, "Spell")
    : "Items not counted yet (" + (isHost() ? "count them under Card effects and corrections" : "the host counts them") + "): the Common Items, Unique Items and Spells drawn or spent are in the log only; until then the companion offers the yellow and red dice whenever the host adds them, and a die on a Spell card whenever the host puts one there, and takes no item off");
}

const cardMissing = (s, inv) => ((s.stand_ins || {}).investigators || []).includes(inv.player);
const CARD_MISSING = "investigator card not filled in yet";
const numbersMissing = (s, player) => ((s.stand_ins || {}).numbers || []).includes(player);

// The items sheet's labels, as the companion's refusals name the fields (its setup options, loaded once a visit)
const itemLabels = () => (app.options || {}).item_fields || {};

// The numbers printed on a card not filled in yet (an investigator's, set-investigator; the Ancient One's,
// set-ancient-one), copied by the host: [name, label, least] a number; every one must be given.
// The numbers sheet of a set-ancient-one or set-investigator legal action (the numbers printed on the card).
function enterNumbers(s, a) {
  // the Ancient One's: labelled as the companion's refusal names them, which names every field that does not fit at once
  const ancient = (app.options || {}).ancient_fields || {};
  if (a.name === "set-ancient-one") return numbersSheet(a, "The numbers on the Ancient One's card", [["doom", ancient.doom || "doom", 1], ["elder_signs", ancient.elder_signs || "elder_signs", 1]], true);
  // a new investigator after a devouring comes "complete with their own starting items" (elder-sign-rules.txt:411):
  // a stand-in's are asked with its numbers (the legal action asks them), labelled as the items sheet labels them
  const labels = itemLabels();
  const items = ["common", "unique", "spells"].filter((k) => (a.asks || []).includes(k)).map((k) => [k, labels[k] || k, 0]);
  return numbersSheet(a, "The numbers on " + playerName(s, Number(a.args.player) - 1) + "'s investigator card", [["sanity", "Sanity", 1], ["stamina", "Stamina", 1], ["clues", "Clue tokens", 0], ...items]);
}

// Before anyone plays: the numbers printed on the cards not filled in yet (none is made up: no turn until then).
function numbersFirst(s, asking) {
  const offers = (s.legal || []).filter((x) => x.name === "set-ancient-one" || x.name === "set-investigator").sort((a, b) => (b.name === "set-ancient-one") - (a.name === "set-ancient-one"));
  const label = (x) => x.name === "set-ancient-one" ? "Enter the Ancient One's doom track and Elder Signs" : "Enter " + playerName(s, Number(x.args.player) - 1) + "'s sanity, stamina" + ((x.asks || []).includes("common") ? ", clues and starting items" : " and clues");
  return [el("p", { class: "warn", id: "es-numbers-first" }, s.numbers_first_note || ""),
    ...offers.map((x, i) => button(label(x), () => enterNumbers(s, x), i || asking ? "wide" : "primary wide", x.name === "set-ancient-one" ? "es-first-ancient" : "es-first-numbers-" + x.args.player))];
}

// A refused entry keeps the sheet open with what was typed, the refusal shown in it too (the toast's words):
// refusedLine(id) goes in the sheet, sentKeeping(refused, name, args) sends (false, the sheet stays, when refused).
function refusedLine(id) {
  const refused = el("p", { class: "warn", id, role: "alert" });
  refused.hidden = true;
  return refused;
}
async function sentKeeping(refused, name, args) {
  const out = await command(name, args);
  if (!out) { refused.textContent = $("#toast-text").textContent; refused.hidden = false; return false; }
  return true;
}

// engineNames: the game's refusal names the empty fields with the rest (all sent, empty ones too), not the page first
function numbersSheet(a, title, numbers, engineNames) {
  const value = (name) => $("#sheet-body [name=" + name + "]").value;
  const refused = refusedLine("es-numbers-refused");
  sheet(title, [
    el("p", { class: "note" }, "The card is not filled in yet, so the companion has no numbers of its own for it: copy the ones printed on the card on the table."),
    ...numbers.map(([name, label, least]) => field(label, el("input", { type: "number", name, min: String(least), max: "30", value: "", inputmode: "numeric" }))),
    refused,
  ], "Enter the numbers", async () => {
    // the empty fields by the labels the sheet shows them with (the one list, `numbers`)
    const empty = engineNames ? [] : numbers.filter(([name]) => !value(name)).map(([, label]) => label);
    if (empty.length) {
      refused.textContent = (empty.length === 1 ? empty[0] + " is" : empty.slice(0, -1).join(", ") + " and " + empty[empty.length - 1] + " are") + " empty: copy " + (empty.length === 1 ? "it" : "them") + " from the card first.";
      refused.hidden = false;
      toast(refused.textContent, true);
      return false;
    }
    return sentKeeping(refused, a.name, { ...a.args, ...Object.fromEntries(numbers.map(([name]) => [name, value(name)])) });
  });
}

// The Lost & Found (elder-sign-rules.txt:293): one green die rolled at the Entrance, its face tapped as it lies; the
// chart is printed on the Entrance sheet, so the host tells what it gave next (the question that follows).
function lostFound(s, a) {
  sheet(a.label, [el("p", { class: "note" }, "Roll one green die and tap the face it shows. The chart on the Entrance sheet says what that gives: tell the companion next."),
    rowOf(((s.faces_of || {}).green || []).map((f) => button(ES_FACE[f] || f, async () => { closeSheet(); await command(a.name, { face: f }); }, "small", "es-lost-" + f)))], null, null);
}

// After a failed roll a clue rolls the dice of the pool again, none set aside (elder-sign-rules.txt:357-361), the dice
// chosen to hold or put on a Spell card staying there (:347, :371): its count, from the dice the companion publishes
// for it (clue_dice), beside the roll's, when the host may spend one
function clueWords(s, a) {
  const dice = s.clue_dice || [];
  if (!a.failed || !(s.legal || []).some((x) => x.name === "clue") || dice.length === a.dice_to_roll) return "";
  return "; a clue rolls " + (a.hold || a.spell ? "" : "all ") + plural(dice.length, "die", "dice") + " again (" + dice.join(", ") + ")";
}

// The dice chosen after the failed roll to hold (focus) or to put on a Spell card: a clue's re-roll leaves them there
// (elder-sign-rules.txt:347, :371 "You don't get to roll it again"), so its sheet says they stay held
function clueKeeps(a) {
  const kept = [[a && a.hold, "focus"], [a && a.spell, "on the Spell card"]].filter(([d]) => d);
  return kept.length ? [el("p", { class: "note", id: "es-clue-kept" }, "Not rolled again, still held: " + kept.map(([d, how]) => "the " + (ES_FACE[String(d).split(":").pop()] || d) + " die (" + how + ")").join(" and ") + ".")] : [];
}

// The faces of the dice the next roll throws, tapped die by die (colours from the companion). When they meet more
// than one task the roll card asks which one the roll completes (taskChoice), as for every way of rolling.
function esFaces(a) {
  const s = app.state;
  // a clue rolls the failed roll's dice in the pool again (:357-361), the roll the dice left after one is set aside (:211)
  const colours = (a.name === "clue" ? s.clue_dice : s.next_dice) || [];
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
  sheet(a.name === "clue" ? "A clue: the dice rolled again" : "The dice as they lie", [...(a.name === "clue" ? clueKeeps(s.attempt) : []), ...rows, shown], "Send the dice", async () => {
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
    sheet(a.label, [num("n", -5, 5, 1, a.name === "doom" ? "Doom tokens to add (a minus number takes them away)" : "Elder Signs to add")], "Send", () => command(a.name, { n: value("n") }));
  } else if (a.name === "clock") {
    sheet(a.label, [field("Hours to move the clock forward", selectIn("hours", [[3, "3 hours"], [6, "6 hours"], [9, "9 hours"]], 3))], "Send", () => command("clock", { hours: value("hours") }));
  } else if (a.name === "adjust") {
    const who = selectIn("player", (s.investigators || []).filter((inv) => !inv.devoured).map((inv) => [inv.player + 1, playerName(s, inv.player) + " (" + (cardMissing(s, inv) ? CARD_MISSING : inv.name) + ")"]), (s.current_player || 0) + 1);
    sheet(a.label, [field("Who", who), num("sanity", -9, 9, 0, "Sanity change"), num("stamina", -9, 9, 0, "Stamina change"), num("clues", -9, 9, 0, "Clue tokens change")], "Send", () => {
      const args = { player: value("player") };
      for (const k of ["sanity", "stamina", "clues"]) if (Number(value(k))) args[k] = value(k);
      return command("adjust", args);
    });
  } else if (a.name === "items") {  // the item cards held, as on the table (all three counted)
    const held = (s.investigators || []).filter((inv) => !inv.devoured);
    const who = selectIn("player", held.map((inv) => [inv.player + 1, playerName(s, inv.player) + " (" + (cardMissing(s, inv) ? CARD_MISSING : inv.name) + ")"]), (s.current_player || 0) + 1);
    const now = (key) => ((held.find((inv) => inv.player + 1 === Number(value("player"))) || {}).items || {})[key] || 0;
    const labels = itemLabels();
    const refused = refusedLine("es-items-refused");
    sheet(a.label, [field("Who", who), ...["common", "unique", "spells"].map((k) => num(k, 0, 20, 0, labels[k] || k)), refused], "Send", () => sentKeeping(refused, "items", { player: value("player"), common: value("common"), unique: value("unique"), spells: value("spells") }));
    const start = () => { for (const [k, key] of [["common", "common-items"], ["unique", "unique-items"], ["spells", "spells"]]) $("#sheet-body [name=" + k + "]").value = String(now(key)); };
    who.addEventListener("change", start); start();
  } else if (a.name === "set-tasks" && a.args.adventure !== "ancient-one") {
    tasksSheet(a, s);
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
// words of each task under it. `one` keeps it to a single task (a monster). `costs`: a task's costs too (sanity or
// stamina lost, the clock moved on when it is done, elder-sign-rules.txt:157-165, :185). value() is the companion's
// spelling ("inv:4,lore:1,sanity:-1; peril:2").
// [key, the symbol as the card prints it, a word on its count, most, step]
const TASK_ICONS = [["inv", "Investigation", "the number on it", 12, 1], ["lore", "Lore", "", 3, 1], ["peril", "Peril", "", 3, 1], ["terror", "Terror", "", 3, 1]];
const COST_ICONS = [["sanity", "Sanity lost", "", 5, 1], ["stamina", "Stamina lost", "", 5, 1], ["clock", "Clock forward", "hours", 12, 3]];
export function tasksPad(one, start, title, costs) {
  const icons = costs ? [...TASK_ICONS, ...COST_ICONS] : TASK_ICONS;
  const read = (t, k) => Math.abs(Number((String(t).match(new RegExp("\\b" + k + ":(-?\\d+)")) || [])[1] || 0));
  const tasks = (start && start.length ? start : [""]).map((t) => Object.fromEntries(icons.map(([k]) => [k, read(t, k)])));
  const node = el("div", { class: "stack tasks-pad" });
  const spell = (t) => TASK_ICONS.filter(([k]) => t[k] > 0).map(([k]) => k + ":" + t[k]).join(",");
  const spellAll = (t) => { const need = spell(t); return need && [need, ...COST_ICONS.filter(([k]) => costs && t[k] > 0).map(([k]) => k + ":" + (k === "clock" ? t[k] : -t[k]))].join(","); };
  const words = (t) => (esNeed(spell(t)) || "nothing yet") + (costs ? esCost({ sanity: -t.sanity, stamina: -t.stamina, clock: t.clock }) : "");
  const draw = () => {
    const rows = tasks.map((t, i) => {
      const box = el("div", { class: "iconset", id: "task-" + (i + 1) });
      box.append(el("b", {}, one ? title || "The monster" : "Task " + (i + 1) + (i ? "" : " (the top row)")));
      const said = el("span", { class: "task-words", id: "task-" + (i + 1) + "-words" }, words(t));
      const stepper = ([k, word, what, most, by]) => {
        const n = el("b", { class: "count", id: "task-" + (i + 1) + "-" + k }, String(t[k]));
        const step = (d) => () => { t[k] = Math.max(0, Math.min(most, t[k] + d)); n.textContent = String(t[k]); said.textContent = words(t); };
        const label = el("span", { class: "grow" }, word);
        if (what) label.append(el("small", { class: "note" }, " (" + what + ")"));
        return rowOf([label, stepButton(word, -by, step(-by), "small", "task-" + (i + 1) + "-" + k + "-less"), n, stepButton(word, by, step(by), "small", "task-" + (i + 1) + "-" + k + "-more")]);
      };
      box.append(...TASK_ICONS.map(stepper));
      if (costs) {  // what doing it costs, folded away until the card shows one
        const more = el("details", { id: "task-" + (i + 1) + "-costs" });
        more.open = COST_ICONS.some(([k]) => t[k] > 0);
        // a heading of what may be tapped, never read as the task's cost: most tasks have none
        more.append(el("summary", {}, "Only if the card prints a cost beside this task: sanity, stamina or the clock"), ...COST_ICONS.map(stepper));
        box.append(more);
      }
      // what the task now reads, symbols and costs together, under its own words: never under the costs' heading alone
      const line = el("div", { class: "note" }, one ? "As tapped: " : "Task " + (i + 1) + " as tapped: ");
      line.append(said);
      box.append(line);
      return box;
    });
    const more = one ? [] : [rowOf([
      button("Add a task", () => { tasks.push(Object.fromEntries(icons.map(([k]) => [k, 0]))); draw(); }, "small", "task-add"),
      ...(tasks.length > 1 ? [button("Remove the last task", () => { tasks.pop(); draw(); }, "small", "task-drop")] : []),
    ])];
    fill(node, [...rows, ...more]);
  };
  draw();
  return { node, value: () => tasks.map(spellAll).filter(Boolean).join("; ") };
}

// The set-tasks the host may send for the card in a place (entering its tasks), if any.
const legalTasks = (s, slot) => (s.legal || []).find((x) => x.name === "set-tasks" && x.args.adventure === slot);

// The task-entry sheet: the tasks printed on an adventure, row by row from the top, with their symbols and what each
// costs, and whether the card shows the arrow (its tasks done from the top down). A card not filled in yet has none
// until then; a filled-in card's tasks are its own, shown to start from.
function tasksSheet(a, s) {
  const card = (s.adventures || []).find((c) => c.slot === a.args.adventure) || { tasks: [] };
  const own = card.tasks_missing ? [] : card.tasks.filter((t) => !t.monster).map((t) => [t.need, ...["sanity", "stamina", "clock"].filter((k) => t[k]).map((k) => k + ":" + t[k])].join(","));
  const pad = tasksPad(0, own, null, true);
  const ord = el("input", { type: "checkbox", name: "ordered", id: "es-ordered" });
  ord.checked = !!card.ordered;
  const ordL = el("label", { class: "check" }); ordL.append(ord, " The card shows an arrow on its left side: its tasks are done from the top down");
  const name = capital((s.adventure_names || {})[card.slot] || card.name || "the adventure");
  const monsters = card.tasks.filter((t) => t.monster);
  // a locked die icon on the card (elder-sign-rules.txt:399): told with its tasks, as a card not filled in yet has none
  const lock = selectIn("lock", [["none", "No locked die icon"], ["green", "A green die locked on it"], ["yellow", "The yellow die locked on it"], ["red", "The red die locked on it"]], "none");
  lock.id = "es-lock";
  // a green die locked during an attempt whose green dice differ: the player chooses which, a held one too, in the
  // companion's words (lock_choices_said: "the peril die on the Spell card", elder-sign-rules.txt:401)
  const choices = (s.attempt && s.attempt.lock_choices) || [];
  const said = s.lock_choices_said || [];
  const which = selectIn("die", choices.map((c, i) => [i, capital(said[i] || "the " + esDie(c.die) + " die")]), 0);
  which.id = "es-lock-die";
  // asked only while the card's icon is told green (:401: the choice is of a green die)
  const whichField = field("The green die the player puts on it", which);
  whichField.id = "es-lock-die-field";
  whichField.hidden = lock.value !== "green";
  lock.addEventListener("change", () => { whichField.hidden = lock.value !== "green"; });
  sheet("The tasks of " + (name.charAt(0).toLowerCase() + name.slice(1)), [
    el("p", { class: "note" }, "Copy the card on the table: each row of symbols is one task. Tap each task's symbols; a task that costs sanity or stamina, or moves the clock, when it is done, gets that too."),
    pad.node, ordL, ...(card.tasks_missing ? [field("Locked die icon", lock)] : []),
    ...(card.tasks_missing && choices.length ? [whichField] : []),
    ...(monsters.length ? [el("p", { class: "note" }, "Its monster stays: " + monsters.map(esTask).join(" · ") + ".")] : []),
  ], "Enter the tasks", () => {
    const tasks = pad.value();
    if (!tasks) { toast("Tap the symbols of at least one task first.", true); return false; }
    return command("set-tasks", { ...a.args, tasks, ordered: ord.checked ? "true" : "false", ...(card.tasks_missing && lock.value !== "none" ? { lock: lock.value } : {}), ...(card.tasks_missing && lock.value === "green" && choices.length ? { die: choices[Number(which.value)].die, from: choices[Number(which.value)].from } : {}) });
  });
}
