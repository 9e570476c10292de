// Your box for Elder Sign (companion/box.py, the es_* parts): its adventures, Other Worlds, Mythos cards,
// investigators and Ancient Ones, filled in once from the cards of the copy on the table; the tasks by icon steppers
// (as at the table), the rewards, penalties and terror effects by small numbers and a few words. Loaded when the
// host first opens Elder Sign's tab of Your box; saved through box.js's saveBox (the same checks as every card).
import { el, fill, plural, capital, toast, button, sheet, field, textIn, textArea, selectIn } from "./core.js?v=__VERSION__";
import { tasksPad, esNeed } from "./elder_sign.js?v=__VERSION__";

const UNFILLED = "not filled in yet";
export const ES_TABS = [["adventures", "Adventures", "es_adventure"], ["other_worlds", "Other Worlds", "es_other_world"], ["mythos", "Mythos cards", "es_mythos"], ["investigators", "Investigators", "es_investigator"], ["ancient_ones", "Ancient Ones", "es_ancient_one"]];
// an effect's parts, in the words of the cards
const EFFECT = [["elder_signs", "Elder Signs"], ["clues", "clues"], ["doom", "doom tokens"], ["sanity", "sanity"], ["stamina", "stamina"], ["monsters", "monsters"],
  ["common_items", "Common Items"], ["unique_items", "Unique Items"], ["spells", "Spells"]];

// The list of one tab: every card with what is filled in, and its sheet.
// `whom`: whom a Mythos card's half may fall on, by its pack word (the box's elder_sign_who)
export function renderElderSign(es, tab, list, row, save, pick, whom) {
  fill(pick, ES_TABS.map(([k, label]) => button(label, () => pick.dispatchEvent(new CustomEvent("pick", { detail: k })), tab === k ? "on small" : "small", "box-es-tab-" + k)));
  const cards = es[tab] || [];
  const part = ES_TABS.find(([k]) => k === tab)[2];
  const detail = (c) => !c.filled ? "" : tab === "investigators" ? "sanity " + c.sanity + " · stamina " + c.stamina + " · " + plural(c.clues, "clue")
    : tab === "ancient_ones" ? "doom " + c.doom + " · Elder Signs " + c.elder_signs + " · combat " + esNeed(c.combat)
    : tab === "mythos" ? (c.lingering || "") : c.tasks.map(esNeed).join(" · ");
  fill(list, cards.map((c) => row(c.name, c.filled, detail(c), () => edit(part, tab, c, save, whom || {}), "box-es-" + c.id)));
}

const num = (name, value, low, high) => { const i = el("input", { type: "number", name, min: String(low), max: String(high), inputmode: "numeric" }); i.value = String(value ?? 0); return i; };

// An effect: small numbers (an empty one is none) and a few words of the card's own; a Mythos card's half (`whom`,
// the choices) says too whom its sanity, stamina, clues and items fall on (the packs' check asks it when it has items).
function effectEditor(name, effect, whom) {
  const box = el("div", { class: "iconset effect-grid", id: "es-effect-" + name });
  const inputs = EFFECT.map(([k, w]) => { const i = num(name + "-" + k, (effect || {})[k] || 0, -20, 20); const l = el("label"); l.append(el("span", {}, capital(w)), i); box.append(l); return [k, i]; });
  const text = textIn((effect || {}).text || "", name + "-text", "anything else, in a few words");
  box.append(text);
  const who = whom && selectIn(name + "-who", [["", "not said on the card"], ...Object.entries(whom)], (effect || {}).who || "");
  if (who) { const l = el("label", { class: "whom" }); l.append(el("span", {}, "Whom its sanity, stamina, clues and items fall on"), who); box.append(l); }
  return { node: box, value: () => { const out = {}; for (const [k, i] of inputs) if (Number(i.value)) out[k] = Number(i.value); if (text.value.trim()) out.text = text.value.trim(); if (who && who.value) out.who = who.value; return out; } };
}

function edit(part, tab, c, save, whom) {
  const name = textIn(c.filled ? c.name : "", "name", "the name on your card");
  const named = () => { if (!name.value.trim()) { toast("Give the card its name first.", true); return false; } return true; };
  if (tab === "adventures" || tab === "other_worlds") {
    const tasks = tasksPad(false, c.filled ? c.tasks : []);
    const ordered = el("input", { type: "checkbox", name: "ordered" }); ordered.checked = !!c.ordered;
    const orderedL = el("label"); orderedL.append(ordered, " the tasks are done in order (an arrow on the card)");
    const trophies = num("trophies", c.trophies || 1, 0, 10);
    const effects = { reward: effectEditor("reward", c.reward), penalty: effectEditor("penalty", c.penalty), terror: effectEditor("terror", c.terror) };
    sheet((tab === "adventures" ? "Adventure card" : "Other World") + ": " + c.name, [
      el("p", { class: "note" }, "Copy what your card shows: the tasks from the top, tapped icon by icon, then what completing it gives, what failing it costs and its terror effect."),
      field("Name", name), field("Tasks", tasks.node), orderedL, field("Trophy value", trophies),
      field("Reward (completed)", effects.reward.node), field("Penalty (failed)", effects.penalty.node), field("Terror effect", effects.terror.node),
    ], "Save the card", () => {
      if (!named()) return false;
      const spelled = tasks.value();
      if (!spelled) { toast("Tap the icons of at least one task first.", true); return false; }
      return save(part, c.id, { name: name.value, tasks: spelled.split("; "), ordered: ordered.checked, trophies: Number(trophies.value),
        reward: effects.reward.value(), penalty: effects.penalty.value(), terror: effects.terror.value() });
    });
  } else if (tab === "mythos") {
    const immediate = effectEditor("immediate", c.immediate, whom);
    const lingering = textArea(c.lingering, "lingering", "the lower half of the card, in your own short words");
    const kind = selectIn("lingering_kind", [["until_next", "until the next Mythos card"], ["at_midnight", "at the next midnight"]], c.lingering_kind);
    const midnight = effectEditor("at_midnight", c.at_midnight, whom);
    const midnightField = field("What it does at that midnight", midnight.node);
    const shown = () => { midnightField.hidden = kind.value !== "at_midnight"; };
    kind.addEventListener("change", shown); shown();
    const terror = effectEditor("terror", c.terror, whom);
    const lock = selectIn("lock", [["", "no"], ["green", "a green die"], ["yellow", "the yellow die"], ["red", "the red die"]], c.lock || "");
    sheet("Mythos card: " + c.name, [
      el("p", { class: "note" }, "Copy what your card shows: its top half, played when it is drawn, and its lower half, with whom each falls on where the card says."),
      field("Name", name), field("At once (the top half)", immediate.node), field("The lower half", lingering), field("The lower half plays", kind), midnightField,
      field("Terror effect (each failed roll showing terror while it is in play)", terror.node), field("A locked die shown on the card", lock),
    ], "Save the card", () => {
      if (!named()) return false;
      if (!lingering.value.trim()) { toast("Copy the lower half of the card first.", true); return false; }
      const atMidnight = kind.value === "at_midnight";
      return save(part, c.id, { name: name.value, immediate: immediate.value(), lingering: lingering.value, lingering_kind: kind.value,
        at_midnight: atMidnight ? midnight.value() : {}, terror: terror.value(), lock: lock.value });
    });
  } else if (tab === "investigators") {
    const sanity = num("sanity", c.sanity, 1, 10), stamina = num("stamina", c.stamina, 1, 10), clues = num("clues", c.clues, 0, 5);
    const ability = textArea(c.ability, "ability", "the ability, in your own short words");
    sheet("Investigator: " + c.name, [field("Name", name), field("Sanity", sanity), field("Stamina", stamina), field("Clue tokens at the start", clues), field("Ability", ability)],
      "Save the investigator", () => named() && save(part, c.id, { name: name.value, sanity: Number(sanity.value), stamina: Number(stamina.value), clues: Number(clues.value), ability: ability.value }));
  } else {
    const doom = num("doom", c.doom, 1, 20), signs = num("elder_signs", c.elder_signs, 1, 20);
    const combat = tasksPad(true, c.filled ? [c.combat] : [], "The combat task");
    const attack = textArea(c.filled ? c.attack : "", "attack", "its attack, in your own short words");
    sheet("Ancient One: " + c.name, [field("Name", name), field("Doom track spaces", doom), field("Elder Signs it takes", signs), field("Its combat task", combat.node), field("Its attack", attack)],
      "Save the Ancient One", () => {
        if (!named()) return false;
        if (!combat.value()) { toast("Tap the icons of its combat task first.", true); return false; }
        return save(part, c.id, { name: name.value, doom: Number(doom.value), elder_signs: Number(signs.value), combat: combat.value(), attack: attack.value });
      });
  }
}

export const elderSignSummary = (b) => (b.elder_sign_left ? "Elder Sign: " + plural(b.elder_sign_left, "card") + " " + (b.elder_sign_left === 1 ? "is" : "are") + " " + UNFILLED + "." : "Elder Sign: every card is filled in.");
