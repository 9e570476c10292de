// What the host looks after on the Host view: how much of the box is filled in, the phones that joined, wrong PINs
// and join codes, the history's backups, the narrator's voice. Loaded when the host first opens the Host view.
import { $, app, el, fill, toast, api, act, button, confirmSheet, sheet, field, isHost, capital } from "./core.js?v=__VERSION__";
import { boxSummary } from "./box.js?v=__VERSION__";

const ago = (t) => { const m = Math.round((Date.now() / 1000 - t) / 60); return m < 1 ? "just now" : m < 60 ? m + " min ago" : Math.round(m / 60) + " h ago"; };

export async function loadHostCare() {
  if (!isHost()) return;
  loadVoice();
  api("/api/box").then((b) => { app.box = b; $("#box-card-note").textContent = boxSummary(); }).catch(() => { $("#box-card-note").textContent = ""; });
  await loadPhones();
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

// The phones at the table, by name: loaded with the Host view, and again the moment one is renamed, joins or is
// removed (the event stream's "phones" message, app.js).
export async function loadPhones() {
  if (!isHost()) return;
  try {
    const ph = await api("/api/host/phones");
    fill($("#phones"), (ph.phones || []).map((x) => {
      const li = el("li", { class: "row phone" });
      li.append(el("span", { class: "grow" }, (x.name || "A phone without a name") + (x.host ? " (host)" : "") + (x.this ? " · this phone" : "") + " · seen " + ago(x.seen)));
      li.append(button("Rename", () => renamePhone(x), "small"));
      if (!x.this) li.append(button("Remove", () => confirmSheet("Remove this phone?", (x.name || "This phone") + " leaves the table; it can join again with the join code.", "Remove it", async () => { await act("/api/host/phones/remove", { id: x.id }); loadHostCare(); }), "small danger"));
      return li;
    }));
  } catch (e) { /* not offered by this companion */ }
}

// The host names a phone of the table (two phones never share a name: the companion says so).
function renamePhone(x) {
  const input = el("input", { name: "phone-name", maxlength: "40", autocomplete: "off", "aria-label": "the phone's name" });
  input.value = x.name || "";
  sheet("Rename this phone", [field("Its name at the table", input, "e.g. Anna's phone, or Table display")], "Save the name", async () => {
    const name = input.value.trim();
    if (!name) { toast("Give the phone a name first.", true); return false; }
    if (!(await act("/api/host/phones/rename", { id: x.id, name }))) return false;
    if (x.this) $("#phone-form").name.value = name;
    toast((x.this ? "This phone" : "That phone") + " is called " + name + " now.");
    loadHostCare();
    return true;
  });
  input.focus();
}

// The narrator's voice (where the table speaks): engine, Piper voice, volume, kept on the companion; a test to hear.
let voiceBound = false;
async function loadVoice(v) {
  const card = $("#voice-card"), f = $("#voice-form");
  if (!app.session || !app.session.voice) { card.hidden = true; return; }
  try { v = v || await api("/api/host/voice"); } catch (e) { card.hidden = true; return; }
  if (!voiceBound) {
    voiceBound = true;
    f.engine.addEventListener("change", () => chooseVoice({ engine: f.engine.value }));
    f.piper_voice.addEventListener("change", () => chooseVoice({ piper_voice: f.piper_voice.value }));
    f.volume.addEventListener("input", () => { f.shown.value = f.volume.value + " %"; });
    f.volume.addEventListener("change", () => chooseVoice({ volume: Number(f.volume.value) }));
    $("#voice-test").addEventListener("click", async () => { const r = await act("/api/host/voice/test", {}); if (r) toast(r.spoken ? "Listen to the table: a chime, then the voice." : "The table is silent: " + r.status + ".", !r.spoken); setTimeout(loadVoice, 3000); });
  }
  card.hidden = false;
  f.engine.value = v.engine;
  fill(f.piper_voice, (v.voices || []).map((x) => el("option", { value: x.id }, x.name + (x.found ? "" : " (not installed)"))));
  f.piper_voice.value = v.piper_voice;
  f.piper_voice.disabled = v.engine !== "piper";
  f.volume.value = v.volume; f.shown.value = v.volume + " %";
  $("#voice-status").textContent = (v.problem ? "Nothing was heard: " + v.problem + "." : "Speaking now: " + v.status + ".") + (v.piper_installed ? "" : " Piper is not installed on this companion.");
  $("#voice-status").classList.toggle("warn", !!v.problem);
  $("#voice-files").textContent = "Another Piper voice (a German one for the night, say): put its NAME.onnx and NAME.onnx.json in " + v.voices_folder + " and reload.";
}
async function chooseVoice(change) {
  try { loadVoice(await api("/api/host/voice", change)); } catch (e) { toast(capital(e.message), true); loadVoice(); }
}
