/**
 * The stdio client transport unfold owns: a child process spoken to over its stdin and stdout,
 * on the MCP SDK's public `Transport` interface, for the SDK's `Client`. The SDK's
 * `StdioClientTransport` closes the connection on a message over its buffer limit and hides its
 * process handle; ours reads with the one stdio line policy (`src/protocol/stdio_lines.ts`,
 * {@linkcode ServerLines}: an answer over the limit, or not UTF-8, fails only the request it
 * answers) and stops its process on its own schedule (stdin closed, then SIGTERM, then SIGKILL),
 * through its own handle. The process is spawned before the SDK's client package is loaded (it
 * loads while the server boots): a gateway's upstreams start at once.
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { type LineFault, StdioLines, UNREADABLE_ANSWER_CODE } from "../protocol/stdio_lines.ts";

/** The host variables a server inherits when its config names no environment (the SDK's list). */
const INHERITED_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"] as const;

/** How to start the process, and what to tell the owner. */
export interface StdioProcess {
  /** The program. */
  command: string;
  /** Its arguments. */
  args: readonly string[];
  /** Variables added to the inherited ones. */
  env?: Record<string, string>;
  /** Its working directory. */
  cwd?: string;
  /** Receives the process's error output as it comes. */
  onStderr?: (text: string) => void;
  /** Told when an answer over the message limit names no request. */
  onUnattributed?: (why: string) => void;
  /** How long the process may take to exit once its stdin is closed, then after SIGTERM. */
  graceMs?: { exit: number; term: number };
}

/** The safe subset of the host's environment plus the server's own variables. */
export function serverEnvironment(own: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    // A value starting "()" is a shell function: never passed on (as the SDK does).
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return { ...env, ...own };
}

/** A child process as an MCP client transport. */
export class StdioProcessTransport implements Transport {
  /** Told of each message the server sends. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Told of a broken stream or an unreadable message. */
  onerror?: (error: Error) => void;
  /** Told once, when the process has gone. */
  onclose?: () => void;
  #options: StdioProcess;
  #child: ChildProcess | undefined;
  #starting: Promise<void> | undefined;
  // The SDK's line check and writer, once loaded; the output read before that, held.
  #reader: ServerLines | undefined;
  #held: Uint8Array[] = [];
  #serialize: (message: JSONRPCMessage) => string = () => {
    throw new Error("Not connected: the stdio transport is not started");
  };
  #closing: Promise<void> | undefined;
  #exited = Promise.withResolvers<void>();

  /**
   * Makes the transport; the process starts with {@linkcode StdioProcessTransport.start}.
   *
   * @param options The command and callbacks.
   */
  constructor(options: StdioProcess) {
    this.#options = options;
  }

  /** The process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Starts the process, then loads the SDK's line check while it boots; one start however many
   * ask (the connection starts it early, the SDK's client again).
   *
   * @returns Resolves once it runs and its output can be read.
   * @throws {Error} When it cannot be started (`ENOENT` for a command not found).
   */
  start(): Promise<void> {
    return this.#starting ??= this.#start();
  }

  async #start(): Promise<void> {
    const spawned = this.#spawn();
    // Awaited below, once the SDK has loaded: a failure meanwhile is not an unhandled one.
    spawned.catch(() => {});
    const sdk = await import("@modelcontextprotocol/client");
    this.#serialize = sdk.serializeMessage;
    const options = this.#options;
    this.#reader = new ServerLines(sdk.parseJSONRPCMessage, {
      message: (message) => this.onmessage?.(message),
      error: (error) => this.onerror?.(error),
      unattributed: (why) => options.onUnattributed?.(why),
    });
    for (const chunk of this.#held.splice(0)) this.#reader.push(chunk);
    await spawned;
  }

  #spawn(): Promise<void> {
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const child = spawn(this.#options.command, [...this.#options.args], {
      env: serverEnvironment(this.#options.env),
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      ...(this.#options.cwd === undefined ? {} : { cwd: this.#options.cwd }),
    });
    this.#child = child;
    let spawned = false;
    child.on("spawn", () => {
      spawned = true;
      resolve();
    });
    child.on("error", (error) => {
      if (spawned) return this.onerror?.(error);
      // It never ran: there is nothing to wait for when closing.
      this.#exited.resolve();
      reject(error);
    });
    // The process has gone at "exit"; its pipes close after ("close"), unless a process it
    // started holds them: then stopping destroys them, so a close never waits on a grandchild.
    child.on("exit", () => this.#exited.resolve());
    child.on("close", () => {
      this.#reader?.clear();
      this.#held = [];
      this.onclose?.();
    });
    child.stdin?.on("error", (error) => this.onerror?.(error));
    child.stdout?.on("error", (error) => this.onerror?.(error));
    child.stdout?.on("data", (chunk: Uint8Array) => {
      if (this.#reader !== undefined) this.#reader.push(chunk);
      else this.#held.push(chunk.slice());
    });
    const decoder = new TextDecoder();
    child.stderr?.on("data", (chunk: Uint8Array) => {
      this.#options.onStderr?.(decoder.decode(chunk, { stream: true }));
    });
    return promise;
  }

  /**
   * Sends a message.
   *
   * @param message The message.
   * @returns Resolves once written (after a drain when the pipe is full).
   * @throws {Error} When the process is not running.
   */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (this.#closing !== undefined || stdin == null) {
      return Promise.reject(new Error("Not connected: the server's process is not running"));
    }
    const { promise, resolve } = Promise.withResolvers<void>();
    if (stdin.write(this.#serialize(message))) resolve();
    else stdin.once("drain", resolve);
    return promise;
  }

  /**
   * Stops the process: stdin closed, SIGTERM after the exit grace, SIGKILL after the term grace.
   * One close however many ask; each waits for the process to be gone.
   *
   * @returns Resolves once the process has gone.
   */
  close(): Promise<void> {
    return this.#closing ??= this.#stop();
  }

  async #stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
      this.#exited.resolve();
      return;
    }
    const { exit, term } = this.#options.graceMs ?? { exit: 250, term: 350 };
    const timers = [
      setTimeout(() => signal(child, "SIGTERM"), exit),
      setTimeout(() => signal(child, "SIGKILL"), exit + term),
    ];
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    try {
      await this.#exited.promise;
    } finally {
      for (const timer of timers) clearTimeout(timer);
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    }
  }
}

/** What a client does with each line of a server's output. */
export interface ServerLineHandlers {
  /** A message, or the error answer that stands for an answer the client could not read. */
  message(message: JSONRPCMessage): void;
  /** A line that is JSON but no JSON-RPC message, or unreadable and naming no request. */
  error(error: Error): void;
  /** An answer over the limit that names no request: every pending request should fail. */
  unattributed(why: string): void;
}

/**
 * A client's reading of a server's output, on the one stdio line policy: an answer the client
 * cannot read (over the limit, not UTF-8, no JSON-RPC response) becomes an error answer to the
 * request it names (code `UNREADABLE_ANSWER_CODE`, an oversized one's size and the limit in its
 * data), so that request alone fails instead of waiting for its timeout; a line that is not JSON
 * is the server's stray output, skipped as the SDK's reader skips it.
 *
 * @example Usage
 * ```ts
 * import { ServerLines } from "./_stdio_transport.ts";
 * import { equal } from "node:assert/strict";
 *
 * const seen: { id?: unknown; error?: { code: number } }[] = [];
 * import { parseJSONRPCMessage } from "@modelcontextprotocol/client";
 *
 * const lines = new ServerLines(parseJSONRPCMessage, { message: (m) => void seen.push(m as never), error: () => {}, unattributed: () => {} }, 64);
 * lines.push(new TextEncoder().encode(`{"jsonrpc":"2.0","id":1,"result":{}}\n{"result":{"text":"${"x".repeat(100)}"},"jsonrpc":"2.0","id":2}\n`));
 * equal(seen[0]?.id, 1);
 * equal(seen[1]?.error?.code, -32_099);
 * ```
 */
export class ServerLines {
  readonly #lines: StdioLines<JSONRPCMessage>;

  /**
   * Makes a reader.
   *
   * @param check Reads a parsed line as a message (the SDK's `parseJSONRPCMessage`); throws when
   * it is none.
   * @param handlers Where messages, errors and unattributed answers go.
   * @param maxBytes The longest answer read, in bytes.
   */
  constructor(
    check: (value: unknown) => JSONRPCMessage,
    handlers: ServerLineHandlers,
    maxBytes?: number,
  ) {
    this.#lines = new StdioLines(check, {
      message: (message) => handlers.message(message),
      refused: (fault) => {
        if (fault.kind === "not_json") return;
        // A request of the server's that is malformed names an id of its own, not one of ours.
        if (fault.kind === "not_jsonrpc" && (fault.method || fault.id === null)) {
          return handlers.error(
            new TypeError("The server sent a line that is no JSON-RPC message"),
          );
        }
        const why = unreadable(fault);
        if (fault.id !== null) {
          const data = fault.kind === "oversized" ? { bytes: fault.bytes, limit: fault.limit } : {};
          return handlers.message({
            jsonrpc: "2.0",
            id: fault.id,
            error: { code: UNREADABLE_ANSWER_CODE, message: why, data },
          });
        }
        if (fault.kind === "oversized") handlers.unattributed(why);
        else handlers.error(new TypeError("The server sent a line that is not UTF-8"));
      },
    }, maxBytes);
  }

  /**
   * Takes the next bytes of the server's output.
   *
   * @param chunk The bytes.
   */
  push(chunk: Uint8Array): void {
    this.#lines.push(chunk);
  }

  /** Drops everything held. */
  clear(): void {
    this.#lines.clear();
  }
}

// Why an answer could not be read, in words for the caller of the request it answered.
function unreadable(fault: Exclude<LineFault, { kind: "not_json" }>): string {
  switch (fault.kind) {
    case "oversized":
      return `the server's answer is ${fault.bytes} bytes, over the limit of ${fault.limit} ` +
        "bytes for one message: ask for less at a time";
    case "not_utf8":
      return "the server's answer is not UTF-8";
    default:
      return "the server's answer is no JSON-RPC response";
  }
}

function signal(child: ChildProcess, name: "SIGTERM" | "SIGKILL"): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill(name);
  } catch {
    // gone meanwhile
  }
}
