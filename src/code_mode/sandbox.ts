/**
 * The `Sandbox` strategy: what runs a script of code mode. The core never spawns a process or
 * loads an isolate: a host hands it a sandbox, as it hands a catalogue its ranker. Two ship with
 * unfold: a child `deno` process with no permissions (`src/deno/code_sandbox.ts`) and a Worker
 * Loader isolate with no outbound network (`src/workers/code_sandbox.ts`). Both run the same
 * harness (`harness.ts`) over the same messages, and the same contract suite
 * (`test/_contracts/sandbox_contract.ts`).
 *
 * @module
 */

import type { CodeLimits } from "./limits.ts";

/**
 * Runs scripts, each in a fresh sandbox that can do nothing but send its harness's messages:
 * no network, files, environment, subprocess, imports or clock, bounded by the script's limits,
 * and gone once the run ends (nothing survives a run, or crosses sessions or tenants).
 */
export interface Sandbox {
  /**
   * Runs one script to its end. Never throws: every ending is a value, and by the time it is
   * returned no process, isolate or timer of the run is left.
   *
   * @param script The model's code, as sent (the body of an async function), and the run's
   * bounds (complete).
   * @param host The host side of the run: the sandbox hands it each message the script's harness
   * writes (JSON text, the shapes of `protocol.ts`) and passes a request's reply back. `message`
   * never throws, and answers a notice (a log line) with `undefined`.
   * @param signal Aborted when the host stops the run (a bound it enforces, a call it needs).
   * @returns How the run ended: `done` (the harness's last message, JSON text); `rejected`
   * before it ran (`problem`: `syntax_error`, `not_allowed` for what scripts may not use, such as
   * `import`, or `too_long`, with the line and column when it has a place); `limit` (a bound the
   * sandbox enforces from outside: `timeoutMs`, `cpuMs`, `memoryMb`, `maxOutputChars`);
   * `aborted` (the host's signal); `failed` (the sandbox could not start, or broke).
   */
  run(
    script: { code: string; limits: Readonly<CodeLimits> },
    host: {
      message(text: string): Promise<string | undefined> | string | undefined;
    },
    signal: AbortSignal,
  ): Promise<
    | { kind: "done"; text: string }
    | {
      kind: "rejected";
      problem: {
        code: "syntax_error" | "not_allowed" | "too_long";
        message: string;
        line?: number;
        column?: number;
      };
    }
    | { kind: "limit"; limit: keyof CodeLimits }
    | { kind: "aborted" }
    | { kind: "failed"; message: string }
  >;
}

/** One script for a sandbox: the model's code, as sent, and the bounds of its run. */
export type SandboxScript = Parameters<Sandbox["run"]>[0];
/** The host side of a run. */
export type SandboxHost = Parameters<Sandbox["run"]>[1];
/** How a run ended, as the sandbox saw it. */
export type SandboxEnd = Awaited<ReturnType<Sandbox["run"]>>;
/** Why a script is refused before it runs: with the line and column (1-based) where it is. */
export type ScriptProblem = Extract<SandboxEnd, { kind: "rejected" }>["problem"];
