// The battle log: each event the caller may see, told in one line (or none).
import { cap, cardName, eventName, playText, warlordName } from "./api.js";
import { outcomeText } from "./board.js";

const who = (seat, me) => (seat === me ? "You" : cap(seat));

function place(where) {
  if (where === "reserve") return "the reserve";
  if (where === "aside") return "the set-aside pool";
  if (String(where).startsWith("marker@")) return `the 6-marker box of ${where.slice(7)}`;
  return where;
}

export function movesText(moves) {
  return (moves || []).map(([seat, from, to, n]) =>
    `${cap(seat)} moves ${n} ${n === 1 ? "army" : "armies"} from ${place(from)} to ${place(to)}`).join("; ");
}

function battleText(p) {
  const fired = Object.entries(p.fired || {}).flatMap(([s, ws]) => ws.map((w) => `${cap(s)}'s ${warlordName(w)}`));
  let result;
  if (p.plague) result = p.deadly ? "Deadly plague: no battle" : "Plague: no battle";
  else if (!p.winner) result = "a tie, nothing happens";
  else result = `${p.winner} wins by ${p.margin}`;
  const extra = fired.length ? ` (${fired.join(", ")})` : "";
  const line = `${p.province}: blue ${cardName(p.cards.blue)} vs red ${cardName(p.cards.red)} — ${result}${extra}`;
  const losses = (p.resolution || []).filter((m) => m[2] === "reserve");
  return p.plague && losses.length ? `${line}; ${movesText(losses)}` : line;
}

export function describe(event, me) {
  const p = event.payload || {};
  switch (event.type) {
    case "game_created": return "The game was created.";
    case "seat_joined": return `${who(p.seat, me)} took the ${p.seat} seat.`;
    case "position_set": return "The game goes on from a position of a finished game; the cards you could not know there are dealt afresh.";
    case "seat_handed_to_ai": return `${who(p.seat, me)} handed the ${p.seat} seat to the computer (${p.level}).`;
    case "seat_taken_back": return `${who(p.seat, me)} took the ${p.seat} seat back from the computer.`;
    case "game_started": return `The cards are dealt (${p.variant} game${p.events ? ", with event cards" : ""}).`;
    case "warlords_to_choose": return "Each player chooses a Warlord in secret.";
    case "warlord_chosen":
      if (p.warlord) return `You chose ${warlordName(p.warlord)} as your ${p.extra ? "extra " : ""}Warlord.`;
      return `${cap(p.seat)} chose ${p.extra ? "an extra" : "a"} Warlord.`;
    case "warlord_played": {
      if (p.warlord === "head_start") return `${who(p.seat, me)} played Head start: the marker starts 1 toward Blue.`;
      const text = playText(p);
      if (p.fizzled) return `${who(p.seat, me)} showed ${text}, but it had no effect.`;
      return `${who(p.seat, me)} played ${text}.`;
    }
    case "round_started": return `Round ${p.round} begins.`;
    case "placed": return `${who(p.seat, me)} placed five cards face down.`;
    case "cards_down": {
      const plays = (p.plays || []).map(([s, play]) => `${cap(s)}: ${playText(play)}`);
      return `Both players have placed.${plays.length ? ` Warlords before the battles — ${plays.join("; ")}.` : ""}`;
    }
    case "privilege_settled":
      return p.holder ? `${cap(p.holder)} holds the privilege and chooses the order of battle.` : null;
    case "order_named": return p.provinces ? `You named the order: ${p.provinces.join(", ")}.` : null;
    case "battle":
    case "battle_revealed": return battleText(p);
    case "battle_resolved": {
      const losses = (p.moves || []).filter((m) => m[2] === "reserve");
      return p.result === "plague" && losses.length ? `${p.province}: ${movesText(losses)}.` : null;
    }
    case "armies_moved": return p.moves?.length ? `${movesText(p.moves)}.` : null;
    case "event_triggered": return `Event: ${eventName(p.card)} is triggered.${p.next ? ` Next event card: ${eventName(p.next)}.` : ""}`;
    case "card_recycled": return `${who(p.seat, me)} recycled a ${cardName(p.card)} with ${warlordName(p.warlord)}.`;
    case "window_opened": return "The battles are over: Warlords may be played before scoring.";
    case "window_closed": {
      const plays = (p.plays || []).map(([s, play]) => `${cap(s)}: ${playText(play)}`);
      return plays.length ? `After the battles — ${plays.join("; ")}.` : null;
    }
    case "scored": {
      const m = p.marker === 0 ? "at the centre" : `${Math.abs(p.marker)} toward ${p.marker > 0 ? "Blue" : "Red"}`;
      return `Scoring after round ${p.round}: Blue ${p.points.blue}, Red ${p.points.red}; the marker is ${m}.`;
    }
    case "round_ended": return `Round ${p.round} ends.`;
    case "cards_drawn":
      if (p.cards) return `You drew ${p.cards.map(cardName).join(", ")}.`;
      return `${cap(p.seat)} drew ${p.count ?? "some"} cards.`;
    case "card_kept": return p.keep ? `You kept ${p.keep.map(cardName).join(", ")}.` : `${cap(p.seat)} kept their cards.`;
    case "reinforced": return `${who(p.seat, me)} discarded a ${cardName(p.card)}: 1 army from the set-aside pool to the reserve.`;
    case "game_ended": return `Game over: ${outcomeText(p, me).join(". ")}`;
    case "seed_revealed": return "The game's secret seed is revealed: every shuffle can now be checked.";
    case "vacation_taken": return `${who(p.seat, me)} took ${p.days} vacation day${p.days === 1 ? "" : "s"}: that clock stops meanwhile.`;
    case "clock_expired": return p.action === "forfeit"
      ? `${who(p.seat, me)} ran out of time.`
      : `${who(p.seat, me)} ran out of time: the computer (${p.action.slice(3)}) makes this decision.`;
    case "draw_offered": return `${who(p.seat, me)} offered a draw.`;
    case "draw_declined": return `${who(p.seat, me)} declined the draw.`;
    case "draw_accepted": return `${who(p.seat, me)} accepted the draw.`;
    case "game_decided": return `Game over: ${outcomeText(p, me).join(". ")}`;
    default: return null;
  }
}
