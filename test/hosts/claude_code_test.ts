// Claude Code 2.1.197 behind unfold, driven by a scripted model: `unfold setup claude-code` on
// ~/.claude.json, `claude mcp list` says Connected, the first request carries the bridge and the
// whole overview once (in the server instructions, as Claude Code cuts descriptions at 2,048
// characters), no description it would cut, words that name the tool as Claude Code does, and the
// search → describe → execute round trip (search and describe through the read-only tool).
import { equal, match, ok } from "node:assert/strict";
import { BRIDGE } from "./_run.ts";
import {
  assertCommon,
  assertWholeOverviewOnce,
  DISCOVER,
  everything,
  hostScenario,
} from "./_scenario.ts";

Deno.test("Claude Code: setup, Connected, the overview whole and once in its first request, the round trip, undo", async () => {
  // Claude Code then waits for its servers before the first request, within its timeout (5 s by
  // default, longer here: the npm servers' first start on a loaded test machine takes more).
  const seen = await hostScenario("claude-code", {
    env: { MCP_CONNECTION_NONBLOCKING: "false", MCP_CONNECT_TIMEOUT_MS: "60000" },
    unfold: { startupTimeoutMs: 45_000 },
  });
  assertCommon(seen);
  match(seen.list.stdout, /^unfold: .*✔ Connected$/m);
  const first = seen.turns[0]!;
  const bridge = first.tools.find(BRIDGE["claude-code"]);
  ok(bridge, first.tools.map((t) => t.name).join(", "));
  ok(first.tools.some(DISCOVER["claude-code"]));
  for (const tool of first.tools.filter((t) => t.name.startsWith("mcp__unfold__"))) {
    ok(tool.description.length <= 2_048, `${tool.name} would be cut: ${tool.description.length}`);
  }
  const text = everything(first);
  // The overview: in the "MCP Server Instructions" block, every tool, once.
  const unfold = text.slice(text.indexOf("## unfold"), text.indexOf("## unfold") + 800);
  match(
    unfold,
    /^## unfold\nunfold: \d+ tools of 3 MCP servers \(everything, filesystem, memory\); search and describe them with the mcp__unfold__discover tool \(read-only\), execute with the mcp__unfold__mcp tool;/,
  );
  assertWholeOverviewOnce(text);
  // The round trip: search and describe read-only, the execute through the bridge, its text seen.
  const calls = seen.turns.at(-1)!.calls;
  equal(
    calls.map((c) => c.name).join(" "),
    "mcp__unfold__discover mcp__unfold__discover mcp__unfold__mcp",
  );
  match(calls[2]!.result!, /Echo: hi/);
  match(calls[0]!.result!, /"next":/);
  match(JSON.parse(seen.session.stdout).result, /Echo: hi/);
});
