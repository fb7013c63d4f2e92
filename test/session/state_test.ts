import { deepEqual, equal, notEqual } from "node:assert/strict";
import {
  emptySession,
  MAX_SEEN,
  type SessionInput,
  type SessionState,
  transition,
} from "../../src/session/state.ts";

function run(inputs: SessionInput[], start?: SessionState) {
  let state = start;
  const decisions = [];
  for (const [i, input] of inputs.entries()) {
    const out = transition(state, input, 1000 + i);
    state = out.state;
    decisions.push(out.decision);
  }
  return { state: state!, decisions };
}

const describe = (id: string, schemaHash = `s-${id}`, resend = false): SessionInput => ({
  catalogHash: "c1",
  event: { kind: "describe", id, schemaHash, bodyHash: `b-${id}-${schemaHash}`, resend },
});
const execute = (id: string, enforce = true, valid = true, catalogHash = "c1"): SessionInput => ({
  catalogHash,
  event: {
    kind: "execute",
    id,
    schemaHash: `s-${id}`,
    bodyHash: `b-${id}-s-${id}`,
    enforce,
    valid,
  },
});

Deno.test("transition() starts generation 1 with the first catalogue hash", () => {
  const { state } = run([{ catalogHash: "c1", event: { kind: "inject" } }]);
  equal(state.catalogHash, "c1");
  equal(state.generation, 1);
  equal(state.createdAt, 1000);
});

Deno.test("transition() elides a describe of a body already sent, unless resend", () => {
  const { decisions, state } = run([
    describe("a/x"),
    describe("a/x"),
    describe("a/x", "s-a/x", true),
  ]);
  deepEqual(decisions, [
    { kind: "describe", elided: false },
    { kind: "describe", elided: true },
    { kind: "describe", elided: false },
  ]);
  equal(state.counters.describes, 3);
  equal(state.counters.elidedDescribes, 1);
});

Deno.test("transition() sends a changed schema again", () => {
  const { decisions } = run([describe("a/x", "v1"), describe("a/x", "v2")]);
  deepEqual(decisions.map((d) => d.kind === "describe" && d.elided), [false, false]);
});

Deno.test("transition() refuses an execute before describe and counts the tool described", () => {
  const { decisions, state } = run([execute("a/x"), execute("a/x")]);
  deepEqual(decisions, [
    { kind: "execute", verdict: "describe_first" },
    { kind: "execute", verdict: "execute" },
  ]);
  deepEqual(state.described, { "a/x": "s-a/x" });
  equal(state.counters.errors.describe_first, 1);
  equal(state.counters.executes, 1);
  equal(state.counters.describeToExecute, 1);
});

Deno.test("transition() lets an execute through after a describe, and checks validity after describe-first", () => {
  const { decisions, state } = run([describe("a/x"), execute("a/x", true, false), execute("a/x")]);
  deepEqual(decisions.slice(1), [
    { kind: "execute", verdict: "invalid_arguments" },
    { kind: "execute", verdict: "execute" },
  ]);
  equal(state.counters.errors.invalid_arguments, 1);
  const undescribedInvalid = run([execute("a/y", true, false)]);
  deepEqual(undescribedInvalid.decisions[0], { kind: "execute", verdict: "describe_first" });
});

Deno.test("transition() does not enforce describe-first when it is off", () => {
  const { decisions, state } = run([execute("a/x", false)]);
  deepEqual(decisions[0], { kind: "execute", verdict: "execute" });
  equal(state.counters.describeToExecute, 0);
  deepEqual(state.described, {});
});

Deno.test("transition() starts a new generation for a new catalogue hash, keeping counters", () => {
  const first = run([describe("a/x"), {
    catalogHash: "c1",
    event: { kind: "search", empty: false },
  }]);
  const { state, decisions } = run([describe("a/x"), execute("a/x", true, true, "c2")], {
    ...first.state,
  });
  equal(decisions[0]?.kind === "describe" && decisions[0].elided, true);
  deepEqual(decisions[1], { kind: "execute", verdict: "describe_first" });
  equal(state.generation, 2);
  equal(state.catalogHash, "c2");
  deepEqual(Object.keys(state.described), ["a/x"]);
  equal(state.counters.searches, 1);
  equal(state.counters.describes, 2);
});

Deno.test("transition() counts searches, empty searches, errors and upstream failures", () => {
  const { state } = run([
    { catalogHash: "c1", event: { kind: "search", empty: false } },
    { catalogHash: "c1", event: { kind: "search", empty: true } },
    { catalogHash: "c1", event: { kind: "error", code: "unknown_tool" } },
    { catalogHash: "c1", event: { kind: "error", code: "unknown_tool" } },
    { event: { kind: "result", isError: true } },
    { event: { kind: "result", isError: false } },
  ]);
  equal(state.counters.searches, 2);
  equal(state.counters.emptySearches, 1);
  deepEqual(state.counters.errors, { unknown_tool: 2 });
  equal(state.counters.upstreamFailures, 1);
  equal(state.generation, 1);
});

Deno.test("transition() never modifies the previous state", () => {
  const before = emptySession(0);
  const copy = structuredClone(before);
  const { state } = transition(before, describe("a/x"), 5);
  deepEqual(before, copy);
  notEqual(state, before);
});

Deno.test("transition() bounds the seen hashes", () => {
  let state = emptySession(0);
  state = {
    ...state,
    catalogHash: "c1",
    generation: 1,
    seen: Array.from({ length: MAX_SEEN }, (_, i) => `h${i}`),
  };
  const out = transition(state, describe("a/x"), 1).state;
  equal(out.seen.length, MAX_SEEN);
  equal(out.seen.at(-1), "b-a/x-s-a/x");
});
