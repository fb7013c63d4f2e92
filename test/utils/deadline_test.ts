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
  // setTimeout and AbortSignal.timeout fire at once past 2^31 - 1 ms (after 1 ms): a config's
  // "no limit" of a very large timeout must not become an immediate timeout.
  const signal = deadline(Number.MAX_SAFE_INTEGER)!;
  // The platform runs timers in the order they fall due: once a 1 ms timer set after it has
  // fired, a deadline that had overflowed would have fired too. The timer is the event waited on.
  await new Promise((resolve) => setTimeout(resolve, 1));
  equal(signal.aborted, false);
  equal(deadline(null), undefined);
});

Deno.test("a deadline on an injected scheduler fires when that clock says, clamped as the platform's", async () => {
  const timers: { run: () => void; ms: number }[] = [];
  const schedule = (run: () => void, ms: number) => (timers.push({ run, ms }), () => {});
  const signal = deadline(Number.MAX_SAFE_INTEGER, undefined, schedule)!;
  deepEqual(timers.map((t) => t.ms), [2_147_483_647]);
  const waiting = within(new Promise(() => {}), 5_000, undefined, schedule);
  deepEqual(timers.map((t) => t.ms), [2_147_483_647, 5_000]);
  equal(signal.aborted, false);
  timers[1]!.run();
  deepEqual(await waiting, { ok: false, reason: "timeout" });
  timers[0]!.run();
  equal(signal.aborted, true);
  equal((signal.reason as DOMException).name, "TimeoutError");
  // The caller's cancellation still ends the wait before the clock does.
  const caller = new AbortController();
  const cancelled = within(new Promise(() => {}), 5_000, caller.signal, schedule);
  caller.abort();
  deepEqual(await cancelled, { ok: false, reason: "aborted" });
});
