// The heat map of every tour in "About this board" (/api/stats): every move drawn by the number of
// tours that take it, each square shaded by the tours that start there. The server builds it only
// where that is quick; elsewhere it answers with the reason, which is shown as it is.

import { Latest } from "./api.js";
import { $, boardParams, describeBoard, failure, settings } from "./page.js";

const request = new Latest();

// Hide the map (a new board, another question): it is drawn again only when asked for.
export function resetHeat() {
  request.cancel();
  $("heat").hidden = true;
  $("heat-text").textContent = "";
  $("heat-img").hidden = true;
  $("heat-img").removeAttribute("src");
  $("heat-show").setAttribute("aria-expanded", "false");
  $("heat-show").textContent = "Heat map of every tour";
}

export async function toggleHeat() {
  if (!$("heat").hidden) {
    resetHeat();
    return;
  }
  const s = settings();
  const kind = s.closed ? "closed tours" : "tours";
  $("heat").hidden = false;
  $("heat-show").setAttribute("aria-expanded", "true");
  $("heat-show").textContent = "Hide the heat map";
  $("heat-text").textContent = `Weighing every ${s.closed ? "closed " : ""}tour on ${describeBoard()}...`;
  const result = await request.get("/api/stats", { ...boardParams(), closed: s.closed, heat: true, time_limit: 5 });
  if (!result) return;
  const data = result.data;
  if (!result.ok || data.found === false) { // not quick here, or no tour: an answer with its reason
    $("heat-text").textContent = result.ok ? `No heat map here: ${data.reason}` : failure(result, "the heat map");
    return;
  }
  const n = (x) => x.toLocaleString("en");
  const tours = s.closed ? `${n(data.undirected)} closed ${kind.split(" ")[1]} (cycles)` : `${n(data.directed)} ${kind}`;
  $("heat-text").textContent = `The ${tours} on ${describeBoard()}: each move drawn by the tours that take it` +
    (s.closed ? "." : ", each square shaded by the tours that start there.");
  const img = $("heat-img");
  img.alt = `Heat map of the ${tours} on ${describeBoard()}`;
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data.heat_svg)}`;
  img.hidden = false;
}
