// Warring States' names, card texts and the map's layout. Names and texts come from the
// game's messages (games/warring_states/text.py: area.*, force.*, general.*, box.*,
// card.* and card.*.text, made from data.json); set once by index.js's init(kind).

let kind = null;

export function setKind(k) {
  kind = k;
}

export const t = (id, values) => kind.t(id, values);
export const has = (id) => !!kind && id in kind.messages;
export const label = (seat) => kind.label(seat);
export const seatIds = () => kind.seatIds;
const named = (prefix, id) => (has(`${prefix}.${id}`) ? t(`${prefix}.${id}`) : String(id ?? ""));
export const kindOf = (card) => String(card).split(":")[0];
export const areaName = (id) => named("area", id);
export const forceName = (id) => named("force", id);
export const generalName = (id) => named("general", id);
export const boxName = (id) => named("box", id);
export const cardName = (card) => named("card", kindOf(card));
export const cardText = (card) => (has(`card.${kindOf(card)}.text`) ? t(`card.${kindOf(card)}.text`) : "");
// A side in the middle of a sentence ("the Alliance"); its title ("The Alliance").
export const sideName = (side) => (has(`side.${side}.mid`) ? t(`side.${side}.mid`) : t("page.side.unknown"));
export const sideTitle = (side) => (has(`side.${side}`) ? t(`side.${side}`) : sideName(side));

// The schematic map: our own layout of the 19 areas (viewBox 0 0 1000 740), west to east
// and north to south as the country lies, spaced so that every border line stays clear
// of the other areas. The borders themselves come from the view's data (the messages).
export const POS = {
  LONGXI: [90, 330], SHANGJUN: [240, 170], TAIYUAN: [420, 90], DAI: [590, 60], YAN: [800, 70],
  GUANZHONG: [240, 330], HEDONG: [400, 240], SHANGDANG: [560, 230], HANDAN: [720, 220], QI: [900, 260],
  XIAOHAN: [400, 390], HAN: [570, 380], DALIANG: [740, 390], SONG: [930, 470],
  HANZHONG: [150, 480], NANYANG: [520, 540], JIUJIANG: [760, 620], NANJUN: [470, 680], BASHU: [120, 650],
};
// An area's RP, and the borders [a, b, type, downstream end], from the messages (data.json).
export const rpOf = (area) => Number(has(`area.${area}.rp`) ? t(`area.${area}.rp`) : 0);
let borders = null;
export function borderList() {
  if (!borders) {
    borders = Object.keys(kind.messages).filter((k) => k.startsWith("border.")).map((k) => {
      const [, a, b] = k.split(".");
      const [type, down] = kind.messages[k].split(":");
      return [a, b, type, down || null];
    });
  }
  return borders;
}
export const neighbours = (area) => borderList().filter((b) => b[0] === area || b[1] === area).map((b) => (b[0] === area ? b[1] : b[0]));

export const FORCES = ["QIN", "QI", "CHU", "ZHAO", "WEI", "HAN", "YAN", "YIQU", "SONG", "SHU"];
const FIXED = { QIN: "lianheng", SONG: "neutral", SHU: "neutral" };
export const COLUMNS = [["SERVE_QIN"], ["NEUTRAL_1"], ["NEUTRAL_2"], ["NEUTRAL_3"], ["AFRAID_OF_QIN"], ["REVENGE_QIN", "ANTI_QIN"]];
const BOX_FACTION = { SERVE_QIN: "lianheng", NEUTRAL_1: "neutral", NEUTRAL_2: "neutral", NEUTRAL_3: "neutral",
  AFRAID_OF_QIN: "alliance", REVENGE_QIN: "alliance", ANTI_QIN: "alliance" };
export const iconsOf = (general) => (has(`general.${general}.icons`) ? t(`general.${general}.icons`) : "");
// A force's faction now: Qin Lianheng, Song and Shu Neutral, the others by their track box.
export function factionOf(view, force) {
  if (FIXED[force]) return FIXED[force];
  const box = view?.track?.[force]?.box;
  return BOX_FACTION[box] || "neutral";
}
// The stacks of an area: the city's first.
export function stacksOf(content) {
  const out = [];
  if (content?.city) out.push({ ...content.city, city: true });
  for (const s of content?.field || []) out.push({ ...s, city: false });
  return out;
}
export const counters = (s) => s.ready + s.tired + Object.keys(s.gens || {}).length;
