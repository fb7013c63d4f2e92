/**
 * The chaos suite's harness: configs over fake upstreams (`_fake_upstream.ts`) and real npm
 * servers, the gateway CLI started over stdio, and a raw JSON-RPC client that can do what a
 * polite SDK client never does (close stdin early, send 11 MiB, count notifications).
 *
 * Nothing here waits on a timer: a wait ends on an event — a line the gateway writes on stderr
 * (each upstream's state, the lines it relays from them), a notification it sends, a file
 * written (a file-system watch) or a process exiting (a pidfd). A time given to a wait is only
 * its upper bound, after which the test fails saying what it waited for.
 *
 * @module
 */

import { denoEnv } from "../../mcp/_servers.ts";
import { processExit } from "../../_process_exit.ts";
import { ChildLog } from "../../_deno.ts";
import { cliCommand } from "../_gateway.ts";

/**
 * The longest a wait of the suite lasts before it fails, unless it says otherwise: an upper bound
 * only, since every wait ends on its event. Generous, so that it is never what a loaded machine
 * exceeds (on the shared 2 cores at load 16, starting one gateway took over 20 s).
 */
export const WAIT_MS = 60_000;

const CONFIG = new URL("../../../deno.json", import.meta.url).pathname;
const FAKE = new URL("./_fake_upstream.ts", import.meta.url).pathname;

/** A stdio upstream entry running the fake with one behaviour. */
export function fake(behaviour: string, ...extra: string[]): Record<string, unknown> {
  return {
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--config", CONFIG, FAKE, "--behaviour", behaviour, ...extra],
    env: denoEnv(),
  };
}

// server-memory is the healthy real neighbour of the fakes.
export { memoryServer } from "../../mcp/_servers.ts";

/**
 * Small restart delays, so that the suite stays fast; the startup timeout leaves the real servers
 * time to start on a loaded machine (the startup test sets its own).
 */
export const FAST: Readonly<Record<string, number>> = Object.freeze({
  startupTimeoutMs: 8_000,
  restartDelayMs: 200,
  restartMaxDelayMs: 800,
});

/**
 * Writes a config in a fresh temporary directory.
 *
 * @param servers The `mcpServers` block, or a function of the directory giving it.
 * @param unfold The `unfold` block.
 * @returns The config's path and its directory.
 */
export async function writeChaosConfig(
  servers: Record<string, unknown> | ((dir: string) => Record<string, unknown>),
  unfold: Record<string, unknown> = FAST,
): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-chaos-" });
  const path = `${dir}/mcp.json`;
  const block = typeof servers === "function" ? servers(dir) : servers;
  await Deno.writeTextFile(path, JSON.stringify({ mcpServers: block, unfold }));
  return { path, dir };
}

/**
 * Waits for a fake upstream's `--pid-file` (a watch on its folder) and reads the pid it wrote.
 *
 * @param file The pid file's path.
 * @param ms The longest wait.
 * @returns The upstream's pid.
 */
export async function pidIn(file: string, ms = WAIT_MS): Promise<number> {
  const read = async () => {
    try {
      return await Deno.readTextFile(file);
    } catch {
      return "";
    }
  };
  await watched(file.slice(0, file.lastIndexOf("/")), async () => (await read()) !== "", {
    what: `the pid in ${file}`,
    ms,
  });
  return Number(await read());
}

/**
 * Waits until a condition on the files under `dir` holds: checked now, then after each change a
 * file-system watch reports there.
 *
 * @param dir The folder watched (it exists).
 * @param check The condition.
 * @param options What is waited for (for the error) and the longest wait.
 */
export async function watched(
  dir: string,
  check: () => Promise<boolean> | boolean,
  options: { what: string; ms?: number },
): Promise<void> {
  const watcher = Deno.watchFs(dir, { recursive: true });
  // Upper bound only: the wait ends at the first change after which the condition holds.
  const timer = setTimeout(() => watcher.close(), options.ms ?? WAIT_MS);
  try {
    // Watching from before the first check: a change made meanwhile is not missed.
    const changes = watcher[Symbol.asyncIterator]();
    while (!(await check())) {
      if ((await changes.next()).done) throw new Error(`timed out waiting for ${options.what}`);
    }
  } finally {
    clearTimeout(timer);
    try {
      watcher.close();
    } catch {
      // closed by the timer
    }
  }
}

/**
 * Waits until a gateway has written `count` snapshots under `cache`.
 *
 * @param cache The cache folder (`UNFOLD_CACHE_DIR`).
 * @param count How many.
 * @param ms The longest wait.
 */
export async function snapshotsWritten(cache: string, count: number, ms = WAIT_MS): Promise<void> {
  await watched(cache, async () => (await snapshotFiles(cache)).length === count, {
    what: `${count} snapshots in ${cache}`,
    ms,
  });
}

/**
 * Waits until every upstream a process runs has exited: each exit is an event (a pidfd), and
 * the children are looked up again after them, so one started meanwhile is waited for too.
 *
 * @param pid The gateway's process.
 * @param ms The longest wait.
 */
export async function noUpstreams(pid: number, ms = WAIT_MS): Promise<void> {
  const end = Date.now() + ms;
  for (let children = await childPids(pid); children.length > 0; children = await childPids(pid)) {
    const exited = await Promise.all(children.map((child) => exitOf(child, end - Date.now())));
    if (!exited.every(Boolean)) throw new Error(`upstreams of ${pid} still running: ${children}`);
  }
}

/**
 * Waits until a process has exited.
 *
 * @param pid The process.
 * @param ms The longest wait.
 * @returns Whether it exited within the time.
 */
export function exitOf(pid: number, ms = WAIT_MS): Promise<boolean> {
  return processExit(pid, ms);
}

type Message = Record<string, unknown>;

/** The gateway CLI over stdio, spoken to in raw JSON-RPC. */
export class RawGateway implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  /** Its stderr: each upstream's state as it changes, and the lines it relays from them. */
  readonly stderr: ChildLog;
  /** Every notification received so far. */
  readonly notifications: Message[] = [];
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #pending = new Map<unknown, (message: Message) => void>();
  #next = 1;
  #exited: Promise<Deno.CommandStatus>;
  #stdinClosed = false;
  // Resolved at each notification, then renewed.
  #notified = Promise.withResolvers<void>();

  constructor(config: string, extra: readonly string[] = [], env: Record<string, string> = {}) {
    const { command, args } = cliCommand("gateway", "--config", config, ...extra);
    this.child = new Deno.Command(command, {
      args,
      env: { ...denoEnv(), ...env },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.#exited = this.child.status;
    this.stderr = new ChildLog(this.child.stderr.pipeThrough(new TextDecoderStream()).getReader());
    void this.#read();
  }

  /** Every line the gateway wrote to stderr so far. */
  get log(): readonly string[] {
    return this.stderr.lines;
  }

  async #read(): Promise<void> {
    let buffered = "";
    for await (const text of this.child.stdout.pipeThrough(new TextDecoderStream())) {
      buffered += text;
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const message = JSON.parse(line) as Message;
        if ("method" in message && !("id" in message)) {
          this.notifications.push(message);
          this.#notified.resolve();
          this.#notified = Promise.withResolvers();
        } else this.#pending.get(message.id)?.(message);
      }
    }
  }

  /** Writes raw bytes to the gateway's stdin. */
  async write(bytes: Uint8Array | string): Promise<void> {
    await this.#writer.write(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
  }

  /** Waits for the answer to a message already written with this id. */
  answer(id: unknown, timeoutMs = WAIT_MS): Promise<Message> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${id}`)), timeoutMs);
      this.#pending.set(id, (message) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(message);
      });
    });
  }

  /** Sends a request and waits for its answer. */
  async request(method: string, params: Message = {}, timeoutMs?: number): Promise<Message> {
    const id = this.#next++;
    const answered = this.answer(id, timeoutMs);
    await this.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return await answered;
  }

  /** Sends a notification. */
  async notify(method: string, params: Message = {}): Promise<void> {
    await this.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  /** A 2025-era handshake; returns the initialize result. */
  async initialize(timeoutMs?: number): Promise<Message> {
    const answer = await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "chaos", version: "1.0.0" },
    }, timeoutMs);
    await this.notify("notifications/initialized");
    return answer.result as Message;
  }

  /** Calls the bridge and returns the tool result. */
  async bridge(args: Message): Promise<Message> {
    const answer = await this.request("tools/call", { name: "mcp", arguments: args });
    if (answer.error !== undefined) throw new Error(JSON.stringify(answer.error));
    return answer.result as Message;
  }

  /** Describes a tool then executes it (a session enforces describe first). */
  async execute(name: string, args: Message = {}): Promise<Message> {
    await this.bridge({ action: "describe", name });
    return await this.bridge({ action: "execute", name, arguments: args });
  }

  /** The text of a bridge result. */
  static text(result: Message): string {
    const content = result.content as { type: string; text?: string }[];
    return content.map((block) => block.text ?? "").join("\n");
  }

  /** The bridge tool's description (it carries the overview). */
  async overview(): Promise<string> {
    const answer = await this.request("tools/list");
    const tools = (answer.result as { tools: { name: string; description: string }[] }).tools;
    return tools.find((tool) => tool.name === "mcp")?.description ?? "";
  }

  /**
   * Waits until a condition holds: checked now, then again after each event of the gateway — a
   * line on its stderr (each upstream's state, the lines it relays from them), a notification —
   * never on a timer. Answers to the test's own requests are no event (a check may send some).
   * A `tools/list` or a bridge call waits for the gateway to have taken in every upstream change
   * it had seen, so a check after an upstream's state line sees that state. `ms` only bounds
   * the wait.
   *
   * @param check The condition.
   * @param what What is waited for (for the error).
   * @param ms The longest wait.
   */
  async until(check: () => Promise<boolean> | boolean, what: string, ms = WAIT_MS): Promise<void> {
    const { promise: bound, resolve } = Promise.withResolvers<"timeout">();
    const timer = setTimeout(() => resolve("timeout"), ms); // upper bound only
    try {
      for (;;) {
        // Taken before the check: an event during the check brings another check.
        const next = Promise.race([this.stderr.next(), this.#notified.promise]);
        if (await check()) return;
        if (this.stderr.done) throw new Error(`the gateway exited before ${what}`);
        if ((await Promise.race([next, bound])) === "timeout") {
          throw new Error(`timed out waiting for ${what}`);
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Waits for a line on the gateway's stderr.
   *
   * @param pattern What the line matches.
   * @param ms The longest wait.
   * @returns The first such line.
   */
  line(pattern: RegExp, ms = WAIT_MS): Promise<string> {
    return this.stderr.line(pattern, ms);
  }

  /** Closes stdin (the host goes away). */
  async closeStdin(): Promise<void> {
    if (this.#stdinClosed) return;
    this.#stdinClosed = true;
    await this.#writer.close().catch(() => {});
  }

  /** Resolves with the exit status. */
  exited(): Promise<Deno.CommandStatus> {
    return this.#exited;
  }

  /** The gateway's resident memory, in bytes (Linux). */
  async rss(): Promise<number> {
    const status = await Deno.readTextFile(`/proc/${this.child.pid}/status`);
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.closeStdin();
    try {
      this.child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await this.#exited;
  }
}

/** A fake upstream serving Streamable HTTP on a port of its own. */
export interface HttpFake extends AsyncDisposable {
  /** Its `/mcp` URL. */
  url: string;
  /** The process. */
  child: Deno.ChildProcess;
}

/**
 * Starts the fake with `--http` and reads the URL it prints first.
 *
 * @param behaviour Its behaviour.
 * @returns The running fake.
 */
export async function httpFake(behaviour: string): Promise<HttpFake> {
  const { command, args } = fake(behaviour, "--http") as { command: string; args: string[] };
  const child = new Deno.Command(command, {
    args,
    env: denoEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the fake exited before listening: ${seen}`);
    seen += value;
  }
  void reader.cancel().catch(() => {});
  const url = (JSON.parse(seen.slice(0, seen.indexOf("\n"))) as { url: string }).url;
  return {
    url,
    child,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
      await child.status;
    },
  };
}

/**
 * The live child processes of a process (Linux `/proc`; zombies left out): what a gateway has
 * running as upstreams now.
 */
export async function childPids(pid: number): Promise<number[]> {
  const found: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = await Deno.readTextFile(`/proc/${entry.name}/stat`);
    } catch {
      continue; // gone meanwhile
    }
    // The command is in parentheses and may hold spaces: the fields after it are state, ppid.
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(ppid) === pid && state !== "Z") found.push(Number(entry.name));
  }
  return found;
}

/** The snapshots a gateway has written under `cache` (none before the first), by path. */
export async function snapshotFiles(cache: string): Promise<string[]> {
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(`${cache}/snapshots`)) {
      if (entry.name.endsWith(".json")) files.push(`${cache}/snapshots/${entry.name}`);
    }
  } catch {
    // Not written yet.
  }
  return files.sort();
}
