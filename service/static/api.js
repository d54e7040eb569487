// Shared helpers: calling the JSON API, seat tokens, building DOM safely, names.
// Nothing here writes HTML from data: every text goes in through text nodes.
import { _, LANG } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status, problem) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

// A problem document ({title, detail}) as one plain sentence for a person.
export function problemText(problem, status) {
  if (!problem || typeof problem !== "object") return _("The server answered with an error ({status}).", { status });
  const title = problem.title || _("Something went wrong");
  // the detail's own full stop, if it has one, is the sentence's (said once)
  const detail = problem.detail ? String(problem.detail).replace(/[.。．]$/u, "") : "";
  return detail ? _("{title}: {detail}.", { title, detail }) : _("{title}.", { title });
}

export async function api(path, { method = "GET", body, token, headers = {} } = {}) {
  // the answer (its sentences, an error's detail) in the page's language
  const sent = { method, headers: { Accept: "application/json", "X-Bingfa-Language": LANG, ...headers } };
  if (token) sent.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    sent.headers["Content-Type"] = "application/json";
    sent.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, sent);
  } catch {
    throw new ApiError(_("Could not reach the server; check your connection and try again."), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(problemText(data, response.status), response.status, data);
  return data;
}

// Seat tokens live in localStorage, one key per game and seat.
const tokenKey = (game, seat) => `bingfa:${game}:${seat}:token`;
const inviteKey = (game, seat) => `bingfa:${game}:${seat}:invite`;

export function getToken(game, seat) {
  try { return localStorage.getItem(tokenKey(game, seat)); } catch { return null; }
}
export function setToken(game, seat, token) {
  try { localStorage.setItem(tokenKey(game, seat), token); } catch { /* private mode */ }
}
export function getInvite(game, seat) {
  try { return localStorage.getItem(inviteKey(game, seat)); } catch { return null; }
}
export function setInvite(game, seat, link) {
  try {
    if (link) localStorage.setItem(inviteKey(game, seat), link);
    else localStorage.removeItem(inviteKey(game, seat));
  } catch { /* private mode */ }
}

export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// el("button", {class: "x", "data-card": "9", onclick: f}, "text", child, ...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// Copy a link: the clipboard when allowed, else select it for the person to copy.
export async function copyText(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = _("Copied.");
  } catch {
    input.focus();
    input.select();
    status.textContent = _("Select the link and copy it.");
  }
}

export const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
