/**
 * The stdio client transport unfold owns: a child process spoken to over its stdin and stdout,
 * on the MCP SDK's public `Transport` interface. The SDK's `StdioClientTransport` closes the
 * connection on a message over its buffer limit and hides its process handle; ours reads with
 * the bounded {@linkcode LineReader} (an oversized answer fails only its request) and stops its
 * process on its own schedule (stdin closed, then SIGTERM, then SIGKILL), through its own handle.
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { messageLine, STDIO_MAX_MESSAGE_BYTES } from "../protocol/jsonrpc.ts";
import { LineReader } from "./_line_reader.ts";

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
  #reader: LineReader;
  #closing: Promise<void> | undefined;
  #exited = Promise.withResolvers<void>();

  /**
   * Makes the transport; the process starts with {@linkcode StdioProcessTransport.start}.
   *
   * @param options The command and callbacks.
   */
  constructor(options: StdioProcess) {
    this.#options = options;
    this.#reader = new LineReader(
      STDIO_MAX_MESSAGE_BYTES,
      (why) => options.onUnattributed?.(why),
    );
  }

  /** The process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Starts the process.
   *
   * @returns Resolves once it runs.
   * @throws {Error} When it cannot be started (`ENOENT` for a command not found).
   */
  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error("The stdio transport is already started");
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
      if (!spawned) reject(error);
      else this.onerror?.(error);
    });
    // The process has gone at "exit"; its pipes close after ("close"), unless a process it
    // started holds them: then stopping destroys them, so a close never waits on a grandchild.
    child.on("exit", () => this.#exited.resolve());
    child.on("close", () => {
      this.#reader.clear();
      this.onclose?.();
    });
    child.stdin?.on("error", (error) => this.onerror?.(error));
    child.stdout?.on("error", (error) => this.onerror?.(error));
    child.stdout?.on("data", (chunk: Uint8Array) => {
      this.#reader.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.#reader.readMessage();
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
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
    if (stdin.write(messageLine(message))) resolve();
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

function signal(child: ChildProcess, name: "SIGTERM" | "SIGKILL"): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill(name);
  } catch {
    // gone meanwhile
  }
}
