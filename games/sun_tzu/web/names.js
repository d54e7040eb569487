// Sun Tzu's names and texts, from its messages (games/sun_tzu/text.py, served as
// GET /api/kinds/sun-tzu/text): set once by index.js's init(kind).
export const PROVINCES = ["Qin", "Chu", "Jin-Yan", "Han-Qi", "Wu"];
export const FRAMED = ["1", "2", "3", "4", "5", "6"];
export const SCORING = [3, 6, 9];
export const REACTIVE = ["counter_plague", "restraint", "plague_recycle", "minus_recycle"];
export const AFTER = ["remove", "reinforce", "manoeuvre"];
export const WARLORDS_OF = {
  blue: ["reinforce", "head_start", "minus_recycle", "manoeuvre", "restraint"],
  red: ["remove", "counter_plague", "plague_recycle", "deadly_plague", "double_six"],
};

let kind = null;

export function setKind(k) {
  kind = k;
}

export const t = (id, values) => kind.t(id, values);
export const has = (id) => !!kind && id in kind.messages;
export const seats = () => kind.seatIds;
export const label = (seat) => kind.label(seat);
export const other = (seat) => kind.others(seat)[0];

const named = (prefix, id) => (has(`${prefix}.${id}`) ? t(`${prefix}.${id}`) : String(id));

export const cardName = (card) => named("card", card);
export const provinceName = (province) => named("province", province);
export const warlordName = (warlord) => named("warlord", warlord);
export const warlordText = (warlord) => (has(`warlord.${warlord}.text`) ? t(`warlord.${warlord}.text`) : "");
export const eventName = (card) => named("event_card", card);
export const eventText = (card) => (has(`event_card.${card}.text`) ? t(`event_card.${card}.text`) : "");
export const variantName = (variant) => named("variant", variant);
export const tip = (id, values) => (has(id) ? t(id, values) : "");
export const cardTip = (card) => tip(`tip.card.${card}`);
export const warlordTip = (warlord) => [tip("tip.warlord"), warlordText(warlord)].filter(Boolean).join(" ");
export const eventTip = (card) => [eventText(card), tip("tip.event")].filter(Boolean).join(" ");

// The borders of the map: [a, b] for every pair of provinces that share one, from the
// game's messages (tip.border.<A>.<B>, games/sun_tzu/glossary.py: the rules' adjacency).
export function borders() {
  const prefix = "tip.border.";
  return Object.keys(kind?.messages || {}).filter((id) => id.startsWith(prefix))
    .map((id) => id.slice(prefix.length).split(".")).filter((pair) => pair.length === 2);
}

export function neighbours(province) {
  return borders().filter((pair) => pair.includes(province)).map(([a, b]) => (a === province ? b : a))
    .sort((a, b) => PROVINCES.indexOf(a) - PROVINCES.indexOf(b)); // in board order
}

// "A, B and C"
export function listed(items) {
  return items.length < 2 ? items.join("") : t("page.list", { items: items.slice(0, -1).join(", "), last: items.at(-1) });
}

// A Warlord play with its targets, in words (the messages the narration uses too).
export function playText(play) {
  const name = warlordName(play.warlord);
  if (play.from && play.to) return t("play.move", { name, source: provinceName(play.from), to: provinceName(play.to) });
  if (play.province) return t(play.warlord === "remove" ? "play.remove" : "play.reserve", { name, province: provinceName(play.province) });
  return t("play.plain", { name });
}
