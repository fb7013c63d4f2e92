import { equal, throws } from "node:assert/strict";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { sessionStoreContract } from "../_contracts/session_store_contract.ts";
import { resultStoreContract } from "../_contracts/result_store_contract.ts";

sessionStoreContract("MemorySessionStore", () => {
  let now = 1_000_000;
  const store = new MemorySessionStore({ ttlSeconds: 60, now: () => now });
  return Promise.resolve({
    store,
    key: (name: string) => ({ tenant: "t", session: name }),
    expire: () => {
      now += 61_000;
      return Promise.resolve();
    },
  });
});

resultStoreContract("MemorySessionStore", () => {
  let now = 1_000_000;
  const limit = 256 * 1024;
  const store = new MemorySessionStore({
    ttlSeconds: 60,
    now: () => now,
    maxKeptBytesPerSession: limit,
  });
  return Promise.resolve({
    store,
    limit,
    key: (name: string) => ({ tenant: "t", session: name }),
    expire: () => {
      now += 61_000;
      return Promise.resolve();
    },
  });
});

Deno.test("MemorySessionStore evicts the least recently used session beyond its cap", () => {
  const store = new MemorySessionStore({ maxSessions: 2 });
  const key = (session: string) => ({ tenant: "", session });
  store.apply(key("a"), { event: { kind: "inject" } });
  store.apply(key("b"), { event: { kind: "inject" } });
  store.apply(key("a"), { event: { kind: "inject" } }); // a is now the most recent
  store.apply(key("c"), { event: { kind: "inject" } });
  equal(store.size, 2);
  equal(store.get(key("b")), undefined);
  equal(store.get(key("a"))?.generation, 0);
  equal(store.get(key("c"))?.generation, 0);
});

Deno.test("MemorySessionStore sweeps expired sessions when others are written", () => {
  let now = 0;
  const store = new MemorySessionStore({ ttlSeconds: 10, now: () => now });
  store.apply({ tenant: "", session: "old" }, { event: { kind: "inject" } });
  now = 11_000;
  store.apply({ tenant: "", session: "new" }, { event: { kind: "inject" } });
  equal(store.size, 1);
});

Deno.test("MemorySessionStore rejects a non-positive time to live or cap", () => {
  throws(() => new MemorySessionStore({ ttlSeconds: 0 }), RangeError);
  throws(() => new MemorySessionStore({ maxSessions: 0 }), RangeError);
});
