/**
 * Code mode's sandbox on Deno: each run in a fresh child `deno` process with no permissions at
 * all (no network, files, environment, subprocess, FFI or system information; `--no-prompt`, an
 * empty environment, no config, no lock file), its V8 heap capped at the run's memory and code
 * generation from strings off; the script in a `node:vm` context inside it
 * (`_sandbox_child.ts`). The process talks to this one over its pipes only; it is killed when
 * the run ends, for whatever reason, and reaped before `run` returns. Runs beyond
 * `maxProcesses` wait for a free process (their wait counts in their time).
 *
 * @module
 */

import { HARNESS_SOURCE } from "../code_mode/harness.ts";
import { harnessSettings } from "../code_mode/harness_settings.ts";
import { prepareScript } from "../code_mode/prepare.ts";
import { scriptExpression } from "../code_mode/script_text.ts";
import type { Sandbox, SandboxEnd, SandboxHost, SandboxScript } from "../code_mode/sandbox.ts";
import { StdioLines } from "../protocol/stdio_lines.ts";
import { CHILD_PROGRAM } from "./_sandbox_child.ts";

/** How a {@linkcode DenoSandbox} starts its processes. */
export interface DenoSandboxOptions {
  /**
   * The `deno` to run: this process's own when it may run it, else `deno` from the `PATH` (a
   * server started with `--allow-run=deno`).
   */
  command?: string;
  /**
   * The most sandbox processes running scripts at once.
   * @default {4}
   */
  maxProcesses?: number;
  /**
   * Processes started ahead, each waiting for one run (fresh: it has run nothing), so that a run
   * does not wait for a process to start; `close()` stops them. A process that waits exits with
   * this one (its stdin closes).
   * @default {0}
   */
  prewarm?: number;
}

interface Spare {
  child: Deno.ChildProcess;
  memoryMb: number;
  exited: boolean;
}

// The heap beyond the script's own: the harness, the context and Deno's runtime.
const HEAP_HEADROOM_MB = 16;
// The stderr kept of a process, to say why it died.
const STDERR_TAIL = 4096;
// Messages carry JSON: up to six bytes a character (\u escapes), plus the envelope.
const LINE_FACTOR = 6;
const LINE_SLACK = 64 * 1024;

/**
 * The Deno sandbox.
 *
 * @example Usage
 * ```ts ignore
 * import { DenoSandbox } from "./code_sandbox.ts";
 * import { Injector, McpCatalog } from "../../mod.ts";
 *
 * const injector = new Injector(new McpCatalog([]), { codeMode: "all" });
 * const answer = await injector.run("return 6 * 7", { sandbox: new DenoSandbox(), invoker: { invoke: () => null } });
 * ```
 */
export class DenoSandbox implements Sandbox {
  #command: string;
  #free: number;
  #waiting: (() => void)[] = [];
  #prewarm: number;
  #spares: Spare[] = [];
  #closed = false;
  #running = 0;

  /**
   * Makes the sandbox.
   *
   * @param options The `deno` to run and the most processes at once.
   */
  constructor(options: DenoSandboxOptions = {}) {
    this.#command = options.command ?? defaultCommand();
    this.#free = options.maxProcesses ?? 4;
    this.#prewarm = options.prewarm ?? 0;
  }

  /** The sandbox processes alive now: those running scripts and those started ahead. */
  get processes(): number {
    return this.#running + this.#spares.length;
  }

  /** Stops the processes started ahead (runs still going end as they would). */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#spares.splice(0).map((spare) => stopSpare(spare.child)));
  }

  /**
   * Runs one script in a fresh process (see {@linkcode Sandbox.run}).
   *
   * @param script The code and its bounds.
   * @param host Where the script's messages go.
   * @param signal Stops the run.
   * @returns How the run ended.
   */
  async run(script: SandboxScript, host: SandboxHost, signal: AbortSignal): Promise<SandboxEnd> {
    const prepared = prepareScript(script.code, script.limits.maxCodeChars);
    if (!prepared.ok) return { kind: "rejected", problem: prepared.error };
    const started = performance.now();
    const limits = script.limits;
    if (!await this.#slot(signal, limits.timeoutMs)) {
      return signal.aborted ? { kind: "aborted" } : { kind: "limit", limit: "timeoutMs" };
    }
    try {
      const left = limits.timeoutMs - (performance.now() - started);
      if (left <= 0) return { kind: "limit", limit: "timeoutMs" };
      let child: Deno.ChildProcess;
      try {
        child = this.#take(limits.memoryMb + HEAP_HEADROOM_MB);
      } catch (error) {
        return { kind: "failed", message: `cannot start deno: ${(error as Error).message}` };
      }
      this.#running++;
      try {
        return await runChild(child, {
          harness: HARNESS_SOURCE,
          script: scriptExpression(prepared.value.source),
          settings: harnessSettings(limits, 1),
        }, { script, host, signal, timeoutMs: left });
      } finally {
        this.#running--;
        // After the run, not beside it: a process starting takes a core the run needs.
        this.#refill(limits.memoryMb + HEAP_HEADROOM_MB);
      }
    } finally {
      this.#release();
    }
  }

  // A process slot, waited for until the run's time is out or it is stopped.
  async #slot(signal: AbortSignal, timeoutMs: number): Promise<boolean> {
    if (this.#free > 0) {
      this.#free--;
      return true;
    }
    const { promise, resolve } = Promise.withResolvers<boolean>();
    const wake = () => resolve(true);
    this.#waiting.push(wake);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const stop = () => resolve(false);
    signal.addEventListener("abort", stop, { once: true });
    const got = await promise;
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
    if (!got) {
      const at = this.#waiting.indexOf(wake);
      if (at !== -1) this.#waiting.splice(at, 1);
      else this.#release(); // woken and stopped at once: the slot goes on
    }
    return got;
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#free++;
  }

  // A process started ahead when one waits with this heap, else a new one.
  #take(memoryMb: number): Deno.ChildProcess {
    const at = this.#spares.findIndex((spare) => !spare.exited && spare.memoryMb === memoryMb);
    if (at === -1) return spawn(this.#command, memoryMb);
    const child = this.#spares.splice(at, 1)[0]!.child;
    child.ref();
    return child;
  }

  // The spares made up again (those that died on their own are reaped).
  #refill(memoryMb: number): void {
    this.#spares = this.#spares.filter((spare) => {
      if (spare.exited) void stopSpare(spare.child);
      return !spare.exited;
    });
    while (!this.#closed && this.#spares.length < this.#prewarm) {
      try {
        const spare: Spare = { child: spawn(this.#command, memoryMb), memoryMb, exited: false };
        // A process waiting for a run never keeps this one alive.
        spare.child.unref();
        void spare.child.status.then(() => spare.exited = true);
        this.#spares.push(spare);
      } catch {
        break; // a spare is only a head start
      }
    }
  }
}

function spawn(command: string, memoryMb: number): Deno.ChildProcess {
  return new Deno.Command(command, {
    args: [
      "run",
      "--no-prompt",
      "--no-config",
      "--no-lock",
      "--quiet",
      `--v8-flags=--disallow-code-generation-from-strings,--max-old-space-size=${memoryMb}`,
      CHILD_PROGRAM,
    ],
    clearEnv: true,
    env: { NO_COLOR: "1", TZ: "UTC", DENO_NO_UPDATE_CHECK: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function stopSpare(child: Deno.ChildProcess): Promise<void> {
  // Waited for now: its end must hold the event loop until it comes.
  child.ref();
  try {
    child.kill("SIGKILL");
  } catch { /* already gone */ }
  await Promise.all([
    child.status,
    child.stdout.cancel().catch(() => {}),
    child.stderr.cancel().catch(() => {}),
    child.stdin.close().catch(() => {}),
  ]);
}

interface ChildRun {
  script: SandboxScript;
  host: SandboxHost;
  signal: AbortSignal;
  timeoutMs: number;
}

async function runChild(
  child: Deno.ChildProcess,
  init: Record<string, unknown>,
  run: ChildRun,
): Promise<SandboxEnd> {
  const { limits } = run.script;
  let end: SandboxEnd | undefined;
  const settle = (value: SandboxEnd) => {
    if (end !== undefined) return;
    end = value;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  };
  const timer = setTimeout(() => settle({ kind: "limit", limit: "timeoutMs" }), run.timeoutMs);
  const stop = () => settle({ kind: "aborted" });
  run.signal.addEventListener("abort", stop);
  if (run.signal.aborted) stop();

  const encoder = new TextEncoder();
  const stdin = child.stdin.getWriter();
  let writing: Promise<void> = Promise.resolve();
  const send = (text: string) => {
    const bytes = encoder.encode(text + "\n");
    writing = writing.then(() => stdin.write(bytes)).catch(() => {});
  };
  send(JSON.stringify(init));

  const decoder = new TextDecoder();
  const maxLine = LINE_FACTOR * Math.max(limits.maxOutputChars, limits.maxLogChars) + LINE_SLACK;
  // The child's lines through the one stdio line policy: bounded, strict UTF-8 and JSON; a host
  // message is its JSON text again (the sandbox's contract is text).
  const lines = new StdioLines((value) => value, {
    message: (value) => {
      if (end !== undefined) return;
      const text = JSON.stringify(value);
      if (text.startsWith('{"op":"done"')) {
        settle({ kind: "done", text });
        return;
      }
      void Promise.resolve(run.host.message(text)).then((reply) => {
        if (reply !== undefined && end === undefined) send(reply);
      }, () => settle({ kind: "failed", message: "the host could not answer a request" }));
    },
    refused: (fault) =>
      settle(
        fault.kind === "oversized"
          ? { kind: "limit", limit: "maxOutputChars" }
          : { kind: "failed", message: "the sandbox wrote a line that is not a JSON message" },
      ),
  }, maxLine);
  const reading = child.stdout.pipeTo(
    new WritableStream({ write: (chunk) => lines.push(chunk) }),
  ).catch(() => {});
  let stderr = "";
  const errors = child.stderr.pipeTo(
    new WritableStream({
      write: (chunk) => {
        stderr = (stderr + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL);
      },
    }),
  ).catch(() => {});

  const status = await child.status;
  clearTimeout(timer);
  run.signal.removeEventListener("abort", stop);
  await Promise.all([reading, errors]);
  await writing;
  await stdin.close().catch(() => {});
  if (end !== undefined) return end;
  if (/heap limit|out of memory/i.test(stderr)) return { kind: "limit", limit: "memoryMb" };
  const how = status.signal === null ? `code ${status.code}` : `signal ${status.signal}`;
  const tail = stderr.trim().split("\n").slice(-3).join(" ").slice(0, 300);
  return {
    kind: "failed",
    message: `the sandbox process exited (${how}) before the script ended${
      tail ? `: ${tail}` : ""
    }`,
  };
}

function defaultCommand(): string {
  try {
    const state = Deno.permissions.querySync({ name: "run", command: Deno.execPath() }).state;
    return state === "granted" ? Deno.execPath() : "deno";
  } catch {
    return "deno";
  }
}
