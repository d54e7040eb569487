// Small accessible tooltips, for any game's front end: tipped(node, text) gives a node its
// explanation: a description read through aria-describedby (a hidden span in HTML, a <desc>
// inside SVG, where it is not drawn), and the same words in one shared bubble
// (#tip-bubble, role="tooltip") shown on hover, on keyboard focus and on a tap (a tap on
// the same thing again, Escape, or a tap elsewhere hides it). A node that is not focusable
// becomes focusable (tabindex=0), so the keyboard reaches every tip. The words are the
// game's (its messages); the shell only shows them, as it gives el() and clear().
import { el } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
let counter = 0;
let bubble = null;
let shownFor = null;
let pinned = false; // shown by a tap: stays until tapped away

export function tipped(node, text) {
  if (!node || !text) return node;
  const id = `tip-${++counter}`;
  node.dataset.tip = text;
  const focusable = /^(BUTTON|A|INPUT|SELECT|TEXTAREA)$/.test(node.tagName);
  if (!focusable && !node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
  const described = [node.getAttribute("aria-describedby"), id].filter(Boolean).join(" ");
  node.setAttribute("aria-describedby", described);
  if (node.namespaceURI === SVG) {
    const desc = document.createElementNS(SVG, "desc");
    desc.id = id;
    desc.textContent = text;
    node.prepend(desc);
  } else {
    node.append(el("span", { id, class: "tip-text", hidden: true }, text));
  }
  return node;
}

function bubbleNode() {
  if (!bubble || !bubble.isConnected) {
    bubble = el("div", { id: "tip-bubble", class: "tip-bubble", role: "tooltip", hidden: true });
    document.body.append(bubble);
  }
  return bubble;
}

function show(node) {
  const b = bubbleNode();
  b.textContent = node.dataset.tip;
  b.hidden = false;
  shownFor = node;
  const r = node.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  b.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(r.left + r.width / 2 - width / 2, window.innerWidth - width - 8));
  b.style.left = `${left + window.scrollX}px`;
  // below the thing, or above it when there is no room below
  const below = r.bottom + 6;
  b.style.top = `${below + window.scrollY}px`;
  const h = b.getBoundingClientRect().height;
  if (below + h > window.innerHeight && r.top - h - 6 > 0) b.style.top = `${r.top - h - 6 + window.scrollY}px`;
}

export function hideTip() {
  if (bubble) bubble.hidden = true;
  shownFor = null;
  pinned = false;
}

const target = (event) => event.target?.closest?.("[data-tip]");
// a control (a button, or an area taking clicks while an operation is built) keeps its
// click for what it does: a mouse click shows its tip without pinning it
const control = (node) => node.tagName === "BUTTON" || node.getAttribute("role") === "button";

function install() {
  if (window.__bingfaTips) return;
  window.__bingfaTips = true;
  document.addEventListener("mouseover", (e) => { const n = target(e); if (n && !pinned) show(n); });
  document.addEventListener("mouseout", (e) => {
    const n = target(e);
    if (n && n === shownFor && !pinned && !n.contains(e.relatedTarget)) hideTip();
  });
  document.addEventListener("focusin", (e) => { const n = target(e); if (n) { pinned = false; show(n); } else if (!pinned) hideTip(); });
  document.addEventListener("focusout", (e) => { if (target(e) === shownFor && !pinned) hideTip(); });
  // a tap (touch or pen; a mouse click too) toggles the tip of what was tapped
  document.addEventListener("click", (e) => {
    const n = target(e);
    if (!n) { if (pinned) hideTip(); return; }
    if (pinned && shownFor === n) { hideTip(); return; }
    show(n);
    pinned = e.pointerType === "touch" || e.pointerType === "pen" || !control(n);
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && shownFor) hideTip(); });
  // a redraw that replaces the thing explained takes its tip away
  new MutationObserver(() => { if (shownFor && !shownFor.isConnected) hideTip(); })
    .observe(document.body, { childList: true, subtree: true });
}

if (typeof document !== "undefined") install();
