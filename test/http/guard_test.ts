import { equal } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { guardMcp } from "../../src/gateway/faces/guard.ts";
import { isLoopbackName } from "../../src/http/guard.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { assertGuardPolicy, GUARD_TOKEN, LISTED_ORIGIN } from "./_guard_cases.ts";

const SETTINGS = { tokens: [GUARD_TOKEN], allowedOrigins: [LISTED_ORIGIN] };
const OWN = "http://127.0.0.1:8787";

function apiFace(loopbackOnly = false) {
  const app = createApp({ store: new MemorySessionStore(), settings: SETTINGS, loopbackOnly });
  return (headers: Record<string, string>) =>
    Promise.resolve(app.fetch(new Request(`${OWN}/v1/sessions/probe`, { headers })));
}

function mcpFace(loopbackOnly = false) {
  const guarded = guardMcp(() => Promise.resolve(new Response("served")), {
    ...SETTINGS,
    loopbackOnly,
  });
  return (headers: Record<string, string>) =>
    guarded(new Request(`${OWN}/mcp`, { method: "POST", headers }));
}

Deno.test("/v1 and /mcp refuse and admit the same origins, hosts and tokens", async () => {
  await assertGuardPolicy(apiFace(), OWN);
  await assertGuardPolicy(mcpFace(), OWN);
});

Deno.test("a server bound to loopback answers only a loopback Host, on /v1 as on /mcp", async () => {
  for (const face of [apiFace(true), mcpFace(true)]) {
    const bearer = { authorization: `Bearer ${GUARD_TOKEN}` };
    const rebound = await face({ ...bearer, host: "attacker.example:8787" });
    equal(rebound.status, 403);
    equal((await rebound.json()).code, "origin_not_allowed");
    for (const host of ["127.0.0.1:8787", "localhost:8787", "[::1]:8787"]) {
      const response = await face({ ...bearer, host });
      await response.body?.cancel();
      equal(response.status === 403 || response.status === 401, false, host);
    }
  }
  for (const face of [apiFace(false), mcpFace(false)]) {
    const response = await face({ authorization: `Bearer ${GUARD_TOKEN}`, host: "unfold.example" });
    await response.body?.cancel();
    equal(response.status === 403, false, "a server not bound to loopback takes any Host");
  }
});

Deno.test("isLoopbackName() knows the loopback addresses a server listens on", () => {
  for (const name of ["127.0.0.1", "localhost", "::1", "[::1]"]) equal(isLoopbackName(name), true);
  for (const name of ["0.0.0.0", "::", "example.com", "127.0.0.2"]) {
    equal(isLoopbackName(name), false);
  }
});

Deno.test("a preflight from a listed origin is answered with CORS headers and no token", async () => {
  const app = createApp({ store: new MemorySessionStore(), settings: SETTINGS });
  const response = await app.fetch(
    new Request(`${OWN}/v1/inject`, {
      method: "OPTIONS",
      headers: { origin: LISTED_ORIGIN, "access-control-request-method": "POST" },
    }),
  );
  equal(response.status, 204);
  equal(response.headers.get("access-control-allow-origin"), LISTED_ORIGIN);
});
