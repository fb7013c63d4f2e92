import { deepEqual, equal, ok } from "node:assert/strict";
import { connectStdio } from "../../src/mcp/stdio.ts";
import { npmServer } from "../mcp/_servers.ts";
import { type Running, startDenoServer, startWrangler } from "./_processes.ts";

// A host that runs its tools itself (here server-filesystem, over stdio) replays a run through
// each face's /v1/route: deno task start (the Deno sandbox, a child deno per run) and the API
// Worker in wrangler dev (a Worker Loader isolate per run).
for (
  const [face, start] of [
    ["deno task start", () => startDenoServer()],
    ["the API Worker in wrangler dev", () => startWrangler("wrangler.toml")],
  ] as [string, () => Promise<Running>][]
) {
  Deno.test(`${face} replays a run whose calls the host makes on server-filesystem`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "unfold-code-e2e-" });
    for (let i = 0; i < 30; i++) await Deno.writeTextFile(`${dir}/f${i}.txt`, "x".repeat(i * 101));
    const fs = await connectStdio({
      server: "fs",
      ...npmServer("@modelcontextprotocol/server-filesystem", dir),
    });
    const running = await start();
    try {
      const catalog = await fs.tools();
      const route = async (body: Record<string, unknown>) => {
        const response = await fetch(`${running.url}/v1/route`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ catalog, options: { codeMode: "read-only" }, ...body }),
        });
        equal(response.status, 200);
        return await response.json();
      };
      const code = `const { content } = await call("fs/list_directory_with_sizes", { path: ${
        JSON.stringify(dir)
      }, sortBy: "size" });
        const files = content.split("\\n").filter((l) => l.startsWith("[FILE]"));
        console.log(files.length + " files");
        return files.slice(0, 3).map((l) => l.slice(7).trim().split(/\\s{2,}/)[0]);`;
      const results: unknown[] = [];
      let answer = await route({ arguments: { action: "run", code }, session: "e2e" });
      while (answer.action === "call") {
        equal(answer.index, results.length);
        results.push(await fs.forward(answer.tool.name, answer.arguments));
        answer = await route({ arguments: { action: "run", code }, session: "e2e", results });
      }
      equal(answer.action, "run", JSON.stringify(answer));
      deepEqual(answer.result, ["f29.txt", "f28.txt", "f27.txt"]);
      deepEqual(answer.logs, ["30 files"]);
      deepEqual(answer.calls, [{ id: "fs/list_directory_with_sizes", ok: true }]);
      const session = await (await fetch(`${running.url}/v1/sessions/e2e`)).json();
      deepEqual([session.counters.runs, session.counters.scriptCalls], [1, 1]);
      // A write from a read-only script is refused, and nothing reaches the host.
      const write = await route({
        arguments: {
          action: "run",
          code: `return await call("fs/write_file", { path: ${
            JSON.stringify(`${dir}/x`)
          }, content: "x" })`,
        },
      });
      equal(write.action, "run");
      equal(write.error.code, "script_error");
      ok(write.error.message.includes("execute it through the bridge"), write.error.message);
    } finally {
      await running.close();
      await fs.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
