// The kind of game a page shows, from the game's own package: its catalogue (title, seats
// with labels and colours, options) and its words (GET /api/kinds/<key>, …/text), and its
// front end: the ES modules of its web folder, served at /games/<key>/web/ and loaded here
// by key (their interface: games/<package>/web/README.md). Nothing here knows a game.
import { api } from "./api.js";
import { format } from "./i18n.js";

const loaded = new Map(); // key -> promise of the kind

export { format } from "./i18n.js"; // one way to fill in a template, for the pages and the games

// The kind called `key`: {key, title, summary, seats, options, messages, t(id, values),
// label(seat), seatIds, others(seat)}. Asked once per page.
export function loadKind(key) {
  if (!loaded.has(key)) {
    const found = (async () => {
      const path = `/api/kinds/${encodeURIComponent(key)}`;
      const [catalogue, text] = await Promise.all([api(path), api(`${path}/text`)]);
      const messages = text.messages || {};
      const seatIds = catalogue.seats.map((s) => s.id);
      const labels = Object.fromEntries(catalogue.seats.map((s) => [s.id, s.label]));
      return {
        ...catalogue,
        messages,
        seatIds,
        t: (id, values) => (id in messages ? format(messages[id], values) : String(id)),
        label: (seat) => labels[seat] ?? String(seat ?? ""),
        others: (seat) => seatIds.filter((s) => s !== seat),
      };
    })();
    found.catch(() => loaded.delete(key)); // not kept: asking again may work
    loaded.set(key, found);
  }
  return loaded.get(key);
}

// The game's front end (its web/index.js), set up with its kind: {kind, front}.
export async function loadFront(key) {
  const kind = await loadKind(key);
  const front = await import(`/games/${encodeURIComponent(key)}/web/index.js`);
  if (front.init) await front.init(kind);
  return { kind, front };
}

// The kind a page is about: its <main data-kind="…">, set by the server.
export function pageKind() {
  return document.querySelector("main[data-kind]")?.dataset.kind || "";
}
