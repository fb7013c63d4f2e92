import { deepEqual, equal } from "node:assert/strict";
import { deadline, within } from "../../src/utils/deadline.ts";

Deno.test("within() gives the work's value, or says the time ran out or the caller gave up", async () => {
  deepEqual(await within(Promise.resolve("done"), null), { ok: true, value: "done" });
  deepEqual(await within(new Promise(() => {}), 0), { ok: false, reason: "timeout" });
  const caller = new AbortController();
  const waiting = within(new Promise(() => {}), 60_000, caller.signal);
  caller.abort();
  deepEqual(await waiting, { ok: false, reason: "aborted" });
});

Deno.test("within() rethrows the work's failure within the time", async () => {
  const failed = await within(Promise.reject(new Error("boom")), 1_000).catch((e) => e.message);
  equal(failed, "boom");
});

Deno.test("a deadline past the platform's longest timer does not fire at once", async () => {
  // setTimeout and AbortSignal.timeout fire at once past 2^31 - 1 ms: a config's "no limit" of
  // a very large timeout must not become an immediate timeout.
  const signal = deadline(Number.MAX_SAFE_INTEGER)!;
  await new Promise((resolve) => setTimeout(resolve, 20));
  equal(signal.aborted, false);
  equal(deadline(null), undefined);
});
