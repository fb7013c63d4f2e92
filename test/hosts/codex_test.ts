// Codex CLI 0.169.0 behind unfold, driven by a scripted model: `unfold setup codex` on
// ~/.codex/config.toml, `codex mcp list` names unfold, the instructions' first line (all Codex's
// "Added deferred tool namespaces" message shows) is a summary that stands alone, the whole
// overview arrives once Codex's own tool_search loads the namespace (its description), search and describe run under `codex exec`'s
// default approval policy ("never") through the read-only tool, and execute stays the user's to
// approve: refused by that policy, run once the user approved it in Codex's own config.
import { equal, match, ok } from "node:assert/strict";
import { assertCommon, assertWholeOverviewOnce, everything, hostScenario } from "./_scenario.ts";

Deno.test("Codex: setup, mcp list, a summary line in the namespace message, the overview once when loaded, read-only search and describe, execute as approved", async () => {
  const seen = await hostScenario("codex", {
    // Codex reads the instructions once, at initialize, and waits 10 s for a server by default
    // (the gateway answers within 7.5 s); the npm servers' first start on a loaded test machine
    // may take more, so both wait longer here, as a user's config may say.
    unfold: { startupTimeoutMs: 45_000 },
    // What Codex writes when the user answers "Allow and don't ask me again" for the bridge, and
    // a longer start-up wait for unfold.
    approve: async (file) => {
      const text = (await Deno.readTextFile(file)).replace(
        "[mcp_servers.unfold]\n",
        "[mcp_servers.unfold]\nstartup_timeout_sec = 60\n",
      );
      await Deno.writeTextFile(
        file,
        `${text}\n[mcp_servers.unfold.tools.mcp]\napproval_mode = "approve"\n`,
      );
    },
  });
  assertCommon(seen);
  match(seen.list.stdout, /^unfold\s/m);
  // Codex defers every MCP tool: its first request has no bridge (measured, not ours to change).
  ok(!seen.turns[0]!.tools.some((t) => t.namespace === "mcp__unfold"));
  const last = seen.turns.at(-1)!;
  const announced = last.texts.find((text) => text.includes("Added deferred tool namespaces"));
  ok(announced, "no namespace message");
  // Codex shows the instructions' first line only: it says what unfold is and how to use it.
  match(
    announced,
    /- mcp__unfold: unfold: \d+ tools of 3 MCP servers \(everything, filesystem, memory\); search and describe them with the discover \(namespace mcp__unfold\) tool \(read-only\), execute with the mcp \(namespace mcp__unfold\) tool; ids are "server\/tool"\.\n/,
  );
  // Once its tool_search loaded the namespace, the overview is in its description, once, whole.
  equal(last.namespaces.filter((n) => n.name === "mcp__unfold").length, 1);
  assertWholeOverviewOnce(everything(last));
  const calls = last.calls.filter((c) => c.name !== "tool_search");
  // Search and describe ran under `codex exec`'s policy "never"; the execute ran as approved.
  equal(calls.map((c) => c.name).join(" "), "discover discover mcp");
  match(calls[0]!.result!, /"matches":\[\{"id":"everything\/echo"/);
  match(calls[1]!.result!, /"action":"describe"/);
  match(calls[2]!.result!, /Echo: hi/);
});
