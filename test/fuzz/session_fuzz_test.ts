// The session state after random describe/execute sequences equals a simple model of the rules
// (generations, elision, describe-first, validity, counters, the byte cap), run through the memory
// store as the HTTP API does.
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { sessionBytes, type SessionInput } from "../../src/session/state.ts";
import { MAX_SESSION_BYTES } from "../../src/limits.ts";
import { runs } from "./_runs.ts";

const id = fc.constantFrom("a/x", "a/y", "b/x", `c/${"n".repeat(120)}`);
const hash = fc.constantFrom("h1", "h2");
const event = fc.oneof(
  fc.record({ kind: fc.constant("describe" as const), id, schemaHash: hash, resend: fc.boolean() }),
  fc.record({
    kind: fc.constant("execute" as const),
    id,
    schemaHash: hash,
    enforce: fc.boolean(),
    valid: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("search" as const), empty: fc.boolean() }),
  fc.record({ kind: fc.constant("error" as const), code: fc.constantFrom("unknown_tool", "x") }),
);
const step = fc.record({ catalogHash: fc.constantFrom("c1", "c1", "c1", "c2"), event });

// The rules, written plainly: what DESIGN §5 says a session remembers.
function model(steps: ReadonlyArray<{ catalogHash: string; event: Event }>) {
  let catalog: string | null = null;
  let generation = 0;
  let described = new Map<string, string>();
  let seen: string[] = [];
  const counters = {
    searches: 0,
    emptySearches: 0,
    describes: 0,
    elidedDescribes: 0,
    executes: 0,
    describeToExecute: 0,
    errors: {} as Record<string, number>,
    upstreamFailures: 0,
    tokensReturned: 0,
    resultsCut: 0,
    moreCalls: 0,
  };
  const decisions: string[] = [];
  for (const { catalogHash, event } of steps) {
    if (catalogHash !== catalog) {
      catalog = catalogHash;
      generation++;
      described = new Map();
      seen = [];
    }
    const body = (e: { id: string; schemaHash: string }) => `${e.id}:${e.schemaHash}`;
    if (event.kind === "search") {
      counters.searches++;
      if (event.empty) counters.emptySearches++;
      decisions.push("recorded");
    } else if (event.kind === "error") {
      counters.errors[event.code] = (counters.errors[event.code] ?? 0) + 1;
      decisions.push("recorded");
    } else if (event.kind === "describe") {
      counters.describes++;
      const elided = !event.resend && seen.includes(body(event));
      if (elided) counters.elidedDescribes++;
      described.set(event.id, event.schemaHash);
      if (!seen.includes(body(event))) seen.push(body(event));
      decisions.push(`describe:${elided}`);
    } else {
      const was = described.get(event.id) === event.schemaHash;
      if (event.enforce && !was) {
        counters.errors.describe_first = (counters.errors.describe_first ?? 0) + 1;
        described.set(event.id, event.schemaHash);
        if (!seen.includes(body(event))) seen.push(body(event));
        decisions.push("execute:describe_first");
      } else if (!event.valid) {
        counters.errors.invalid_arguments = (counters.errors.invalid_arguments ?? 0) + 1;
        decisions.push("execute:invalid_arguments");
      } else {
        counters.executes++;
        if (was) counters.describeToExecute++;
        decisions.push("execute:execute");
      }
    }
  }
  return {
    state: { catalogHash: catalog, generation, described: Object.fromEntries(described), counters },
    decisions,
  };
}

type Event =
  | { kind: "describe"; id: string; schemaHash: string; resend: boolean }
  | { kind: "execute"; id: string; schemaHash: string; enforce: boolean; valid: boolean }
  | { kind: "search"; empty: boolean }
  | { kind: "error"; code: string };

Deno.test("session state after random sequences equals the model of its rules", () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      const store = new MemorySessionStore({ now: () => 0 });
      const key = { tenant: "", session: "s" };
      const decisions: string[] = [];
      for (const { catalogHash, event } of steps) {
        const input = {
          catalogHash,
          event: event.kind === "describe" || event.kind === "execute"
            ? { ...event, bodyHash: `${event.id}:${event.schemaHash}` }
            : event,
        } as SessionInput;
        const decision = store.apply(key, input);
        decisions.push(
          decision.kind === "describe"
            ? `describe:${decision.elided}`
            : decision.kind === "execute"
            ? `execute:${decision.verdict}`
            : decision.kind,
        );
      }
      const expected = model(steps);
      deepEqual(decisions, expected.decisions);
      const state = store.get(key);
      if (steps.length === 0) return equal(state, undefined);
      ok(state !== undefined);
      const { catalogHash, generation, described, counters } = state;
      deepEqual({ catalogHash, generation, described, counters }, expected.state);
      ok(sessionBytes(state) <= MAX_SESSION_BYTES);
    }),
    runs(),
  );
});
