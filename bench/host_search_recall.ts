/**
 * Claude Code's own tool search (`ToolSearch`, `ENABLE_TOOL_SEARCH=true`) against unfold's
 * search, inside Claude Code (the pinned version of `test/hosts/_hosts.ts`), over the 14 recorded
 * real servers of `testdata/real-servers` (228 tools), each served over stdio by
 * `bench/_recorded_server.ts`, and the queries of `testdata/real-servers/everyday.jsonl`.
 *
 * One headless session per side; its scripted model issues the queries one by one: direct, each
 * through `ToolSearch` `{query, max_results: 5}`, the found tools read from the `tool_reference`
 * blocks of the next request; behind unfold (`unfold setup claude-code`), each through the
 * read-only `discover` tool (`{action: "search", query, limit: 5}`), the ids read from its result.
 * R@5 as `bench/eval` scores it (`scoreQuery`, gold groups), and the tokens of tools + system
 * prompt + the host's MCP texts per request (`requestTokens` of `bench/hosts.ts`: the project's
 * estimate over the request JSON the host sent; a deferred tool counts once loaded).
 *
 * Run: `nice deno run -A --node-modules-dir=auto bench/host_search_recall.ts [QUERIES]`
 * (`QUERIES`: the first N queries of the set, all 150 by default).
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
import { HOSTS } from "../test/hosts/_hosts.ts";
import { RUN_FLAGS } from "../src/cli/run_flags.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** One query: its text and its gold groups. */
export interface Query {
  query: string;
  gold: string[][];
}

/** The queries of the everyday set (the first `n`). */
export function everyday(n = Infinity): Query[] {
  return Deno.readTextFileSync(join(ROOT, "testdata/real-servers/everyday.jsonl")).trim()
    .split("\n").map((line) => JSON.parse(line)).slice(0, n).map((line) => ({
      query: line.query,
      gold: line.gold_groups,
    }));
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

// The model's side: query i is asked on the request after query i-1's answer came.
function script(queries: Query[], side: "direct" | "unfold"): Script {
  return (turn: ModelTurn): Reply => {
    const asked = turn.calls.length;
    if (asked >= queries.length) return { text: "done" };
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

// `mcp__github__create_issue` → `github/create_issue`.
function idOf(name: string): string | undefined {
  for (const server of SERVERS) {
    const prefix = `mcp__${server}__`;
    if (name.startsWith(prefix)) return `${server}/${name.slice(prefix.length)}`;
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
  r5: number;
  first: number;
  mean: number;
  last: number;
}

/**
 * Runs one side.
 *
 * @param queries The queries.
 * @param side Claude Code's ToolSearch over the servers, or unfold's search in front of them.
 * @returns The figures.
 */
export async function runSide(queries: Query[], side: "direct" | "unfold"): Promise<Side> {
  const session = await hostSession({
    host: "claude-code",
    servers: () => Promise.resolve(recordedServers()),
    behindUnfold: side === "unfold",
    script: script(queries, side),
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
  return {
    side,
    queries: queries.length,
    answered: ranked.length,
    r5: Math.round(r5 * 1000) / 1000,
    first: counts[0] ?? 0,
    mean: counts.length === 0 ? 0 : Math.round(counts.reduce((a, b) => a + b, 0) / counts.length),
    last: counts.at(-1) ?? 0,
  };
}

if (import.meta.main) {
  const n = Deno.args[0] === undefined ? Infinity : Number(Deno.args[0]);
  const queries = everyday(n);
  const fmt = (x: number) => x.toLocaleString("en-US");
  const rows: Side[] = [];
  for (const side of ["direct", "unfold"] as const) {
    const row = await runSide(queries, side);
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  console.log(`Claude Code ${HOSTS["claude-code"].version}, ${queries.length} queries`);
  console.log("| search | R@5 | answered | first request | mean per request | last request |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const row of rows) {
    const name = row.side === "direct" ? "Claude Code ToolSearch" : "unfold discover";
    console.log(
      `| ${name} | ${row.r5.toFixed(3)} | ${row.answered} | ${fmt(row.first)} | ${
        fmt(row.mean)
      } | ${fmt(row.last)} |`,
    );
  }
}
