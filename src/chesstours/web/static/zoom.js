// Zooming and panning the board. The board is drawn at so many pixels a square inside a
// scrolling box (.board-wrap): "fit" shows it whole; zooming in makes a big board's squares
// large enough to read and to tap, and the box then scrolls. Ways to zoom: the -, + and Fit
// buttons, the + and - keys on the board, Ctrl + wheel (a trackpad's pinch) and a two-finger
// pinch; ways to pan: scrolling, dragging with the mouse, one finger on a touch screen.

import { $, view } from "./page.js";

const MIN_PX = 4;     // smallest square: a 600-pixel box still shows a 150-square side
const MAX_PX = 96;    // largest square
const TAP_PX = 24;    // smallest square a finger can hit (WCAG 2.2's target size): phones start there
const STEP = 1.25;    // one press of + or -

const wrap = $("board-wrap");
const svg = $("board");
const touch = window.matchMedia("(pointer: coarse)").matches;
let chosen = null;     // pixels a square the visitor zoomed to; "fit": the whole board; null: the default
let dragged = false;   // a mouse drag pans the board: the click that ends it picks no square
let focusSquare = () => null; // the square the buttons and keys zoom about (the piece, the cursor)

// Set by app.js: which square to keep in place when zooming with the buttons or the keys.
export function zoomAbout(fn) { focusSquare = fn; }

// Pixels a square that show the whole board in the box.
function fitPx() {
  const width = wrap.clientWidth || 300;
  const height = parseFloat(getComputedStyle(wrap).maxHeight) || width;
  return Math.max(MIN_PX, Math.min(MAX_PX, width / view.units, height / view.heightUnits));
}

function defaultPx() {
  const fit = fitPx();
  return touch ? Math.max(fit, Math.min(TAP_PX, MAX_PX)) : fit;
}

function clamp(px) { return Math.max(Math.min(MIN_PX, fitPx()), Math.min(MAX_PX, px)); }

// Draw at `px` a square, keeping the point (x, y) of the box (default: its centre) where it is.
function apply(px, x = wrap.clientWidth / 2, y = wrap.clientHeight / 2) {
  const old = view.px || px;
  const left = wrap.scrollLeft + x, top = wrap.scrollTop + y;
  view.setScale(px);
  wrap.scrollLeft = (left * px) / old - x;
  wrap.scrollTop = (top * px) / old - y;
  const fit = Math.abs(px - fitPx()) < 0.01;
  wrap.classList.toggle("zoomed", !fit && px > fitPx());
  $("zoom-level").textContent = `${Math.round(px)} px a square${fit ? " (whole board)" : ""}`;
  $("zoom-in").disabled = px >= MAX_PX;
  $("zoom-out").disabled = px <= clamp(MIN_PX) + 0.01;
}

export function zoomTo(px, x, y) {
  chosen = clamp(px);
  apply(chosen, x, y);
}

export function zoomBy(factor, x, y) { zoomTo((view.px || fitPx()) * factor, x, y); }

// Zoom by `factor` about the focus square when it is in the box (it stays where it is), else about the
// box's centre; the focus square is then brought into view.
function zoomStep(factor) {
  const v = focusSquare();
  if (v === null || v === undefined || !view.px) return zoomBy(factor);
  const [cx, cy] = view.pixelCentre(v);
  const x = cx - wrap.scrollLeft, y = cy - wrap.scrollTop;
  const inside = x >= 0 && y >= 0 && x <= wrap.clientWidth && y <= wrap.clientHeight;
  if (inside) zoomBy(factor, x, y);
  else zoomBy(factor);
  reveal(v);
}

export function zoomFit() {
  chosen = "fit";
  apply(fitPx());
  wrap.scrollLeft = 0;
  wrap.scrollTop = 0;
}

// A new board: back to the default size (the whole board, or a tappable square on a phone).
export function resetZoom() {
  chosen = null;
  view.px = null;
  apply(defaultPx());
  wrap.scrollLeft = 0;
  wrap.scrollTop = wrap.scrollHeight; // rank 1 (the bottom), where a1 is
}

// Keep square v in the box (the piece while it moves, the keyboard's cursor), scrolling as little as needed.
export function reveal(v) {
  if (v === undefined || v === null || !view.px) return;
  if (wrap.scrollWidth <= wrap.clientWidth + 1 && wrap.scrollHeight <= wrap.clientHeight + 1) return;
  const [x, y] = view.pixelCentre(v);
  const pad = view.px * 1.5;
  if (x - pad < wrap.scrollLeft) wrap.scrollLeft = x - pad;
  else if (x + pad > wrap.scrollLeft + wrap.clientWidth) wrap.scrollLeft = x + pad - wrap.clientWidth;
  if (y - pad < wrap.scrollTop) wrap.scrollTop = y - pad;
  else if (y + pad > wrap.scrollTop + wrap.clientHeight) wrap.scrollTop = y + pad - wrap.clientHeight;
  // Near the left or bottom edge, go all the way: the rank numbers and file letters stay in view.
  if (wrap.scrollLeft < 2 * view.px) wrap.scrollLeft = 0;
  const bottom = wrap.scrollHeight - wrap.clientHeight;
  if (bottom - wrap.scrollTop < 2 * view.px) wrap.scrollTop = bottom;
}

// True once after a mouse drag: the click it ends is a pan, not a pick.
export function consumeDrag() {
  const was = dragged;
  dragged = false;
  return was;
}

function local(clientX, clientY) {
  const box = wrap.getBoundingClientRect();
  return [clientX - box.left, clientY - box.top];
}

function setUp() {
  $("zoom-in").addEventListener("click", () => zoomStep(STEP));
  $("zoom-out").addEventListener("click", () => zoomStep(1 / STEP));
  $("zoom-fit").addEventListener("click", zoomFit);
  // Ctrl + wheel (and a trackpad's pinch, which the browser sends as one) zooms about the pointer;
  // a plain wheel scrolls the box as usual.
  wrap.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    zoomBy(Math.exp(-event.deltaY / 300), ...local(event.clientX, event.clientY));
  }, { passive: false });
  // The mouse drags the board around once it is larger than the box.
  let start = null;
  wrap.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "mouse" || event.button !== 0) return;
    start = { x: event.clientX, y: event.clientY, left: wrap.scrollLeft, top: wrap.scrollTop, moved: false };
  });
  window.addEventListener("pointermove", (event) => {
    if (!start) return;
    const dx = event.clientX - start.x, dy = event.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 5) return; // a click that wobbles is still a click
    start.moved = true;
    wrap.classList.add("panning");
    wrap.scrollLeft = start.left - dx;
    wrap.scrollTop = start.top - dy;
  });
  window.addEventListener("pointerup", () => {
    if (start && start.moved) dragged = true;
    start = null;
    wrap.classList.remove("panning");
  });
  // Two fingers pinch; one finger scrolls the box natively (touch-action: pan-x pan-y).
  let pinch = null;
  const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  wrap.addEventListener("touchstart", (event) => {
    if (event.touches.length === 2) {
      const t = event.touches;
      pinch = { distance: spread(t), px: view.px,
                at: local((t[0].clientX + t[1].clientX) / 2, (t[0].clientY + t[1].clientY) / 2) };
    }
  }, { passive: true });
  wrap.addEventListener("touchmove", (event) => {
    if (!pinch || event.touches.length !== 2) return;
    event.preventDefault();
    zoomTo(pinch.px * (spread(event.touches) / pinch.distance), ...pinch.at);
  }, { passive: false });
  wrap.addEventListener("touchend", (event) => { if (event.touches.length < 2) pinch = null; });
  // A window that changes size keeps the board whole if it was, or the zoom chosen.
  new ResizeObserver(() => {
    if (view.rows) apply(chosen === null ? defaultPx() : chosen === "fit" ? fitPx() : clamp(chosen));
  }).observe(wrap);
}

// Keys on the board: + and - zoom, 0 fits. True when the key was used.
export function zoomKey(key) {
  if (key === "+" || key === "=") zoomStep(STEP);
  else if (key === "-") zoomStep(1 / STEP);
  else if (key === "0") zoomFit();
  else return false;
  return true;
}

setUp();
