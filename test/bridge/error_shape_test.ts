/**
 * One place for a failure's code and message at every door: the core's `route()` and
 * `handle()`, `POST /v1/route` and the gateway's structured result all carry
 * `error: {code, message}` (a host written from docs/http.md reads `error.code` and finds it in
 * the core too).
 *
 * @module
 */

import { deepEqual, equal } from "node:assert/strict";
import { Injector, McpCatalog } from "../../mod.ts";
import { createApp } from "../../src/http/app.ts";
import { httpSchemas } from "../../src/http/schemas.ts";
import { DEFAULT_SETTINGS } from "../../src/http/settings.ts";
import { actionResult, failureResult } from "../../src/gateway/results.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { tool } from "../_data.ts";
import { client } from "../http/_client.ts";

const catalog = [
  tool("github", "create_issue", "Create an issue", { title: { type: "string" } }),
  {
    ...tool("github", "close_issue", "Close an issue"),
    inputSchema: {
      type: "object",
      properties: { number: { type: "integer" } },
      required: ["number"],
    },
  },
];
const injector = new Injector(new McpCatalog(catalog));
const app = createApp({ store: new MemorySessionStore() });
const api = client(async (path, init) => await app.request(path, init));
const schemas = httpSchemas(DEFAULT_SETTINGS);

// What each door answers for the same bridge arguments, reduced to its `error`.
async function errorsAtEveryDoor(args: Record<string, unknown>) {
  const routed = injector.route(args);
  const handled = await injector.handle(args, { invoke: () => "not reached" });
  const http = await api.post("/v1/route", { catalog, arguments: args });
  equal(http.status, 200);
  const body = schemas.RouteResult.parse(http.body);
  if (routed.action !== "error" || handled.action !== "error" || body.action !== "error") {
    throw new Error(`not an error: ${routed.action}, ${handled.action}, ${body.action}`);
  }
  const structured = actionResult(routed).structuredContent as { error: unknown };
  return { core: routed.error, handle: handled.error, http: body.error, gateway: structured.error };
}

Deno.test("The core and /v1/route give an unknown tool's error code at the same place", async () => {
  const errors = await errorsAtEveryDoor({ action: "describe", name: "github/create_isue" });
  equal(errors.core.code, "unknown_tool");
  deepEqual(errors.http, errors.core);
  deepEqual(errors.handle, errors.core);
  deepEqual(errors.gateway, errors.core);
});

Deno.test("an invalid_arguments error carries its problems in error at the core and at /v1/route", async () => {
  const errors = await errorsAtEveryDoor({
    action: "execute",
    name: "github/close_issue",
    arguments: { number: "7" },
  });
  equal(errors.core.code, "invalid_arguments");
  equal(errors.core.problems?.length, 1);
  deepEqual(errors.http, errors.core);
  deepEqual(errors.handle, errors.core);
});

Deno.test("the core keeps its top-level code and message: error repeats them, removes nothing", () => {
  const routed = injector.route("{not json");
  equal(routed.action, "error");
  if (routed.action !== "error") return;
  deepEqual(routed.error, { code: routed.code, message: routed.message });
  equal(routed.code, "invalid_json");
});

Deno.test("a failed execute in handle() and at the gateway has error: {code, message} too", async () => {
  const handled = await injector.handle(
    { action: "execute", name: "github/create_issue", arguments: { title: "x" } },
    {
      invoke: () => {
        throw Object.assign(new Error("upstream down"), { code: "tool_error" });
      },
    },
  );
  equal(handled.action, "execute");
  if (handled.action !== "execute" || !handled.isError) throw new Error("expected a failure");
  deepEqual(handled.error, { code: "tool_error", message: "upstream down" });
  const gateway = failureResult("github/create_issue", "tool_error", "upstream down", true);
  deepEqual(
    (gateway.structuredContent as { error: unknown }).error,
    { code: "tool_error", message: "upstream down" },
  );
});
