/**
 * The shapes of a connection to one MCP server (options, calls, identity, the connection itself),
 * apart from the code that opens one, so that the connection's parts and its callers can all
 * import them without a circle.
 *
 * @module
 */

import type { Transport } from "@modelcontextprotocol/client";
import type { McpInvoker } from "../injector.ts";
import type { McpTool } from "../tool.ts";
import type { CallToolResultLike, MappedResult } from "../tool_result.ts";
import type { McpError } from "../tool_error.ts";
import type { ToolIssue } from "./tool_list.ts";

/** An MCP transport, as the MCP SDK defines it (`start`, `send`, `close` and three callbacks). */
export type McpTransport = Transport;

/** One progress notification of a call, as a listener hears it. */
export interface CallProgress {
  /** How far the work has gone. */
  progress: number;
  /** How far it will go, when known. */
  total?: number;
  /** What is happening, in words. */
  message?: string;
}

/**
 * The protocol era a result is handed on in: `legacy`, the 2025 revisions' `CallToolResult`, or
 * `modern`, the 2026 revision's.
 */
export type ProtocolEra = "legacy" | "modern";

/** Options of every `connect*` function. */
export interface ConnectOptions {
  /**
   * How long a tool call may take, in milliseconds, before it is abandoned locally with a
   * `call_timeout`; `null` waits for ever. A call's own `timeoutMs` overrides it.
   * @default {300_000}
   */
  callTimeoutMs?: number | null;
  /**
   * How long the handshake, and each page of `tools/list`, may take, in milliseconds.
   * @default {60_000}
   */
  requestTimeoutMs?: number;
  /**
   * Receives each problem with a listed tool (see {@linkcode ToolIssue}).
   * @default {a warning on the console}
   */
  onToolIssue?: (issue: ToolIssue) => void;
  /**
   * Receives failures outside any call: the connection lost (`disconnected`), or a refresh of the
   * tools after a change notification that failed (`list_tools`).
   * @default {ignore them: the next call or listing reports them}
   */
  onError?: (error: McpError) => void;
  /**
   * The client's name and version, sent in the handshake.
   * @default {{ name: "unfold", version: "0.1.0" }}
   */
  clientInfo?: { name: string; version: string };
  /**
   * How the protocol revision is chosen: `"legacy"` runs the 2025 `initialize` handshake;
   * `"auto"` first asks the server (`server/discover`) and speaks the 2026-07-28 revision when
   * it offers it, else falls back to `initialize`.
   * @default {"legacy"}
   */
  versionNegotiation?: "legacy" | "auto";
  /**
   * Abandons the handshake when aborted: the server is stopped (a stdio server's process
   * included) and the connect rejects with `connect`. It has no effect once connected.
   * @default {never abandoned}
   */
  signal?: AbortSignal;
  /**
   * The roots the client offers the server (MCP roots): given, the client declares the `roots`
   * capability with `listChanged`, answers `roots/list` with `list()` and sends
   * `notifications/roots/list_changed` when `onChanged` fires.
   * @default {no roots capability}
   */
  roots?: UpstreamRoots;
}

/** One MCP root: a `file://` URI, and a name to show. */
export interface Root {
  /** The root's `file://` URI. */
  uri: string;
  /** Its name, when it has one. */
  name?: string;
}

/** The roots a connection offers its server (see {@linkcode ConnectOptions.roots}). */
export interface UpstreamRoots {
  /** The roots, as they are now (bounded in time by whoever provides them). */
  list(): Promise<Root[]>;
  /**
   * Listens for changes of the roots.
   *
   * @param listener Called after each change.
   * @returns A function that stops listening.
   */
  onChanged(listener: () => void): () => void;
}

/** Options of one {@linkcode McpConnection.call}. */
export interface CallOptions {
  /** Abandons the call when aborted; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * This call's timeout in milliseconds; `null` waits for ever.
   * @default {the connection's `callTimeoutMs`}
   */
  timeoutMs?: number | null;
}

/** Options of one {@linkcode McpConnection.forward}: a call's options plus progress. */
export interface ForwardOptions extends CallOptions {
  /**
   * Receives the server's progress notifications for this call (the connection asks for them by
   * sending a progress token).
   */
  onProgress?: (progress: CallProgress) => void;
  /**
   * The protocol era the result is handed on in: it must fit that era's `CallToolResult` as the
   * SDK's schemas have it (the 2025 era's takes only an object as `structuredContent`, and a
   * request's `_meta`), else the call fails with `tool_error`.
   * @default {"modern"}
   */
  era?: ProtocolEra;
  /**
   * Whether the caller hands `structuredContent` on inside an object of its own (the gateway's
   * bridge does): the era's rule for it is then not the result's to meet (the output schema's is).
   * @default {false}
   */
  wrapsStructuredContent?: boolean;
}

/** What a server says about itself in the handshake. */
export interface ServerIdentity {
  /** Its name. */
  name: string;
  /** Its version. */
  version: string;
  /** Its display name, when it gives one. */
  title?: string;
}

/** A live connection to one MCP server. */
export interface McpConnection {
  /** The server's name, as the host knows it: the `server` of every tool. */
  readonly server: string;
  /** What the server says about itself. */
  readonly identity: ServerIdentity;
  /** The server's instructions for its use, when it gives any: untrusted third-party text. */
  readonly instructions: string | undefined;
  /** Whether the connection is closed or lost: every request then fails with `disconnected`. */
  readonly closed: boolean;
  /**
   * Every tool of the server: all pages of `tools/list`, in the server's order, with `server` set.
   * Tools a catalogue cannot hold are left out and, like names that break MCP's tool-name rules,
   * reported to `onToolIssue`.
   *
   * @returns The tools.
   * @throws {McpError} `list_tools` when the listing fails or times out; `disconnected`.
   */
  tools(): Promise<McpTool[]>;
  /**
   * Calls a tool and maps its result for the model (see {@linkcode MappedResult}).
   *
   * @param name The tool's name on this server.
   * @param args Its arguments.
   * @param options A signal and a timeout.
   * @returns The mapped result.
   * @throws {McpError} `tool_error`, `call_timeout`, `disconnected` or `unsupported_content`.
   * @throws {TypeError} When `name` or `args` is malformed.
   * @throws {RangeError} When `timeoutMs` is not a positive number or `null`.
   */
  call(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<MappedResult>;
  /**
   * Calls a tool and returns the server's `CallToolResult` as it came (every content block,
   * `structuredContent`, `isError`, `_meta`): what a gateway hands on. Progress notifications go
   * to `onProgress`; aborting the signal tells the server the call is cancelled.
   *
   * @param name The tool's name on this server.
   * @param args Its arguments.
   * @param options A signal, a timeout and a progress listener.
   * @returns The result, unmapped, checked once: against the era's `CallToolResult` schema and
   * the tool's output schema.
   * @throws {McpError} `tool_error` (a JSON-RPC error, or a result that fails the check),
   * `call_timeout` or `disconnected`.
   * @throws {TypeError} When `name` or `args` is malformed.
   */
  forward(
    name: string,
    args?: Record<string, unknown>,
    options?: ForwardOptions,
  ): Promise<CallToolResultLike>;
  /** Runs a catalogue's tool of this server: `call(tool.name, args)`, for `Injector.handle`. */
  readonly invoker: McpInvoker;
  /**
   * Listens for changes of the server's tools (`notifications/tools/list_changed`): each change is
   * followed by a fresh listing, handed to every listener. A listener that throws does not stop
   * the others; its error is rethrown asynchronously.
   *
   * @param listener Receives the new tools.
   * @returns A function that stops listening.
   */
  onToolsChanged(listener: (tools: McpTool[]) => void): () => void;
  /**
   * Pending from a change notification until the listing it causes has ended (and its listeners
   * have run): `true` when it read the tools, `false` when it could not (the next look lists
   * again). `undefined` when no such listing is pending: the last listing is the server's word.
   */
  readonly relisting?: Promise<boolean> | undefined;
  /**
   * Closes the connection: pending calls fail at once with `disconnected`, then the transport is
   * closed (a stdio server is stopped). Safe to call more than once.
   *
   * @returns When everything is released.
   */
  close(): Promise<void>;
}
