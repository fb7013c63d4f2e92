// Codex CLI 0.169.0 behind unfold, driven by a scripted model: `unfold setup codex` on
// ~/.codex/config.toml, `codex mcp list` names unfold, the overview reaches the model once the
// server is up (the instructions, as the namespace's description in a developer message), the
// bridge is found through Codex's own tool_search, search and describe run under `codex exec`'s
// default approval policy ("never") through the read-only tool, and execute stays the user's to
// approve: refused by that policy, run once the user approved it in Codex's own config.
import { equal, match, ok } from "node:assert/strict";
import { assertCommon, assertWholeOverviewOnce, everything, hostScenario } from "./_scenario.ts";

Deno.test("Codex: setup, mcp list, the overview in the namespace's description, read-only search and describe, execute as approved", async () => {
  const seen = await hostScenario("codex", {
    // Codex waits 10 s for a server to start; the npm servers' first start here may take more.
    unfold: { startupTimeoutMs: 8_000 },
    // What Codex writes when the user answers "Allow and don't ask me again" for the bridge.
    approve: async (file) => {
      await Deno.writeTextFile(
        file,
        `${await Deno.readTextFile(
          file,
        )}\n[mcp_servers.unfold.tools.mcp]\napproval_mode = "approve"\n`,
      );
    },
  });
  assertCommon(seen);
  match(seen.list.stdout, /^unfold\s/m);
  const last = seen.turns.at(-1)!;
  const announced = last.texts.find((text) => text.includes("Added deferred tool namespaces"));
  ok(announced, "no namespace message");
  match(
    announced,
    /- mcp__unfold: MCP tools are reached through the mcp \(namespace mcp__unfold\) tool;/,
  );
  assertWholeOverviewOnce(announced);
  const calls = last.calls.filter((c) => c.name !== "tool_search");
  equal(calls.map((c) => c.name).join(" "), "discover discover mcp");
  match(calls[0]!.result!, /"matches":\[\{"id":"everything\/echo"/);
  match(calls[1]!.result!, /"action":"describe"/);
  match(calls[2]!.result!, /Echo: hi/);
});
