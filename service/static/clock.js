// The clocks of a game with a time control: each seat's time left on its decision (counted
// down in the browser from the server's deadline), its bank, its vacation, and what
// happens when the time runs out. Nothing here decides: the server enforces deadlines.
import { cap, clear, el } from "./api.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function duration(ms) {
  if (ms <= 0) return "0 minutes";
  const d = Math.floor(ms / DAY);
  const h = Math.floor((ms % DAY) / HOUR);
  const m = Math.floor((ms % HOUR) / MINUTE);
  const s = Math.floor((ms % MINUTE) / 1000);
  const parts = [];
  if (d) parts.push(`${d} day${d === 1 ? "" : "s"}`);
  if (h) parts.push(`${h} h`);
  if (!d && m) parts.push(`${m} min`);
  if (!d && !h && (s || !m)) parts.push(`${s} s`);
  return parts.join(" ");
}

export function controlText(control) {
  const parts = [`${duration(control.per_move_seconds * 1000)} per decision`];
  if (control.bank_seconds) parts.push(`a time bank of ${duration(control.bank_seconds * 1000)}`);
  if (control.vacation_days) parts.push(`${control.vacation_days} vacation day${control.vacation_days === 1 ? "" : "s"} each`);
  const late = control.on_timeout === "forfeit" ? "running out of time loses the game"
    : `running out of time lets the computer (${control.on_timeout.slice(3)}) make that decision`;
  return `${parts.join(", ")}; ${late}.`;
}

// The server's time minus this browser's, so the countdown does not trust a wrong clock.
let skew = 0;
let shown = null;

// label(seat): the seat as players read it (its game's catalogue).
export function renderClocks(node, game, me, label = cap) {
  node.hidden = !game.clock;
  shown = game.clock ? { game, me, node, label } : null;
  if (!game.clock) return;
  skew = Date.parse(game.clock.now) - Date.now();
  tick();
}

function tick() {
  if (!shown) return;
  const { game, me, node, label } = shown;
  const now = Date.now() + skew;
  const control = game.clock.control;
  const rows = Object.entries(game.clock.seats).map(([seat, c]) => {
    const who = seat === me ? `You (${label(seat)})` : label(seat);
    let left;
    if (game.outcome) left = "—";
    else if (c.standing_in) left = `out of time: the computer plays this decision`;
    else if (c.running && c.deadline) left = `${duration(Date.parse(c.deadline) - now)} left`;
    else left = "not on the move";
    const away = c.away_until && Date.parse(c.away_until) > now ? `on vacation until ${new Date(c.away_until).toLocaleString()}` : null;
    return el("li", { "data-seat": seat, class: c.running && !game.outcome ? "running" : "" },
      el("strong", {}, who), ": ", el("span", { class: "time-left" }, left),
      control.bank_seconds ? el("span", { class: "muted" }, ` · bank ${duration(c.bank_ms)}`) : null,
      control.vacation_days ? el("span", { class: "muted" }, ` · ${c.vacation_days_left} vacation day${c.vacation_days_left === 1 ? "" : "s"} left`) : null,
      away ? el("span", { class: "away" }, ` · ${away}`) : null,
      c.timeouts ? el("span", { class: "timeouts" }, ` · ran out of time ${c.timeouts}×`) : null);
  });
  clear(node, el("h2", { id: "clocks-title" }, "Clocks"),
    el("p", { class: "muted" }, controlText(game.clock.control)), el("ul", { class: "plain" }, rows));
}

setInterval(tick, 1000);
