import { deepEqual, equal } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { GUARD_PROBLEMS, route } from "../../src/http/route.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";

const declared = (path: string) =>
  route({
    method: "get",
    path,
    summary: "A route.",
    success: { status: 200, description: "It." },
    problems: ["not_found"],
    handler: (c) => c.text("ok"),
  });

Deno.test("route() puts a /v1 route behind the guard, with the guard's problems, and no other", () => {
  const guarded = declared("/v1/things/{thing}");
  equal(guarded.authenticated, true);
  deepEqual(guarded.problems, [...GUARD_PROBLEMS, "not_found"]);
  const open = declared("/healthz");
  equal(open.authenticated, false);
  deepEqual(open.problems, ["not_found"]);
});

Deno.test("the app's declarations are what it serves, documents and names in a 405's Allow", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  const served = app.routes.filter((r) => r.method !== "ALL")
    .map((r) => `${r.method} ${r.path}`).sort();
  const declarations = app.operations
    .map((op) => `${op.method.toUpperCase()} ${op.path.replace(/\{(\w+)\}/g, ":$1")}`).sort();
  deepEqual(served, declarations);
  const doc = await (await app.request("/openapi.json")).json();
  for (const op of app.operations) {
    equal(doc.paths[op.path][op.method].summary, op.summary);
    deepEqual(doc.paths[op.path][op.method].security, op.authenticated ? undefined : []);
  }
  const refused = await app.request("/v1/sessions/s1", { method: "POST" });
  equal(refused.status, 405);
  equal(refused.headers.get("allow"), "GET, DELETE");
});
