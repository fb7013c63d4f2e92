import type { SessionStore } from "../../src/session/store.ts";
import type { ResultStore } from "../../src/session/result_store.ts";
import { sessionStoreContract } from "../_contracts/session_store_contract.ts";
import { resultStoreContract } from "../_contracts/result_store_contract.ts";
import { startWrangler } from "../e2e/_processes.ts";

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
  return {
    store,
    key: (name: string) => ({ tenant: "t", session: `${prefix}-${name}` }),
    expire: () => new Promise((resolve) => setTimeout(resolve, 2500)), // the harness's time to live: 2 s
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
  return {
    store,
    limit: 262_144, // UNFOLD_MAX_KEPT_BYTES in the harness's wrangler.toml
    key: (name: string) => ({ tenant: "t", session: `${prefix}-${name}` }),
    expire: () => new Promise((resolve) => setTimeout(resolve, 2500)), // the harness's time to live: 2 s
    close: () => worker.close(),
  };
});
