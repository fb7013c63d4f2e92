// The page's shared parts: requests with the token, the message line, the two faces (the HTTP
// API, which is sent a catalogue, and the gateway, which has its own) and table rows.

export const TOKEN_KEY = "unfold.token";

export const $ = (id) => document.getElementById(id);
export const count = (n, one) => `${fmt(n)} ${one}${n === 1 ? "" : "s"}`;
export const fmt = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US"));
export const state = {
  face: null,
  catalog: null,
  servers: undefined,
  catalogHash: null,
  definitions: 0,
};

// --- requests -----------------------------------------------------------------------------------

class ProblemError extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `The server answered ${status}`);
    this.status = status;
    this.code = body && body.code;
  }
}

export async function call(path, body) {
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
  }).catch(() => {
    throw new Error("Cannot reach the server: is it still running?");
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

export function say(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

export function fail(error) {
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

// The face /status named: none until it answered.
export function face() {
  if (state.face === null) {
    throw new Error("Not connected yet: the server's /status has not answered");
  }
  return state.face === "gateway" ? gateway : api;
}

export function row(cells, numeric = []) {
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
