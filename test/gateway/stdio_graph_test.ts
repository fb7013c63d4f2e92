// The stdio gateway never loads the MCP SDK's server package: the static module graph of its
// modules (dynamic imports aside) reaches no `npm:@modelcontextprotocol/server`.
import { deepEqual } from "node:assert/strict";

interface Graph {
  roots: string[];
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
  redirects?: Record<string, string>;
}

async function staticGraph(path: string): Promise<Set<string>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--node-modules-dir=auto", path],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const graph: Graph = JSON.parse(new TextDecoder().decode(output.stdout));
  const bySpecifier = new Map(graph.modules.map((module) => [module.specifier, module]));
  const resolve = (specifier: string) => graph.redirects?.[specifier] ?? specifier;
  const seen = new Set<string>();
  const queue = graph.roots.map(resolve);
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dependency.isDynamic || dependency.code === undefined) continue;
      queue.push(resolve(dependency.code.specifier));
    }
  }
  return seen;
}

// The package as imported (`npm:@…@2.4.0`) or as redirected (`npm:/@…@2.4.0`), not its namesakes
// (`server-everything`).
const SDK_SERVER = /^npm:\/?@modelcontextprotocol\/server(?:@|\/|$)/;
const sdkServer = (reached: Set<string>) =>
  [...reached].filter((specifier) => SDK_SERVER.test(specifier));

// What `unfold gateway` loads to serve stdio: the wire, the face, the gateway and its host.
for (
  const path of [
    "src/gateway/stdio_face.ts",
    "src/gateway/stdio_wire.ts",
    "src/gateway/gateway.ts",
    "src/gateway/host.ts",
  ]
) {
  Deno.test(`${path} loads no MCP SDK server package`, async () => {
    deepEqual(sdkServer(await staticGraph(path)), []);
  });
}

// A walk that saw nothing would pass for nothing: it finds the SDK where it is loaded.
Deno.test("the graph walk finds the SDK server in the HTTP face's graph", async () => {
  deepEqual(sdkServer(await staticGraph("src/gateway/face.ts")).length > 0, true);
});
