import type { SessionStore } from "../../src/session/store.ts";
import type { ResultStore } from "../../src/session/result_store.ts";
import { sessionStoreContract } from "../_contracts/session_store_contract.ts";
import { resultStoreContract } from "../_contracts/result_store_contract.ts";
import { startWrangler } from "../e2e/_processes.ts";

// The harness's session time to live (UNFOLD_SESSION_TTL_SECONDS in its wrangler.toml): an hour,
// so that no step on a loaded machine sees a session expire before it moves the clock.
const TTL_MS = 3_600_000;

// Moves the clock of every session object made so far past the time to live.
async function expire(
  call: (op: string, key: unknown, input?: unknown) => Promise<unknown>,
  keys: unknown[],
) {
  for (const key of keys) await call("advance", key, TTL_MS);
}

sessionStoreContract("DurableSessionStore (Durable Objects in a local workerd)", async () => {
  const worker = await startWrangler("test/workers/wrangler.toml");
  const call = async (op: string, key: unknown, input?: unknown) => {
    const response = await fetch(worker.url, {
      method: "POST",
      body: JSON.stringify({ op, key, input }),
    });
    if (!response.ok) throw new Error(`${op}: ${response.status} ${await response.text()}`);
    return (await response.json()).result ?? undefined;
  };
  const store: SessionStore = {
    apply: (key, input) => call("apply", key, input),
    get: (key) => call("get", key),
    delete: (key) => call("delete", key),
  };
  const prefix = `run-${Date.now()}`;
  const keys: unknown[] = [];
  const key = (name: string) => {
    const made = { tenant: "t", session: `${prefix}-${name}` };
    keys.push(made);
    return made;
  };
  return {
    store,
    key,
    expire: () => expire(call, keys),
    close: () => worker.close(),
  };
});

// The same objects keep a session's cut answers: the contract through the real store, whose
// keep sends the text in chunk batches and whose parts are read from the chunks they span.
resultStoreContract("DurableSessionStore (Durable Objects in a local workerd)", async () => {
  const worker = await startWrangler("test/workers/wrangler.toml");
  const call = async (op: string, key: unknown, input?: unknown) => {
    const response = await fetch(worker.url, {
      method: "POST",
      body: JSON.stringify({ op, key, input }),
    });
    if (!response.ok) throw new Error(`${op}: ${response.status} ${await response.text()}`);
    return (await response.json()).result ?? undefined;
  };
  const store: SessionStore & ResultStore = {
    apply: (key, input) => call("apply", key, input),
    get: (key) => call("get", key),
    delete: (key) => call("delete", key),
    keep: (key, kept) => call("keep", key, kept),
    part: (key, id, part, { maxResultTokens, maxResultBytes }) =>
      call("part", key, { id, part, ceiling: { maxResultTokens, maxResultBytes } }),
  };
  const prefix = `run-${Date.now()}`;
  const keys: unknown[] = [];
  const key = (name: string) => {
    const made = { tenant: "t", session: `${prefix}-${name}` };
    keys.push(made);
    return made;
  };
  return {
    store,
    limit: 262_144, // UNFOLD_MAX_KEPT_BYTES in the harness's wrangler.toml
    key,
    expire: () => expire(call, keys),
    close: () => worker.close(),
  };
});
