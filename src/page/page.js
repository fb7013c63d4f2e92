// unfold's page: what the model sees at a context size, what it costs across sizes, why a search
// ranked a tool and, on the gateway, each upstream's state. No framework, no build step, no request
// outside this origin. Tool text comes from third parties: it is only ever set as text, never
// parsed as markup. This module is the entry: the catalogue, the model view and the start; the
// others are imported below.

import { clearChart, showChart, watchChartWidth } from "./page-chart.js";
import { $, call, count, face, fail, fmt, say, state, TOKEN_KEY } from "./page-core.js";
import { clearExplain, explain } from "./page-explain.js";
import { pollStatus, showStatus, watchStatus } from "./page-status.js";

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
// definitionOf keeps), as unfold counts them: a token per 4 code points. The fields are the trust
// lock's DEFINITION_FIELDS (src/gateway/trust/lock.ts), held equal by test/page/budget_test.ts.
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
  clearExplain();
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

// --- model view ---------------------------------------------------------------------------------

// Figures from before an error never stay beside it.
function clearView() {
  for (const id of ["level", "cost", "all-cost", "budget"]) $(id).textContent = "–";
  for (const id of ["prompt", "bridge", "prompt-tokens", "tool-tokens"]) $(id).textContent = "";
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
    watchStatus(() => {
      clearView();
      clearChart();
    }, refresh);
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
  watchChartWidth();
  start();
});
