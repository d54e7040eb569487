// A hint from the computer, told as a sentence (the command the AI would send).
import { cardName, playText, warlordName } from "./api.js";

const list = (xs) => xs.join(", ");

export function hintText(command) {
  if (!command) return "The computer has nothing to suggest: you have no decision to make now.";
  const plays = (command.warlords || []).map(playText);
  const with_ = plays.length ? `, and play ${list(plays)}` : "";
  switch (command.type) {
    case "place":
      return `Place ${list(Object.entries(command.cards).map(([p, c]) => `${cardName(c)} in ${p}`))}${with_}.`;
    case "choose_warlord":
    case "extra_warlord":
      return `Choose ${warlordName(command.warlord)}.`;
    case "next_province":
      return `Fight next in ${list(command.provinces)}.`;
    case "keep":
      return `Keep ${list(command.cards.map(cardName))}.`;
    case "sources": {
      const take = Object.entries(command.take || {}).map(([p, n]) => `${n} from ${p}`);
      return take.length ? `Take the armies ${list(take)} (the rest from your reserve).` : "Take the armies from your reserve.";
    }
    case "after_battles":
      return plays.length ? `Play ${list(plays)}.` : "Pass: play no Warlord now.";
    case "reinforce":
      return `Discard ${cardName(command.card)} for an exceptional reinforcement.`;
    default:
      return `The computer suggests: ${command.type}.`;
  }
}
