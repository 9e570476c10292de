// What every part of the page shares: the DOM helpers, the page's state (app), the companion's API, the host's
// actions, the sheets and the form fields, toasts, banners and chimes. It imports nothing; the entry (app.js)
// fills in `page` (rendering, telling, the views) so that no module imports the entry.
export const $ = (s) => document.querySelector(s);
export const $$ = (s) => Array.from(document.querySelectorAll(s));
const SVG = "http://www.w3.org/2000/svg";
// Plain text marks (no emoji: a phone without an emoji font would show empty boxes).
export const ICON = { eye: "\u25C9", camera: "\u25A3", cobweb: "\u2736", key: "\u2625", summon: "\u2620", blank: "\u25A1", timer: "", disruption: "" };
export const REASON = { ghost_hour: "appeared at the Ghost Hour", summon: "summoned", ghost_mode: "Ghost Mode", seance: "called by the séance", manual: "placed by the host" };
export const LASTS = { instant: "played at once", hour: "lasts until the next Ghost Hour", until_met: "lasts until its objective is met", once: "played at once" };
export const KIND_FACES = { clue: ["eye", "camera", "cobweb"], key: ["key", "blank"], summon: ["summon", "blank"] };
export const DIE_OF = { search: "clue", solve: "clue", prove: "clue", barrier: "clue", fire: "clue", unlock: "key" };
export const app = { session: null, state: null, board: null, boardId: null, es: null, lastMsg: 0, lastId: null, scroll: {}, audio: null, wake: null, told: new Set(), pick: null, history: [], busy: false };

// What a module asks of the page as a whole, filled in by app.js at start: render a state, tell the table what
// happened, show a view; and from the Skeptics module, the sheet a legal action opens to ask what it still needs
// (askFor) and the cards drawn from the real decks (askCards).
export const page = {
  render: () => {},
  tell: () => {},
  showView: () => {},
  askFor: async () => null,
  askCards: async () => null,
};

// The modules loaded only when their game or view is first in use (each once; a failed load is tried again). A
// module that fails because the companion was updated since this page opened (this version's files are gone:
// 404) reloads the page, so that every module is of one version.
const once = (load) => { let p = null; return () => (p = p || load().catch((e) => { p = null; reloadIfOutdated(); throw e; })); };
async function reloadIfOutdated() {
  try {
    const res = await fetch(import.meta.url, { method: "HEAD", cache: "no-store" });
    if (res.status === 404) location.reload();
  } catch (e) { /* offline: the page tries again later */ }
}
export const modules = {
  // the host's part of the page, on the host's phone alone: its buttons are bound once, when it first loads
  host: once(() => import("./host.js?v=__VERSION__").then((m) => { m.bindHost(); return m; })),
  box: once(() => import("./box.js?v=__VERSION__")),
  care: once(() => import("./care.js?v=__VERSION__")),
  tray: once(() => import("./tray.js?v=__VERSION__")),
  games: once(() => import("./games.js?v=__VERSION__")),
  skepticsTurn: once(() => import("./skeptics_turn.js?v=__VERSION__")),
  odds: once(() => import("./odds.js?v=__VERSION__")),
  "elder-sign": once(() => import("./elder_sign.js?v=__VERSION__")),
  "among-cultists": once(() => import("./among_cultists.js?v=__VERSION__")),
  spooks: once(() => import("./spooks.js?v=__VERSION__")),
};

export const el = (tag, attrs, text) => {
  const n = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const k in attrs || {}) n.setAttribute(k, attrs[k]);
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
};
export const fill = (node, items) => { node.replaceChildren(...items); };
export const chip = (text, cls) => el("span", { class: "chip " + (cls || "") }, text);
export const pct = (p) => (Math.round(p * 1000) / 10).toFixed(1) + " %";
export const plural = (n, one, many) => n + " " + (n === 1 ? one : (many || one + "s"));
export const isHost = () => !!(app.session && app.session.host);
export const ghostOn = (s) => s && s.ghost_room !== null && s.ghost_room !== undefined;
export const playerName = (s, i) => ((s && s.player_names) || [])[i] || "Player " + (Number(i) + 1);
// What a roll card says when there is no roll to work out ("" while one is under way): the game over, no roll begun, a
// success, or none left this turn. `left`: the rolls the game still allows this turn (null: not counted).
export const NO_ROLL_LEFT = "no roll left this turn";
export function noRollWords(s, left) {
  const a = s && s.attempt;
  if (s && s.outcome) return "The game is over: no roll to come.";
  if (a && a.succeeded) return "The roll succeeded.";
  if (left !== null && left !== undefined && left <= 0) return playerName(s, s.current_player) + "\u2019s turn: " + NO_ROLL_LEFT + ".";
  return a ? "" : "No roll under way.";
}
export const seatName = (s, seat) => playerName(s, Number(seat) - 1);
export const isStandIn = (t) => /^placeholder/i.test(String(t || "").trim());
// The one mark of a card not filled in yet in a list (its name is "Asylum card 1": the companion's, not the card's)
export const notFilled = (standIn) => (standIn ? " (not filled in yet)" : "");
export const cardName = (c) => c.name + notFilled(c.stand_in);

// One message at a time, the newest in place of the one before (never a pile): at the bottom above the tabs (over
// an open sheet at the top), gone by itself or with its close button; screen readers hear it from #say (a refusal
// from #say-now, at once).
export function toast(msg, bad, kind) {
  if (!msg) return;
  const t = $("#toast");
  $("#toast-text").textContent = msg;
  t.title = msg;
  t.className = (bad ? "bad" : "") + ($("#sheet").hidden ? "" : " top") + (kind ? " " + kind : "");
  t.hidden = false;
  document.body.style.setProperty("--toast-h", t.offsetHeight + 8 + "px");
  requestAnimationFrame(clearOfToast);  // after the rest of the page has taken in the same news
  toastWatch.observe($("main"));  // and again when the page's own news (a panel, the log) comes after it
  const live = $(bad ? "#say-now" : "#say");
  $(bad ? "#say" : "#say-now").textContent = "";
  live.textContent = "";
  setTimeout(() => { live.textContent = msg; }, 50);  // emptied first: the same words twice are read twice
  clearTimeout(toast.timer);
  toast.timer = setTimeout(hideToast, bad ? 7000 : Math.min(12000, 2500 + msg.length * 45));  // shown whole: the time to read it
  toast.at = performance.now();
}
// The last tap (or key that pressed a button): a refusal shown before it is of an action since given up (sheet()).
document.addEventListener("click", () => { app.tapAt = performance.now(); }, true);
// A toast at the bottom never sits over what the page offers to tap: when it shows over a button, a field or a fold
// (the turn's last buttons, just tapped), the page scrolls them up clear of it, into the room the body keeps below
// its end while a toast shows (--toast-h). Over an open sheet it is at the top and nothing moves.
function clearOfToast() {
  const t = $("#toast");
  if (t.hidden || t.classList.contains("top")) return;
  const box = t.getBoundingClientRect();
  let under = 0;
  for (const el of document.querySelectorAll("main :is(button, input, select, textarea, summary, a[href])")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.bottom <= box.top || r.top >= box.bottom || r.right <= box.left || r.left >= box.right) continue;
    under = Math.max(under, r.bottom - box.top + 8);
  }
  if (under) window.scrollBy({ top: Math.min(under, innerHeight - box.top + 8), behavior: "instant" });  // at most the toast and the tabs
}
const toastWatch = new ResizeObserver(() => requestAnimationFrame(clearOfToast));
export function hideToast() {
  clearTimeout(toast.timer);
  toastWatch.disconnect();
  $("#toast").hidden = true;
  document.body.style.removeProperty("--toast-h");
}

export async function api(path, body) {
  const opts = { credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-CSRF-Token"] = app.session ? app.session.csrf : "";
    opts.body = JSON.stringify(body);
  }
  let res;
  try { res = await fetch(path, opts); } catch (e) { toast("The companion cannot be reached; check the Wi-Fi.", true); throw e; }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.say || data.error || ("The companion answered " + res.status + "."));
    err.status = res.status;
    err.needs = data.needs || null;
    err.faces = data.faces || null;
    err.whys = data.needs_why || null;
    err.tableCode = data.table_code === true;  // sign-in needs the code on the companion's screen
    throw err;
  }
  return data;
}

// A host action: send it, show its result in words (the same story every phone gets), or the refusal.
// One host action at a time: while one is on its way the page's buttons are off and another tap sends nothing
// (a double tap never counts twice).
export async function act(path, body) {
  if (app.busy) return null;
  app.busy = true;
  const off = [...document.querySelectorAll("button:not([disabled])")];
  for (const b of off) b.disabled = true;
  const done = () => { app.busy = false; for (const b of off) b.disabled = false; };
  let out;
  try {
    out = await api(path, body);
  } catch (e) {
    done();
    if (e.needs && body) return page.askCards(path, body, e.needs, e.faces, e.whys);
    if (e.status) toast(capital(e.message), true);
    return null;
  }
  done();
  if (out && out.state) page.render(out.state);
  if (out && Array.isArray(out.events)) page.tell(out.events);
  return out;
}
// The choices of a new game and the names of the cards (/api/setup-options): every page names the evidence by them,
// the host's wizard lists the boards and ghosts. Loaded at start and again after the box changed; the page shows them.
export async function loadOptions() {
  try {
    const o = await api("/api/setup-options");
    app.options = o;
    app.names = {};
    app.evStandIn = new Set();
    for (const c of o.evidence || []) { app.names[c.id] = c.name; if (c.stand_in) app.evStandIn.add(c.id); }
    if (app.state) { const s = app.state; app.state = null; page.render(s); }
  } catch (e) { /* filled on the next visit */ }
}
export const capital = (t) => (t ? t.charAt(0).toUpperCase() + t.slice(1) : t);
export const command = (name, args) => act("/api/command", { command: name, args: args || {} });
// Whether the game would take the command now (nothing played): its refusal shown as a command's; when taken, a
// refusal still up from before is put right, and goes.
export async function checkCommand(name, args) {
  const ok = !!(await act("/api/command/check", { command: name, args: args || {} }));
  if (ok && $("#toast").classList.contains("bad")) hideToast();
  return ok;
}

// ---- what the host may do now (the engine's legal actions) -------------------------------------
export const legalOf = (s, name) => ((s && s.legal) || []).filter((a) => a.name === name);

export function actButton(a, label, cls) {
  const b = el("button", { type: "button", class: cls || "", "data-legal": a.name + (a.args.action ? ":" + a.args.action : "") }, label || a.label);
  b.addEventListener("click", () => runLegal(a));
  return b;
}

export const button = (label, fn, cls, id) => { const b = el("button", { type: "button", class: cls || "", id: id || null }, label); if (!id) b.removeAttribute("id"); b.addEventListener("click", fn); return b; };
// A stepper's − or + (by < 0: −), named for what it changes ("Sanity lost: one less"): the sign alone says nothing
export const stepButton = (what, by, fn, cls, id) => {
  const b = button(by < 0 ? "\u2212" : "+", fn, cls, id);
  b.setAttribute("aria-label", what + ": " + (Math.abs(by) === 1 ? "one" : Math.abs(by)) + (by < 0 ? " less" : " more"));
  return b;
};
export const rowOf = (items) => { const r = el("div", { class: "row" }); r.append(...items); return r; };
// A card not filled in yet came up and played nothing: the question, and the taps of what the real card did, across
// the whole width of the panel ("That was all", with how long the card lasts, closes it). A tap that asks an amount (asks "n") is a stepper from
// the engine's default and one "Tell" that sends the whole amount once; the engine takes each kind once.
export const cardQuestion = (id, text, taps) => {
  const q = el("div", { class: "warn span-all", id }, text);
  const plain = taps.filter((a) => !(a.asks || []).includes("n"));
  const rows = taps.filter((a) => (a.asks || []).includes("n")).map(amountRow);
  const r = rowOf(plain.map((a) => actButton(a, null, a.args.effect === "nothing" ? "primary" : "small")));
  for (const x of [...rows, r]) x.classList.add("span-all");
  return [q, ...rows, r];
};
const STEP = { clock: 3 };
function amountRow(a) {
  const step = STEP[a.args.effect] || 1;
  let n = Number(a.args.n) || step;
  const shown = el("b", { class: "amount", "data-effect": a.args.effect }, "");
  const send = el("button", { type: "button", class: "small", "data-legal": a.name, "data-effect": a.args.effect }, "Tell");
  // a screen reader hears what the tap tells ("Tell: Doom +2"), not the same "Tell" on every row
  const show = () => { shown.textContent = (n > 0 ? "+" : "") + n; send.setAttribute("aria-label", "Tell: " + a.label + " " + shown.textContent); };
  const by = (d) => () => { const m = n + d; n = m === 0 ? m + d : Math.max(-9, Math.min(9, m)); show(); };
  show();
  send.addEventListener("click", () => command(a.name, { ...a.args, n: String(n) }));
  return rowOf([el("span", {}, a.label + ":"), stepButton(a.label, -step, by(-step), "small step", null), shown,
    stepButton(a.label, step, by(step), "small step", null), send]);
}

// One legal action: fill in what it still asks (icons, dice, a space: the game's sheet), then send it.
export async function runLegal(a) {
  const ask = await page.askFor(a);
  if (ask) return ask();
  const out = await command(a.name, a.args);
  if (out && a.name === "attempt") page.showView("dice");
  return out;
}

// ---- sheets: a choice, a confirmation, the fields of a form --------------------------------------
// onCancel: what the sheet's Cancel goes back to (a question's Cancel: the sheet it was asked from, as it was)
export function sheet(title, body, okLabel, onOk, onCancel) {
  $("#sheet-title").textContent = title;
  fill($("#sheet-body"), body);
  const ok = $("#sheet-ok");
  ok.textContent = okLabel || "OK";
  ok.hidden = !onOk;
  $("#sheet").hidden = false;
  app.sheetOk = onOk;
  app.sheetCancel = onCancel || null;
  // a refusal from before the tap that opened this sheet is of an action given up since: it goes, never over the sheet
  // (one this tap brought, a sheet opened again after its answer was refused, stays: it says why)
  const t = $("#toast");
  if (!t.hidden && t.classList.contains("bad") && toast.at < (app.tapAt ?? 0)) hideToast();
  t.classList.add("top");  // a message already up goes to the top: never over the sheet's last answers
}
export const closeSheet = () => { $("#sheet").hidden = true; app.sheetOk = null; app.sheetCancel = null; $("#toast").classList.remove("top"); };

export function pickFrom(title, actions) {
  sheet(title, actions.map((a) => button(a.label, async () => { closeSheet(); await runLegal(a); }, "wide")), null, null);
}

export function confirmSheet(title, text, okLabel, fn, onCancel) {
  sheet(title, [el("p", {}, text)], okLabel, async () => { await fn(); return true; }, onCancel);
}

export const field = (label, input, note) => {
  const single = ["INPUT", "SELECT", "TEXTAREA"].includes(input.tagName);
  const l = el(single ? "label" : "div", { class: "field" });
  l.append(el("span", {}, label), input);
  if (note) l.append(el("div", { class: "note" }, note));
  return l;
};
export const textIn = (value, name, hint) => { const i = el("input", { name, maxlength: "120", autocomplete: "off", placeholder: hint || "" }); i.value = isStandIn(value) ? "" : value || ""; return i; };
export const textArea = (value, name, hint) => { const i = el("textarea", { name, rows: "3", maxlength: "300", placeholder: hint || "Copy it from your card, in your own short words" }); i.value = isStandIn(value) ? "" : value || ""; return i; };
export const selectIn = (name, options, value) => { const s = el("select", { name }); for (const [v, label] of options) { const o = el("option", { value: String(v) }, label); if (String(v) === String(value)) o.selected = true; s.append(o); } return s; };

// A board's space at its place on the map (the packs give [x, y] or {x, y}).
export function posOf(r) {
  const p = r.pos || [r.x, r.y];
  return Array.isArray(p) ? { x: Number(p[0]), y: Number(p[1]) } : { x: Number(p.x), y: Number(p.y) };
}

// ---- telling the table: chimes, a buzz, the big banner -----------------------------------------
export function chime(notes) {
  if (localStorage.getItem("muted") === "1") return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    const ctx = app.audio || (app.audio = new Ctx());
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    const t0 = ctx.currentTime;
    (notes || [392, 330, 262, 196]).forEach((f, i) => {
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.type = "sine"; o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t0 + i * 0.6);
      g.gain.exponentialRampToValueAtTime(0.4, t0 + i * 0.6 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + i * 0.6 + 1.5);
      o.connect(g).connect(ctx.destination);
      o.start(t0 + i * 0.6); o.stop(t0 + i * 0.6 + 1.6);
    });
  } catch (e) { /* audio not allowed yet */ }
}
export function buzz(pattern) {
  const ua = navigator.userActivation;
  if (navigator.vibrate && (!ua || ua.hasBeenActive)) navigator.vibrate(pattern);
}

// The big banner: `modal` takes the whole screen until OK (the Ghost Hour, the game's end); else a panel across the
// top that leaves the game under it to be tapped and scrolled, and goes with a tap on it or OK (a midnight, the
// night, a vote ...: the game goes on at once).
export function showBanner(kind, title, line1, line2, id, modal = true) {
  $("#banner-title").textContent = title;
  $("#banner-room").textContent = line1 || "";
  $("#banner-env").textContent = line2 || "";
  const b = $("#banner");
  b.dataset.kind = kind;
  b.dataset.eventId = id;
  b.classList.toggle("strip", !modal);
  $("#banner-ok").textContent = "OK";
  app.bannerQuestion = null;
  b.hidden = false;
  app.bannerAt = performance.now();
  // on the table display nobody taps OK: the banner goes by itself after a while (phones keep it until OK)
  clearTimeout(showBanner.later);
  if (document.body.classList.contains("table") && !isHost()) showBanner.later = setTimeout(() => { if (b.dataset.eventId === String(id)) b.hidden = true; }, 30000);
}
export function hideBanner() {
  clearTimeout(showBanner.later);
  $("#banner").hidden = true;
  app.bannerQuestion = null;
}
