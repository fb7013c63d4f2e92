/**
 * The reference MCP servers the tests run: npm packages pinned in deno.json, started with the Deno
 * that runs the tests; server-everything's Streamable HTTP mode on a port the system chose.
 *
 * @module
 */

import { spawnLogged, stopper } from "../_deno.ts";

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

/**
 * server-memory, storing in a fresh directory: a config's entry for it.
 *
 * @param dir The directory its memory file is written in.
 * @returns The entry (command, arguments, environment).
 */
export function memoryServer(dir: string): Record<string, unknown> {
  return {
    ...npmServer("@modelcontextprotocol/server-memory"),
    env: { ...denoEnv(), MEMORY_FILE_PATH: `${dir}/memory.jsonl` },
  };
}

/** The environment a process a test starts needs: the host's Deno cache, and an unfold cache of its own. */
export function denoEnv(): Record<string, string> {
  const dir = Deno.env.get("DENO_DIR");
  // A cache of its own for each process started: a gateway never answers from the snapshots
  // another test left (the folder is only made when a snapshot is written).
  const cache = { UNFOLD_CACHE_DIR: `${TEMP}/unfold-cache-${crypto.randomUUID()}` };
  return dir === undefined ? cache : { DENO_DIR: dir, ...cache };
}

const TEMP = Deno.env.get("TMPDIR") ?? "/tmp";

/**
 * The TCP port a process listens on, read from the system (Linux `/proc`): for servers such as
 * server-everything that bind port 0 but print the port they were asked for, not the one they got.
 *
 * @param pid The process.
 * @returns The port, or `undefined` when it listens on none.
 */
export async function listeningPort(pid: number): Promise<number | undefined> {
  const sockets = new Set<string>();
  for await (const fd of Deno.readDir(`/proc/${pid}/fd`)) {
    const link = await Deno.readLink(`/proc/${pid}/fd/${fd.name}`).catch(() => "");
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    if (inode !== undefined) sockets.add(inode);
  }
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const rows = (await Deno.readTextFile(table)).trim().split("\n").slice(1);
    for (const row of rows) {
      const [, local, , state, , , , , , inode] = row.trim().split(/\s+/);
      // State 0A is LISTEN; the local address ends with the port in hex.
      if (state === "0A" && sockets.has(inode!)) return parseInt(local!.split(":").pop()!, 16);
    }
  }
  return undefined;
}

/** server-everything serving Streamable HTTP on a free loopback port. */
export interface HttpEverything extends AsyncDisposable {
  /** Its MCP endpoint. */
  url: string;
  /** Stops it and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts server-everything in its `streamableHttp` mode on port 0 and waits until it listens; its
 * port is then read from the system, since the server prints the port it was asked for (0).
 *
 * @returns The running server.
 */
export async function startHttpEverything(): Promise<HttpEverything> {
  const { command, args } = npmServer("@modelcontextprotocol/server-everything", "streamableHttp");
  const { child, lines } = spawnLogged(command, args, { PORT: "0" });
  let seen = "";
  let port: number | undefined;
  try {
    while (!seen.includes("listening on port")) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`server-everything exited before listening: ${seen}`);
      seen += value;
    }
    port = await listeningPort(child.pid);
    if (port === undefined) throw new Error(`server-everything listens on no port: ${seen}`);
  } catch (error) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await lines.cancel().catch(() => {});
    await child.status;
    throw error;
  }
  const stop = stopper(child, lines);
  return { url: `http://127.0.0.1:${port}/mcp`, stop, [Symbol.asyncDispose]: stop };
}
