// The hosts' roots reach server-filesystem behind unfold. Claude Code 2.1.197 declares `roots` and
// answers `roots/list` with its working directory; Gemini CLI 0.61 declares them with
// `listChanged` and answers with its workspace's directories (the working directory here).
// server-filesystem, started on the sandbox's `files` folder, then allows that directory only, as
// it does connected directly. Before the gateway passed roots on, it allowed `files` (its command
// line) behind unfold.
import { doesNotMatch, equal, match } from "node:assert/strict";
import type { HostName } from "./_hosts.ts";
import { hostScenario, type ScenarioOptions } from "./_scenario.ts";

const ROUND = {
  query: "list the allowed directories of the filesystem server",
  arguments: {},
  prompt: "Which directories may the filesystem server read?",
};

async function allowedBehindUnfold(host: HostName, options: ScenarioOptions): Promise<string> {
  const seen = await hostScenario(host, { ...options, round: ROUND });
  // (Setup, undo and the overview are each host's own test's: here, what the execute answered.)
  equal(seen.setup.code, 0, seen.setup.stderr);
  equal(seen.session.code, 0, seen.session.stderr.slice(-3000));
  const calls = seen.turns.at(-1)!.calls;
  equal(calls.length, 3, JSON.stringify(calls));
  return calls[2]!.result!;
}

function assertWorkingDirectoryOnly(executed: string): void {
  match(executed, /Allowed directories/);
  // The sandbox's working directory (the host's root), not the command line's folder.
  match(executed, /unfold-host-[^/\\]+\/project/);
  doesNotMatch(executed, /unfold-host-[^/\\]+\/files/);
}

Deno.test("Claude Code: its working directory is server-filesystem's root behind unfold", async () => {
  assertWorkingDirectoryOnly(
    await allowedBehindUnfold("claude-code", {
      env: { MCP_CONNECTION_NONBLOCKING: "false", MCP_CONNECT_TIMEOUT_MS: "60000" },
      unfold: { startupTimeoutMs: 45_000 },
    }),
  );
});

Deno.test("Gemini CLI: its workspace is server-filesystem's root behind unfold", async () => {
  assertWorkingDirectoryOnly(
    await allowedBehindUnfold("gemini", { args: ["--approval-mode", "yolo"] }),
  );
});
