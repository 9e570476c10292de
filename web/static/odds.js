// The Dice tab's odds calculator: loaded the first time the Dice tab opens (skeptics.js's odds()).
import { $, ICON, app, pct, plural, capital, playerName, toast, api, button } from "./core.js?v=__VERSION__";
import { needWords, missingOf, attemptName, noRollWords, rollsLeft } from "./skeptics.js?v=__VERSION__";

// ---- the odds pad of the Dice view ------------------------------------------------------------------
// The pad follows the roll under way (what it still needs, the dice to roll, the rolls left) and works its odds out
// as the game moves on; once the player sets their own, it says whose numbers they are until "Follow the roll under
// way" gives it back to the game.
const calc = { own: false, counts: {}, shown: "" };
const needOf = (counts) => Object.entries(counts).filter(([, n]) => n > 0).map(([k, n]) => k + ":" + n).join(",");

function showNeed() {
  const f = $("#odds-form");
  f.need.value = needOf(calc.counts);
  $("#odds-need-words").textContent = needWords(f.need.value);
}

const oddsQuery = (f) => new URLSearchParams({ need: f.need.value, dice: f.dice.value, rolls: f.rolls.value, keep: f.disruption.checked ? "false" : "true" }).toString();

async function workOut() {
  const f = $("#odds-form");
  if (!f.need.value) { $("#odds-out").textContent = ""; return; }
  const asked = oddsQuery(f);
  try {
    const o = await api("/api/odds?" + asked);
    if (asked === oddsQuery(f)) $("#odds-out").textContent = pct(o.probability);  // an answer to numbers since changed is not shown
  } catch (err) { if (err.status) toast(capital(err.message), true); }
}

function mine() {
  calc.own = true;
  $("#odds-out").textContent = "";
  followOdds(app.state);
}

export function followOdds(s) {
  const f = $("#odds-form");
  const whose = $("#odds-whose");
  $("#odds-follow").hidden = !calc.own;
  if (calc.own) { whose.textContent = "Your own numbers, not the roll under way."; return; }
  const a = s && s.attempt;
  const none = noRollWords(s);  // the game over, no roll, a success, or no roll left this turn
  if (none) {
    calc.counts = {};
    showNeed();
    f.dice.value = 3;
    f.rolls.value = 3;
    f.disruption.checked = false;
    calc.shown = "";
    $("#odds-out").textContent = "";
    whose.textContent = none + (s && s.outcome ? " Tap the icons a roll needs to work out its odds." : " The next roll's odds come here; or tap the icons a roll needs.");
    return;
  }
  calc.counts = {};
  for (const part of missingOf(a).split(",").filter(Boolean)) { const [k, n] = part.split(":"); calc.counts[k] = Number(n || 1); }
  showNeed();
  // the dice and the rolls as the companion counts them (its engine: dice kept, items, the rolls this turn allows)
  const toRoll = a.dice_to_roll;
  const left = rollsLeft(s);  // more than none: else noRollWords said so above
  f.dice.value = Math.min(7, Math.max(1, toRoll));
  f.rolls.value = Math.min(3, Math.max(1, left));
  f.disruption.checked = !!a.disruption || /disruption/.test(a.need || "");
  whose.textContent = playerName(s, s.current_player) + "\u2019s roll under way: " + attemptName(a) + ", still needing " + needWords(f.need.value) + " with " + plural(toRoll, "die", "dice") + " and " + plural(left, "roll") + " left.";
  const key = [f.need.value, f.dice.value, f.rolls.value, f.disruption.checked].join("|");
  if (key !== calc.shown) { calc.shown = key; $("#odds-out").textContent = ""; workOut(); }
}

export function oddsPad() {
  const f = $("#odds-form");
  const pad = $("#odds-pad");
  for (const k of ["eye", "camera", "cobweb", "key"]) pad.append(button(ICON[k] + " + " + k, () => { calc.counts[k] = (calc.counts[k] || 0) + 1; showNeed(); mine(); }));
  pad.append(button("Clear", () => { calc.counts = {}; showNeed(); mine(); }));
  for (const name of ["dice", "rolls", "disruption"]) f[name].addEventListener("input", mine);
  $("#odds-follow").addEventListener("click", () => { calc.own = false; calc.shown = ""; followOdds(app.state); });
  showNeed();
  followOdds(app.state);
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!f.need.value) { toast("Tap the icons first.", true); return; }
    workOut();
  });
}
