/**
 * A test-only Worker that exposes the Durable Object session store's three operations over HTTP,
 * so the session-store contract runs against real Durable Objects in a local workerd. Never
 * deployed (its own wrangler.toml, beside it).
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
      : await store.delete(key);
    return Response.json({ result: result ?? null });
  },
};
