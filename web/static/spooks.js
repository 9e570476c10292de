// Spooks (companion/games/spooks) on the page: the score pad, and what the top card allows. Loaded when a Spooks
// game is first shown.
import {
  $, $$, el, fill, plural, isHost, seatName, command, button, runLegal, sheet, closeSheet, confirmSheet, field, checkCommand,
} from "./core.js?v=__VERSION__";

const SP_SUITS = [["spiders", "Spiders"], ["spooks", "Spooks"], ["goblins", "Goblins"], ["bones", "Bones"], ["bats", "Bats"]];
const SP_CARDS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "M", "cat"];
const cardWord = (c) => (c === "M" ? "Master" : c === "cat" ? "Black Cat" : c);

// The Spooks cards of the game view.
export function render(s) {
  const over = !!s.outcome;
  $("#sp-line").textContent = over ? "Game over after " + plural((s.hands || []).length, "hand") + "." :
    "Hand " + s.hand + " \u00B7 " + seatName(s, s.dealer) + " deals";
  const out = $("#outcome");
  out.hidden = !over;
  out.textContent = over ? (s.winner ? seatName(s, s.winner) + " wins with the lowest score!" : (s.winners || []).map((w) => seatName(s, w)).join(" and ") + " share the win!") : "";
  out.className = "outcome " + (over ? "won" : "");
  const limit = s.loss_limit || 200;
  const head = el("tr"); head.append(el("th", {}, "Player"), el("th", { class: "num" }, "Score"), el("th", {}, "to " + limit));
  const rows = (s.scores || []).map((score, i) => {
    const seat = i + 1;
    const tr = el("tr", { class: (s.out || []).includes(seat) ? "out" : seat === s.winner ? "won" : "" , id: "sp-score-" + seat });
    const bar = el("div", { class: "bar" }); const fillBar = el("span"); fillBar.style.width = Math.min(100, (100 * score) / limit) + "%"; bar.append(fillBar);
    const who = el("td"); who.append(el("b", {}, seatName(s, seat)), el("span", { class: "note" }, (seat === s.dealer && !over ? " deals" : "") + ((s.out || []).includes(seat) ? " out" : "")));
    const sc = el("td", { class: "num" }, String(score)); const br = el("td"); br.append(bar);
    tr.append(who, sc, br);
    return tr;
  });
  fill($("#sp-scores"), [head, ...rows]);
  $("#sp-limit").textContent = s.variant === "long" ? "A player who reaches " + limit + " drops out, until three are left; then the lowest score wins." : "When a player reaches " + limit + ", the game ends and the lowest score wins.";
  $("#sp-top-card").hidden = over;
  $("#sp-rules-card").hidden = over;
  const top = s.top;
  $("#sp-top").textContent = top ? "On top: " + (top.suit === "cat" ? "the Black Cat" : cardWord(String(top.number ?? "")) + " of " + (SP_SUITS.find((x) => x[0] === top.suit) || [0, top.suit])[1]) : "No top card entered.";
  fill($("#sp-may"), [].concat(s.may_play || []).map((t) => el("li", {}, t)));
  fill($("#sp-rules"), (s.rules_in_force || []).map((t) => el("li", {}, t)));
  const hh = el("tr"); hh.append(el("th", {}, "Hand"), ...(s.player_names || []).map((n) => el("th", { class: "num" }, n)));
  fill($("#sp-hands"), [hh, ...(s.hands || []).map((h, k) => { const tr = el("tr"); tr.append(el("td", {}, String(k + 1)), ...h.map((p) => el("td", { class: "num" }, p === null || p === undefined ? "\u2013" : String(p)))); return tr; })]);
  if (!(s.hands || []).length) fill($("#sp-hands"), [el("tr", {}, "")]);
  renderSPHost(s);
}

function renderSPHost(s) {
  const card = $("#sp-host");
  const show = isHost() && !s.outcome;
  card.hidden = !show;
  fill($("#sp-top-host"), []);
  if (!show) return;
  $("#sp-host-title").textContent = "When hand " + s.hand + " is over";
  const legal = s.legal || [];
  const hands = legal.filter((x) => x.name === "hand");
  const main = [];
  if (hands.length) {
    main.push(button("Count the cards left in each hand\u2026", () => spCards(s), "primary", "sp-count"));
    main.push(button("Type each player's points\u2026", () => spPoints(s), "", "sp-points"));
  }
  fill($("#sp-main"), main);
  const tops = legal.filter((x) => x.name === "top");
  if (tops.length) fill($("#sp-top-host"), [button("Set the top card\u2026", () => spTop(s), "", "sp-top-set")]);
  const fix = [];
  for (const a of legal.filter((x) => x.name === "master")) {
    const rule = (s.master_rules || {})[a.args.suit];
    fix.push(button(a.label, () => (rule ? confirmSheet(a.label + "?", rule, "Yes, it was played", () => runLegal(a)) : runLegal(a)), "small", "sp-master-" + a.args.suit));
  }
  for (const a of legal.filter((x) => x.name === "end")) fix.push(button(a.label, () => confirmSheet("No score for this hand?", "The hand is given up (a misdeal) and the deal moves on.", "Give it up", () => runLegal(a)), "small", "sp-end"));
  fill($("#sp-fix-list"), fix);
  // the corrections' title names what is there: no Master's effect when the Masters' effects are off
  $("#sp-fix summary").textContent = legal.some((x) => x.name === "master") ? "A Master played, a misdeal" : "A misdeal";
  $("#sp-fix").hidden = !fix.length;
}

function spSeatsIn(s) { return (s.seats_in || (s.scores || []).map((_, i) => i + 1)); }

// What was typed or tapped for this hand (kind: "points" or "cards"), kept on this phone until the hand is added or the
// host clears it: the sheet's Cancel (or a reload) loses none of it
const spDraftKey = (s, kind) => "sp-" + kind + "-" + s.game_id + "-" + (s.started || 0) + "-" + s.hand;
const spDraft = (s, kind) => { try { return JSON.parse(sessionStorage.getItem(spDraftKey(s, kind)) || "{}") || {}; } catch (e) { return {}; } };
const spKeep = (s, kind, bySeat) => sessionStorage.setItem(spDraftKey(s, kind), JSON.stringify(bySeat));
const spForget = (s, kind) => sessionStorage.removeItem(spDraftKey(s, kind));

// typed: the points already written, by seat (a question's Cancel comes back to them; else the draft kept)
function spPoints(s, typed) {
  const seats = spSeatsIn(s);
  const kept = typed || spDraft(s, "points");
  const keep = () => spKeep(s, "points", Object.fromEntries(seats.map((seat) => [seat, $("#sp-p-" + seat).value])));
  const inputs = seats.map((seat) => { const i = el("input", { type: "number", name: "p" + seat, min: "0", max: "999", inputmode: "numeric", id: "sp-p-" + seat }); i.value = kept[seat] ?? ""; i.addEventListener("input", keep); return field(seatName(s, seat), i); });
  const clear = button("Clear the points", () => { seats.forEach((seat) => { $("#sp-p-" + seat).value = ""; }); spForget(s, "points"); }, "small quiet", "sp-clear");
  sheet("This hand's points", [el("p", { class: "note" }, "The points of the cards left in each hand; the player who went out has 0."), ...inputs, clear], "Add the hand", async () => {
    const points = seats.map((seat) => $("#sp-p-" + seat).value.trim());  // the seats still in
    const args = { points: points.join(",") };
    // the game's own refusal first (a blank, nobody at 0, more points than the deck holds): before any question
    if (!(await checkCommand("hand", args))) return false;
    const send = async () => { const ok = !!(await command("hand", args)); if (ok) spForget(s, "points"); return ok; };
    // more than a whole dealt hand holds on average: asked once (a typo, or a hand that grew with Bat bites)
    const high = seats.filter((seat, i) => s.dealt_points && Number(points[i]) > s.dealt_points);
    if (!high.length) return send();
    const back = () => spPoints(s, Object.fromEntries(seats.map((seat, i) => [seat, points[i]])));
    confirmSheet("So many points?", high.map((seat) => seatName(s, seat) + " has " + Number(points[seats.indexOf(seat)]) + " points").join(", ") + ": more than a whole dealt hand holds on average (" + s.dealt_points + " points with " + plural(s.players, "player") + "). Is that right?", "Yes, add the hand", async () => { if (!(await send())) back(); }, back);
    return false;
  });
}

// The cards tapped are kept like the points typed (Cancel or a reload loses none); each button says whose hand it
// is for ("Ada: 5"), for a screen reader reads the buttons of every player alike
function spCards(s) {
  const seats = spSeatsIn(s);
  const kept = spDraft(s, "cards");
  const left = {}; seats.forEach((seat) => { left[seat] = (Array.isArray(kept[seat]) ? kept[seat] : []).filter((c) => SP_CARDS.includes(c)); });
  const value = s.card_points || {};
  const shows = [];
  const rows = seats.map((seat) => {
    const name = seatName(s, seat);
    const box = el("div", { class: "stack sp-seat", role: "group", "aria-labelledby": "sp-name-" + seat });
    const words = el("div", { class: "note", id: "sp-left-" + seat, "aria-live": "polite" });
    const show = () => {
      const sum = left[seat].reduce((t, c) => t + (value[c] || 0), 0);
      words.textContent = left[seat].length ? left[seat].map(cardWord).join(", ") + " = " + sum + " points" : "No cards left (0 points).";
    };
    const tapped = (change) => () => { change(); spKeep(s, "cards", left); show(); };
    const named = (b, what) => { b.setAttribute("aria-label", name + ": " + what); return b; };
    const pad = el("div", { class: "pad" });
    for (const c of SP_CARDS) pad.append(named(button(cardWord(c), tapped(() => left[seat].push(c)), "small", "sp-card-" + seat + "-" + c), cardWord(c)));
    pad.append(named(button("Take back", tapped(() => left[seat].pop()), "small quiet", "sp-undo-" + seat), "take back"));
    box.append(el("b", { id: "sp-name-" + seat }, name), pad, words);
    show();
    shows.push(show);
    return box;
  });
  const clear = button("Clear the cards", () => { seats.forEach((seat) => { left[seat] = []; }); spForget(s, "cards"); shows.forEach((show) => show()); }, "small quiet", "sp-count-clear");
  sheet("The cards left in each hand", [el("p", { class: "note" }, "Tap each card still in a player's hand. The companion counts them."), ...rows, clear], "Add the hand", async () => {
    const cards = seats.map((seat) => left[seat].join("+"));  // the seats still in, in seat order
    const ok = !!(await command("hand", { cards: cards.join(";") }));
    if (ok) spForget(s, "cards");
    return ok;
  });
}

function spTop(s) {
  let suit = null;
  const nums = el("div", { class: "pad", id: "sp-top-numbers" });
  const suits = el("div", { class: "chips sp-suits" });
  for (const [key, word] of SP_SUITS) {
    const b = button(word, () => { suit = key; nums.hidden = false; $$("#sheet-body .sp-suits button").forEach((x) => x.classList.toggle("on", x === b)); }, "small", "sp-suit-" + key);
    suits.append(b);
  }
  suits.append(button("The Black Cat", async () => { closeSheet(); await command("top", { suit: "cat" }); }, "small", "sp-suit-cat"));
  nums.hidden = true;
  for (const c of SP_CARDS.slice(0, 11)) {
    nums.append(button(cardWord(c), async () => {
      if (!suit) return;
      closeSheet();
      if (c === "M" && s.master_effects) { spMasterOnTop(s, suit); return; }
      await command("top", { suit, number: c });
    }, "small", "sp-num-" + c));
  }
  sheet("The card on top of the discard pile", [el("p", { class: "note" }, "Its suit, then its number."), suits, nums], null, null);
}

// A Master on top with the Masters' effects: its effect happens only when it was played normally, not in a Goblin
// trick (the engine asks for it, spooks-rules.txt); the sheet asks the host which
function spMasterOnTop(s, suit) {
  const name = "The Master of " + (SP_SUITS.find((x) => x[0] === suit) || [0, suit])[1];
  const rule = (s.master_rules || {})[suit];
  const send = (effect) => async () => { closeSheet(); await command("top", { suit, number: "M", effect }); };
  sheet(name + " on top: how was it played?", [
    el("p", { class: "note" }, "A Master's effect happens only when it is played normally; played during a Goblin trick, it has none."),
    button("Played normally: its effect happens", send("yes"), "wide primary", "sp-master-normal"),
    button("During a Goblin trick: no effect", send("no"), "wide", "sp-master-trick"),
    ...(rule ? [el("p", { class: "note", id: "sp-master-rule" }, "Its effect: " + rule)] : []),
  ], null, null);
}
