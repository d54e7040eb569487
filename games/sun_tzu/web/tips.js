// Sun Tzu's tips: the shell's tooltips (/static/tips.js); the words are the game's messages
// (tip.* ids, games/sun_tzu/glossary.py).
export { hideTip, tipped } from "/static/tips.js";
