// Among Cultists (companion/games/among_cultists) on the page: the night read out, ten rounds of four phases, the
// vote. Loaded when an Among Cultists game is first shown.
import {
  $, app, el, fill, plural, isHost, seatName, toast, act, command, legalOf, actButton, button, rowOf, runLegal, sheet,
  closeSheet, confirmSheet, field, selectIn, capital,
} from "./core.js?v=__VERSION__";

const AC_PHASES = [["movement", "Movement"], ["event", "Event"], ["action", "Action"], ["cleanup", "Clean-up"]];
const AC_HINT = {
  night: "Everyone closes their eyes while the companion reads the night out; the host starts it when the table is ready.",
  // the movement and the event: the engine's sentence (s.phase_words), the same as the log's
  action: "In turn from the knife, each player does their action. The vote may be called once this round, in the cafeteria.",
  cleanup: "The vote marker turns back and the knife passes to the next player; then the clock moves on.",
};
const PAUSES = [[2, "short pauses (2 s)"], [4, "pauses of 4 s"], [6, "pauses of 6 s"], [9, "long pauses (9 s)"], [14, "very long pauses (14 s)"]];
// What the clock shows: the phase (the night, a phase of the round, the end).
export const clockLabel = (s) => (s.phase === "night" ? "Night" : s.phase === "over" ? "Game over" : (AC_PHASES.find((p) => p[0] === s.phase) || [0, s.phase])[1]);
const pauseNow = () => Number(localStorage.getItem("narration-pause") || 4);

function pauseSelect() {
  const sel = selectIn("pause", PAUSES, pauseNow());
  sel.id = "narration-pause";
  sel.addEventListener("change", () => localStorage.setItem("narration-pause", sel.value));
  return field("Between the steps", sel);
}

async function readOut(kind) {
  return act("/api/host/narrate", { kind, pause: pauseNow() });
}

// The Among Cultists cards of the game view.
export function render(s) {
  const night = s.phase === "night";
  $("#ac-line").textContent = night ? "Before round 1" : s.phase === "over" ? "After " + plural(s.round, "round") : "Round " + s.round + " of " + s.rounds;
  fill($("#ac-glance"), [
    el("span", { id: "ac-knife" }, "The knife: " + seatName(s, s.start_player)),
    el("span", { id: "ac-points" }, "Victory points " + s.points + " of " + s.points_needed),
    el("span", {}, plural(s.cultists, "cultist") + (s.seer ? ", with the seer" : "")),
  ]);
  const out = $("#outcome");
  out.hidden = !s.outcome;
  out.textContent = s.outcome ? (s.outcome === "won" ? "The investigators win!" : "The cultists win.") : "";
  out.className = "outcome " + (s.outcome || "");
  fill($("#ac-phases"), [el("li", { class: night ? "on" : "done" }, "The night")].concat(AC_PHASES.map(([key, word], i) => {
    const at = AC_PHASES.findIndex((p) => p[0] === s.phase);
    return el("li", { class: key === s.phase ? "on" : (!night && at > i) || s.phase === "over" ? "done" : "" }, word);
  })));
  const ev = s.event;
  $("#ac-event").textContent = ev ? (ev.stand_in ? "The companion's event markers are not filled in yet: draw one from your bag and read it out." + (isHost() ? " Enter its name with \u201CThe marker drawn from the real bag\u201D, and every phone shows it." : "") : ev.name + (ev.text ? ": " + ev.text : ""))
    : s.phase === "event" || s.phase === "movement" ? "Not drawn yet this round." : night ? "The first event is drawn in round 1." : "None this round.";
  $("#ac-event-fill").hidden = !(ev && ev.stand_in && isHost() && ev.id);
  $("#ac-vote").textContent = acVoteNow(s) + acLastVotes(s);
  // what the companion knows of the roles (the module's sentence): only what the host told it
  $("#ac-roles-note").textContent = s.roles_note || "";
  fill($("#ac-seats"), (s.seats || []).map((x) => {
    const li = el("li", { class: x.start ? "active" : "" });
    li.append(el("b", {}, x.name), el("span", { class: "note" }, " " + [x.start ? "holds the knife" : "", x.out === "voted" ? "voted out: plays on as a ghost" : x.out === "dead" ? "found dead: plays on as a ghost" : ""].filter(Boolean).join(" \u00B7 ")));
    return li;
  }));
  renderACNight(s);
  renderACHost(s);
}

// the vote box's first words: nothing once the game is over; a body's vote (not the cafeteria's) before the marker
function acVoteNow(s) {
  if (s.outcome) return "";
  const cafeteria = s.vote_used ? "The cafeteria's vote has been used this round; it comes back in the clean-up." : "The cafeteria's vote is still open this round: it may be called once, and only in the cafeteria.";
  if (s.body_votes && !(s.points >= s.points_needed)) return "A body was found: the table votes now (a body's vote, not the cafeteria's). " + (s.vote_used ? cafeteria : "");
  return cafeteria;
}

// every vote of the latest round that had one, in the order they were held: the cafeteria's and a body's (:52)
function acLastVotes(s) {
  const votes = s.votes || [];
  if (!votes.length) return "";
  const round = votes[votes.length - 1].round;
  const said = votes.filter((v) => v.round === round).map((v) => (v.called === "body" ? "called by a body, " : "in the cafeteria, ") +
    (v.seat ? seatName(s, v.seat) + " was voted out" + (v.last ? ", and was the last cultist" : "") : "nobody had a majority"));
  return " " + (said.length > 1 ? "The votes of round " + round : "The last vote, in round " + round) + ": " + said.join("; ") + ".";
}

function renderACNight(s) {
  const card = $("#ac-night");
  const night = s.phase === "night";
  card.hidden = !night;
  if (!night) return;
  const script = s.night_script || [];
  $("#ac-night-note").textContent = "The companion reads this out with the voice, the table's screen and every phone: each step is said, then " +
    (isHost() ? "the pause chosen below" : "the pause the host chose") + " passes before the next.";  // the pause is the host's control
  fill($("#ac-night-steps"), script.map((st) => el("li", {}, st.text)));
  if (!isHost()) return;
  fill($("#ac-night-host"), [pauseSelect(),
    rowOf([button(s.narration && s.narration.kind === "night" ? "Read the night again" : "Read the night out", () => readOut("night"), "primary", "ac-read-night")]),
    ...legalOf(s, "night-done").map((a) => actButton(a, null, "wide"))]);
}

function renderACHost(s) {
  const card = $("#ac-host");
  const show = isHost() && !s.outcome && s.phase !== "night";
  card.hidden = !show;
  if (!show) return;
  $("#ac-host-title").textContent = (AC_PHASES.find((p) => p[0] === s.phase) || [0, "This"])[1] + " phase \u00B7 round " + s.round;
  $("#ac-phase-hint").textContent = s.phase_words || AC_HINT[s.phase] || "";
  const legal = s.legal || [];
  const main = [];
  // one highlighted button, the likely next step: the marker from the real bag when the table draws them, else the
  // companion's draw; the countdown before the vote
  const entered = legal.filter((x) => x.name === "event");
  const fromBag = entered.length && (s.physical || (app.options && (app.options.ac_events || []).every((e) => e.stand_in)));
  for (const a of legal.filter((x) => x.name === "draw-event")) main.push(actButton(a, null, fromBag ? "" : "primary"));
  if (entered.length) main.push(button("The marker drawn from the real bag\u2026", () => acEvent(entered[0], s), fromBag ? "primary" : "", "ac-event-enter"));
  const votes = legal.filter((x) => x.name === "vote" && !x.args.called);
  const bodyVotes = legal.filter((x) => x.name === "vote" && x.args.called);
  // the points that reach the goal end the game by themselves (:60); only a game stored before that offers the
  // host's win by points (it comes first, and a body's vote waiting then is not asked: the game ends with the win)
  const win = legal.filter((x) => x.name === "points-win");
  for (const a of win) main.push(button(a.label, () => confirmSheet("The investigators win?", "They have " + s.points + " of the " + s.points_needed + " victory points they need. The game ends.", "They win", () => runLegal(a)), "primary", "ac-points-win"));
  if (win.length) { /* the win first: no vote is asked */ } else if (s.body_votes && bodyVotes.length) {
    main.push(el("p", { class: "warn", id: "ac-body-note" }, "A body was found: the table votes now, before the round goes on. This vote does not use up the cafeteria's vote."));
    main.push(button("Count down: 3, 2, 1, point!", () => readOut("vote"), "primary", "ac-countdown-body"));
    main.push(button("Who was voted out?\u2026", () => acVote(bodyVotes[0], s, true), "", "ac-body-vote"));
  } else if (votes.length) {
    main.push(button("Count down: 3, 2, 1, point!", () => readOut("vote"), "primary", "ac-countdown"));
    main.push(button("Who was voted out?\u2026", () => acVote(votes[0], s), "", "ac-vote-result"));
  }
  for (const a of legal.filter((x) => x.name === "next-phase" || x.name === "end-round")) main.push(actButton(a, null, "wide"));
  fill($("#ac-main"), main);
  const fix = [];
  for (const a of legal.filter((x) => x.name === "points")) {
    fix.push(button("The investigators gain a victory point", () => command("points", { n: "1" }), "small", "ac-point-plus"));
    if (s.points > 0) fix.push(button("Take a victory point back", () => command("points", { n: "-1" }), "small", "ac-point-minus"));
  }
  for (const a of legal.filter((x) => x.name === "found-dead")) fix.push(button(a.label + "\u2026", () => acSeat(a, s, "Whose character was found dead?"), "small", "ac-dead"));

  for (const a of legal.filter((x) => x.name === "cultists-win")) fix.push(button(a.label, () => confirmSheet("The cultists win?", "Only when the cultists have reached their win at the table. The game ends.", "They win", () => runLegal(a)), "small", "ac-cultists-win"));
  // a body is found by a check of a character's condition, an action of the action phase (rules :44, :52): outside
  // it the menu has no such button, so its name says only what it holds, and a note says when the body's button comes
  const dead = legal.some((x) => x.name === "found-dead");
  if (!dead && !s.outcome) fix.push(el("p", { class: "note span-all", id: "ac-dead-when" }, "A body is found by checking a character's condition in the action phase: the button for it comes then."));
  fill($("#ac-fix-list"), fix);
  const holds = [legal.some((x) => x.name === "points") ? "points" : "", dead ? "a body found" : "", legal.some((x) => x.name === "cultists-win") ? "the cultists' win" : ""].filter(Boolean);
  $("#ac-fix summary").textContent = capital(holds.join(", ") || "corrections");
}

function acSeat(a, s, title) {
  const seats = (s.seats || []).filter((x) => !x.out);
  sheet(title, seats.map((x) => button(x.name, async () => { closeSheet(); await command(a.name, { ...a.args, seat: String(x.seat) }); }, "wide")), null, null);
}

function acVote(a, s, body) {
  const seats = (s.seats || []).filter((x) => !x.out);
  let picked = null;
  const shown = el("div", { class: "big-ish", id: "ac-vote-picked" }, "Nobody chosen yet.");
  const lastBox = el("input", { type: "checkbox", name: "last", id: "ac-vote-last" });
  const lastLabel = el("label"); lastLabel.append(lastBox, " The player voted out showed the last cultist's card");
  const pick = (seat, words) => { picked = seat; shown.textContent = words; };
  const mark = (b) => { rows.forEach((r) => r.classList.toggle("on", r === b)); };
  const rows = seats.map((x) => { const b = button(x.name, () => { pick(String(x.seat), x.name + " is voted out."); mark(b); }, "", "ac-vote-seat-" + x.seat); return b; });
  const nobody = button("Nobody: no majority", () => { pick("none", "Nobody is voted out."); lastBox.checked = false; mark(nobody); }, "", "ac-vote-none");
  rows.push(nobody);
  const canBeLast = (a.asks || []).includes("last"); // with two cultists, not before a first one is out
  sheet(body ? "The vote the body called" : "The vote's result", [el("p", { class: "note" }, "A simple majority of the fingers pointing votes a player out."), ...rows, shown, ...(canBeLast ? [lastLabel] : [])], "Send the result", async () => {
    if (!picked) { toast("Tap who was voted out, or nobody, first.", true); return false; }
    const args = { ...a.args, seat: picked };
    if (lastBox.checked && picked !== "none") args.last = "yes";
    return !!(await command("vote", args));
  });
}

function acEvent(a, s) {
  const options = ((app.options && app.options.ac_events) || []).filter((e) => !e.stand_in);
  const name = el("input", { name: "event-name", maxlength: "40", autocomplete: "off", placeholder: "as printed on the marker", id: "ac-event-name" });
  const body = [field("Its name", name)];
  let sel = null;
  if (options.length) {
    sel = selectIn("id", [["", "choose\u2026"], ...options.map((e) => [e.id, e.name])], "");
    body.unshift(field("The marker, from your box", sel));
  }
  sheet("Which event marker came out of the bag?", body, "Send", async () => {
    if (sel && sel.value) return !!(await command("event", { id: sel.value }));
    if (!name.value.trim()) { toast(options.length ? "Choose the marker, or type its name, first." : "Type the marker's name first.", true); return false; }
    return !!(await command("event", { name: name.value.trim() }));
  });
}
