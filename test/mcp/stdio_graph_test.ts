/**
 * The stdio client loads no MCP SDK client: the static module graph of `src/mcp/stdio.ts` (what
 * `deno info` lists, without dynamic imports and type-only ones) reaches no
 * `npm:@modelcontextprotocol/client`, whose schemas cost a process 21 MiB. Spawns `deno info`.
 */

import { deepEqual, ok } from "node:assert/strict";

interface Dependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}

interface Graph {
  modules: { specifier: string; dependencies?: Dependency[] }[];
  redirects: Record<string, string>;
}

// The npm packages and files that a module reaches by static imports of code.
async function reached(path: string): Promise<{ npm: Set<string>; files: Set<string> }> {
  const root = new URL(`../../${path}`, import.meta.url);
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--node-modules-dir=auto", root.pathname],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  ok(output.success, `deno info ${path} failed`);
  const graph: Graph = JSON.parse(new TextDecoder().decode(output.stdout));
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const npm = new Set<string>();
  const files = new Set<string>();
  const queue = [root.href];
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    const target = graph.redirects[specifier] ?? specifier;
    if (target.startsWith("npm:")) {
      npm.add(target.replace(/^npm:\/?/, "").replace(/@[^@/]+$/, ""));
      continue;
    }
    if (files.has(target)) continue;
    files.add(target);
    for (const dependency of modules.get(target)?.dependencies ?? []) {
      if (dependency.isDynamic !== true && dependency.code !== undefined) {
        queue.push(dependency.code.specifier);
      }
    }
  }
  return { npm, files };
}

Deno.test("the static module graph of src/mcp/stdio.ts reaches no MCP SDK client", async () => {
  const { npm, files } = await reached("src/mcp/stdio.ts");
  deepEqual([...npm].filter((name) => name.startsWith("@modelcontextprotocol/")), []);
  // The walk saw the connection and its peer: the graph is the one that runs.
  for (const file of ["src/mcp/_connection.ts", "src/mcp/_lite_peer.ts"]) {
    ok([...files].some((url) => url.endsWith(file)), `${file} is not in the graph`);
  }
});

Deno.test("the static module graph of src/mcp/client.ts does reach the SDK client (the walk finds it)", async () => {
  const { npm } = await reached("src/mcp/client.ts");
  ok(npm.has("@modelcontextprotocol/client"), [...npm].join(", "));
});
