/**
 * A TypeScript host over the unfold HTTP API: the MCP server through the library's stdio adapter
 * (server-everything from npm), the catalogue sent to unfold once and then named by its
 * `catalogRef`, one scripted model turn (search → describe → execute) with the resolved tool run on
 * the MCP server by the host. The client part is plain `fetch`, so a Worker or Node host can copy it.
 *
 * Run (with `deno task start` serving on 127.0.0.1:8787): `deno run -A examples/http_host.ts`
 * Environment: `UNFOLD_URL` (default http://127.0.0.1:8787), `UNFOLD_API_TOKEN`.
 *
 * @module
 */
// The answers are read loosely here; a typed client can be generated from GET /openapi.json.
// deno-lint-ignore-file no-console no-explicit-any

import type { McpTool } from "../mod.ts";
import { connectStdio } from "../src/mcp/stdio.ts"; // "@unfold/unfold/stdio"

const UNFOLD_URL = (Deno.env.get("UNFOLD_URL") ?? "http://127.0.0.1:8787").replace(/\/$/, "");
const TOKEN = Deno.env.get("UNFOLD_API_TOKEN");
const SESSION = `ts-host-${Deno.pid}`;

/** A problem the API answered (`application/problem+json`). */
class Problem extends Error {
  constructor(readonly status: number, readonly code: string, detail: string) {
    super(`unfold answered ${status} ${code}: ${detail}`);
  }
}

/** Calls the unfold API; a problem answer is thrown as a Problem. */
async function unfold(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${UNFOLD_URL}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(TOKEN === undefined ? {} : { authorization: `Bearer ${TOKEN}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json = text === "" ? undefined : JSON.parse(text);
  if (!response.ok) throw new Problem(response.status, json?.code, json?.detail);
  return json;
}

/**
 * Sends the catalogue once, then only its catalogHash as catalogRef (a few hundred bytes a request
 * instead of the whole catalogue); if the server no longer holds it (409 catalog_unknown: evicted,
 * restarted, a fresh Worker isolate), sends it once more.
 */
class Catalogue {
  #ref: string | undefined;
  readonly sizes: number[] = [];

  constructor(readonly tools: McpTool[]) {}

  async post(path: string, body: Record<string, unknown>): Promise<any> {
    if (this.#ref !== undefined) {
      const request = { ...body, catalogRef: this.#ref };
      try {
        const answer = await unfold("POST", path, request);
        this.sizes.push(JSON.stringify(request).length);
        return answer;
      } catch (e) {
        if (!(e instanceof Problem && e.code === "catalog_unknown")) throw e;
      }
    }
    const request = { ...body, catalog: this.tools };
    const answer = await unfold("POST", path, request);
    this.sizes.push(JSON.stringify(request).length);
    this.#ref = answer.catalogHash;
    return answer;
  }
}

const everything = await connectStdio({
  server: "everything",
  command: Deno.execPath(),
  args: [
    "run",
    "-A",
    "--quiet",
    "--config",
    new URL("../deno.json", import.meta.url).pathname,
    "npm:@modelcontextprotocol/server-everything",
    "stdio",
  ],
});
try {
  const catalogue = new Catalogue(await everything.tools());
  console.log(
    `Connected ${everything.identity.name} over stdio: ${catalogue.tools.length} tools`,
  );
  const base = { session: SESSION };
  const { injection } = await catalogue.post("/v1/inject", {
    ...base,
    budget: { availableContextTokens: 8000 },
  });
  console.log(
    `\n== Injection at 8,000 tokens: level "${injection.mode}", ` +
      `${injection.promptTokens} of ${injection.inventoryBudgetTokens} tokens`,
  );
  console.log(injection.prompt);

  console.log("\n== A model turn");
  let best = "";
  const calls: Array<() => unknown> = [
    () => ({ action: "search", query: "add two numbers" }),
    () => ({ action: "describe", name: best }),
    () => ({ action: "execute", name: best, arguments: { a: 2, b: 3 } }),
    () => '{"action":"execute","name":"get-sum"}', // a model mistake: a bare name
  ];
  for (const next of calls) {
    const call = next();
    console.log(`> ${typeof call === "string" ? call : JSON.stringify(call)}`);
    const routed = await catalogue.post("/v1/route", { ...base, arguments: call });
    if (routed.action === "search") best = routed.matches[0].id;
    if (routed.action === "execute") {
      // The host authorises and runs the resolved tool itself.
      const result = await everything.call(routed.tool.name, routed.arguments);
      console.log(
        `< [execute ${routed.id}] ${typeof result === "string" ? result : JSON.stringify(result)}`,
      );
    } else {
      console.log(`< [${routed.action}] ${routed.toolResult}`);
    }
  }

  console.log(
    `\n== Request bodies: ${catalogue.sizes[0]} bytes with the catalogue, then ` +
      `${Math.max(...catalogue.sizes.slice(1))} at most by reference`,
  );
  const stats = await unfold("GET", `/v1/sessions/${SESSION}`);
  console.log(
    `\n== Session ${SESSION}: generation ${stats.generation}, described ${
      JSON.stringify(stats.described)
    }`,
  );
  console.log(`counters ${JSON.stringify(stats.counters)}`);
  await unfold("DELETE", `/v1/sessions/${SESSION}`);
} finally {
  await everything.close();
}
