// The Games view: the record of every game played on this companion, the dice's luck, whether the odds were
// right, the figures across games and the exports. Loaded by app.js only when the view is opened, so the game
// page's first load does not carry it. Every figure and sentence comes from the companion (/api/games: the
// records of companion/record.py, the figures of companion/stats.py); the pictures are its SVG.
import { api, el, fill, plural, toast } from "./core.js?v=__VERSION__";

function when(ts) {
  return new Date(Number(ts) * 1000).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

// the table's win rate; a game one player (or side) wins has none: its winners instead ("Bo 2, Ada 1")
function rate(t) {
  const winners = Object.entries(t.winners || {});
  if ((t.win_rate === null || t.win_rate === undefined) && winners.length) return winners.map(([w, n]) => w + " " + n).join(", ");
  return t.win_rate === null || t.win_rate === undefined ? "-" : Math.round(t.win_rate * 100) + "%";
}

function table(head, rows) {
  const t = el("table", { class: "scores" });
  const tr = el("tr");
  head.forEach((h, i) => tr.append(el("th", i ? { class: "num" } : {}, h)));
  t.append(tr);
  for (const row of rows) {
    const r = el("tr");
    row.forEach((c, i) => r.append(el("td", i ? { class: "num" } : {}, c)));
    t.append(r);
  }
  return t;
}

function tallyRows(by) {
  return Object.entries(by).map(([k, t]) => [t.title || k, String(t.played), String(t.won), String(t.lost), rate(t), String(t.not_finished || 0)]);
}
const TALLY = ["Played", "Won", "Lost", "Rate", "Not finished"];
const TALLY_NOTE = "Played counts the games that ended; a game left under way is listed as not finished. Won and lost are the table's; a game one player wins has no table win, so its Rate lists its winners.";
// "4 turns", "1 turn", "1 Ghost Hour": the count's word from the record, one or many
function counted(n, word) {
  const w = String(word || "");
  return plural(Number(n), w.replace(/s$/, ""), w);
}

// A picture of the companion's, drawn for the width it is shown at (so its words keep their size): the address
// is kept in data-src and the width added once the picture is in the page.
function picture(src, alt) {
  return el("img", { class: "chart", alt, "data-src": src });
}

// on the table display the pictures are drawn narrower and shown larger, to be read from across the table
const pictureScale = () => (document.body.classList.contains("table") ? 1.5 : 1);
// The width a picture is drawn for: its box's (every picture is its box's width, games.css), not its own, which is
// its alt text's until it is drawn; the page's less the card's margins when its view is hidden. Never a fixed
// width a phone would show shrunk and unreadable.
function pictureWidth(img) {
  const box = img.parentElement;
  const style = box ? getComputedStyle(box) : null;
  const inner = box && box.clientWidth ? box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) : 0;
  const shown = Math.min(parseFloat(getComputedStyle(img).maxWidth) || Infinity, inner || Math.min(document.documentElement.clientWidth, 560) - 48);
  return Math.max(300, Math.round(shown / pictureScale()));
}

function drawPictures(root) {
  for (const img of root.querySelectorAll("img[data-src]")) {
    img.src = img.dataset.src + (img.dataset.src.includes("?") ? "&" : "?") + "w=" + pictureWidth(img);
    img.removeAttribute("data-src");
  }
}

function gameCard(g) {
  const card = el("div", { class: "card game", "data-game": String(g.game) });
  const head = el("div", { class: "game-head" });
  head.append(el("h3", {}, g.title + " #" + g.game), el("span", { class: "dim" }, when(g.started) + " \u00B7 " + g.duration));
  card.append(head);
  const who = (g.players || []).join(", ");
  const setup = (g.setup || []).map(([label, value]) => label + ": " + value).join(" \u00B7 ");
  card.append(el("div", {}, [who, setup].filter(Boolean).join(" \u00B7 ")));
  const counts = [];
  if (g.rounds !== null && g.rounds !== undefined) counts.push(counted(g.rounds, g.rounds_word));
  if (g.marks_word && g.marks !== null && g.marks !== undefined) counts.push(counted(g.marks, g.marks_word));
  const result = el("div", { class: "result" });
  result.append(el("strong", { class: g.winner ? "won" : g.result }, g.result_words), (g.why ? ": " + g.why : "") + (counts.length ? " \u00B7 " + counts.join(", ") : ""));
  card.append(result);
  if (g.problem) card.append(el("p", { class: "warn" }, g.problem));
  card.append(el("p", { class: "luck" }, g.luck ? g.luck.words : g.odds_note || ""));
  card.append(picture("/api/games/" + g.game + "/timeline.svg?n=" + g.commands, "The timeline of " + g.title + " #" + g.game));
  return card;
}

// Each player's luck game by game: the companion's chart, what its numbers say in words (its caption), and the
// numbers themselves behind "Show the numbers" (a game a row, a player a column).
const signed = (v) => (Math.abs(v) < 0.05 ? "0" : (v > 0 ? "+" : "\u2212") + Math.abs(v).toFixed(1));
function playersCard(byGame, stamp) {
  const card = el("div", { class: "card wide", id: "games-players" });
  card.append(el("h2", {}, "Each player's luck, game by game"));
  const words = byGame.words || [];
  const caption = el("div", { id: "players-luck-words" });
  words.forEach((w) => caption.append(el("p", { class: "luck" }, w)));
  card.append(caption, picture("/api/stats/players.svg?n=" + stamp, "The chart of each player's luck, game by game: " + words.join(" ") + " Its numbers are under Show the numbers."));
  const names = Object.keys(byGame.players);
  const rows = (byGame.games || []).map((g, i) => ["#" + g.game + " (night " + g.night + ")", ...names.map((name) => {
    const p = byGame.players[name].find((x) => x.index === i);
    return p ? p.successes + " of " + p.expected.toFixed(1) + ", " + signed(p.ahead) : "\u2013";
  })]);
  const numbers = el("details", { class: "card", id: "players-numbers" });
  numbers.append(el("summary", {}, "Show the numbers"), el("p", { class: "note" }, "Each game a player rolled in: the attempts that came good, of what the odds said; then how many more came good than the odds said over that game and the ones before it (the chart's line; fewer below 0)."), table(["Game", ...names], rows));
  card.append(numbers);
  return card;
}

function render(root, data) {
  const f = data.figures;
  const games = data.games || [];
  const wrap = el("div", { class: "games" });
  const luck = el("div", { class: "card wide", id: "games-luck" });
  luck.append(el("h2", {}, "The dice's luck"));
  const last = (f.nights || [])[0];  // the newest night first
  if (last && (f.nights || []).length > 1) luck.append(el("p", { class: "luck", id: "night-luck" }, "The last night: " + last.luck.words));
  luck.append(el("p", { class: "luck" }, f.luck.words));
  if (f.attempts_without_odds) luck.append(el("p", { class: "note" }, f.attempts_without_odds_words));
  const stamp = games.length + "-" + games.reduce((n, g) => n + (g.commands || 0), 0);
  luck.append(picture("/api/stats/luck.svg?n=" + stamp, "The luck chart: the attempts that came good against what the odds said"));
  luck.append(el("p", { class: "note", id: "luck-band-note" }, "The shaded band: where 8 tables in 10 would land with these odds. Above it is luckier than the odds, below it less lucky."));
  const players = Object.values(f.players || {});
  if (players.length) { const ul = el("ul", { class: "list" }); players.forEach((p) => ul.append(el("li", {}, p.words))); luck.append(ul); }
  wrap.append(luck);
  const byGame = f.player_luck_by_game || {};
  if (Object.keys(byGame.players || {}).length) wrap.append(playersCard(byGame, stamp));

  const odds = el("div", { class: "card", id: "games-calibration" });
  odds.append(el("h2", {}, "Were the odds right?"), el("p", { class: "note" }, "The attempts grouped by the chance the page showed, against how often they came good: a check of the dice reader and of the dice themselves."));
  odds.append(picture("/api/stats/calibration.svg?n=" + stamp, "The calibration chart"));
  wrap.append(odds);

  const figs = el("div", { class: "card", id: "games-figures" });
  figs.append(el("h2", {}, "Across the games"));
  figs.append(el("h3", {}, "Win rate by game"), el("p", { class: "note" }, TALLY_NOTE), table(["Game", ...TALLY], tallyRows(f.win_rate_by_game)));
  for (const [title, labels] of Object.entries(f.win_rate_by_setup || {})) {
    for (const [label, values] of Object.entries(labels)) {
      figs.append(el("h3", {}, title + ", by " + label), table([label, ...TALLY], tallyRows(values)));
    }
  }
  figs.append(el("h3", {}, "By player count"), table(["Players", ...TALLY], tallyRows(f.win_rate_by_players)));
  if (f.longest) figs.append(el("p", {}, "The longest game: " + f.longest.title + " #" + f.longest.game + ", " + f.longest.duration + "."));
  const ex = el("div", { class: "exports" });
  ex.append(el("a", { href: "/api/stats.csv", download: "games.csv" }, "Export CSV"), el("a", { href: "/api/stats.json", download: "games.json" }, "Export JSON"), el("a", { href: "/api/night.png", download: "night.png", id: "night-png" }, "The night as a picture"));
  figs.append(el("h3", {}, "Save and share"), ex);
  wrap.append(figs);

  const list = el("div", { class: "wide", id: "games-list" });
  list.append(el("h2", {}, games.length ? "Games played, the newest first" : "No game has been played yet."));
  games.forEach((g) => list.append(gameCard(g)));
  wrap.append(list);
  fill(root, [wrap]);
  drawPictures(root);
}

// the view's own style sheet, once (beside this module, with the same version)
function styles() {
  if (document.querySelector("link[data-games]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games.css?v=__VERSION__";
  link.dataset.games = "1";
  document.head.append(link);
}

// The end card's part (app.js asks for it when a game has ended): the dice's luck this game in the companion's
// words (none: a game without dice odds) and the game's timeline.
export function endCard(s) {
  styles();
  const luck = (s.summary || {}).luck;
  const said = document.querySelector("#end-luck");
  said.hidden = !luck;
  said.textContent = luck ? luck.words : "";
  const tl = document.querySelector("#end-timeline");
  tl.hidden = false;
  const base = "/api/games/" + s.game_id + "/timeline.svg?n=" + s.history_length + "&w=";
  if (!tl.clientWidth && (tl.dataset.src || "").startsWith(base)) return;  // drawn while shown: not again from a hidden view
  const src = base + pictureWidth(tl);
  if (tl.dataset.src !== src) { tl.dataset.src = src; tl.src = src; }
}

export async function show(root) {
  styles();
  try {
    render(root, await api("/api/games"));
  } catch (e) {
    if (e.status) toast(e.message, true);
  }
}
