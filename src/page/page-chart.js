// unfold's page: the cost across context sizes, as an SVG it draws itself and a table of the same
// numbers.

import { $, face, fail, fmt, row } from "./page-core.js";

const CHART_SIZES = [8000, 16000, 32000, 64000, 128000, 200000, 256000, 512000, 1000000];

export function clearChart() {
  drawn = null;
  const svg = $("chart");
  svg.replaceChildren(svg.querySelector("title"));
  $("cost-table").tBodies[0].replaceChildren();
  $("saving-note").hidden = true;
}

export async function showChart() {
  try {
    const views = [];
    for (const size of CHART_SIZES) views.push({ size, ...(await face().view(size)) });
    drawChart(views);
    fillCostTable(views);
  } catch (error) {
    clearChart();
    fail(error);
  }
}

const SVG = "http://www.w3.org/2000/svg";
function el(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

let drawn = null;
let drawnWidth = 0;
function chartWidth() {
  const shown = Math.round($("chart").parentElement.getBoundingClientRect().width);
  return Math.max(300, Math.min(640, shown || 640));
}
function drawChart(views) {
  drawn = views;
  const svg = $("chart");
  const title = svg.querySelector("title");
  svg.replaceChildren(title);
  // Drawn at the width it is shown, so its text stays readable on a phone.
  const w = chartWidth();
  drawnWidth = w;
  const [h, left, right, top, bottom] = [Math.round(w / 2), 56, 16, 16, 40];
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const values = views.flatMap((v) => [v.costTokens, v.definitionTokens]).filter((v) => v > 0);
  const lo = Math.log10(Math.max(1, Math.min(...values) / 2));
  const hi = Math.log10(Math.max(...values) * 2);
  const x = (size) =>
    left + (Math.log10(size) - Math.log10(CHART_SIZES[0])) /
      (Math.log10(CHART_SIZES[CHART_SIZES.length - 1]) - Math.log10(CHART_SIZES[0])) *
      (w - left - right);
  const y = (v) =>
    top + (1 - (Math.log10(Math.max(v, 1)) - lo) / (hi - lo || 1)) * (h - top - bottom);
  svg.append(
    el("line", { class: "axis", x1: left, y1: h - bottom, x2: w - right, y2: h - bottom }),
  );
  svg.append(el("line", { class: "axis", x1: left, y1: top, x2: left, y2: h - bottom }));
  for (const size of [8000, 32000, 128000, 1000000]) {
    svg.append(
      el("text", { x: x(size), y: h - bottom + 16, "text-anchor": "middle" }, short(size)),
    );
  }
  for (let p = Math.ceil(lo); p <= Math.floor(hi); p++) {
    svg.append(
      el("line", { class: "axis", x1: left - 4, y1: y(10 ** p), x2: left, y2: y(10 ** p) }),
    );
    svg.append(
      el("text", { x: left - 8, y: y(10 ** p) + 4, "text-anchor": "end" }, short(10 ** p)),
    );
  }
  svg.append(
    el("text", { x: (w + left) / 2, y: h - 4, "text-anchor": "middle" }, "context tokens"),
  );
  const path = (key) => views.map((v, i) => `${i ? "L" : "M"}${x(v.size)},${y(v[key])}`).join(" ");
  svg.append(el("path", { class: "line-all", d: path("definitionTokens") }));
  svg.append(el("path", { class: "line-unfold", d: path("costTokens") }));
  let previous = null;
  for (const v of views) {
    svg.append(el("circle", { class: "dot-unfold", cx: x(v.size), cy: y(v.costTokens), r: 4 }));
    // The level where it changes, so labels do not pile up.
    if (v.level !== previous) {
      svg.append(
        el("text", {
          class: "level",
          x: x(v.size),
          y: y(v.costTokens) - 10,
          // The first label starts at its point, clear of the axis.
          "text-anchor": v === views[0] ? "start" : "middle",
        }, v.level || "none"),
      );
      previous = v.level;
    }
  }
}

function short(n) {
  if (n >= 1e6) return `${n / 1e6}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

function fillCostTable(views) {
  const body = $("cost-table").tBodies[0];
  // Where unfold costs more than every definition there is no saving: say by how much instead.
  const over = (v) => v.definitionTokens > 0 && v.costTokens > v.definitionTokens;
  $("saving-note").hidden = !views.some(over);
  body.replaceChildren(...views.map((v) => {
    const saved = v.definitionTokens <= 0
      ? "–"
      : over(v)
      ? `none (${fmt(v.costTokens - v.definitionTokens)} more)`
      : `${Math.round((1 - v.costTokens / v.definitionTokens) * 100)} %`;
    return row([fmt(v.size), v.level || "–", fmt(v.costTokens), fmt(v.definitionTokens), saved], [
      0,
      2,
      3,
      4,
    ]);
  }));
}

/** Redraws the chart when its width changes (a phone turned, a zoom), before the next paint. */
export function watchChartWidth() {
  new ResizeObserver(() => {
    if (drawn && chartWidth() !== drawnWidth) drawChart(drawn);
  }).observe($("chart").parentElement);
}
