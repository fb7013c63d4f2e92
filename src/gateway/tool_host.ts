/**
 * What the gateway's MCP server faces serve (a {@linkcode ToolHost}), and the one way a
 * `tools/call` is answered from it: progress in order and all before the result, a name that is
 * no tool as JSON-RPC invalid params. Free of the MCP SDK: the SDK server (`face.ts`, HTTP and
 * Workers) and the SDK-free stdio server (`stdio_server.ts`) both answer through it. Every face
 * hands over the client it serves (its `clientInfo` at `initialize`, when it sent one): what is
 * shown depends on the host (`host_profiles.ts`).
 *
 * @module
 */

import type { McpTool } from "../tool.ts";
import type { CallToolResultLike } from "../tool_result.ts";
import type { ClientIdentity } from "./host_profiles.ts";

export type { ClientIdentity } from "./host_profiles.ts";

/** A tool as `tools/list` lists it: a catalogue entry without its server. */
export type HostedTool = Omit<McpTool, "server">;

/** One progress step of a call. */
export interface HostedProgress {
  /** How far the call is. */
  progress: number;
  /** How far it will go, when known. */
  total?: number;
  /** What it is doing. */
  message?: string;
}

/** What one call brings: who, which session, cancellation and progress. */
export interface HostedCall {
  /** The caller's namespace (a hash of its bearer token, or `""`). */
  tenant: string;
  /** The 2025-era session, when there is one (`Mcp-Session-Id`, or one per stdio connection). */
  sessionId?: string;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
  /**
   * The caller's protocol era: the result must fit that era's schema (the 2025 era's is
   * stricter: its `structuredContent` is an object). Unknown: the looser 2026-07-28 one.
   */
  era?: "legacy" | "modern";
  /** Sends progress to the client, when it asked for progress. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The client, when it said who it is. */
  client?: ClientIdentity;
}

/** What the server faces serve: the gateway, or anything shaped like it. */
export interface ToolHost {
  /** The server's name and version. */
  readonly serverInfo: { name: string; version: string };
  /**
   * The server instructions for a client.
   *
   * @param client The client, when it said who it is (`clientInfo` at `initialize`).
   */
  instructions(client?: ClientIdentity): string;
  /**
   * The `tools/list` answer for a client, or a promise of it (the gateway's waits for a change
   * being taken in).
   *
   * @param client The client, when it said who it is.
   */
  tools(client?: ClientIdentity): HostedTool[] | Promise<HostedTool[]>;
  /**
   * Answers a `tools/call`.
   *
   * @param name The tool's name.
   * @param args Its arguments.
   * @param call The caller, session, cancellation and progress.
   * @returns The result, or `ok: false` for a name that is no tool (a JSON-RPC error).
   */
  call(
    name: string,
    args: unknown,
    call: HostedCall,
  ): Promise<{ ok: true; result: CallToolResultLike } | { ok: false; message: string }>;
  /**
   * Listens for changes of the `tools/list` answer a client is given.
   *
   * @param listener Called after each change.
   * @param client Who is listening, when known (a getter: a face learns it at `initialize`).
   * @returns A function that stops listening.
   */
  onToolsChanged(listener: () => void, client?: () => ClientIdentity | undefined): () => void;
}

// JSON-RPC invalid params, written out: importing `JSON_RPC_CODES` here measured 0.08 KiB gzip
// more in the gateway Worker.
const UNKNOWN_TOOL = -32_602;

/** How a `tools/call` was answered: a result, or a JSON-RPC error. */
export type ToolCallAnswer =
  | { ok: true; result: CallToolResultLike }
  | { ok: false; code: number; message: string };

/** Where a call's progress goes, when the client sent a progress token. */
export interface ProgressSink {
  /** The client's token. */
  token: string | number;
  /** Sends one `notifications/progress`. */
  notify(notification: {
    method: "notifications/progress";
    params: { progressToken: string | number } & HostedProgress;
  }): Promise<void>;
}

/**
 * Answers a `tools/call` from a host. Progress is sent in order, and all of it before the
 * answer: a client drops progress that arrives after the result.
 *
 * @param host The tools.
 * @param request The tool's name and arguments.
 * @param call The caller, session and cancellation.
 * @param progress Where progress goes, when the client asked for it.
 * @returns The result, or the JSON-RPC error to answer.
 *
 * @example Usage
 * ```ts
 * import { answerToolCall } from "./tool_host.ts";
 * import { equal } from "node:assert/strict";
 *
 * const answer = await answerToolCall({
 *   serverInfo: { name: "demo", version: "1.0.0" },
 *   instructions: () => "",
 *   tools: () => [],
 *   call: (name) => Promise.resolve({ ok: false, message: `There is no tool "${name}"` }),
 *   onToolsChanged: () => () => {},
 * }, { name: "x" }, { tenant: "", signal: new AbortController().signal });
 * equal(answer.ok, false);
 * ```
 */
export async function answerToolCall(
  host: ToolHost,
  request: { name: string; arguments?: unknown },
  call: Omit<HostedCall, "onProgress">,
  progress?: ProgressSink,
): Promise<ToolCallAnswer> {
  let sent = Promise.resolve();
  const outcome = await host.call(request.name, request.arguments ?? {}, {
    ...call,
    ...(progress === undefined ? {} : {
      onProgress: (step: HostedProgress) => {
        sent = sent.then(() =>
          progress.notify({
            method: "notifications/progress",
            params: { progressToken: progress.token, ...step },
          })
        ).catch(() => {});
      },
    }),
  });
  await sent;
  return outcome.ok ? outcome : { ok: false, code: UNKNOWN_TOOL, message: outcome.message };
}
