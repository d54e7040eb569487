// Your profile: name this browser's identity, make a recovery code (shown once), and
// take on an identity from another browser with its recovery code.
import { api, clear, copyText } from "./api.js";
import { _ } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function showError(message) {
  $("me-error").textContent = message;
  $("me-error").hidden = !message;
}

function show(me) {
  clear($("me-label"), me.label);
  $("me-link").href = `/p/${encodeURIComponent(me.player)}`;
  if (me.name) $("name-input").value = me.name;
  $("code-state").textContent = me.recovery
    ? _("This identity has a recovery code. Making a new one turns the old one off.")
    : _("This identity has no recovery code yet: without one it lives only in this browser.");
  $("code-make").textContent = me.recovery ? _("Make a new recovery code") : _("Make a recovery code");
}

async function load() {
  try {
    show(await api("/api/me"));
  } catch (e) {
    showError(e.message);
  }
}

async function saveName(event) {
  event.preventDefault();
  showError("");
  $("name-status").textContent = "";
  const button = $("name-save");
  button.disabled = true;
  try {
    const me = await api("/api/me/name", { method: "PUT", body: { name: $("name-input").value } });
    show(me);
    $("name-status").textContent = _("Saved: others now see you as {name}.", { name: me.name });
  } catch (e) {
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

async function makeCode() {
  showError("");
  const button = $("code-make");
  button.disabled = true;
  try {
    const made = await api("/api/me/recovery", { method: "POST" });
    $("code-value").value = made.code;
    $("code-shown").hidden = false;
    $("code-copy-status").textContent = "";
    show(await api("/api/me"));
  } catch (e) {
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

async function recover(event) {
  event.preventDefault();
  showError("");
  $("recover-status").textContent = "";
  const button = $("recover-send");
  button.disabled = true;
  try {
    const me = await api("/api/me/recover", { method: "POST", body: { code: $("recover-input").value } });
    $("recover-input").value = "";
    $("code-shown").hidden = true;
    show(me);
    $("recover-status").textContent = _("This browser is now {name}.", { name: me.label });
  } catch (e) {
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

$("name-form").addEventListener("submit", saveName);
$("code-make").addEventListener("click", makeCode);
$("code-copy").addEventListener("click", () => copyText($("code-value"), $("code-copy-status")));
$("recover-form").addEventListener("submit", recover);
load();
