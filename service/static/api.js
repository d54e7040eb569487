// Shared helpers: calling the JSON API, seat tokens, building DOM safely, names.
// Nothing here writes HTML from data: every text goes in through text nodes.

export class ApiError extends Error {
  constructor(message, status, problem) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

// A problem document ({title, detail}) as one plain sentence for a person.
export function problemText(problem, status) {
  if (!problem || typeof problem !== "object") return `The server answered with an error (${status}).`;
  const title = problem.title || "Something went wrong";
  return problem.detail ? `${title}: ${problem.detail}.`.replace(/\.\.$/, ".") : `${title}.`;
}

export async function api(path, { method = "GET", body, token, headers = {} } = {}) {
  const sent = { method, headers: { Accept: "application/json", ...headers } };
  if (token) sent.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    sent.headers["Content-Type"] = "application/json";
    sent.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, sent);
  } catch {
    throw new ApiError("Could not reach the server; check your connection and try again.", 0);
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
    status.textContent = "Copied.";
  } catch {
    input.focus();
    input.select();
    status.textContent = "Select the link and copy it.";
  }
}

// ---- names -------------------------------------------------------------------------
export const PROVINCES = ["Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu"];
export const SEATS = ["blue", "red"];
export const FRAMED = ["1", "2", "3", "4", "5", "6"];
export const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
export const other = (seat) => (seat === "blue" ? "red" : "blue");

export function cardName(card) {
  return card === "plague" ? "Plague" : String(card);
}

export const WARLORDS = {
  blue: {
    reinforce: ["Reinforce", "In rounds 1–6: place 1 army from your reserve in a province you control."],
    head_start: ["Head start", "The score marker starts 1 space toward you."],
    minus_recycle: ["Minus recycle", "After a battle where you played a −1: put it at the bottom of your deck, then discard your deck's top card."],
    manoeuvre: ["Manoeuvre", "In rounds 1–6: move 1 of your armies to an adjacent province that is empty or yours."],
    restraint: ["Restraint", "After a reveal, your 7, 8, 9 or 10 counts as a 6 in the province you name."],
  },
  red: {
    remove: ["Remove", "In rounds 1–6: remove 1 army from any province; it returns to its owner's reserve."],
    counter_plague: ["Counter-plague", "When an opponent's Plague is revealed it counts as a plain 0 and a normal battle happens."],
    plague_recycle: ["Plague recycle", "After a battle where you played a Plague: put it at the bottom of your deck, then discard your deck's top card."],
    deadly_plague: ["Deadly plague", "This round your Plagues remove all armies but one instead of half."],
    double_six: ["Double six", "You may place your 6 where your 6-marker already stands."],
  },
};

export function warlordName(warlord) {
  for (const side of SEATS) if (WARLORDS[side][warlord]) return WARLORDS[side][warlord][0];
  return String(warlord);
}

export const EVENTS = {
  epidemic: ["Epidemic", "When all 4 Plagues have been played: each player moves 1 army from reserve (else board) to the set-aside pool."],
  war_chariot: ["War chariot", "When a player has 6-markers in 3 provinces: that player chooses 1 more unused Warlord."],
  champion_challenge: ["Champion challenge", "A player who plays a 9 and does not win that battle sets aside 1 army."],
  hero_challenge: ["Hero challenge", "A player who plays a 10 and does not win that battle sets aside 2 armies."],
  light_infantry: ["Light infantry", "When a 1 meets a 1: the player behind on the score track places 1 army there."],
};

export const eventName = (card) => (EVENTS[card] ? EVENTS[card][0] : String(card));

// A Warlord play with its targets, in words.
export function playText(play) {
  const name = warlordName(play.warlord);
  if (play.from && play.to) return `${name}: move 1 army from ${play.from} to ${play.to}`;
  if (play.province) {
    if (play.warlord === "remove") return `${name}: remove 1 army from ${play.province}`;
    return `${name}: 1 army from your reserve to ${play.province}`;
  }
  return name;
}

export const REASONS = {
  points: "on points after round 9",
  knockout: "by knockout: the score marker reached the end of the track",
  reserve: "the marker ended at the centre, and the winner had more armies in reserve",
  last_event: "the last event card was triggered, with the winner ahead on the score track",
  draw: "the marker ended at the centre and both reserves were equal",
  forfeit: "the other player resigned",
  time: "the other player ran out of time",
  agreement: "both players agreed to a draw",
};
