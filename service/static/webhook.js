// The profile page's webhook: register an address, see the secret once, test it, see the
// latest deliveries, remove it. The server checks the address; this page only asks.
import { api, clear, el } from "./api.js";

const $ = (id) => document.getElementById(id);
const status = (text) => { $("hook-status").textContent = text; };

function showDigest() {
  const daily = $("hook-digest").value === "daily";
  for (const node of document.querySelectorAll(".digest-only")) node.hidden = !daily;
}

function showHook(hook) {
  $("hook-test").hidden = !hook;
  $("hook-delete").hidden = !hook;
  if (!hook) {
    clear($("hook-deliveries"));
    return;
  }
  $("hook-url").value = hook.url;
  $("hook-digest").value = hook.digest;
  $("hook-hour").value = String(hook.digest_hour);
  showDigest();
  const rows = (hook.deliveries || []).slice(0, 5).map((d) =>
    el("li", { "data-result": d.result }, `${d.id}: ${d.result}`));
  clear($("hook-deliveries"), rows);
}

async function load() {
  // The page says whether there is a webhook to show: no request (and no 404) otherwise.
  if (document.getElementById("me-page")?.dataset.webhook === "no") return showHook(null);
  try {
    showHook(await api("/api/me/webhook"));
  } catch (e) {
    if (e.status === 404) showHook(null);
    else status(e.message);
  }
}

async function save(event) {
  event.preventDefault();
  status("");
  try {
    const body = { url: $("hook-url").value.trim(), digest: $("hook-digest").value, digest_hour: Number($("hook-hour").value) };
    const saved = await api("/api/me/webhook", { method: "PUT", body });
    $("hook-secret").value = saved.secret;
    $("hook-secret-box").hidden = false;
    status("Saved. Notifications now go to this address too.");
    document.getElementById("me-page").dataset.webhook = "yes";
    await load();
  } catch (e) {
    status(e.message);
  }
}

async function test() {
  status("Sending a test…");
  try {
    const sent = await api("/api/me/webhook/test", { method: "POST" });
    status(sent.sentence);
    await load();
  } catch (e) {
    status(e.message);
  }
}

async function remove() {
  if (!window.confirm("Stop sending notifications to this address?")) return;
  try {
    await api("/api/me/webhook", { method: "DELETE" });
    document.getElementById("me-page").dataset.webhook = "no";
    $("hook-secret-box").hidden = true;
    status("Removed.");
    showHook(null);
  } catch (e) {
    status(e.message);
  }
}

clear($("hook-hour"), Array.from({ length: 24 }, (_, h) => el("option", { value: h }, `${String(h).padStart(2, "0")}:00`)));
$("hook-hour").value = "8";
$("hook-form").addEventListener("submit", save);
$("hook-digest").addEventListener("change", showDigest);
$("hook-test").addEventListener("click", test);
$("hook-delete").addEventListener("click", remove);
showDigest();
load();
