/**
 * The connection behind every `connect*` function: bounded requests, the connection's life
 * (closed, lost, probed), and change notifications, over the MCP SDK's `Client` (every transport:
 * stdio, Streamable HTTP, any a host brings). The SDK's errors are sorted here into the
 * connection's codes, so that callers never need the SDK's classes.
 *
 * @module
 */

import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type StandardSchemaV1,
} from "@modelcontextprotocol/client";
import { deadline } from "../utils/deadline.ts";
import type { McpInvoker } from "../injector.ts";
import { type McpTool, toolId } from "../tool.ts";
import type {
  CallOptions,
  ConnectOptions,
  ForwardOptions,
  McpConnection,
  McpTransport,
  ServerIdentity,
} from "./types.ts";
import { type CallToolResultLike, type MappedResult, mapResult } from "../tool_result.ts";
import { COMMAND_NOT_FOUND, McpError, type McpErrorCode } from "../tool_error.ts";
import { listPages, toMcpTools } from "./tool_list.ts";
import { resultProblem } from "./_result.ts";
import { PROGRESS_PARAMS, ProgressGate } from "./_progress.ts";
import { checkTimeout, rethrow, SDK_TIMEOUT_MS, type Settings, settingsOf } from "./_settings.ts";
import { BOUNDED_VALIDATOR } from "./_validator.ts";
import { UNREADABLE_ANSWER_CODE } from "../protocol/stdio_lines.ts";

/** What a transport adds to a connection: words about a failure, and a step before closing. */
export interface TransportHooks {
  /** More about why the server failed (a stdio server's last error output), or `""`. */
  detail?: () => string;
  /** Runs before the transport is closed (ending an HTTP session); failures are ignored. */
  beforeClose?: () => Promise<void>;
  /**
   * Receives, once connected, a way to fail every pending request (not the connection): for an
   * answer the transport had to drop without knowing which request it answered.
   */
  onConnected?: (failPending: (why: string) => void) => void;
}

// How long a server that may have died gets to answer a ping.
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Connects over a transport with its hooks: what every `connect*` function does.
 *
 * @param server The server's name.
 * @param transport The transport, not yet started.
 * @param options Timeouts and callbacks.
 * @param hooks What the transport adds.
 * @returns The connection.
 * @throws {McpError} `connect` when the transport fails to start or the handshake fails.
 * @throws {TypeError} When the server name is empty or contains `/`.
 * @throws {RangeError} When a timeout option is invalid.
 *
 * @example Usage
 * ```ts
 * import { openConnection } from "./_connection.ts";
 * import { InMemoryTransport } from "@modelcontextprotocol/client";
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { rejects } from "node:assert/strict";
 *
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * const demo = await openConnection("demo", clientSide, {}, { detail: () => "the demo log is empty" });
 * await serverSide.close();
 * await rejects(demo.tools(), /the server closed the connection; the demo log is empty/);
 * ```
 */
export async function openConnection(
  server: string,
  transport: McpTransport,
  options: ConnectOptions,
  hooks: TransportHooks,
): Promise<McpConnection> {
  checkServerName(server);
  const settings = settingsOf(options);
  // No capabilities offered: the gateway answers no request of its upstreams' (roots would be
  // declared here, with their handler on the client).
  const client = new Client(settings.clientInfo, {
    capabilities: {},
    jsonSchemaValidator: BOUNDED_VALIDATOR,
    ...(options.versionNegotiation === undefined
      ? {}
      : { versionNegotiation: { mode: options.versionNegotiation } }),
  });
  const connection = new Connection(server, client, settings, hooks);
  // A caller that goes away mid-handshake (the gateway exiting) stops the server there and then:
  // a stdio server would otherwise outlive it until the handshake's timeout, or for ever.
  const signal = options.signal;
  const abandoned = () => signal?.aborted === true;
  const abandon = () => void client.close().catch(() => {});
  signal?.addEventListener("abort", abandon, { once: true });
  try {
    if (abandoned()) throw new Error("the connection was abandoned");
    await client.connect(transport, { timeout: settings.requestTimeoutMs });
    if (abandoned()) throw new Error("the connection was abandoned");
  } catch (error) {
    await client.close().catch(() => {});
    throw new McpError(
      "connect",
      `Cannot connect to ${JSON.stringify(server)}: ${reason(error)}${detail(hooks)}`,
      { cause: error },
    );
  } finally {
    signal?.removeEventListener("abort", abandon);
  }
  connection.ready();
  hooks.onConnected?.((why) => connection.failRequests(why));
  return connection;
}

interface Pending {
  what: string;
  // The code of a failure of this request alone (not of the connection).
  failure: McpErrorCode;
  fail: (error: McpError) => void;
}

class Connection implements McpConnection {
  readonly server: string;
  readonly invoker: McpInvoker;
  #client: Client;
  #settings: Settings;
  #hooks: TransportHooks;
  #closed = false;
  // Why the connection is closed: "the connection is closed", or what was lost and why.
  #why = "";
  #closing: Promise<void> | undefined;
  #probing = false;
  #pending = new Set<Pending>();
  #listeners = new Set<(tools: McpTool[]) => void>();
  // Progress gates by token. Our own, not the SDK's onprogress: the SDK runs notification
  // handlers a microtask late but drops a request's progress handler as soon as its response
  // arrives, so the last progress before a result was lost whenever both came in one read.
  #progress = new Map<string, ProgressGate>();
  #tokens = 0;
  #refreshAgain = false;
  // From a change notification until the listing it causes ends (true: the tools were read): set
  // exactly while a listing after a change runs.
  #relist: PromiseWithResolvers<boolean> | undefined;
  // The last listing after a change notification failed: the server's listing is not its own.
  #stale = false;
  // The tools of the last listing by name: their output schemas check the results of calls.
  #definitions = new Map<string, McpTool>();

  constructor(server: string, client: Client, settings: Settings, hooks: TransportHooks) {
    this.server = server;
    this.#client = client;
    this.#settings = settings;
    this.#hooks = hooks;
    this.invoker = {
      invoke: (tool: McpTool, args: Record<string, unknown>) => {
        if (tool?.server !== server) {
          throw new TypeError(
            `Cannot invoke ${JSON.stringify(toolId(tool))}: this connection is to ${
              JSON.stringify(server)
            }`,
          );
        }
        return this.call(tool.name, args);
      },
    };
    // Registered before the handshake: some servers change their tools right after it.
    client.setNotificationHandler("notifications/tools/list_changed", () => this.#refresh());
    // Checked by hand, not by the SDK's schemas: a server may send a flood of these.
    client.setNotificationHandler(
      "notifications/progress",
      { params: PROGRESS_PARAMS },
      ({ progressToken, progress, total, message }) => {
        this.#progress.get(String(progressToken))?.push({
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        });
      },
    );
  }

  // After the handshake: from now on, the transport closing means the connection is lost, and a
  // transport error may mean it (see #probe).
  ready(): void {
    this.#client.onclose = () => this.#lost("the server closed the connection");
    this.#client.onerror = () => this.#probe();
  }

  get identity(): ServerIdentity {
    const info = this.#client.getServerVersion();
    const identity: ServerIdentity = { name: info?.name ?? "", version: info?.version ?? "" };
    if (typeof info?.title === "string") identity.title = info.title;
    return identity;
  }

  get instructions(): string | undefined {
    return this.#client.getInstructions();
  }

  // One request through the SDK, its result as the server sent it (the caller checks it), its
  // failure in the kinds the connection maps to its codes.
  #ask(
    method: string,
    params: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    return this.#client.request(params === undefined ? { method } : { method, params }, AS_SENT, {
      signal,
      timeout: SDK_TIMEOUT_MS,
    }).catch((error) => {
      throw classified(error);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  get relisting(): Promise<boolean> | undefined {
    // A listing that could not be read after a change is tried again by the next caller.
    if (this.#stale && this.#relist === undefined) this.#refresh();
    return this.#relist?.promise;
  }

  async tools(): Promise<McpTool[]> {
    const what = `Cannot list the tools of ${JSON.stringify(this.server)}`;
    const entries = await listPages(what, (cursor) =>
      this.#request(
        { what, failure: "list_tools", timeout: "list_tools" },
        (signal) => this.#ask("tools/list", cursor === undefined ? {} : { cursor }, signal),
        this.#settings.requestTimeoutMs,
      ));
    const tools = toMcpTools(this.server, entries, this.#settings.onToolIssue);
    this.#definitions = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  async call(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<MappedResult> {
    const raw = await this.forward(name, args, options);
    return mapResult(raw, `the result of ${JSON.stringify(toolId({ server: this.server, name }))}`);
  }

  forward(
    name: string,
    args: Record<string, unknown> = {},
    options: ForwardOptions = {},
  ): Promise<CallToolResultLike> {
    if (typeof name !== "string" || name === "") {
      throw new TypeError("Cannot call a tool: the name must be a non-empty string");
    }
    const id = toolId({ server: this.server, name });
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new TypeError(`Cannot call ${JSON.stringify(id)}: the arguments must be an object`);
    }
    const timeoutMs = options.timeoutMs === undefined
      ? this.#settings.callTimeoutMs
      : checkTimeout(options.timeoutMs, "timeoutMs", true, `Cannot call ${JSON.stringify(id)}`);
    const onProgress = options.onProgress;
    const token = onProgress === undefined ? undefined : `unfold-${++this.#tokens}`;
    const gate = onProgress === undefined ? undefined : new ProgressGate(onProgress);
    if (token !== undefined) this.#progress.set(token, gate!);
    const params = token === undefined
      ? { name, arguments: args }
      : { name, arguments: args, _meta: { progressToken: token } };
    // Settling runs a microtask after the response, so progress sent before it is delivered first.
    return (this.#request(
      { what: `Cannot call ${JSON.stringify(id)}`, failure: "tool_error", timeout: "call_timeout" },
      async (signal) => {
        const result = await this.#ask("tools/call", params, signal);
        const problem = resultProblem(result, this.#definitions.get(name));
        if (problem !== undefined) {
          throw new McpError("tool_error", `Cannot call ${JSON.stringify(id)}: ${problem}`);
        }
        return result;
      },
      timeoutMs,
      options.signal,
    ) as Promise<CallToolResultLike>).finally(() => {
      // The last progress kept is handed on before the caller hears the result.
      gate?.flush();
      if (token !== undefined) this.#progress.delete(token);
    });
  }

  onToolsChanged(listener: (tools: McpTool[]) => void): () => void {
    if (typeof listener !== "function") {
      throw new TypeError("Cannot listen for tool changes: the listener must be a function");
    }
    const own = (tools: McpTool[]) => listener(tools);
    this.#listeners.add(own);
    return () => void this.#listeners.delete(own);
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#why = "the connection is closed";
      this.#listeners.clear();
      this.#failPending("the connection was closed");
      this.#closing = (async () => {
        try {
          await this.#hooks.beforeClose?.();
        } catch {
          // The session may already be gone: closing goes on.
        }
        await this.#client.close().catch(() => {});
      })();
    }
    return this.#closing ?? Promise.resolve();
  }

  // One request, bounded: it settles on its answer, its timeout, the caller's abort, or the
  // connection closing, whichever comes first; in the last three cases the SDK request is
  // abandoned (the server is told it is cancelled).
  #request<T>(
    codes: { what: string; failure: McpErrorCode; timeout: McpErrorCode },
    run: (signal: AbortSignal) => Promise<T>,
    timeoutMs: number | null,
    signal?: AbortSignal,
  ): Promise<T> {
    const { what } = codes;
    if (this.#closed) return Promise.reject(new McpError("disconnected", `${what}: ${this.#why}`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const abandon = new AbortController();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const timeout = timeoutMs === null ? undefined : deadline(timeoutMs);
      const settle = (outcome: () => void, abandoned: boolean) => {
        if (settled) return;
        settled = true;
        timeout?.removeEventListener("abort", onTimeout);
        signal?.removeEventListener("abort", onAbort);
        this.#pending.delete(pending);
        outcome();
        if (abandoned) abandon.abort();
      };
      const onAbort = () => settle(() => reject(signal?.reason), true);
      const pending: Pending = {
        what,
        failure: codes.failure,
        fail: (error) => settle(() => reject(error), true),
      };
      const onTimeout = () => {
        const error = new McpError(codes.timeout, `${what}: no answer within ${timeoutMs} ms`);
        settle(() => reject(error), true);
      };
      timeout?.addEventListener("abort", onTimeout, { once: true });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.add(pending);
      run(abandon.signal).then(
        (value) => settle(() => resolve(value), false),
        (error) => settle(() => reject(this.#failure(what, codes, error)), false),
      );
    });
  }

  // Why a request failed, as an McpError: closed or unreachable → `disconnected`; the server's
  // JSON-RPC error → a call's `tool_error`, a listing's `list_tools`.
  #failure(
    what: string,
    codes: { failure: McpErrorCode; timeout: McpErrorCode },
    error: unknown,
  ): McpError {
    if (error instanceof McpError) return error;
    if (this.#closed) {
      return new McpError("disconnected", `${what}: ${this.#why}`, { cause: error });
    }
    const { kind, code } = error as Partial<Classified>;
    if (kind === "closed") {
      return new McpError(
        "disconnected",
        `${what}: the server closed the connection${detail(this.#hooks)}`,
        { cause: error },
      );
    }
    // The server's own JSON-RPC error, or a check of the answer: the server is alive, so the
    // request failed, not the connection; the server's code and words are kept.
    if (kind !== undefined) {
      const server = kind === "server" && code !== UNREADABLE_ANSWER_CODE
        ? ` (JSON-RPC error ${code} from the server)`
        : "";
      return new McpError(
        kind === "timeout" ? codes.timeout : codes.failure,
        `${what}: ${reason(error)}${server}`,
        { cause: error },
      );
    }
    return new McpError("disconnected", `${what}: ${reason(error)}${detail(this.#hooks)}`, {
      cause: error,
    });
  }

  // Fails every pending request with its own failure code: the connection stays open.
  failRequests(why: string): void {
    for (const pending of [...this.#pending]) {
      pending.fail(new McpError(pending.failure, `${pending.what}: ${why}`));
    }
  }

  #failPending(why: string): void {
    for (const pending of [...this.#pending]) {
      pending.fail(new McpError("disconnected", `${pending.what}: ${why}`));
    }
  }

  // The connection is lost (the server exited, or stopped answering): fail everything pending and
  // to come, tell the host, and release the transport.
  #lost(why: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#why = `${why}${detail(this.#hooks)}`;
    this.#failPending(this.#why);
    this.#settings.onError(
      new McpError(
        "disconnected",
        `Lost the connection to ${JSON.stringify(this.server)}: ${this.#why}`,
      ),
    );
    this.#closing = this.#client.close().catch(() => {});
  }

  // A transport error: a broken stream, an unreachable server, a malformed message. Over HTTP a
  // server that died leaves pending calls waiting for a response stream that never resumes, so
  // ask the server for a ping: no answer means the connection is lost.
  #probe(): void {
    if (this.#closed || this.#probing) return;
    this.#probing = true;
    // An error answer means the server is alive: only no answer at all counts as `disconnected`.
    this.#request(
      { what: "Cannot ping", failure: "tool_error", timeout: "disconnected" },
      (signal) => this.#ask("ping", undefined, signal),
      PROBE_TIMEOUT_MS,
    ).then(
      () => {},
      (error: McpError) => {
        if (error.code !== "disconnected" || this.#closed) return;
        this.#lost(`the server stopped answering (${error.message.replace(/^Cannot ping: /, "")})`);
      },
    ).finally(() => this.#probing = false);
  }

  // A change notification: list again and tell the listeners; notifications that arrive during a
  // listing cause one more listing after it, not one each.
  #refresh(): void {
    if (this.#closed || this.#listeners.size === 0) return;
    if (this.#relist !== undefined) {
      this.#refreshAgain = true;
      return;
    }
    const relist = this.#relist = Promise.withResolvers<boolean>();
    void (async () => {
      try {
        do {
          this.#refreshAgain = false;
          let tools: McpTool[];
          try {
            tools = await this.tools();
            this.#stale = false;
          } catch (error) {
            this.#stale = true;
            if (!this.#closed && error instanceof McpError) this.#settings.onError(error);
            continue;
          }
          for (const listener of [...this.#listeners]) {
            try {
              listener(tools);
            } catch (error) {
              rethrow(error);
            }
          }
        } while (this.#refreshAgain && !this.#closed);
      } finally {
        this.#relist = undefined;
        relist.resolve(!this.#stale);
      }
    })();
  }
}

/**
 * Checks a server name as the catalogue will: not empty, no `/`.
 *
 * @param server The name.
 * @throws {TypeError} When it is empty or contains `/`.
 *
 * @example Usage
 * ```ts
 * import { checkServerName } from "./_connection.ts";
 * import { throws } from "node:assert/strict";
 *
 * checkServerName("github");
 * throws(() => checkServerName("github/issues"), TypeError);
 * ```
 */
export function checkServerName(server: unknown): asserts server is string {
  if (typeof server !== "string" || server === "" || server.includes("/")) {
    throw new TypeError(
      `Cannot connect: the server name must be a non-empty string without "/", got ${
        JSON.stringify(server)
      }`,
    );
  }
}

// How much of an error's message is quoted: a server's message, or the SDK's account of a
// malformed answer, can be as long as the answer.
const REASON_CHARS = 1_000;

// The message of an error, at most REASON_CHARS long.
function reason(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)) || "unknown error";
  // What a shell would say of a command that is not there.
  const missing = /^spawn (.+) ENOENT$/.exec(message);
  if (missing !== null) return `${COMMAND_NOT_FOUND}: ${missing[1]}`;
  return message.length > REASON_CHARS ? `${message.slice(0, REASON_CHARS)}…` : message;
}

function detail(hooks: TransportHooks): string {
  const more = hooks.detail?.() ?? "";
  return more === "" ? "" : `; ${more}`;
}

// Answers are taken as they come and checked by the connection: a listing entry by entry
// (tool_list.ts), so that one malformed tool is reported and left out instead of failing the whole
// listing; a call's result by its shape and output schema (_result.ts), so that a content type
// newer than the SDK still reaches the host.
const AS_SENT: StandardSchemaV1<Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "unfold",
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};

/**
 * Why a request failed, when it can be told: `server`, the server's JSON-RPC error (its `code`
 * and words kept; an answer the client could not read is one with `UNREADABLE_ANSWER_CODE`);
 * `malformed`, an answer that fails a check; `timeout`, the handshake's time ran out or the
 * request was abandoned; `closed`, the connection closed before the answer. Any other failure
 * (a broken pipe, a transport that cannot send) has no kind.
 */
interface Classified extends Error {
  kind: "server" | "malformed" | "timeout" | "closed";
  code?: number;
}

// The SDK's errors in the connection's kinds; others (a transport's) pass as they are.
function classified(error: unknown): unknown {
  const kind = (kind: Classified["kind"], message: string, code?: number): Classified => {
    const made = new Error(message, { cause: error }) as Classified;
    made.kind = kind;
    if (code !== undefined) made.code = code;
    return made;
  };
  if (error instanceof ProtocolError) return kind("server", error.message, error.code);
  if (!(error instanceof SdkError)) return error;
  switch (error.code) {
    case SdkErrorCode.InvalidResult:
    case SdkErrorCode.UnsupportedResultType:
      return kind(
        "malformed",
        error.message.replace(/^Invalid result for [\w/]+: /, "the server's answer is malformed: "),
      );
    case SdkErrorCode.RequestTimeout:
      return kind("timeout", error.message);
    case SdkErrorCode.ConnectionClosed:
      return kind("closed", error.message);
  }
  return error;
}
