/**
 * The connection behind every `connect*` function: bounded requests, the connection's life
 * (closed, lost, probed), and change notifications, over the MCP SDK's `Client` (every transport:
 * stdio, Streamable HTTP, any a host brings). The SDK's errors are sorted into the connection's
 * codes (`_failures.ts`), so that callers never need the SDK's classes; a call's result is checked
 * once, here, by the SDK's schema of the era it is handed on in.
 *
 * @module
 */

import { Client, specTypeSchemas, type StandardSchemaV1 } from "@modelcontextprotocol/client";
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
import { McpError, type McpErrorCode } from "../tool_error.ts";
import { listPages, toMcpTools } from "./tool_list.ts";
import { provenProblems } from "./_validator.ts";
import { PROGRESS_PARAMS, ProgressGate } from "./_progress.ts";
import {
  checkServerName,
  checkTimeout,
  rethrow,
  SDK_TIMEOUT_MS,
  type Settings,
  settingsOf,
} from "./_settings.ts";

export type { TransportHooks } from "./_failures.ts";
import { BOUNDED_VALIDATOR } from "./_validator.ts";
import {
  classified,
  detail,
  type Issue,
  issueWords,
  reason,
  requestFailure,
  type TransportHooks,
} from "./_failures.ts";

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
  // Roots are the one capability offered, when the caller gives them (the gateway passes its
  // hosts' on): the client answers `roots/list` and tells of changes.
  const roots = options.roots;
  const client = new Client(settings.clientInfo, {
    capabilities: roots === undefined ? {} : { roots: { listChanged: true } },
    jsonSchemaValidator: BOUNDED_VALIDATOR,
    ...(options.versionNegotiation === undefined
      ? {}
      : { versionNegotiation: { mode: options.versionNegotiation } }),
  });
  if (roots !== undefined) {
    client.setRequestHandler("roots/list", async () => ({ roots: await roots.list() }));
  }
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
  if (roots !== undefined) {
    connection.onClosed(roots.onChanged(() => void client.sendRootsListChanged().catch(() => {})));
  }
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
  // Run once when the connection is closed or lost.
  #onClosed: (() => void)[] = [];

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

  // Runs `stop` once the connection is closed or lost (at once when it is already).
  onClosed(stop: () => void): void {
    if (this.#closed) return stop();
    this.#onClosed.push(stop);
  }

  #stopped(): void {
    for (const stop of this.#onClosed.splice(0)) stop();
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
    // Its content blocks are mapResult's to judge: one it cannot map is `unsupported_content`.
    const raw = await this.#forward(name, args, options, false);
    return mapResult(raw, `the result of ${JSON.stringify(toolId({ server: this.server, name }))}`);
  }

  forward(
    name: string,
    args: Record<string, unknown> = {},
    options: ForwardOptions = {},
  ): Promise<CallToolResultLike> {
    return this.#forward(name, args, options, true);
  }

  #forward(
    name: string,
    args: Record<string, unknown>,
    options: ForwardOptions,
    blocks: boolean,
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
        // The one check of an upstream result, on its way to whatever hands it on.
        const problem = resultProblem(
          this.server,
          result,
          this.#definitions.get(name),
          options,
          blocks,
        );
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
      this.#stopped();
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
        (error) =>
          settle(() =>
            reject(requestFailure(what, codes, error, {
              closed: this.#closed,
              why: this.#why,
              hooks: this.#hooks,
            })), false),
      );
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
    this.#stopped();
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

// Answers are taken as they come and checked by the connection: a listing entry by entry
// (tool_list.ts), so that one malformed tool is reported and left out instead of failing the whole
// listing; a call's result once, by the schema of the era it is handed on in (resultProblem).
const AS_SENT: StandardSchemaV1<Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "unfold",
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};

// A call's result, by the SDK's public schemas: 2026-07-28's `CallToolResult` (what its
// `isCallToolResult` takes); the 2025 era's takes that, and only an object (`JSONObject`) as
// `structuredContent` and a request's `_meta` (`RequestMeta`), as the SDK's 2025 codec has it.
const SCHEMAS = specTypeSchemas;

// The first issue of a value against a schema, its path from `at`.
function firstIssue(
  schema: StandardSchemaV1,
  value: unknown,
  at: PropertyKey[] = [],
): Issue | undefined {
  const issue = (schema["~standard"].validate(value) as StandardSchemaV1.Result<unknown>)
    .issues?.[0] as Issue | undefined;
  return issue === undefined ? undefined : { ...issue, path: [...at, ...(issue.path ?? [])] };
}

/**
 * What is wrong with a `tools/call` result, or `undefined` when it can be handed on: it must fit
 * the `CallToolResult` of the era it is handed on in (its content blocks aside when `blocks` is
 * false: the caller maps them, and says which it cannot), and a successful result's
 * `structuredContent` must not be proven to break the tool's `outputSchema` (what the bounded
 * validator cannot check is handed on as sent).
 */
function resultProblem(
  server: string,
  result: Record<string, unknown>,
  tool: McpTool | undefined,
  options: Pick<ForwardOptions, "era" | "wrapsStructuredContent">,
  blocks: boolean,
): string | undefined {
  // Without its blocks, when a caller maps them itself (a list is still required).
  const shape = blocks || !Array.isArray(result.content) ? result : { ...result, content: [] };
  const modern = firstIssue(SCHEMAS.CallToolResult, shape);
  if (modern !== undefined) return issueWords(modern, result);
  if (options.era === "legacy") {
    const legacy = (options.wrapsStructuredContent !== true &&
      result.structuredContent !== undefined &&
      firstIssue(SCHEMAS.JSONObject, result.structuredContent, ["structuredContent"])) ||
      (result._meta !== undefined && firstIssue(SCHEMAS.RequestMeta, result._meta, ["_meta"])) ||
      undefined;
    if (legacy !== undefined) {
      return `the server ${
        JSON.stringify(server)
      } sent a malformed result for this client's 2025-era MCP version (${
        issueWords(legacy, result)
      })`;
    }
  }
  const outputSchema = tool?.outputSchema;
  if (
    outputSchema === undefined || result.isError === true || result.structuredContent === undefined
  ) {
    return undefined;
  }
  const problems = provenProblems(outputSchema, result.structuredContent);
  return problems.length === 0
    ? undefined
    : `its structured content does not match the tool's output schema: ${problems.join("; ")}`;
}
