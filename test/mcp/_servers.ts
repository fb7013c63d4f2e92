/**
 * The reference MCP servers the tests run: npm packages pinned in deno.json, started with the Deno
 * that runs the tests, and a free loopback port for server-everything's Streamable HTTP mode.
 *
 * @module
 */

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/**
 * How to start an npm MCP server pinned in deno.json: `deno run` of its package, resolved through
 * the project's import map and node_modules (so nothing is installed by hand).
 *
 * @param pkg The package, as named in deno.json's imports.
 * @param args The server's own arguments.
 * @returns The command and its arguments.
 */
export function npmServer(pkg: string, ...args: string[]): { command: string; args: string[] } {
  return {
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--config", CONFIG, `npm:${pkg}`, ...args],
  };
}

/** The environment a server started by {@linkcode npmServer} needs: the host's Deno cache. */
export function denoEnv(): Record<string, string> {
  const dir = Deno.env.get("DENO_DIR");
  return dir === undefined ? {} : { DENO_DIR: dir };
}

/**
 * A loopback port that nothing listens on (it was free a moment ago).
 *
 * @returns The port.
 */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** server-everything serving Streamable HTTP on a free loopback port. */
export interface HttpEverything extends AsyncDisposable {
  /** Its MCP endpoint. */
  url: string;
  /** Stops it and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts server-everything in its `streamableHttp` mode on a free loopback port and waits until it
 * listens (at most 30 s).
 *
 * @returns The running server.
 */
export async function startHttpEverything(): Promise<HttpEverything> {
  const port = freePort();
  const { command, args } = npmServer("@modelcontextprotocol/server-everything", "streamableHttp");
  const child = new Deno.Command(command, {
    args,
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    while (!seen.includes("listening on port")) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`server-everything exited before listening: ${seen}`);
      seen += value;
    }
  } catch (error) {
    clearTimeout(deadline);
    await lines.cancel().catch(() => {});
    await child.status;
    throw error;
  }
  clearTimeout(deadline);
  // Keep draining its log so that it never blocks on a full pipe.
  const drained = (async () => {
    while (!(await lines.read()).done) { /* discard */ }
  })().catch(() => {});
  let stopped: Promise<void> | undefined;
  const stop = () =>
    stopped ??= (async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await drained;
    })();
  return { url: `http://127.0.0.1:${port}/mcp`, stop, [Symbol.asyncDispose]: stop };
}
