// Gemini CLI 0.61.0 behind unfold, driven by a scripted model: `unfold setup gemini` on
// ~/.gemini/settings.json, `gemini mcp list` names unfold, the first request carries the bridge
// with the whole overview once in its description, the wait_for_previous Gemini CLI adds to every
// call is accepted, and the round trip completes (Gemini CLI offers MCP tools headless only
// with --approval-mode yolo, read-only or not: measured).
import { equal, match, ok } from "node:assert/strict";
import { BRIDGE } from "./_run.ts";
import { assertCommon, assertWholeOverviewOnce, DISCOVER, hostScenario } from "./_scenario.ts";

Deno.test("Gemini CLI: setup, mcp list, the overview whole in the description, wait_for_previous accepted, the round trip", async () => {
  const seen = await hostScenario("gemini", { args: ["--approval-mode", "yolo"] });
  assertCommon(seen);
  match(seen.list.stdout + seen.list.stderr, /unfold/);
  const first = seen.turns.find((turn) => turn.tools.some(BRIDGE.gemini));
  ok(first, "no request carried the bridge");
  equal(seen.turns.indexOf(first), 0);
  const bridge = first.tools.find(BRIDGE.gemini)!;
  match(bridge.description, /^MCP tools are reached through this tool;/);
  assertWholeOverviewOnce(
    [first.system, ...first.texts, ...first.tools.map((t) => t.description)].join("\n"),
  );
  ok(first.tools.some(DISCOVER.gemini));
  const calls = seen.turns.at(-1)!.calls;
  equal(calls.length, 3);
  for (const call of calls) {
    equal((call.arguments as { wait_for_previous?: boolean }).wait_for_previous, true);
  }
  ok(calls.every((c) => !/invalid_arguments/.test(c.result ?? "")), JSON.stringify(calls));
  match(calls[2]!.result!, /Echo: hi/);
});
