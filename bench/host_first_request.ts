/**
 * Whether the bridge is in Claude Code's first request, with the 14 recorded servers of
 * `testdata/real-servers` (228 tools, each served by `bench/_recorded_server.ts`) behind unfold
 * (`unfold setup claude-code`), Claude Code set to wait for its servers
 * (`MCP_CONNECTION_NONBLOCKING=false`, its default connect timeout), over N sessions each: without
 * snapshots (a fresh cache: every server is listed live) and with them (a cache shared by the
 * sessions, written by one warm-up session that is not counted and ends only once they are). The
 * gateway's own settings are the defaults `unfold setup` writes. Counted: the sessions whose first
 * request carries the bridge, and those whose first request carries the overview of all 14
 * servers.
 *
 * Run: `nice deno run -A --node-modules-dir=auto bench/host_first_request.ts [N]` (N = 20)
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { hostSession } from "./_host_session.ts";
import { recordedServers } from "./host_search_recall.ts";
import { HOSTS } from "../test/hosts/_hosts.ts";
import { snapshotsWritten } from "../test/hosts/_scenario.ts";
import { join } from "node:path";

/** What one session's first request carried. */
interface First {
  /** The bridge (`mcp__unfold__mcp`). */
  bridge: boolean;
  /** The overview of all 14 servers (`<tool-catalogue … servers="14"`), in any text. */
  overview: boolean;
}

// One session; `warm` holds the model's answer until the gateway has written the 14 servers'
// snapshots (a session that ends first stops the gateway before its servers have listed).
async function once(cache: string | undefined, warm = false): Promise<First> {
  const session = await hostSession({
    host: "claude-code",
    servers: () => Promise.resolve(recordedServers()),
    behindUnfold: true,
    script: async () => {
      if (warm && cache !== undefined) await snapshotsWritten(join(cache, "snapshots"), 14);
      return { text: "done" };
    },
    prompt: "hi",
    env: {
      MCP_CONNECTION_NONBLOCKING: "false",
      ...(cache === undefined ? {} : { UNFOLD_CACHE_DIR: cache }),
    },
  });
  const first = session.requests[0]?.turn;
  const bridge = first !== undefined && first.tools.some((t) => t.name === "mcp__unfold__mcp");
  const texts = first === undefined
    ? ""
    : [first.system, ...first.texts, ...first.tools.map((t) => t.description)].join("\n");
  const overview = /<tool-catalogue level="\w+" servers="14"/.test(texts);
  if (!bridge) {
    console.error(
      `no bridge: tools ${first?.tools.map((t) => t.name).join(" ")}; ${
        session.ran.stderr.slice(-500)
      }`,
    );
  }
  return { bridge, overview };
}

if (import.meta.main) {
  const n = Number(Deno.args[0] ?? 20);
  const cache = await Deno.makeTempDir({ prefix: "unfold-snapshots-" });
  try {
    const results: Record<string, First[]> = { "no snapshots": [], snapshots: [] };
    for (let i = 0; i < n; i++) results["no snapshots"]!.push(await once(undefined));
    await once(cache, true); // warm-up: writes the snapshots
    for (let i = 0; i < n; i++) results.snapshots!.push(await once(cache));
    console.log(`Claude Code ${HOSTS["claude-code"].version}, 14 servers behind unfold`);
    for (const [name, runs] of Object.entries(results)) {
      const bridge = runs.filter((r) => r.bridge).length;
      const overview = runs.filter((r) => r.overview).length;
      console.log(`${name}: bridge ${bridge}/${n}, whole overview ${overview}/${n}`);
    }
  } finally {
    await Deno.remove(cache, { recursive: true }).catch(() => {});
  }
}
