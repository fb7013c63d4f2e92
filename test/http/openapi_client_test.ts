import { equal, match } from "node:assert/strict";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/mod.ts";

// A host's code against the generated types: it narrows on `action` (the @ts-expect-error line
// fails the check if the union were one flat object) and on the codes a 422 can carry.
const CLIENT = `
import type { paths } from "./api.ts";

type Route = paths["/v1/route"]["post"];
export type RouteRequest = Route["requestBody"]["content"]["application/json"];
export type RouteResult = Route["responses"][200]["content"]["application/json"];
export type CatalogProblem = Route["responses"][422]["content"]["application/problem+json"];

export async function route(base: string, body: RouteRequest): Promise<RouteResult> {
  const response = await fetch(base + "/v1/route", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return await response.json() as RouteResult;
}

export function forTheModel(result: RouteResult): string {
  switch (result.action) {
    case "search":
      return result.toolResult + " [" + result.matches.map((m) => m.id).join(", ") + "]";
    case "describe":
      return result.elided ? "sent earlier: " + result.id : result.toolResult;
    case "execute":
      return "run " + result.id + " with " + JSON.stringify(result.arguments);
    case "error":
      return result.error.code + ": " + result.toolResult;
    case "more":
      return typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult);
    case "run":
      return result.isError ? result.error?.message ?? "" : result.toolResult;
    case "call":
      return "run " + result.id + " as call " + result.index + ", then the run again";
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

export function catalogFault(problem: CatalogProblem): "invalid_catalog" | "invalid_config" {
  return problem.code;
}

// @ts-expect-error an execute has no toolResult: a client must narrow on action first
export const unnarrowed = (result: RouteResult): string => result.toolResult;
`;

Deno.test("a client generated from /openapi.json by openapi-typescript type-checks, narrows on action and runs", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  const doc = await (await app.request("/openapi.json")).json();
  const dir = await Deno.makeTempDir({ prefix: "unfold-client-" });
  try {
    await Deno.writeTextFile(`${dir}/api.ts`, astToString(await openapiTS(doc)));
    await Deno.writeTextFile(`${dir}/client.ts`, CLIENT);
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
        },
      }),
    );
    const check = await new Deno.Command(Deno.execPath(), {
      args: ["check", "client.ts"],
      cwd: dir,
      env: { NO_COLOR: "1" },
    }).output();
    equal(check.code, 0, new TextDecoder().decode(check.stderr));

    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      app.fetch,
    );
    const client = await import(pathToFileURL(`${dir}/client.ts`).href);
    const result = await client.route(`http://127.0.0.1:${server.addr.port}`, {
      catalog: [{
        server: "demo",
        name: "echo",
        description: "Echo a message",
        inputSchema: { type: "object" },
      }],
      arguments: { action: "search", query: "echo" },
    });
    match(client.forTheModel(result), /^Top 1 of 1 tools.* \[demo\/echo\]$/s);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
