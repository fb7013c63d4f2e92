// Any JSON to every HTTP route (in-process) is a 2xx, or a 4xx application/problem+json: never a
// 5xx, never a throw. Bodies are random JSON, and requests shaped like the real ones with random
// values in every place, so that they get past the first check.
import { equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { argumentsObject, hostileText, schema } from "./_arbitraries.ts";
import { runs } from "./_runs.ts";

const unexpected: unknown[] = [];
const app = createApp({
  store: new MemorySessionStore(),
  onUnexpectedError: (e) => unexpected.push(e),
});

const name = fc.oneof(hostileText, fc.constantFrom("t", "read", "x/y"));
const tool = fc.record({
  server: fc.oneof(hostileText, fc.constantFrom("s", "files")),
  name,
  description: fc.oneof(hostileText, fc.constant("Reads a file")),
  inputSchema: fc.oneof(schema, fc.jsonValue({ maxDepth: 3 })),
  annotations: fc.jsonValue({ maxDepth: 3 }),
}, { requiredKeys: ["server", "name", "inputSchema"] });
const bridge = fc.record({
  action: fc.oneof(
    fc.constantFrom("search", "describe", "execute", "more"),
    fc.jsonValue({ maxDepth: 1 }),
  ),
  ref: fc.oneof(hostileText, fc.constantFrom("abcdefabcdef.2", "abcdefabcdef.99999999999")),
  query: fc.oneof(hostileText, fc.jsonValue({ maxDepth: 1 })),
  name: fc.oneof(fc.constantFrom("s/t", "files/read", "t"), hostileText),
  limit: fc.oneof(fc.integer(), fc.jsonValue({ maxDepth: 1 })),
  arguments: fc.oneof(argumentsObject, fc.jsonValue({ maxDepth: 2 }), fc.json()),
}, { requiredKeys: [] });
const request = fc.record({
  catalog: fc.oneof(fc.array(tool, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
  servers: fc.array(fc.record({ server: name, title: hostileText }), { maxLength: 2 }),
  budget: fc.record({
    availableContextTokens: fc.oneof(fc.integer(), fc.double()),
    inventoryThresholdPercent: fc.oneof(fc.integer(), fc.double()),
  }, { requiredKeys: [] }),
  session: fc.oneof(fc.constantFrom("s1", "s2"), hostileText),
  options: fc.record({
    describeFirst: fc.constantFrom("enforce", "off", "x"),
    resend: fc.boolean(),
    toolFormat: fc.constantFrom("openai", "anthropic", "mcp", "?"),
    maxResultTokens: fc.oneof(fc.constantFrom(0, 100, 150), fc.integer(), fc.double()),
    maxResultBytes: fc.oneof(fc.constantFrom(0, 10), fc.integer()),
  }, { requiredKeys: [] }),
  arguments: fc.oneof(bridge, fc.json(), fc.jsonValue({ maxDepth: 2 })),
  tool: fc.oneof(fc.constantFrom("s/t"), hostileText),
  result: fc.jsonValue({ maxDepth: 3 }),
}, { requiredKeys: [] });
const body = fc.oneof(
  request.map((r) => JSON.stringify(r)),
  fc.json(),
  fc.string({ unit: "binary", maxLength: 20 }),
);
const call = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET", "DELETE", "PUT"),
  path: fc.constantFrom(
    "/v1/inject",
    "/v1/route",
    "/v1/result",
    "/v1/sessions/s1",
    "/v1/sessions/%ZZ",
    "/healthz",
    "/openapi.json",
    "/nowhere",
  ),
  body,
});

Deno.test("any request to any route is a 2xx or a 4xx problem+json, never a 5xx or a throw", async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(call, async ({ method, path, body }) => {
      const init: RequestInit = { method, headers: { "content-type": "application/json" } };
      if (method === "POST" || method === "PUT") init.body = body;
      const response = await app.request(path, init);
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      ok(
        response.status < 500,
        `${method} ${path} ${body.slice(0, 200)} -> ${response.status} ${text}`,
      );
      if (response.status >= 400) {
        equal(response.headers.get("content-type"), "application/problem+json");
        equal(typeof JSON.parse(text).code, "string");
      }
    }),
    runs(),
  );
  equal(unexpected.length, 0, String(unexpected[0]));
  ok((statuses.get(200) ?? 0) > 0, JSON.stringify([...statuses]));
});
