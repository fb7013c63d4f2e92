/**
 * The chaos suite's harness: configs over fake upstreams (`_fake_upstream.ts`) and real npm
 * servers, the gateway CLI started over stdio, and a raw JSON-RPC client that can do what a
 * polite SDK client never does (close stdin early, send 11 MiB, count notifications).
 *
 * @module
 */

import { denoEnv } from "../../mcp/_servers.ts";
import { cliCommand } from "../_gateway.ts";

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
 * Waits for a fake upstream's `--pid-file` and reads the pid it wrote.
 *
 * @param gateway The gateway whose upstream it is (its `until` bounds the wait).
 * @param file The pid file's path.
 * @returns The upstream's pid.
 */
export async function pidIn(gateway: RawGateway, file: string): Promise<number> {
  await gateway.until(async () => {
    try {
      return (await Deno.readTextFile(file)) !== "";
    } catch {
      return false;
    }
  }, `the pid in ${file}`);
  return Number(await Deno.readTextFile(file));
}

type Message = Record<string, unknown>;

/** The gateway CLI over stdio, spoken to in raw JSON-RPC. */
export class RawGateway implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  /** Every line the gateway wrote to stderr so far. */
  readonly log: string[] = [];
  /** Every notification received so far. */
  readonly notifications: Message[] = [];
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #pending = new Map<unknown, (message: Message) => void>();
  #next = 1;
  #exited: Promise<Deno.CommandStatus>;
  #stdinClosed = false;

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
    void this.#read();
    void this.#readLog();
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
        if ("method" in message && !("id" in message)) this.notifications.push(message);
        else this.#pending.get(message.id)?.(message);
      }
    }
  }

  async #readLog(): Promise<void> {
    let buffered = "";
    for await (const text of this.child.stderr.pipeThrough(new TextDecoderStream())) {
      buffered += text;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      this.log.push(...lines);
    }
  }

  /** Writes raw bytes to the gateway's stdin. */
  async write(bytes: Uint8Array | string): Promise<void> {
    await this.#writer.write(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
  }

  /** Waits for the answer to a message already written with this id. */
  answer(id: unknown, timeoutMs = 20_000): Promise<Message> {
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

  /** Waits until a condition holds, polling the gateway (bounded). */
  async until(check: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
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

/** Whether a process is gone (no such pid, or a zombie waiting to be reaped). */
export async function gone(pid: number): Promise<boolean> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    return /State:\s+Z/.test(status);
  } catch {
    return true;
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

/** How many snapshots a gateway has written under `cache` (0 before the first). */
export async function snapshotCount(cache: string): Promise<number> {
  let count = 0;
  try {
    for await (const entry of Deno.readDir(`${cache}/snapshots`)) {
      if (entry.name.endsWith(".json")) count += 1;
    }
  } catch {
    // Not written yet.
  }
  return count;
}
