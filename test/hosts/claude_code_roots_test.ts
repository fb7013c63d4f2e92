// Claude Code 2.1.197's roots reach server-filesystem behind unfold: Claude Code declares `roots`
// and answers `roots/list` with its working directory; server-filesystem (started on the
// sandbox's `files` folder) then allows that directory only, as it does connected directly.
// Before the gateway passed roots on, it allowed `files` (its command line) behind unfold.
import { doesNotMatch, equal, match } from "node:assert/strict";
import { hostScenario } from "./_scenario.ts";

Deno.test("Claude Code: its working directory is server-filesystem's root behind unfold", async () => {
  const seen = await hostScenario("claude-code", {
    env: { MCP_CONNECTION_NONBLOCKING: "false", MCP_CONNECT_TIMEOUT_MS: "60000" },
    unfold: { startupTimeoutMs: 45_000 },
    round: {
      query: "list the allowed directories of the filesystem server",
      arguments: {},
      prompt: "Which directories may the filesystem server read?",
    },
  });
  // (Setup, undo and the overview are claude_code_test.ts's: here, what the execute answered.)
  equal(seen.setup.code, 0, seen.setup.stderr);
  equal(seen.session.code, 0, seen.session.stderr.slice(-3000));
  const calls = seen.turns.at(-1)!.calls;
  equal(calls.length, 3, JSON.stringify(calls));
  const executed = calls[2]!.result!;
  match(executed, /Allowed directories/);
  // The sandbox's working directory (Claude Code's root), not the command line's folder.
  match(executed, /unfold-host-[^/\\]+\/project/);
  doesNotMatch(executed, /unfold-host-[^/\\]+\/files/);
});
