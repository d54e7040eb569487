// The profile page's webhook: register an address, see the secret once, test it, see the
// latest deliveries, remove it. The server checks the address; this page only asks.
import { api, clear, el } from "./api.js";
import { _, dateTime } from "./i18n.js";

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
    el("li", { "data-result": d.result }, deliveryText(d)));
  clear($("hook-deliveries"), rows);
}

// A delivery of the latest ones: its id and what became of it (workers/notify.py).
// Its result is compared as an id ("given up" as "given-up").
function deliveryText(d) {
  const id = d.id;
  const result = String(d.result).replaceAll(" ", "-");
  if (result === "sent") return _("{id}: sent", { id });
  if (result === "failed") return _("{id}: failed", { id });
  if (result === "given-up") return _("{id}: given up", { id });
  if (result === "dropped") return _("{id}: dropped", { id });
  return `${id}: ${d.result}`; // a result this page does not know yet: as the server says it
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
    status(_("Saved. Notifications now go to this address too."));
    document.getElementById("me-page").dataset.webhook = "yes";
    await load();
  } catch (e) {
    status(e.message);
  }
}

async function test() {
  status(_("Sending a test…"));
  try {
    const sent = await api("/api/me/webhook/test", { method: "POST" });
    status(sent.sentence);
    await load();
  } catch (e) {
    status(e.message);
  }
}

async function remove() {
  if (!window.confirm(_("Stop sending notifications to this address?"))) return;
  try {
    await api("/api/me/webhook", { method: "DELETE" });
    document.getElementById("me-page").dataset.webhook = "no";
    $("hook-secret-box").hidden = true;
    status(_("Removed."));
    showHook(null);
  } catch (e) {
    status(e.message);
  }
}

// the digest's hour, a time of day in UTC (as the form's label says), in CLDR's words
const hourText = (h) => dateTime(Date.UTC(2000, 0, 1, h), { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });
clear($("hook-hour"), Array.from({ length: 24 }, (unused, h) => el("option", { value: h }, hourText(h))));
$("hook-hour").value = "8";
$("hook-form").addEventListener("submit", save);
$("hook-digest").addEventListener("change", showDigest);
$("hook-test").addEventListener("click", test);
$("hook-delete").addEventListener("click", remove);
showDigest();
load();
