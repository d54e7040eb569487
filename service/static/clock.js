// The clocks of a game with a time control: each seat's time left on its decision (counted
// down in the browser from the server's deadline), its bank, its vacation, and what
// happens when the time runs out. Nothing here decides: the server enforces deadlines.
import { cap, clear, el } from "./api.js";
import { _, dateTime, duration as said, number } from "./i18n.js";
import { list } from "./sentence.js";

// A time of milliseconds in words of the page's language (CLDR's units: "1 day 3 hours").
export function duration(ms) {
  return said(Math.max(0, ms) / 1000);
}

// One and several are two sentences (English needs both; ko, ja and zh say them alike).
const vacationEach = (n) => (n === 1 ? _("{days} vacation day each", { days: number(n) })
  : _("{days} vacation days each", { days: number(n) }));
const vacationLeft = (n) => (n === 1 ? _("{days} vacation day left", { days: number(n) })
  : _("{days} vacation days left", { days: number(n) }));

export function controlText(control) {
  const parts = [_("{time} per decision", { time: duration(control.per_move_seconds * 1000) })];
  if (control.bank_seconds) parts.push(_("a time bank of {time}", { time: duration(control.bank_seconds * 1000) }));
  if (control.vacation_days) parts.push(vacationEach(control.vacation_days));
  return control.on_timeout === "forfeit"
    ? _("{control}; running out of time loses the game.", { control: list(parts) })
    : _("{control}; running out of time lets the computer ({level}) make that decision.", { control: list(parts), level: control.on_timeout.slice(3) });
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
    const who = seat === me ? _("You ({seat})", { seat: label(seat) }) : label(seat);
    let left;
    if (game.outcome) left = "—";
    else if (c.standing_in) left = _("out of time: the computer plays this decision");
    else if (c.running && c.deadline) left = _("{time} left", { time: duration(Date.parse(c.deadline) - now) });
    else left = _("not on the move");
    const away = c.away_until && Date.parse(c.away_until) > now ? _("on vacation until {when}", { when: dateTime(c.away_until) }) : null;
    return el("li", { "data-seat": seat, class: c.running && !game.outcome ? "running" : "" },
      el("strong", {}, who), ": ", el("span", { class: "time-left" }, left),
      control.bank_seconds ? el("span", { class: "muted" }, " · ", _("bank {time}", { time: duration(c.bank_ms) })) : null,
      control.vacation_days ? el("span", { class: "muted" }, " · ", vacationLeft(c.vacation_days_left)) : null,
      away ? el("span", { class: "away" }, " · ", away) : null,
      c.timeouts ? el("span", { class: "timeouts" }, " · ", _("ran out of time {count}×", { count: number(c.timeouts) })) : null);
  });
  clear(node, el("h2", { id: "clocks-title" }, _("Clocks")),
    el("p", { class: "muted" }, controlText(game.clock.control)), el("ul", { class: "plain" }, rows));
}

setInterval(tick, 1000);
