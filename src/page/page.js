// unfold's page: what the model sees at a context size, what it costs across sizes, why a search
// ranked a tool and, on the gateway, each upstream's state. No framework, no build step, no request
// outside this origin. Tool text comes from third parties: it is only ever set as text, never
// parsed as markup.
"use strict";

const CHART_SIZES = [8000, 16000, 32000, 64000, 128000, 200000, 256000, 512000, 1000000];
const STATUS_EVERY_MS = 5000;
const TOKEN_KEY = "unfold.token";

const $ = (id) => document.getElementById(id);
const count = (n, one) => `${fmt(n)} ${one}${n === 1 ? "" : "s"}`;
const fmt = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US"));
const state = { face: null, catalog: null, servers: undefined, catalogHash: null, definitions: 0 };

// --- requests -----------------------------------------------------------------------------------

class ProblemError extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `The server answered ${status}`);
    this.status = status;
    this.code = body && body.code;
  }
}

async function call(path, body) {
  const headers = {};
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit",
    cache: "no-store",
  });
  const text = await response.text();
  let parsed;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    if (response.status === 401) {
      askToken();
      throw new ProblemError(401, {
        code: "unauthorized",
        detail: token
          ? "The token was refused: type the right one above"
          : "This server needs a token: type it above (UNFOLD_API_TOKEN's, or a profile's own)",
      });
    }
    throw new ProblemError(response.status, parsed);
  }
  return parsed;
}

function say(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

function fail(error) {
  say(error instanceof Error ? error.message : String(error));
}

function askToken() {
  $("auth").hidden = false;
  $("token").focus();
}

// --- the two faces: the HTTP API (a catalogue sent with each request) and the gateway (its own) ---

const api = {
  async view(context) {
    const budget = { availableContextTokens: context };
    const body = await withCatalog((catalog) => call("v1/inject", { ...catalog, budget }));
    const injection = body.injection;
    if (!injection) return { level: null, prompt: "", tool: "", costTokens: 0 };
    return {
      level: injection.mode,
      prompt: injection.prompt,
      tool: JSON.stringify(injection.bridgeTool, null, 2),
      promptTokens: injection.promptTokens,
      toolTokens: injection.overheadTokens,
      costTokens: injection.promptTokens + injection.overheadTokens,
      budgetTokens: injection.inventoryBudgetTokens,
      definitionTokens: state.definitions,
    };
  },
  explain(query, id) {
    return withCatalog((catalog) =>
      call("v1/explain", { ...catalog, query, ...(id ? { id } : {}) })
    );
  },
};

const gateway = {
  async view(context) {
    const body = await call(`view?context=${context}`);
    return {
      level: body.level,
      prompt: body.instructions,
      tool: JSON.stringify(body.tools, null, 2),
      promptTokens: body.instructionTokens,
      toolTokens: body.toolTokens,
      costTokens: body.costTokens,
      budgetTokens: body.budgetTokens,
      definitionTokens: body.definitionTokens,
    };
  },
  explain(query, id) {
    const params = new URLSearchParams({ query });
    if (id) params.set("id", id);
    return call(`explain?${params}`);
  },
};

// The catalogue goes once; later requests name it by hash, and send it again if the server forgot.
async function withCatalog(send) {
  if (!state.catalog) {
    throw new Error("Choose a catalogue first: the sample, a file or pasted JSON");
  }
  if (state.catalogHash) {
    try {
      return await send({ catalogRef: state.catalogHash });
    } catch (error) {
      if (!(error instanceof ProblemError) || error.code !== "catalog_unknown") throw error;
    }
  }
  const full = { catalog: state.catalog };
  if (state.servers) full.servers = state.servers;
  const body = await send(full);
  state.catalogHash = body.catalogHash || null;
  return body;
}

// --- catalogue ----------------------------------------------------------------------------------

// Accepts an array of tools with `server`, `{catalog, servers?}`, or `{server: [tools]}`.
function normalise(json) {
  if (Array.isArray(json)) return { catalog: json };
  if (json && Array.isArray(json.catalog)) return { catalog: json.catalog, servers: json.servers };
  if (json && typeof json === "object") {
    const catalog = [];
    for (const [server, tools] of Object.entries(json)) {
      if (!Array.isArray(tools)) {
        throw new Error(`Cannot read the catalogue: "${server}" is not a list of tools`);
      }
      for (const tool of tools) catalog.push({ ...tool, server });
    }
    return { catalog };
  }
  throw new Error("Cannot read the catalogue: expected an array of tools or an object of servers");
}

// The tokens of every tool's full definition as tools/list sends it (the fields the gateway's
// definitionOf keeps), as unfold counts them: a token per 4 code points.
const DEFINITION_FIELDS = [
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "_meta",
];
function definitionTokens(catalog) {
  let total = 0;
  for (const tool of catalog) {
    const definition = {};
    for (const field of DEFINITION_FIELDS) {
      if (tool[field] !== undefined) definition[field] = tool[field];
    }
    if (definition.description === undefined) definition.description = "";
    total += Math.ceil([...JSON.stringify(definition)].length / 4);
  }
  return total;
}

// Said once the server took the catalogue: one it refused leaves no catalogue and no figure.
async function useCatalog(read, label) {
  Object.assign(state, { catalog: null, servers: undefined, catalogHash: null, definitions: 0 });
  clearView();
  clearChart();
  fillIds([]);
  const summary = $("catalog-summary");
  summary.textContent = `Checking: ${label}…`;
  let refused;
  try {
    const { catalog, servers } = normalise(await read());
    Object.assign(state, { catalog, servers, definitions: definitionTokens(catalog) });
    refused = await showView();
  } catch (error) {
    refused = error;
    fail(error);
  }
  if (refused) {
    Object.assign(state, { catalog: null, servers: undefined, catalogHash: null, definitions: 0 });
    summary.textContent = `No catalogue in use: ${label} was refused (the message above says why).`;
    return;
  }
  const servers = new Set(state.catalog.map((t) => t.server)).size;
  summary.textContent = `In use: ${label}, ${count(state.catalog.length, "tool")} from ${
    count(servers, "server")
  }.`;
  fillIds(state.catalog.map((t) => `${t.server}/${t.name}`));
  await showChart();
}

function fillIds(ids) {
  const list = $("tool-ids");
  list.replaceChildren(
    ...ids.slice(0, 5000).map((id) => {
      const option = document.createElement("option");
      option.value = id;
      return option;
    }),
  );
}

// --- model view and chart -----------------------------------------------------------------------

function face() {
  if (state.face === null) {
    throw new Error("Not connected yet: the server's /status has not answered");
  }
  return state.face === "gateway" ? gateway : api;
}

// Figures from before an error never stay beside it.
function clearView() {
  for (const id of ["level", "cost", "all-cost", "budget"]) $(id).textContent = "–";
  for (const id of ["prompt", "bridge", "prompt-tokens", "tool-tokens"]) $(id).textContent = "";
}
function clearChart() {
  drawn = null;
  const svg = $("chart");
  svg.replaceChildren(svg.querySelector("title"));
  $("cost-table").tBodies[0].replaceChildren();
  $("saving-note").hidden = true;
}

let viewRun = 0;
async function showView() {
  const context = Number($("context").value);
  if (!Number.isInteger(context) || context < 1000) {
    clearView();
    say("Context tokens must be a whole number of at least 1000");
    return null;
  }
  const run = ++viewRun;
  try {
    const view = await face().view(context);
    if (run !== viewRun) return null; // a later change already asked
    say("");
    $("level").textContent = view.level || "–";
    $("cost").textContent = `${fmt(view.costTokens)} tokens`;
    $("all-cost").textContent = `${fmt(view.definitionTokens)} tokens`;
    $("budget").textContent = `${fmt(view.budgetTokens)} tokens`;
    $("prompt").textContent = view.prompt;
    $("bridge").textContent = view.tool;
    $("prompt-tokens").textContent = `(${fmt(view.promptTokens)} tokens)`;
    $("tool-tokens").textContent = `(${fmt(view.toolTokens)} tokens with the instructions)`;
    return null;
  } catch (error) {
    if (run === viewRun) {
      clearView();
      fail(error);
    }
    return error;
  }
}

async function showChart() {
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

function row(cells, numeric = []) {
  const tr = document.createElement("tr");
  cells.forEach((cell, i) => {
    const td = document.createElement("td");
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell;
    if (numeric.includes(i)) td.className = "num";
    tr.append(td);
  });
  return tr;
}

// --- why this result ----------------------------------------------------------------------------

async function explain(event) {
  event.preventDefault();
  const query = $("query").value.trim();
  const id = $("expected").value.trim();
  if (query === "") {
    say("Type what the model would search for");
    $("query").focus();
    return;
  }
  try {
    const body = await face().explain(query, id);
    say("");
    $("search-words").textContent = body.words.length === 0
      ? "The query has no searchable word (only stop-words or markup)."
      : `Searched words: ${body.words.join(", ")}`;
    $("results").replaceChildren(...body.results.map(resultItem));
    const target = $("target");
    target.hidden = !body.target;
    target.textContent = body.target ? `${body.target.id}: ${body.target.reason}` : "";
  } catch (error) {
    fail(error);
  }
}

function resultItem(result) {
  const li = document.createElement("li");
  const id = document.createElement("span");
  id.className = "id";
  id.textContent = result.id;
  li.append(id, ` score ${result.score}`);
  const chips = document.createElement("ul");
  chips.className = "chips";
  chips.setAttribute("aria-label", `Query words ${result.id} matched`);
  for (const m of result.matches) {
    const chip = document.createElement("li");
    chip.textContent = m.kind === "semantic"
      ? `${m.word}: semantic`
      : `${m.word} → ${m.term} (${m.kind}, ${m.field})`;
    chips.append(chip);
  }
  for (const word of result.missing) {
    const chip = document.createElement("li");
    chip.className = "missing";
    chip.textContent = `${word}: not matched`;
    chips.append(chip);
  }
  li.append(chips);
  return li;
}

// --- gateway status -----------------------------------------------------------------------------

const COUNTERS = [
  ["searches", "Searches"],
  ["misses", "Misses"],
  ["describes", "Describes"],
  ["executes", "Executes"],
  ["describeFirst", "Describe first"],
  ["invalidArguments", "Invalid arguments"],
  ["upstreamFailures", "Upstream failures"],
];

function showStatus(status) {
  $("status-section").hidden = false;
  $("status-table").tBodies[0].replaceChildren(...status.servers.map((s) => {
    const badge = document.createElement("span");
    badge.className = `state state-${String(s.state).replace(/[^a-z_]/g, "")}`;
    badge.textContent = s.state;
    const notes = [s.reason || ""];
    if (Array.isArray(s.quarantined) && s.quarantined.length > 0) {
      notes.push(`left out: ${s.quarantined.map((q) => q.name || q).join(", ")}`);
    }
    // Definitions the user has not approved: held ones (trust "pin") cannot be used yet.
    const unapproved = Array.isArray(s.unapproved) ? s.unapproved : [];
    const held = unapproved.filter((u) => u.held).map((u) => u.name);
    const flagged = unapproved.filter((u) => !u.held).map((u) => u.name);
    const trust = [];
    if (held.length > 0) trust.push(`awaiting approval: ${held.join(", ")}`);
    if (flagged.length > 0) trust.push(`not approved (flagged): ${flagged.join(", ")}`);
    return row([
      s.server,
      badge,
      notes.filter(Boolean).join("; "),
      withChanges(trust.join("; ") || "nothing awaiting approval", unapproved),
      fmt(s.tools),
      fmt(s.definitionTokens),
    ], [4, 5]);
  }));
  showProfiles(status);
  // A face that does not count (the Worker: each isolate would see a fraction) shows none.
  $("counters-section").hidden = !status.counters;
  const counters = status.counters || {};
  $("counters").replaceChildren(...COUNTERS.flatMap(([key, label]) => {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = fmt(counters[key] ?? 0);
    const div = document.createElement("div");
    div.append(dt, dd);
    return [div];
  }));
  $("status-updated").textContent = `Updated ${new Date().toLocaleTimeString()}.`;
  $("catalog-summary").textContent = `Live catalogue: ${count(status.tools, "tool")} from ${
    count(status.servers.length, "upstream")
  }.`;
}

// A profile token's caller sees that profile alone; a gateway-wide one, every profile.
function showProfiles(status) {
  const profiles = Array.isArray(status.profiles) ? status.profiles : [];
  $("profiles-section").hidden = !status.profile && profiles.length === 0;
  $("profile-note").textContent = status.profile
    ? `This token opens the profile ${status.profile} alone, at /mcp/${
      encodeURIComponent(status.profile)
    }: the upstreams, tools and figures here are that profile's.`
    : `Each profile serves its own tools at its own endpoint.`;
  $("profiles-table").hidden = profiles.length === 0;
  $("profiles-table").tBodies[0].replaceChildren(...profiles.map((p) =>
    row([
      p.name,
      `/mcp/${encodeURIComponent(p.name)}`,
      fmt(p.tools),
      fmt(p.availableContextTokens),
    ], [2, 3])
  ));
}

// What the user would approve: the approved and the live value of each changed field, as the
// gateway sends them (JSON text, invisible characters already escaped), under a disclosure.
function withChanges(text, unapproved) {
  const shown = (value) => value === undefined ? "(not recorded)" : value ?? "(absent)";
  const lines = unapproved.filter((u) => Array.isArray(u.changes) && u.changes.length > 0)
    .flatMap((u) => [
      `${u.name} (${u.change})`,
      ...u.changes.flatMap((c) => [
        `  ${c.field}`,
        `    approved: ${shown(c.approved)}`,
        `    live:     ${shown(c.live)}`,
      ]),
    ]);
  if (lines.length === 0) return text;
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = "approved and live definitions";
  const pre = document.createElement("pre");
  pre.textContent = lines.join("\n");
  details.append(summary, pre);
  const cell = document.createElement("span");
  cell.append(text, details);
  return cell;
}

// A failed poll clears what the last one showed; the next good one clears its message.
let statusFailed = false;
async function pollStatus() {
  if (document.hidden || state.face !== "gateway") return;
  try {
    showStatus(await call("status"));
    if (statusFailed) say("");
    statusFailed = false;
  } catch (error) {
    statusFailed = true;
    for (const id of ["status-table", "profiles-table"]) $(id).tBodies[0].replaceChildren();
    $("counters").replaceChildren();
    $("status-updated").textContent = "";
    $("catalog-summary").textContent = "Live catalogue: unknown (its status did not answer).";
    fail(error);
  }
}

// --- start --------------------------------------------------------------------------------------

async function refresh() {
  await showView();
  await showChart();
}

async function start() {
  let status;
  try {
    status = await call("status");
  } catch (error) {
    fail(error);
    return;
  }
  state.face = status.face;
  say("");
  $("main").hidden = false;
  $("version").textContent = `${state.face === "gateway" ? "" : " · "}unfold ${status.version}`;
  if (state.face === "gateway") {
    // The gateway's own catalogue, at the size its host is served: no sample, paste or OpenAPI.
    $("face").textContent = status.profile ? `gateway · profile ${status.profile}` : "gateway";
    if (Number.isInteger(status.availableContextTokens)) {
      $("context").value = String(status.availableContextTokens);
    }
    showStatus(status);
    setInterval(pollStatus, STATUS_EVERY_MS);
    await refresh();
  } else {
    $("face").textContent = "HTTP API";
    $("catalog-inputs").hidden = false;
    $("openapi").hidden = false;
    await loadSample();
  }
}

function loadSample() {
  return useCatalog(async () => {
    const response = await fetch("sample.json", { cache: "no-store" });
    if (!response.ok) {
      throw new Error(`Cannot load the sample: the server answered ${response.status}`);
    }
    return response.json();
  }, "the sample catalogue (testdata/real-servers)");
}

// JSON text the user chose, read or refused with a line naming it.
function readJson(text, what) {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`Cannot read ${what}: not JSON`);
  }
}

let contextTimer;
function onContext() {
  clearTimeout(contextTimer);
  contextTimer = setTimeout(showView, 250);
}

document.addEventListener("DOMContentLoaded", () => {
  $("context").addEventListener("input", onContext);
  $("context").addEventListener("change", onContext);
  for (const button of document.querySelectorAll("[data-context]")) {
    button.addEventListener("click", () => {
      $("context").value = button.dataset.context;
      showView();
    });
  }
  $("search").addEventListener("submit", explain);
  $("use-sample").addEventListener("click", loadSample);
  $("catalog-file").addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    await useCatalog(async () => readJson(await file.text(), file.name), `the file ${file.name}`);
  });
  $("use-text").addEventListener(
    "click",
    () =>
      useCatalog(
        () => readJson($("catalog-text").value, "the pasted text"),
        "the pasted catalogue",
      ),
  );
  $("auth").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("token").value);
    $("token").value = "";
    $("auth").hidden = true;
    say("");
    if (state.face === null) start();
    else {
      pollStatus();
      refresh();
    }
  });
  document.addEventListener("visibilitychange", pollStatus);
  // Redrawn when its width changes (a phone turned, a zoom), before the next paint.
  new ResizeObserver(() => {
    if (drawn && chartWidth() !== drawnWidth) drawChart(drawn);
  }).observe($("chart").parentElement);
  start();
});
