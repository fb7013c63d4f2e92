/**
 * A test-only Worker that exposes the Durable Object session store's operations over HTTP (its
 * three session operations, and keeping and reading cut answers), so the session-store and
 * result-store contracts run against real Durable Objects in a local workerd. Never deployed (its
 * own wrangler.toml, beside it).
 *
 * @module
 */

import { DurableSessionStore, type SessionNamespace } from "../../src/workers/durable_store.ts";

export { SessionObject } from "../../src/workers/session_object.ts";

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    if (new URL(request.url).pathname === "/healthz") return Response.json({ ok: true });
    const store = new DurableSessionStore(env.SESSIONS as SessionNamespace);
    const { op, key, input } = await request.json();
    const result = op === "apply"
      ? await store.apply(key, input)
      : op === "get"
      ? await store.get(key)
      : op === "keep"
      ? await store.keep(key, input)
      : op === "part"
      ? await store.part(key, input.id, input.part, input.ceiling)
      : await store.delete(key);
    return Response.json({ result: result ?? null });
  },
};
