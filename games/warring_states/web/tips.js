// Warring States' tips: the shell's tooltips (/static/tips.js) for every area, border,
// stack, track box and counter, card, general and count; the words are the game's messages
// (tip.* ids, games/warring_states/glossary.py).
import { t } from "./names.js";

export { hideTip, tipped } from "/static/tips.js";

// A tip's words from messages: tip("tip.deck", { side, n }); several ids make several sentences.
export const tip = (...parts) => parts.filter(Boolean).map(([id, values]) => t(id, values)).join(" ");
