/**
 * A test-only Worker that exposes the Durable Object session store's operations over HTTP (its
 * three session operations, and keeping and reading cut answers), so the session-store and
 * result-store contracts run against real Durable Objects in a local workerd. Never deployed (its
 * own wrangler.toml, beside it). Each object's clock can be moved forward (`advance`), so the
 * contracts' expiry runs without waiting out a time to live.
 *
 * @module
 */

import { DurableSessionStore, type SessionNamespace } from "../../src/workers/durable_store.ts";
import { SessionObject as StoredSessionObject } from "../../src/workers/session_object.ts";

/** The session object, with a clock the harness moves forward. */
export class SessionObject extends StoredSessionObject {
  #offset = 0;

  protected override now(): number {
    return super.now() + this.#offset;
  }

  /** Moves this object's clock forward by `ms`. */
  advance(ms: number): void {
    this.#offset += ms;
  }
}

interface AdvanceNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { advance(ms: number): Promise<void> };
}

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    if (new URL(request.url).pathname === "/healthz") return Response.json({ ok: true });
    const store = new DurableSessionStore(env.SESSIONS as SessionNamespace);
    const { op, key, input } = await request.json();
    if (op === "advance") {
      // Named as DurableSessionStore names a session's object: a different name would move
      // another object's clock, and the contract's expiry step would fail.
      const namespace = env.SESSIONS as AdvanceNamespace;
      await namespace.get(namespace.idFromName(JSON.stringify([key.tenant, key.session])))
        .advance(input);
      return Response.json({ result: null });
    }
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
