// What the page's modes share: the board view, the state, the settings form and the status line.

import { BoardView } from "./board.js";

export const $ = (id) => document.getElementById(id);

export const view = new BoardView($("board"));

export const state = {
  info: null,
  board: null,       // {rows, cols, names, index: Map name -> square, moves, holes: Set, free, piece}
  mode: "watch",     // "watch" | "play" | "trace" | "bishop" | "check"
  tour: null,        // {path: [v...], closed}
  played: 0,         // squares of state.tour the player made (play mode)
  step: 0,           // squares of the tour shown
  playing: false,
  cursor: 0,
  moves: [],         // play mode: the player's squares
  start: null,       // watch mode: the square whose tour is on show (kept in the page's link)
  random: null,      // watch mode: the seed of the random tour on show (kept in the page's link), or null
};

export function settings() {
  return {
    board: `${$("rows").value}x${$("cols").value}`,
    piece: $("piece").value,
    holes: $("holes").value.trim(),
    closed: $("closed").checked,
    method: $("method").value,
    tiebreak: $("tiebreak").value,
    seed: $("tiebreak").value === "random" ? $("seed").value : "",
  };
}

export function boardParams() {
  const s = settings();
  return { board: s.board, piece: s.piece, holes: s.holes };
}

export function tourParams() {
  const s = settings();
  return { ...boardParams(), closed: s.closed, method: s.method, tiebreak: s.tiebreak, seed: s.seed };
}

export function describeBoard() {
  const s = settings();
  return s.holes ? `${s.board} without ${s.holes}` : s.board;
}

// Square names of an answer -> square numbers of the board on show.
export function squares(names) {
  return names.map((name) => state.board.index.get(name));
}

export function say(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind}`;
}

// Why there is no tour (or route): `reason` is the library's sentence, `how` the kind of proof in
// plain words (the api's "how"). Shown as it is, under the status line; null hides it.
export function whyNot(reason, how = "") {
  const why = $("why");
  if (!reason) {
    why.hidden = true;
    return;
  }
  $("why-how").textContent = how;
  $("why-how").hidden = !how;
  $("why-text").textContent = reason;
  why.hidden = false;
}

export function failure(result, what) {
  if (result.status === 503) return `The server is busy; try ${what} again in a moment.`;
  return result.data.detail || `The server answered ${result.status}.`;
}

// Slider 1..100 -> about 0.5 to 170 steps a second.
export function rate(slider) {
  return 0.5 * Math.pow(1.06, Number(slider.value));
}
