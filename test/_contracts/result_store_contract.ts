/**
 * The contract every {@linkcode ResultStore} runs (the session stores that keep cut answers):
 * the parts of a kept answer chain to its end and join to it exactly, are read again the same,
 * and are unknown from another session, tenant or scope, once the session is deleted or expired,
 * and once the session's bound lets them go; an answer over the bound is not kept.
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import type { Answer } from "../../src/bridge/answer.ts";
import type { Ceiling } from "../../src/bridge/ceiling.ts";
import { answerMore, boundAnswer, type Bounded } from "../../src/session/bound.ts";
import type { ResultStore } from "../../src/session/result_store.ts";
import type { SessionKey, SessionStore } from "../../src/session/store.ts";
import { estimateTokens } from "../../src/tokens.ts";

/** How to make a store for the contract. */
export interface ResultStoreFixture {
  /** The store under test: sessions and the cut answers they keep. */
  store: SessionStore & ResultStore;
  /** A key no other step uses. */
  key: (name: string) => SessionKey;
  /** The most bytes one session keeps, as the store was made with. */
  limit: number;
  /** Lets idle sessions expire (advances a fake clock, or waits past a short time to live). */
  expire: () => Promise<void>;
  /** Releases resources. */
  close?: () => Promise<void>;
}

const ceiling: Ceiling = { maxResultTokens: 100, maxResultBytes: 0, estimateTokens };

/** The text of a bridge text's part: the part without the marker line that ends it. */
export function withoutMarker(answer: string): string {
  const at = answer.lastIndexOf("\n[");
  return at === -1 ? answer : answer.slice(0, at);
}

/**
 * Every part of a cut answer, the first included, reading each next part through `more`.
 *
 * @param first The bounded answer.
 * @param more Reads a ref.
 * @returns The parts in order.
 */
export async function allParts(
  first: Bounded,
  more: (ref: string) => Promise<Bounded | undefined>,
): Promise<Bounded[]> {
  const parts = [first];
  for (let part = first; part.cut?.next !== undefined;) {
    const next = await more(part.cut.next.ref);
    ok(next !== undefined, `part after ${part.cut.part} is not kept`);
    parts.push(part = next);
    ok(parts.length < 10_000);
  }
  return parts;
}

/**
 * Registers the contract test for one store: one test, one fixture, a step per rule.
 *
 * @param name The implementation's name, shown in test names.
 * @param fixture Makes the fixture.
 */
export function resultStoreContract(
  name: string,
  fixture: () => Promise<ResultStoreFixture>,
): void {
  const steps: Array<[string, (f: ResultStoreFixture) => Promise<void>]> = [];
  const test = (title: string, fn: (f: ResultStoreFixture) => Promise<void>) =>
    steps.push([title, fn]);
  Deno.test(`${name} passes the result-store contract`, async (t) => {
    const f = await fixture();
    try {
      for (const [title, fn] of steps) await t.step(title, () => fn(f));
    } finally {
      await f.close?.();
    }
  });

  const text = Array.from(
    { length: 120 },
    (_, i) => `línea ${i}: ${"🙂".repeat(i % 7)} ${"x".repeat(i % 40)}`,
  )
    .join("\n");
  const answer: Answer = { shape: "text", text };
  const keep = (f: ResultStoreFixture, key: SessionKey, scope = "") =>
    boundAnswer(answer, { ceiling, session: { store: f.store, key }, results: f.store, scope });
  const more = (f: ResultStoreFixture, key: SessionKey, ref: string, scope = "") =>
    answerMore(ref, { ceiling, session: { store: f.store, key }, results: f.store, scope })
      .then((read) => read.ok ? read.value : undefined);

  test("keeps a cut answer whose parts chain to its end and join to it exactly", async (f) => {
    const k = f.key("chain");
    const first = await keep(f, k);
    equal(first.cut?.part, 1);
    const parts = await allParts(first, (ref) => more(f, k, ref));
    ok(parts.length > 5);
    equal(parts.map((p) => withoutMarker(p.answer as string)).join(""), text);
    equal(parts.at(-1)!.cut?.next, undefined);
    equal(parts.at(-1)!.cut?.text?.done, true);
  });

  test("reads a part again the same, and no part beyond the next one read", async (f) => {
    const k = f.key("again");
    const first = await keep(f, k);
    const ref = first.cut!.next!.ref;
    const once = await more(f, k, ref);
    deepEqual(await more(f, k, ref), once);
    const [id] = ref.split(".");
    equal(await more(f, k, `${id}.9`), undefined);
    ok(await more(f, k, `${id}.3`) !== undefined);
  });

  test("knows a ref only in its own session, tenant and scope", async (f) => {
    const k = f.key("own");
    const first = await keep(f, k, "profile-a");
    const ref = first.cut!.next!.ref;
    ok(await more(f, k, ref, "profile-a") !== undefined);
    equal(await more(f, k, ref, "profile-b"), undefined);
    equal(await more(f, k, ref), undefined);
    equal(await more(f, f.key("other"), ref, "profile-a"), undefined);
    equal(await more(f, { ...k, tenant: `${k.tenant}-else` }, ref, "profile-a"), undefined);
    equal(await more(f, k, "zzzzzzzzzzzz.2", "profile-a"), undefined);
  });

  test("lets a deleted session's answers go", async (f) => {
    const k = f.key("deleted");
    await f.store.apply(k, { event: { kind: "inject" } });
    const ref = (await keep(f, k)).cut!.next!.ref;
    await f.store.delete(k);
    equal(await more(f, k, ref), undefined);
  });

  test("keeps a session within its bound, the oldest answers going first", async (f) => {
    const k = f.key("bound");
    const refs: string[] = [];
    // Each answer keeps about 2 × its text: enough of them to pass the bound three times over.
    const count = Math.ceil((3 * f.limit) / (2 * text.length));
    for (let i = 0; i < count; i++) refs.push((await keep(f, k)).cut!.next!.ref);
    equal(await more(f, k, refs[0]!), undefined);
    ok(await more(f, k, refs.at(-1)!) !== undefined);
  });

  test("does not keep an answer over the session's bound, and says so", async (f) => {
    const big: Answer = { shape: "text", text: "y".repeat(Math.ceil(f.limit / 2) + 10) };
    const k = f.key("large");
    const first = await boundAnswer(big, {
      ceiling,
      session: { store: f.store, key: k },
      results: f.store,
    });
    equal(first.cut?.notKept, "too_large");
    equal(first.cut?.next, undefined);
    ok((first.answer as string).includes("The rest is not kept: it is over the"));
  });

  test("lets an expired session's answers go", async (f) => {
    const k = f.key("expired");
    await f.store.apply(k, { event: { kind: "inject" } });
    const ref = (await keep(f, k)).cut!.next!.ref;
    await f.expire();
    equal(await more(f, k, ref), undefined);
  });
}
