// The pages' words in the page's language: <html lang>, which the server set from the
// player's profile, the picker or the browser's Accept-Language (service/i18n.py). The
// platform's gettext catalog for it is served at /i18n/<lang>.json, from the same .po files
// the server reads; _("English {name}", {name}) is a sentence in that language (English
// where the catalog has none). Numbers, dates, times and durations are formatted by Intl,
// which follows CLDR, for the same language. Nothing here writes HTML.

export const LANG = document.documentElement.lang || "en";
const INTL = { en: "en", ko: "ko", ja: "ja", zh: "zh-Hans" }[LANG] || "en";

// "{who} drew {cards}." with {who: "You", cards: "3, 5"}: a template filled in, as
// games/messages.py renders it on the server ({{ and }} are braces).
export function format(template, values = {}) {
  return String(template).replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    return name in values ? String(values[name]) : match;
  });
}

let catalog = {};
if (LANG !== "en") {
  try {
    const answer = await fetch(`/i18n/${encodeURIComponent(LANG)}.json`, { headers: { Accept: "application/json" } });
    if (answer.ok) catalog = await answer.json();
  } catch {
    catalog = {}; // the words stay English; the page still works
  }
}

// A sentence of the pages (the extractor's keyword: python -m service.catalogs extract).
export function _(english, values) {
  const found = catalog[english];
  return format(found || english, values);
}

export const number = (n, options) => new Intl.NumberFormat(INTL, options).format(n);
export const dateTime = (when, options = { dateStyle: "medium", timeStyle: "short" }) =>
  new Intl.DateTimeFormat(INTL, options).format(when instanceof Date ? when : new Date(when));
export const date = (when) => dateTime(when, { dateStyle: "medium" });
// A duration in the largest units that say it ("2 days 3 hours", "5 min"), CLDR's words.
export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const parts = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]]
    .map(([unit, size], i, all) => [unit, Math.floor((s % (i ? all[i - 1][1] : Infinity)) / size)])
    .filter(([, n]) => n > 0).slice(0, 2);
  if (!parts.length) parts.push(["second", 0]);
  const list = new Intl.ListFormat(INTL, { style: "narrow", type: "unit" });
  return list.format(parts.map(([unit, n]) => new Intl.NumberFormat(INTL, { style: "unit", unit, unitDisplay: "long" }).format(n)));
}
// How long ago `when` was, in the largest unit that says it ("now", "5 minutes ago",
// "3 hours ago", "2 days ago"), CLDR's words (Intl.RelativeTimeFormat).
export function ago(when, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - new Date(when).getTime()) / 1000));
  const relative = new Intl.RelativeTimeFormat(INTL, { numeric: "auto" });
  if (seconds < 60) return relative.format(0, "second");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return relative.format(-hours, "hour");
  return relative.format(-Math.round(hours / 24), "day");
}
