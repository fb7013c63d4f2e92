/**
 * The contract every {@linkcode SessionStore} runs: create on first event, atomic transitions under
 * concurrency, isolation between keys and tenants, get/delete semantics, time to live.
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import type { SessionKey, SessionStore } from "../../src/session/store.ts";

/** How to make and age a store for the contract. */
export interface StoreFixture {
  /** The store under test. */
  store: SessionStore;
  /** A key no other step uses. */
  key: (name: string) => SessionKey;
  /** Lets idle sessions expire: moves the store's clock past their time to live. */
  expire: () => Promise<void>;
  /** Releases resources. */
  close?: () => Promise<void>;
}

/**
 * Registers the contract test for one store: one test, one fixture, a step per rule.
 *
 * @param name The implementation's name, shown in test names.
 * @param fixture Makes the fixture.
 */
export function sessionStoreContract(name: string, fixture: () => Promise<StoreFixture>): void {
  const steps: Array<[string, (f: StoreFixture) => Promise<void>]> = [];
  const test = (title: string, fn: (f: StoreFixture) => Promise<void>) => steps.push([title, fn]);
  Deno.test(`${name} passes the session-store contract`, async (t) => {
    const f = await fixture();
    try {
      for (const [title, fn] of steps) await t.step(title, () => fn(f));
    } finally {
      await f.close?.();
    }
  });

  test("creates a session on its first event and reads it back", async ({ store, key }) => {
    const k = key("create");
    equal(await store.get(k), undefined);
    deepEqual(await store.apply(k, { catalogHash: "c1", event: { kind: "inject" } }), {
      kind: "recorded",
    });
    const state = await store.get(k);
    equal(state?.catalogHash, "c1");
    equal(state?.generation, 1);
  });

  test("applies the pure transition and returns its decision", async ({ store, key }) => {
    const k = key("decide");
    const event = {
      kind: "execute",
      id: "a/x",
      schemaHash: "s",
      bodyHash: "b",
      enforce: true,
      valid: true,
    } as const;
    deepEqual(await store.apply(k, { catalogHash: "c", event }), {
      kind: "execute",
      verdict: "describe_first",
    });
    deepEqual(await store.apply(k, { catalogHash: "c", event }), {
      kind: "execute",
      verdict: "execute",
    });
    equal((await store.get(k))?.counters.executes, 1);
  });

  test("loses no update when 50 events arrive at once on one session", async ({ store, key }) => {
    const k = key("concurrent");
    await Promise.all(Array.from({ length: 50 }, (_, i) =>
      store.apply(k, {
        catalogHash: "c",
        event: {
          kind: "describe",
          id: `s/t${i}`,
          schemaHash: `h${i}`,
          bodyHash: `b${i}`,
          resend: false,
        },
      })));
    const state = await store.get(k);
    equal(Object.keys(state?.described ?? {}).length, 50);
    equal(state?.counters.describes, 50);
  });

  test("keeps sessions of other keys and tenants apart", async ({ store, key }) => {
    const a = key("iso");
    const otherSession = { ...a, session: `${a.session}-b` };
    const otherTenant = { ...a, tenant: `${a.tenant}x` };
    await store.apply(a, { catalogHash: "c", event: { kind: "search", empty: false } });
    equal(await store.get(otherSession), undefined);
    equal(await store.get(otherTenant), undefined);
    await store.apply(otherTenant, { catalogHash: "c", event: { kind: "search", empty: true } });
    equal((await store.get(a))?.counters.emptySearches, 0);
  });

  test("deletes a session and says whether there was one", async ({ store, key }) => {
    const k = key("delete");
    equal(await store.delete(k), false);
    await store.apply(k, { catalogHash: "c", event: { kind: "inject" } });
    equal(await store.delete(k), true);
    equal(await store.get(k), undefined);
    equal(await store.delete(k), false);
  });

  test("forgets a session once it has been idle past its time to live", async ({ store, key, expire }) => {
    const k = key("ttl");
    await store.apply(k, { catalogHash: "c", event: { kind: "inject" } });
    ok(await store.get(k));
    await expire();
    equal(await store.get(k), undefined);
    const fresh = await store.apply(k, {
      catalogHash: "c",
      event: { kind: "search", empty: false },
    });
    deepEqual(fresh, { kind: "recorded" });
    equal((await store.get(k))?.counters.searches, 1);
  });
}
