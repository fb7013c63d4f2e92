/**
 * The ranking data is read through the bounded regular-file reader: a named pipe in the place of
 * `src/page/ranking-en.bin` (no writer, so a plain read waits for good, and the signal handlers
 * with it) neither hangs `deno task start` nor the `unfold` command; each ranks lexically, says
 * why, and SIGTERM still stops the server. On a clone of the repository whose data file is a
 * FIFO, with the real tasks.
 *
 * @module
 */

import { equal, match } from "node:assert/strict";
import { cloneRepo } from "../_deno.ts";
import { loadDenoRanker } from "../../src/deno/ranking_file.ts";

async function mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  equal(made.success, true, new TextDecoder().decode(made.stderr));
}

Deno.test("loadDenoRanker refuses a named pipe in the data's place at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-fifo-" });
  try {
    await mkfifo(`${dir}/ranking-en.bin`);
    const file = new URL(`file://${dir}/ranking-en.bin`);
    const error = await loadDenoRanker(file).then(() => undefined, (e: Error) => e);
    match(String(error), /Cannot read the ranking data at .*: it is not a regular file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "a FIFO in place of the ranking data hangs neither deno task start nor unfold, and SIGTERM stops the server",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const temp = await Deno.makeTempDir({ prefix: "unfold-fifo-clone-" });
    // A server that did not stop on SIGTERM is killed, never left running.
    let exited: Promise<Deno.CommandStatus> | undefined;
    let kill = () => {};
    try {
      const repo = await cloneRepo(temp);
      await Deno.remove(`${repo}/src/page/ranking-en.bin`);
      await mkfifo(`${repo}/src/page/ranking-en.bin`);
      const child = new Deno.Command(Deno.execPath(), {
        args: ["task", "start"],
        cwd: repo,
        env: { PORT: "0", NO_COLOR: "1" },
        stdin: "null",
        stdout: "piped",
        stderr: "null",
      }).spawn();
      const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      exited = child.status;
      kill = () => child.kill("SIGKILL");
      let seen = "";
      let url: string | undefined;
      while (url === undefined) {
        const { value, done } = await lines.read();
        if (done) throw new Error(`deno task start exited: ${seen}`);
        seen += value;
        url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen)?.[1];
      }
      // A search waits for the ranking data's load, which fails at once: lexical, and said.
      // (Before, the process blocked in its read: a bound turns that hang into a failure.)
      const routed = await fetch(`${url}/v1/route`, {
        signal: AbortSignal.timeout(60_000),
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          catalog: [{
            server: "demo",
            name: "echo",
            description: "Echo a message",
            inputSchema: { type: "object" },
          }],
          arguments: { action: "search", query: "echo" },
        }),
      });
      equal(routed.status, 200);
      equal(routed.headers.get("unfold-ranker"), "lexical");
      await routed.body?.cancel();
      const health = await (await fetch(`${url}/healthz`)).json();
      match(health.rankerProblem, /it is not a regular file/);
      child.kill("SIGTERM");
      while (!(await lines.read()).done) { /* the rest of its output */ }
      const status = await child.status;
      equal(status.success, true, `exit ${status.code} ${status.signal}: ${seen}`);
      // The command's search too: it ranks lexically, says why, and ends.
      await Deno.writeTextFile(`${temp}/mcp.json`, '{"mcpServers": {}}');
      const search = await new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", "unfold", "search", "--config", `${temp}/mcp.json`, "echo"],
        cwd: repo,
        env: { NO_COLOR: "1", UNFOLD_CACHE_DIR: `${temp}/cache-unfold` },
        stdin: "null",
      }).output();
      const stderr = new TextDecoder().decode(search.stderr);
      equal(search.code, 1, stderr);
      match(
        stderr,
        /cannot load the word vectors \(Error: Cannot read the ranking data at .*: it is not a regular file\)/,
      );
    } finally {
      if (exited !== undefined) {
        try {
          kill();
        } catch { /* it stopped already */ }
        await exited;
      }
      await Deno.remove(temp, { recursive: true });
    }
  },
});
