/**
 * Converts ETOM's level-4 tasks (snooow1029/ETOM, formerly MSC-Bench, MIT) into the evaluation
 * layout of `testdata/etom`: its whole registry of real MCP servers as a catalogue
 * (`catalogue.json`, `servers.json`) and its "complex tool graph" requests (`etom_tasks.jsonl`),
 * long multi-step task descriptions whose gold is the task's tools, each a group of the tools its
 * authors found equivalent. Only data files are read; none of its code is used or copied.
 *
 * Run (on a checkout or snapshot of the repository):
 * `deno run --allow-read --allow-write=testdata/etom scripts/convert_etom.ts --from DIR`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { McpCatalog } from "../mod.ts";
import { fnv1a } from "./convert_metatool.ts";

/** Where each input lives inside the ETOM repository. */
const INPUTS = { registry: "data/mcp_registry.json", tasks: "data/queries/level_4.json" };

/** One server of ETOM's registry, as the file has it. */
interface RegistryServer {
  server_name: string;
  server_description?: string;
  tools: { tool_name: string; tool_description?: string; input_schema?: unknown }[];
}

/** One level-4 request: its text and its gold, groups of equivalent tools. */
interface Level4Query {
  query_id: number;
  query: string;
  ground_truth_tools: { server_name: string; tool_name: string }[][];
}

/**
 * A server name as a catalogue server: ASCII letters and digits, lower case, other runs made `-`
 * (registry names hold spaces, `@`, `/` and typographic dashes; a server name may not hold `/`).
 *
 * @param name The registry's server name.
 * @returns The slug (`""` for a name without letters or digits).
 *
 * @example Usage
 * ```ts
 * import { serverSlug } from "./convert_etom.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(serverSlug("@enemyrr/mcp-server-pagespeed"), "enemyrr-mcp-server-pagespeed");
 * equal(serverSlug("AWS‑IReveal‑MCP"), "aws-ireveal-mcp");
 * ```
 */
export function serverSlug(name: string): string {
  return name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/**
 * Gives each server a distinct slug, in the registry's order: a slug taken already gets `-2`,
 * `-3`, … (the registry has two servers that differ only in case and spacing).
 *
 * @param names The registry's server names, in order.
 * @returns Each name's slug.
 * @throws {Error} When a name has no letter or digit.
 *
 * @example Usage
 * ```ts
 * import { serverSlugs } from "./convert_etom.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual([...serverSlugs(["Postman MCP Server", "postman-mcp-server"]).values()], [
 *   "postman-mcp-server",
 *   "postman-mcp-server-2",
 * ]);
 * ```
 */
export function serverSlugs(names: readonly string[]): Map<string, string> {
  const taken = new Set<string>();
  const slugs = new Map<string, string>();
  for (const name of names) {
    const base = serverSlug(name);
    if (base === "") throw new Error(`Cannot convert: the server name ${JSON.stringify(name)}`);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    slugs.set(name, slug);
  }
  return slugs;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { from: { type: "string" }, out: { type: "string", default: "testdata/etom" } },
  });
  if (values.from === undefined) throw new Error("Pass --from DIR: an ETOM checkout");
  const read = (path: string) => JSON.parse(Deno.readTextFileSync(`${values.from}/${path}`));
  const registry = (read(INPUTS.registry) as { servers: RegistryServer[] }).servers;
  const slugs = serverSlugs(registry.map((s) => s.server_name));
  let mended = 0;
  const catalogue = registry.flatMap((server) =>
    server.tools.map((tool) => {
      const made = {
        server: slugs.get(server.server_name)!,
        name: tool.tool_name,
        description: tool.tool_description ?? "",
        inputSchema: (typeof tool.input_schema === "object" && tool.input_schema !== null
          ? tool.input_schema
          : { type: "object" }) as Record<string, unknown>,
      };
      if (McpCatalog.create([made]).ok) return made;
      mended++;
      return { ...made, inputSchema: propertiesOnly(made.inputSchema) };
    })
  );
  // The catalogue's own rules (names, schemas) hold for every tool now.
  const known = new Set(new McpCatalog(catalogue).tools.map((t) => `${t.server}/${t.name}`));
  const servers = registry.map((server) => ({
    server: slugs.get(server.server_name)!,
    title: server.server_name,
    description: server.server_description ?? "",
  }));
  const id = (server: string, tool: string) => {
    const made = `${slugs.get(server)}/${tool}`;
    if (!known.has(made)) throw new Error(`Cannot convert: no tool ${server}::${tool}`);
    return made;
  };
  const tasks = (read(INPUTS.tasks) as Level4Query[]).map((q) => ({
    task_id: `etom4-${q.query_id}-${fnv1a(q.query)}`,
    query: q.query,
    gold_groups: q.ground_truth_tools
      .map((group) => [...new Set(group.map((t) => id(t.server_name, t.tool_name)))])
      .filter((group) => group.length > 0),
  })).filter((task) => task.gold_groups.length > 0);
  // One tool per line: a change to one tool is a change to one line.
  const list = (items: readonly unknown[]) =>
    `[\n${items.map((item) => JSON.stringify(item)).join(",\n")}\n]\n`;
  Deno.mkdirSync(values.out, { recursive: true });
  Deno.writeTextFileSync(`${values.out}/catalogue.json`, list(catalogue));
  Deno.writeTextFileSync(`${values.out}/servers.json`, list(servers));
  Deno.writeTextFileSync(
    `${values.out}/etom_tasks.jsonl`,
    tasks.map((task) => JSON.stringify(task)).join("\n") + "\n",
  );
  // deno-lint-ignore no-console
  console.log(
    `${catalogue.length} tools of ${servers.length} servers (${mended} schemas mended), ` +
      `${tasks.length} tasks`,
  );
}

// A schema that is not valid JSON Schema, kept as what search reads of it: its properties' names
// and descriptions.
function propertiesOnly(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return { type: "object" };
  return {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => {
        const description = (property as { description?: unknown } | null)?.description;
        return [name, typeof description === "string" ? { description } : {}];
      }),
    ),
  };
}
