// What the host looks after on the Host view: how much of the box is filled in, the phones that joined, wrong PINs
// and join codes, the history's backups. Loaded when the host first opens the Host view.
import { $, app, el, fill, toast, api, act, button, confirmSheet, isHost } from "./core.js?v=__VERSION__";
import { boxSummary } from "./box.js?v=__VERSION__";

const ago = (t) => { const m = Math.round((Date.now() / 1000 - t) / 60); return m < 1 ? "just now" : m < 60 ? m + " min ago" : Math.round(m / 60) + " h ago"; };

export async function loadHostCare() {
  if (!isHost()) return;
  api("/api/box").then((b) => { app.box = b; $("#box-card-note").textContent = boxSummary(); }).catch(() => { $("#box-card-note").textContent = ""; });
  try {
    const ph = await api("/api/host/phones");
    fill($("#phones"), (ph.phones || []).map((x) => {
      const li = el("li", { class: "row" });
      li.append(el("span", { class: "grow" }, (x.name || "A phone without a name") + (x.host ? " (host)" : "") + (x.this ? " · this phone" : "") + " · seen " + ago(x.seen)));
      if (!x.this) li.append(button("Remove", () => confirmSheet("Remove this phone?", (x.name || "This phone") + " leaves the table; it can join again with the join code.", "Remove it", async () => { await act("/api/host/phones/remove", { id: x.id }); loadHostCare(); }), "small danger"));
      return li;
    }));
  } catch (e) { /* not offered by this companion */ }
  try {
    const sec = await api("/api/host/security");
    const lines = [];
    for (const [key, what] of [["pin", "wrong host PINs"], ["join", "wrong join codes"]]) {
      const r = sec[key] || {};
      if (r.failures_in_window) lines.push(r.failures_in_window + " " + (r.failures_in_window === 1 ? what.replace(/s$/, "").replace("PINs", "PIN") : what) + " lately.");
      for (const l of r.locked || []) lines.push("A phone at " + l.address + " must wait " + Math.ceil(l.wait) + " s after " + l.failures + " " + what + ".");
      if (r.everyone_waits) lines.push("Too many " + what + " from everywhere: everyone waits " + Math.ceil(r.everyone_waits) + " s.");
    }
    $("#security").textContent = lines.join(" ") || "No wrong PIN or join code lately.";
  } catch (e) { $("#security").textContent = ""; }
  try {
    const b = await api("/api/host/backups");
    const why = { "game-end": "at the end of a game", daily: "daily", manual: "made by hand", "before-restore": "before a restore" };
    fill($("#backups"), (b.backups || []).slice(0, 6).map((x) => {
      const li = el("li", { class: "row" });
      li.append(el("span", { class: "grow" }, new Date(x.at * 1000).toLocaleString() + " · " + (why[x.reason] || x.reason)));
      li.append(button("Restore", () => confirmSheet("Go back to this backup?", "Every game returns to how it was then. A backup of now is made first, so this can be undone.", "Restore it",
        async () => { if (await act("/api/host/backups/restore", { name: x.name, confirm: true })) toast("The games are back as they were " + new Date(x.at * 1000).toLocaleString() + "."); loadHostCare(); }), "small"));
      return li;
    }));
    if (!(b.backups || []).length) fill($("#backups"), [el("li", { class: "dim" }, "No backup yet.")]);
  } catch (e) { /* not offered by this companion */ }
}
