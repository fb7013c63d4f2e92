/**
 * Claude Code's own tool search (`ToolSearch`, `ENABLE_TOOL_SEARCH=true`) against unfold's
 * search, inside Claude Code (the pinned version of `test/hosts/_hosts.ts`), over the 14 recorded
 * real servers of `testdata/real-servers` (228 tools), each served over stdio by
 * `bench/_recorded_server.ts`, and a fixed subset of the queries of
 * `testdata/real-servers/everyday.jsonl`: every STRIDE-th line from the first (STRIDE 5: the 30
 * queries p001, p006, …, p146, each of the 14 servers among their gold tools).
 *
 * One headless session per side; its scripted model issues the queries one by one: direct, each
 * through `ToolSearch` `{query, max_results: 5}`, the found tools read from the `tool_reference`
 * blocks of the next request (`mcp__server__tool`, mapped back to `server/tool` by the servers'
 * names, checked against the recorded tools); behind unfold (`unfold setup claude-code`), each
 * through the read-only `discover` tool (`{action: "search", query, limit: 5}`), the ids read from
 * its result. Before its first query the model waits for every server: direct, Claude Code waits
 * for them (`MCP_CONNECTION_NONBLOCKING=false`, a 60 s connect timeout) and the run checks that
 * the first request offers tools of all 14; behind unfold, until the gateway has written the 14
 * servers' snapshots (`snapshotsWritten`, an event), and the run checks that no answer has
 * `notSearched`. R@5 as `bench/eval` scores it (`scoreQuery`, gold groups), and the tokens of
 * tools + system prompt + the host's MCP texts per request (`requestTokens` of `bench/hosts.ts`:
 * the project's estimate over the request JSON the host sent; a deferred tool counts once loaded).
 *
 * Run: `nice deno run -A --node-modules-dir=auto bench/host_search_recall.ts [STRIDE]`
 * (`STRIDE` 5 by default; 1: all 150 queries).
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { join } from "node:path";
import { scoreQuery } from "./eval/metrics.ts";
import type { ModelTurn, Reply, Script } from "../test/hosts/_model.ts";
import type { ServerEntry } from "../test/hosts/_run.ts";
import { hostSession, type Session } from "./_host_session.ts";
import { requestTokens } from "./hosts.ts";
import { estimateTokens } from "../src/tokens.ts";
import { HOSTS } from "../test/hosts/_hosts.ts";
import { snapshotsWritten } from "../test/hosts/_scenario.ts";
import { RUN_FLAGS } from "../src/cli/run_flags.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** One query: its text and its gold groups. */
export interface Query {
  query: string;
  gold: string[][];
}

/** The queries of the everyday set: every `stride`-th line, from the first. */
export function everyday(stride = 5): Query[] {
  return Deno.readTextFileSync(join(ROOT, "testdata/real-servers/everyday.jsonl")).trim()
    .split("\n").map((line) => JSON.parse(line)).filter((_, i) => i % stride === 0).map((
      line,
    ) => ({ query: line.query, gold: line.gold_groups }));
}

/** The 14 recorded servers, each a `_recorded_server.ts` process. */
export function recordedServers(): Record<string, ServerEntry> {
  const names = Object.keys(
    JSON.parse(Deno.readTextFileSync(join(ROOT, "testdata/real-servers/tools.json"))),
  );
  return Object.fromEntries(names.map((name) => [name, {
    command: Deno.execPath(),
    args: [
      "run",
      // Read-only: the recorded listing is all it needs (RUN_FLAGS' -A would conflict).
      ...RUN_FLAGS.filter((flag) => flag !== "-A"),
      "--config",
      join(ROOT, "deno.json"),
      "--allow-read",
      join(ROOT, "bench/_recorded_server.ts"),
      name,
    ],
  }]));
}

// The model's side: query i is asked on the request after query i-1's answer came; the first
// once `ready` resolved (every server listed).
function script(queries: Query[], side: "direct" | "unfold", ready: () => Promise<void>): Script {
  return async (turn: ModelTurn): Promise<Reply> => {
    const asked = turn.calls.length;
    if (asked >= queries.length) return { text: "done" };
    if (asked === 0) await ready();
    const query = queries[asked]!.query;
    if (side === "direct") return { toolSearch: { query, limit: 5 } };
    const discover = turn.tools.find((t) => t.name === "mcp__unfold__discover");
    if (discover === undefined) return { text: "no discover tool" };
    return { call: { name: discover.name, arguments: { action: "search", query, limit: 5 } } };
  };
}

const SERVERS = Object.keys(
  JSON.parse(Deno.readTextFileSync(join(ROOT, "testdata/real-servers/tools.json"))),
);

const RECORDED = new Set(
  Object.entries(
    JSON.parse(Deno.readTextFileSync(join(ROOT, "testdata/real-servers/tools.json"))) as Record<
      string,
      { name: string }[]
    >,
  ).flatMap(([server, tools]) => tools.map((tool) => `${server}/${tool.name}`)),
);

/**
 * The id of a tool as Claude Code names it (`mcp__github__create_issue` → `github/create_issue`),
 * checked against the recorded tools (a name the mapping gets wrong would score as a miss).
 *
 * @param name The name in a `tool_reference` or the request's tools.
 * @returns The id, or `undefined` when it is no recorded tool.
 */
export function idOf(name: string): string | undefined {
  for (const server of SERVERS) {
    const prefix = `mcp__${server}__`;
    if (!name.startsWith(prefix)) continue;
    const id = `${server}/${name.slice(prefix.length)}`;
    if (RECORDED.has(id)) return id;
  }
  return undefined;
}

// What each query found, in rank order, from the last request's calls and results.
function found(session: Session, side: "direct" | "unfold"): string[][] {
  const last = session.requests.at(-1)?.turn;
  if (last === undefined) return [];
  return last.calls.map((call) => {
    const result = call.result ?? "";
    if (side === "direct") {
      return [...result.matchAll(/tool_reference:(\S+)/g)].flatMap((m) => idOf(m[1]!) ?? []);
    }
    try {
      const parsed = JSON.parse(result.slice(result.indexOf("{")));
      return (parsed.matches ?? []).map((m: { id: string }) => m.id);
    } catch {
      return [...result.matchAll(/^([\w.-]+\/[\w.:-]+)(?=: )/gm)].map((m) => m[1]!);
    }
  });
}

/** One side's figures. */
export interface Side {
  side: "direct" | "unfold";
  queries: number;
  answered: number;
  /** Servers whose tools the first request offers (direct) or that every answer searched. */
  servers: number;
  /** `tool_reference` names of MCP tools that map to no recorded tool (direct; 0 expected). */
  unmapped: number;
  r5: number;
  first: number;
  mean: number;
  last: number;
  /** The mean of the whole request (the conversation too: results, loaded references). */
  whole: number;
}

/**
 * Runs one side.
 *
 * @param queries The queries.
 * @param side Claude Code's ToolSearch over the servers, or unfold's search in front of them.
 * @returns The figures.
 */
export async function runSide(queries: Query[], side: "direct" | "unfold"): Promise<Side> {
  let home = "";
  const ready = side === "direct"
    ? () => Promise.resolve()
    : () => snapshotsWritten(join(home, ".cache", "unfold", "snapshots"), SERVERS.length);
  const session = await hostSession({
    host: "claude-code",
    servers: (box) => {
      home = box.home;
      return Promise.resolve(recordedServers());
    },
    behindUnfold: side === "unfold",
    script: script(queries, side, ready),
    prompt: "Find the tools for each of my requests",
    env: {
      ENABLE_TOOL_SEARCH: "true",
      MCP_CONNECTION_NONBLOCKING: "false",
      MCP_CONNECT_TIMEOUT_MS: "60000",
    },
    args: ["--max-turns", String(queries.length + 5)],
    unfold: { startupTimeoutMs: 45_000 },
  });
  const ranked = found(session, side);
  const r5 = queries.reduce((sum, q, i) => sum + scoreQuery(ranked[i] ?? [], q.gold).r5, 0) /
    queries.length;
  const counts = session.requests.map((r) => requestTokens("claude-code", r));
  const last = session.requests.at(-1)?.turn;
  const references = [...JSON.stringify(last?.calls ?? []).matchAll(/tool_reference:([\w.-]+)/g)];
  // Direct: the MCP tools the first request offers, loaded or deferred (Claude Code names its
  // deferred tools in a message until ToolSearch loads them).
  const first = session.requests[0]?.turn;
  const offered = new Set(
    [...first?.tools.map((t) => t.name) ?? [], ...first?.texts ?? []].flatMap((text) =>
      [...text.matchAll(/mcp__[\w.-]+/g)].flatMap((m) => idOf(m[0])?.split("/")[0] ?? [])
    ),
  );
  const missed = new Set(
    (last?.calls ?? []).flatMap((call) => {
      try {
        const parsed = JSON.parse((call.result ?? "").slice((call.result ?? "").indexOf("{")));
        return (parsed.notSearched ?? []).map((s: { server: string }) => s.server);
      } catch {
        return [];
      }
    }),
  );
  return {
    side,
    queries: queries.length,
    answered: ranked.length,
    servers: side === "direct" ? offered.size : SERVERS.length - missed.size,
    unmapped: references.filter((m) => m[1]!.startsWith("mcp__") && idOf(m[1]!) === undefined)
      .length,
    r5: Math.round(r5 * 1000) / 1000,
    first: counts[0] ?? 0,
    mean: mean(counts),
    last: counts.at(-1) ?? 0,
    whole: mean(session.requests.map((r) => estimateTokens(JSON.stringify(r.body)))),
  };
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : Math.round(values.reduce((a, b) => a + b, 0) / values.length);
}

if (import.meta.main) {
  const stride = Deno.args[0] === undefined ? 5 : Number(Deno.args[0]);
  const queries = everyday(stride);
  const fmt = (x: number) => x.toLocaleString("en-US");
  const rows: Side[] = [];
  for (const side of ["direct", "unfold"] as const) {
    const row = await runSide(queries, side);
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  console.log(
    `Claude Code ${HOSTS["claude-code"].version}, ${queries.length} queries (every ${stride})`,
  );
  console.log(
    "| search | R@5 | answered | servers | first request | mean per request | last request | whole request, mean |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const row of rows) {
    const name = row.side === "direct" ? "Claude Code ToolSearch" : "unfold discover";
    console.log(
      `| ${name} | ${row.r5.toFixed(3)} | ${row.answered} | ${row.servers} | ${fmt(row.first)} | ${
        fmt(row.mean)
      } | ${fmt(row.last)} | ${fmt(row.whole)} |`,
    );
  }
}
