import { deepEqual, equal, ok } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { PROBLEMS } from "../../src/http/problems.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;
const app = createApp({ store: new MemorySessionStore() });
const doc: Doc = await (await app.request("/openapi.json")).json();

Deno.test("/openapi.json is an OpenAPI 3.1 document", () => {
  equal(doc.openapi, "3.1.0");
  equal(doc.info.title, "unfold");
  equal(doc.info.version, "0.1.0");
});

Deno.test("the OpenAPI document lists every route the app serves, and no other", () => {
  const served = new Set(
    app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
  );
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m} ${path}`)
    ),
  );
  deepEqual([...documented].sort(), [...served].sort());
});

Deno.test("every documented body and problem schema reference resolves", () => {
  const text = JSON.stringify(doc);
  const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
  ok(refs.length > 10);
  for (const ref of refs) ok(ref in doc.components.schemas, ref);
  for (const op of app.operations) {
    const operation = doc.paths[op.path][op.method];
    if (op.request) {
      equal(
        operation.requestBody.content["application/json"].schema.$ref,
        `#/components/schemas/${op.request}`,
      );
    }
    for (const code of op.problems) {
      const status = String(PROBLEMS[code as keyof typeof PROBLEMS].status);
      ok(
        operation.responses[status]?.description.includes(code),
        `${op.method} ${op.path}: ${code}`,
      );
    }
    ok(operation.responses["500"]);
    ok(operation.responses["405"].description.includes("method_not_allowed"));
  }
});

Deno.test("every status and problem code the app serves is described, with its headers", () => {
  const described = new Map<string, string>();
  for (const operations of Object.values(doc.paths) as Doc[]) {
    for (const operation of Object.values(operations) as Doc[]) {
      for (const [status, response] of Object.entries(operation.responses) as [string, Doc][]) {
        described.set(status, `${described.get(status) ?? ""} ${response.description}`);
      }
    }
  }
  for (const [code, problem] of Object.entries(PROBLEMS)) {
    if ("gatewayOnly" in problem) continue;
    ok(described.get(String(problem.status))?.includes(`${code}: `), `${problem.status} ${code}`);
  }
  const route = doc.paths["/v1/route"].post.responses;
  deepEqual(route["415"].headers["Accept-Post"].schema, { type: "string" });
  ok(route["401"].headers["WWW-Authenticate"]);
  ok(route["503"].headers["Retry-After"]);
  ok(doc.paths["/v1/sessions/{session}"].get.responses["405"].headers.Allow);
  deepEqual(
    route["400"].content["application/problem+json"].schema.allOf[1].properties.code.enum,
    [
      "unsupported_media_type",
      "invalid_json",
      "invalid_request",
      "unreadable_body",
    ].filter((code) => PROBLEMS[code as keyof typeof PROBLEMS].status === 400),
  );
});

Deno.test("RouteResult is a oneOf discriminated by action, each shape with its required fields", () => {
  const shapes = doc.components.schemas.RouteResult.oneOf.map((shape: Doc) => [
    shape.properties.action.const,
    [...shape.required].sort(),
  ]);
  deepEqual(shapes, [
    ["search", ["action", "catalogHash", "limit", "matches", "query", "toolResult"]],
    ["describe", ["action", "catalogHash", "id", "tool", "toolResult"]],
    ["execute", ["action", "arguments", "catalogHash", "id", "tool"]],
    ["error", ["action", "catalogHash", "error", "toolResult"]],
    ["more", ["action", "catalogHash", "cut", "ref", "toolResult"]],
    [
      "run",
      [
        "action",
        "calls",
        "catalogHash",
        "isError",
        "logs",
        "result",
        "structuredContent",
        "toolResult",
      ],
    ],
    ["call", ["action", "arguments", "catalogHash", "id", "index", "tool"]],
  ]);
});

Deno.test("the document names its server and the licence of deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  deepEqual(doc.info.license, { name: config.license, identifier: config.license });
  deepEqual(doc.servers.map((s: Doc) => s.url), ["/"]);
});

Deno.test("the OpenAPI request schemas come from the validating zod schemas", () => {
  const route = doc.components.schemas.RouteRequest;
  deepEqual(route.required.sort(), ["arguments"]);
  deepEqual(route.oneOf, [{ required: ["catalog"] }, { required: ["catalogRef"] }]);
  equal(route.properties.catalogRef.type, "string");
  equal(doc.components.schemas.RouteRest, undefined);
  equal(route.additionalProperties, false);
  equal(route.properties.catalog.maxItems, 10_000);
  const tool = doc.components.schemas.McpTool;
  deepEqual(tool.required.sort(), ["inputSchema", "name", "server"]);
  ok(doc.components.schemas.Problem.properties.code.enum.includes("invalid_catalog"));
});
