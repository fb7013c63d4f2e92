/**
 * Whether the bridge is in Claude Code's first request, with the 14 recorded servers of
 * `testdata/real-servers` (228 tools, each served by `bench/_recorded_server.ts`) behind unfold
 * (`unfold setup claude-code`), Claude Code set to wait for its servers
 * (`MCP_CONNECTION_NONBLOCKING=false`, its default connect timeout), over N sessions each: without
 * snapshots (a fresh cache: every server is listed live) and with them (a cache shared by the
 * sessions, written by one warm-up session that is not counted). The gateway's own settings are
 * the defaults `unfold setup` writes.
 *
 * Run: `nice deno run -A --node-modules-dir=auto bench/host_first_request.ts [N]` (N = 20)
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { hostSession } from "./_host_session.ts";
import { recordedServers } from "./host_search_recall.ts";
import { HOSTS } from "../test/hosts/_hosts.ts";

async function once(cache: string | undefined): Promise<boolean> {
  const session = await hostSession({
    host: "claude-code",
    servers: () => Promise.resolve(recordedServers()),
    behindUnfold: true,
    script: () => ({ text: "done" }),
    prompt: "hi",
    env: {
      MCP_CONNECTION_NONBLOCKING: "false",
      ...(cache === undefined ? {} : { UNFOLD_CACHE_DIR: cache }),
    },
  });
  const first = session.requests[0];
  return first !== undefined && first.turn.tools.some((t) => t.name === "mcp__unfold__mcp");
}

if (import.meta.main) {
  const n = Number(Deno.args[0] ?? 20);
  const cache = await Deno.makeTempDir({ prefix: "unfold-snapshots-" });
  try {
    const results: Record<string, number> = { "no snapshots": 0, snapshots: 0 };
    for (let i = 0; i < n; i++) if (await once(undefined)) results["no snapshots"]!++;
    await once(cache); // warm-up: writes the snapshots
    for (let i = 0; i < n; i++) if (await once(cache)) results.snapshots!++;
    console.log(`Claude Code ${HOSTS["claude-code"].version}, 14 servers behind unfold`);
    for (const [name, x] of Object.entries(results)) console.log(`${name}: ${x}/${n}`);
  } finally {
    await Deno.remove(cache, { recursive: true }).catch(() => {});
  }
}
