// Dragging a piece with the pointer (mouse, touch or pen): press on a piece, move a few
// pixels, let go over a square. Taking the piece redraws the board (its moves are marked),
// so the drag follows the pointer on the window, not on the element first pressed, and the
// square under the pointer is found where it is let go.
import { el } from "/static/api.js";

const THRESHOLD = 6; // pixels a press moves before it is a drag
let drag = null;
let dropped = false; // a click that comes with the drop is not a click of its own

// True while the browser may still send the click of the gesture that dropped a piece.
export const justDropped = () => dropped;

// A press on a square that may be dragged from. `handlers`: ghost(square) the node that
// follows the pointer, start(square) once it moves, drop(from, to) when it is let go (to: null off
// the board).
export function press(event, square, handlers) {
  if (drag || (event.pointerType === "mouse" && event.button !== 0)) return;
  drag = { square, handlers, id: event.pointerId, x: event.clientX, y: event.clientY, moving: false, ghost: null };
  window.addEventListener("pointermove", moved);
  window.addEventListener("pointerup", released);
  window.addEventListener("pointercancel", stop);
}

function moved(event) {
  if (!drag || event.pointerId !== drag.id) return;
  if (!drag.moving) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < THRESHOLD) return;
    drag.moving = true;
    drag.ghost = el("div", { class: "cmd-ghost", "aria-hidden": "true" }, drag.handlers.ghost(drag.square));
    // inside the page's main[data-kind], where the seats' colours are set
    (document.querySelector("main[data-kind]") || document.body).append(drag.ghost);
    drag.handlers.start(drag.square);
  }
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  event.preventDefault();
}

function released(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const was = drag;
  stop();
  if (!was.moving) return; // pressed and let go in place: the click does the work
  dropped = true;
  setTimeout(() => { dropped = false; }, 0);
  const under = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-square]");
  was.handlers.drop(was.square, under ? under.dataset.square : null);
}

function stop() {
  drag?.ghost?.remove();
  drag = null;
  window.removeEventListener("pointermove", moved);
  window.removeEventListener("pointerup", released);
  window.removeEventListener("pointercancel", stop);
}
