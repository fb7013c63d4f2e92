/**
 * Loading an evaluation directory: a catalogue (`catalogue.json`), optional server information
 * (`servers.json`) and query sets (every `*.jsonl` file, one query a line). The layout is that of
 * `testdata/livemcpbench`, so held-out sets in the same layout can be swapped in.
 *
 * @module
 */

import type { McpTool, ServerInfo } from "../../mod.ts";
import type { GoldGroups } from "./metrics.ts";
import { readServerMap } from "./exact.ts";

/** One labelled query. */
export interface EvalQuery {
  /** What groups related queries: the task id (queries of one task share it). */
  group: string;
  /** The query text, exactly as the agent or user wrote it. */
  query: string;
  /** The gold groups. */
  gold: GoldGroups;
}

/** A named list of labelled queries (one `.jsonl` file). */
export interface QuerySet {
  /** The file's base name: `route_dev`, `tasks`. */
  name: string;
  /** The queries that have gold. */
  queries: EvalQuery[];
  /** How many lines had no gold group and were left out. */
  skipped: number;
}

/** A catalogue with its query sets. */
export interface EvalData {
  /** The directory it came from. */
  dir: string;
  /** The catalogue's tools. */
  tools: McpTool[];
  /** Server information (empty without `servers.json`). */
  servers: ServerInfo[];
  /** The query sets, sorted by name. */
  sets: QuerySet[];
}

/**
 * Turns one `.jsonl` line into a query. Gold comes from `gold_groups` (groups of equivalent tools)
 * when present, otherwise from `gold`, each id of which is then a group of its own (every tool the
 * agent went on to use is relevant).
 *
 * @param line One parsed JSON line: `{query, gold?, gold_groups?, id?, task_id?}`.
 * @param index The line's position, the query's group when it has no id.
 * @returns The query, or `undefined` when it has no gold.
 * @throws {TypeError} When `query` is not a string or the gold is not made of strings.
 *
 * @example Usage
 * ```ts
 * import { parseQuery } from "./dataset.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(parseQuery({ task_id: "t1", query: "find x", gold: ["a/x", "b/x"] }, 0), {
 *   group: "t1",
 *   query: "find x",
 *   gold: [["a/x"], ["b/x"]],
 * });
 * ```
 */
export function parseQuery(line: Record<string, unknown>, index: number): EvalQuery | undefined {
  const { query } = line;
  if (typeof query !== "string") {
    throw new TypeError(`Cannot read query ${index}: "query" must be a string`);
  }
  const groups = Array.isArray(line.gold_groups)
    ? line.gold_groups
    : Array.isArray(line.gold)
    ? line.gold.map((id) => [id])
    : [];
  const gold = groups.filter((group) => Array.isArray(group) && group.length > 0);
  if (!gold.every((group) => group.every((id: unknown) => typeof id === "string"))) {
    throw new TypeError(`Cannot read query ${index}: gold ids must be strings`);
  }
  if (gold.length === 0) return undefined;
  const group = line.task_id ?? line.id ?? `#${index}`;
  return { group: String(group), query, gold: gold as string[][] };
}

/**
 * Reads an evaluation directory.
 *
 * @param dir The directory: `catalogue.json` (an array of tools) or else `tools.json` (a map from
 * each server to its `tools/list` tools, as in `testdata/real-servers`), optionally `servers.json`
 * (`[{server, title?, description?}]`, other fields ignored) and any number of `*.jsonl` query sets.
 * @returns The catalogue and its query sets.
 * @throws {Error} When a file is missing or malformed.
 *
 * @example Usage
 * ```ts ignore
 * import { loadEvalData } from "./dataset.ts";
 *
 * const data = loadEvalData("testdata/livemcpbench");
 * console.log(data.tools.length, data.sets.map((set) => set.name));
 * ```
 */
export function loadEvalData(dir: string): EvalData {
  let tools: McpTool[];
  try {
    tools = JSON.parse(Deno.readTextFileSync(`${dir}/catalogue.json`)) as McpTool[];
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    const map = readServerMap(`${dir}/tools.json`);
    if (map === undefined) throw e;
    tools = map;
  }
  let servers: ServerInfo[] = [];
  try {
    const raw = JSON.parse(Deno.readTextFileSync(`${dir}/servers.json`)) as Array<
      Record<string, unknown>
    >;
    servers = raw.map(({ server, title, description }) => ({
      server: String(server),
      ...(typeof title === "string" ? { title } : {}),
      ...(typeof description === "string" ? { description } : {}),
    }));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const files = [...Deno.readDirSync(dir)]
    .filter((entry) => entry.isFile && entry.name.endsWith(".jsonl"))
    .map((entry) => entry.name)
    .sort();
  const sets = files.map((file): QuerySet => {
    const lines = Deno.readTextFileSync(`${dir}/${file}`).split("\n").filter((l) => l.trim());
    const parsed = lines.map((line, i) => parseQuery(JSON.parse(line), i));
    const queries = parsed.filter((q): q is EvalQuery => q !== undefined);
    return {
      name: file.slice(0, -".jsonl".length),
      queries,
      skipped: parsed.length - queries.length,
    };
  });
  return { dir, tools, servers, sets };
}

/**
 * The default evaluation directory: `UNFOLD_DATA_DIR/livemcpbench`, else the repository's
 * `testdata/livemcpbench`; the first that has a `catalogue.json`.
 *
 * @returns The directory, or `undefined` when none has a catalogue.
 *
 * @example Usage
 * ```ts ignore
 * import { defaultDataDir } from "./dataset.ts";
 *
 * console.log(defaultDataDir() ?? "no data: pass --data DIR");
 * ```
 */
export function defaultDataDir(): string | undefined {
  const roots = [
    Deno.env.get("UNFOLD_DATA_DIR"),
    new URL("../../testdata", import.meta.url).pathname,
  ].filter((dir): dir is string => dir !== undefined && dir !== "");
  return roots.map((root) => `${root}/livemcpbench`).find((dir) => {
    try {
      return Deno.statSync(`${dir}/catalogue.json`).isFile;
    } catch {
      return false;
    }
  });
}

/**
 * Which half of a split a query group falls in: a stable hash (FNV-1a) of the group, so the
 * queries of one task always land in the same half, in every query set and every run.
 *
 * @param group The query's group (task id).
 * @returns `"A"` or `"B"`.
 *
 * @example Usage
 * ```ts
 * import { half } from "./dataset.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(half("task-1"), half("task-1"));
 * ```
 */
export function half(group: string): "A" | "B" {
  let hash = 0x811c9dc5;
  for (const unit of new TextEncoder().encode(group)) {
    hash = Math.imul(hash ^ unit, 0x01000193) >>> 0;
  }
  return hash % 2 === 0 ? "A" : "B";
}
