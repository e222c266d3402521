// The bishop puzzle of a Delphi program: a bishop visits every square of its colour, entering a
// square at most once per diagonal direction. /api/bishop finds the route; this shows it
// step by step with each square's visit numbers, lists its slides, and counts the routes
// of small boards.

import { Latest } from "./api.js";
import { $, failure, say, settings, squares, state, view, whyNot } from "./page.js";
import { Stepper } from "./stepper.js";

const requests = { route: new Latest(), count: new Latest() };
let route = null; // {steps: [v], names, slides: [name], corners: [index into steps]}

const stepper = new Stepper("bishop", draw);

// Where each slide ends, as an index into the steps: the first time the route reaches
// the next corner after the previous one (the squares between lie on one diagonal).
function corners(names, slides) {
  const out = [0];
  for (let j = 1; j < slides.length; j++) {
    let i = out[j - 1] + 1;
    while (i < names.length && names[i] !== slides[j]) i++;
    out.push(i);
  }
  return out;
}

function draw(step) {
  view.drawPath(route.steps, step, { numbers: true, visits: true, piece: "bishop" });
  const slide = Math.max(1, route.corners.findIndex((c) => c >= step - 1));
  const total = route.slides.length - 1;
  $("bishop-progress").textContent =
    `Square ${step} of ${route.steps.length}: ${route.names[step - 1]} \u00b7 slide ${Math.min(slide, total)} of ${total}`;
  const items = $("bishop-slides").children;
  for (let j = 0; j < items.length; j++) {
    if (j + 1 === slide && step > 1) items[j].setAttribute("aria-current", "step");
    else items[j].removeAttribute("aria-current");
  }
}

function listSlides(slides) {
  const list = $("bishop-slides");
  list.replaceChildren();
  for (let j = 0; j + 1 < slides.length; j++) {
    const item = document.createElement("li");
    item.textContent = `${slides[j]}\u2013${slides[j + 1]}`;
    list.appendChild(item);
  }
}

function params(start) {
  const s = settings();
  return { board: s.board, holes: s.holes, start, end: $("bishop-end").value, shortest: $("bishop-shortest").checked };
}

async function solveFrom(v) {
  const b = state.board;
  const name = b.names[v];
  if (b.holes.has(v)) {
    say(`${name} is a hole; pick another square.`, "error");
    return;
  }
  stepper.stop();
  whyNot(null);
  say(`Looking for a bishop route from ${name}...`);
  showCount(name);
  const result = await requests.route.get("/api/bishop", { ...params(name), time_limit: 5 });
  if (!result) return;
  if (!result.ok || result.data.found === false) {
    route = null;
    stepper.load(0);
    view.drawPath(null, 0);
    $("bishop-slides").replaceChildren();
    $("bishop-progress").textContent = "";
    if (result.ok) { // no route: an answer (200), with its reason and how it is known
      say(`No bishop route from ${name}.`, "error");
      whyNot(result.data.reason, result.data.how);
    } else {
      say(failure(result, "that square"), "error");
    }
    return;
  }
  const data = result.data;
  route = { names: data.steps, steps: squares(data.steps), slides: data.slides, corners: corners(data.steps, data.slides) };
  listSlides(data.slides);
  const fewest = data.method === "shortest" ? ", the fewest" : "";
  say(`A route from ${name} to ${data.steps[data.steps.length - 1]}: ${data.slide_count} slides${fewest}, ${data.step_count} steps.`, "good");
  stepper.load(route.steps.length, 1);
  stepper.play();
}

async function showCount(name) {
  const line = $("bishop-count");
  const b = state.board;
  if (b.rows * b.cols > state.info.limits.bishop_count_squares) {
    line.textContent = "";
    return;
  }
  line.textContent = "Counting the routes...";
  const result = await requests.count.get("/api/bishop", { ...params(name), count: true, time_limit: 3 });
  if (!result) return;
  if (!result.ok || result.data.found === false) { // no route at all: said once, by the route's answer
    line.textContent = result.status === 504 ? "Too many routes to count here in a few seconds." : "";
    return;
  }
  const c = result.data;
  const n = c.count.toLocaleString("en");
  const to = c.end_square ? `to ${c.end_square}` : "ending anywhere";
  const fewest = c.slides !== undefined ? ` with ${c.slides} slides, the fewest` : "";
  line.textContent = `${n} route${c.count === 1 ? "" : "s"} from ${c.start} ${to}${fewest}.`;
}

export const bishopMode = {
  enter() {
    route = null;
    stepper.load(0);
    $("bishop-slides").replaceChildren();
    $("bishop-progress").textContent = "";
    $("bishop-count").textContent = "";
    say("Click a square (a corner, say) to send the bishop from there.");
  },
  leave() {
    stepper.stop();
    requests.route.cancel();
    requests.count.cancel();
  },
  pick: solveFrom,
  key: (key) => stepper.key(key),
};
