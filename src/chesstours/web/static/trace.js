// Trace mode: a backtracking search (or Warnsdorff's rule) move by move, as the library
// records it (/api/trace). Each event shows the path, the moves not yet tried from its end
// (with their onward moves when the search weighs them), and the event in words.

import { Latest } from "./api.js";
import { $, boardParams, failure, say, settings, squares, state, view, whyNot } from "./page.js";
import { Stepper } from "./stepper.js";

const request = new Latest();
let trace = null; // {events, weighted, stopped, complete}

const stepper = new Stepper("trace", draw);

function draw(i) {
  const e = trace.events[i - 1];
  const path = squares(e.path);
  view.drawPath(path, path.length, { numbers: true });
  const open = squares(e.candidates.map((c) => c.square));
  const weights = new Map(open.map((v, j) => [v, e.candidates[j].weight]));
  view.drawLegal(open, weights, trace.weighted);
  const at = (name) => state.board.index.get(name);
  if (e.kind === "skip") {
    view.mark(at(e.square), "skipped");
    if (e.culprit && e.culprit !== e.square) view.mark(at(e.culprit), "culprit");
  } else if (e.kind === "back") {
    view.mark(at(e.square), "left");
  }
  const moveNo = e.path.length;
  $("trace-progress").textContent =
    `Event ${i} of ${trace.events.length} \u00b7 move ${moveNo} of ${state.board.free} \u00b7 ${e.nodes.toLocaleString("en")} position${e.nodes === 1 ? "" : "s"} tried`;
  let text = e.text;
  if (i === trace.events.length && trace.stopped === "steps") {
    text += ` (The trace stops here, after ${trace.events.length} events; the search goes on.)`;
  } else if (i === trace.events.length && trace.stopped === "time") {
    text += " (The server's time limit ended the trace here.)";
  }
  $("trace-text").textContent = text;
  const listed = e.candidates.map((c) => (trace.weighted ? `${c.square} (${c.weight})` : c.square));
  const searching = ["start", "move", "skip", "back"].includes(e.kind) && e.path.length;
  $("trace-candidates").textContent = !searching ? ""
    : listed.length ? `Moves not yet tried from ${e.path[e.path.length - 1]}: ${listed.join(", ")}`
      : `No move left to try from ${e.path[e.path.length - 1]}.`;
}

async function traceFrom(v) {
  const b = state.board;
  const name = b.names[v];
  if (b.holes.has(v)) {
    say(`${name} is a hole; pick another square.`, "error");
    return;
  }
  const s = settings();
  const method = $("trace-method").value;
  const params = { ...boardParams(), start: name, closed: s.closed, method, steps: $("trace-steps").value };
  if (method === "backtrack") params.order = $("trace-order").value;
  else if (s.tiebreak) Object.assign(params, { tiebreak: s.tiebreak, seed: s.seed });
  stepper.stop();
  whyNot(null);
  say(`Tracing ${method === "backtrack" ? "the backtracking search" : "Warnsdorff's rule"} from ${name}...`);
  const result = await request.get("/api/trace", params);
  if (!result) return;
  if (!result.ok) {
    say(failure(result, "that square"), "error");
    return;
  }
  const data = result.data;
  trace = {
    events: data.events, stopped: data.stopped, complete: data.complete,
    weighted: data.method === "warnsdorff" || data.order === "warnsdorff",
  };
  const how = data.method === "warnsdorff" ? "Warnsdorff's rule" : `backtracking (${data.order} move order)`;
  say(`${data.events.length} events of ${how} from ${name}${data.complete ? ", to the end of the search" : ""}.`, "good");
  stepper.load(data.events.length, 1);
  stepper.play();
}

function showOrder() {
  $("trace-order-label").hidden = $("trace-method").value !== "backtrack";
}

export const traceMode = {
  enter() {
    trace = null;
    stepper.load(0);
    for (const id of ["trace-progress", "trace-text", "trace-candidates"]) $(id).textContent = "";
    showOrder();
    say("Click a square to watch the search start there, move by move.");
  },
  leave() {
    stepper.stop();
    request.cancel();
  },
  pick: traceFrom,
  key: (key) => stepper.key(key),
};

$("trace-method").addEventListener("change", showOrder);
