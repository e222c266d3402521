// Play mode: the visitor makes the moves. The legal squares come from the move table
// that /api/board returns; "solve from here" asks /api/tour for a tour with this prefix.

import { Latest } from "./api.js";
import { $, failure, say, squares, state, tourParams, view, whyNot } from "./page.js";

const request = new Latest();

function legalFrom(v) {
  const used = new Set(state.moves);
  return state.board.moves[v].filter((u) => !used.has(u));
}

export function showPlay() {
  const b = state.board;
  const moves = state.moves;
  view.drawPath(moves, moves.length, { played: moves.length, numbers: $("numbers").checked });
  const line = $("play-progress");
  if (!moves.length) {
    view.clearMarks();
    line.textContent = `Squares: 0 of ${b.free}`;
    return;
  }
  const here = moves[moves.length - 1];
  const legal = legalFrom(here);
  const used = new Set(moves);
  const degrees = new Map(legal.map((u) => [u, b.moves[u].filter((w) => !used.has(w) && w !== u).length]));
  view.drawLegal(legal, degrees, $("hints").checked);
  line.textContent = `Squares: ${moves.length} of ${b.free}, on ${b.names[here]}`;
  if (moves.length === b.free) {
    const closes = b.moves[here].includes(moves[0]);
    say(`A complete tour of ${b.free} squares${closes ? ", and closed: the last square is a move from the first" : ""}!`, "good");
  } else if (!legal.length) {
    say(`Dead end on ${b.names[here]} after ${moves.length} squares: no free square is a ${b.piece} move away. Undo, or start again.`, "error");
  }
}

export function playAt(v) {
  const b = state.board;
  if (b.holes.has(v)) {
    say(`${b.names[v]} is a hole; a tour cannot use it.`, "error");
    return;
  }
  if (state.tour) {
    // A solution is on show: go back to the player's own moves first.
    state.tour = null;
  }
  whyNot(null);
  const moves = state.moves;
  if (!moves.length) {
    moves.push(v);
    say(`Started on ${b.names[v]}. The highlighted squares are your moves.`);
    showPlay();
    return;
  }
  const here = moves[moves.length - 1];
  if (moves.includes(v)) {
    say(`${b.names[v]} is already visited (square ${moves.indexOf(v) + 1}); pick a highlighted square.`, "error");
    view.flashWrong(v);
    return;
  }
  if (!b.moves[here].includes(v)) {
    say(`${b.names[here]} to ${b.names[v]} is not a ${b.piece} move; pick a highlighted square.`, "error");
    view.flashWrong(v);
    return;
  }
  moves.push(v);
  say(`${b.names[here]} to ${b.names[v]}.`);
  showPlay();
}

export function undo() {
  if (state.tour) state.tour = null;
  if (state.moves.length) state.moves.pop();
  whyNot(null);
  say(state.moves.length ? "Took back one move." : "Click a square to start.");
  showPlay();
}

export function restart() {
  state.moves = [];
  state.tour = null;
  whyNot(null);
  say("Click a square to start.");
  showPlay();
}

export async function solveFromHere() {
  const b = state.board;
  if (!state.moves.length) {
    say("Pick a first square, then ask for the rest.", "error");
    return;
  }
  const moves = state.moves.slice();
  say(`Looking for a tour that continues your ${moves.length} square${moves.length === 1 ? "" : "s"}...`);
  whyNot(null);
  const params = { ...tourParams(), prefix: moves.map((v) => b.names[v]).join(",") };
  if (params.method === "warnsdorff") params.method = "auto";
  const result = await request.get("/api/tour", params);
  if (!result) return;
  if (!result.ok) {
    say(failure(result, "solving"), "error");
    return;
  }
  if (result.data.found === false) { // no tour is an answer: the reason, shown as it is
    say("No tour continues these moves.", "error");
    whyNot(result.data.reason, result.data.how);
    return;
  }
  const path = squares(result.data.path);
  view.clearMarks();
  view.drawPath(path, path.length, { played: moves.length, numbers: $("numbers").checked, closed: result.data.closed });
  state.tour = { path, closed: result.data.closed };
  state.played = moves.length;
  state.step = path.length;
  say(`Solved: your ${moves.length} squares (red) and the rest of a tour (blue). Undo or click to go on playing.`, "good");
  $("play-progress").textContent = `Squares: ${path.length} of ${b.free}`;
}

export const playMode = {
  enter() {
    say("Click a square to start.");
    showPlay();
  },
  leave() { request.cancel(); },
  pick: playAt,
  key(key) {
    if (key !== "Backspace") return false;
    undo();
    return true;
  },
};
