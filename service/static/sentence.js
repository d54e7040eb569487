// A translated sentence with page elements inside it (a link, a <time>): the sentence's
// template (from _("Finished {when}") with no values, so its placeholders are left in) cut
// at its placeholders, each replaced by its node, so a translation may put the link or the
// time wherever its grammar wants them. Text stays text (never HTML). An array for el().
import { LANG } from "./i18n.js";

export function sentence(template, nodes = {}) {
  return String(template).split(/(\{\{|\}\}|\{\w+\})/).filter((piece) => piece !== "").map((piece) => {
    if (piece === "{{") return "{";
    if (piece === "}}") return "}";
    const name = /^\{(\w+)\}$/.exec(piece)?.[1];
    return name && name in nodes ? nodes[name] : piece;
  });
}

// Items said one after another, CLDR's way for the page's language ("Ann and Bo",
// "Ann, Bo, and Cy", "A と B"...).
const INTL = { en: "en", ko: "ko", ja: "ja", zh: "zh-Hans" }[LANG] || "en";
export const list = (items) => new Intl.ListFormat(INTL, { style: "long", type: "conjunction" }).format(items.map(String));
