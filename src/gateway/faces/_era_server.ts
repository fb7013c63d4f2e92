/**
 * One era's MCP server instance of the SDK-free stdio server (`stdio_server.ts`): what an SDK v2.4
 * `Server` from `hostServer()` answers once the connection's era is pinned: `initialize`, `ping`
 * and `logging/setLevel` (2025 era), `server/discover` (2026-07-28), `tools/list`, `tools/call`
 * with progress and cancellation, `list_changed` after `notifications/initialized`.
 *
 * @module
 */

import {
  errorResponse,
  isNotification,
  isRequest,
  JSON_RPC_CODES,
  methodNotFound,
} from "../../protocol/jsonrpc.ts";
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../../protocol/jsonrpc.ts";
import { isRecord } from "../../utils/record.ts";
import {
  ENVELOPE,
  envelopeSchemaIssues,
  formatIssues,
  MODERN_REVISION,
  paramIssues,
} from "./_mcp_checks.ts";
import { LEGACY_PROTOCOL_VERSIONS, SERVER_INFO_META_KEY } from "../../protocol/mcp.ts";
import { sentResult } from "../sendable_result.ts";
import { answerToolCall, type ToolHost } from "../tool_host.ts";

/** The protocol era an instance serves. */
export type Era = "legacy" | "modern";

/** What an instance writes with, and where its errors go. */
export interface EraServerOptions {
  /** The stdio session. */
  session: string;
  /** Writes a message. */
  send(message: JsonRpcMessage): Promise<void>;
  /** Receives errors that have no answer. */
  report(error: Error): void;
}

const CAPABILITIES = { tools: { listChanged: true }, logging: {} };
const INVALID_PARAMS = JSON_RPC_CODES.invalidParams;
// The methods each era defines; others are answered "Method not found" whatever their handler.
const SERVED: Record<Era, Set<string>> = {
  legacy: new Set(["initialize", "ping", "logging/setLevel", "tools/list", "tools/call"]),
  modern: new Set(["server/discover", "tools/list", "tools/call"]),
};
const ENVELOPE_KEYS: string[] = Object.values(ENVELOPE);
const CACHEABLE = new Set(["tools/list", "server/discover"]);
// Members of other result families: such a result is not given an empty content.
const FOREIGN_RESULT_KEYS = ["task", "inputRequests", "requestState"];

/** A JSON-RPC error to answer, thrown inside a handler. */
class Answered extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

/**
 * One era's server instance.
 *
 * @example Usage
 * ```ts
 * import { EraServer } from "./_era_server.ts";
 * import { equal } from "node:assert/strict";
 *
 * const sent: unknown[] = [];
 * const server = new EraServer({
 *   serverInfo: { name: "demo", version: "1.0.0" },
 *   instructions: () => "",
 *   tools: () => [],
 *   call: () => Promise.resolve({ ok: false, message: "no tools" }),
 *   onToolsChanged: () => () => {},
 * }, "legacy", { session: "s", send: (m) => Promise.resolve(void sent.push(m)), report: () => {} });
 * server.receive({ jsonrpc: "2.0", id: 1, method: "ping" });
 * await new Promise((resolve) => setTimeout(resolve, 0));
 * equal(sent.length, 1);
 * ```
 */
export class EraServer {
  readonly #host: ToolHost;
  readonly #options: EraServerOptions;
  #instructions: string;
  // The client, as its initialize named it.
  #client: { name: string; version?: string } | undefined;
  readonly #calls = new Map<RequestId, AbortController>();
  #unsubscribe = () => {};
  #closed = false;

  /**
   * @param host The tools.
   * @param era The era served.
   * @param options How to write, and the session.
   */
  constructor(host: ToolHost, readonly era: Era, options: EraServerOptions) {
    this.#host = host;
    this.#options = options;
    this.#instructions = host.instructions();
  }

  /**
   * Handles one message of the connection.
   *
   * @param message The message.
   */
  receive(message: JsonRpcMessage): void {
    if (this.#closed) return;
    if (isRequest(message)) return this.#request(message);
    if (!isNotification(message)) {
      return this.#options.report(
        new Error(`Received a response for an unknown message ID: ${JSON.stringify(message)}`),
      );
    }
    const params = message.params;
    if (message.method === "notifications/cancelled") {
      if (isRecord(params) && params.requestId !== undefined) {
        this.#calls.get(params.requestId as RequestId)?.abort(params.reason);
      }
    } else if (message.method === "notifications/initialized" && this.era === "legacy") {
      this.#unsubscribe();
      this.#unsubscribe = this.#host.onToolsChanged(() => {
        if (this.#closed) return;
        void this.#options.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })
          .catch(() => {});
      }, () => this.#client);
    }
  }

  /**
   * Ends the instance: `list_changed` stops, and calls in flight are aborted (unanswered), or,
   * for a probe set aside, left to answer.
   *
   * @param options `abort: false` lets calls in flight answer.
   */
  close(options: { abort?: boolean } = {}): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    if (options.abort === false) return;
    for (const controller of this.#calls.values()) controller.abort(new Error("Connection closed"));
    this.#calls.clear();
  }

  #request(request: JsonRpcRequest): void {
    const fail = (code: number, message: string, data?: unknown) =>
      void this.#options.send(errorResponse(request.id, code, message, data))
        .catch(this.#options.report);
    if (!SERVED[this.era].has(request.method)) {
      return void this.#options.send(methodNotFound(request.id)).catch(this.#options.report);
    }
    const { params, envelope, requestState } = lift(request.params);
    if (this.era === "modern") {
      if (envelope === undefined) {
        return fail(
          INVALID_PARAMS,
          "Request is missing the required _meta envelope for protocol revision 2026-07-28 (io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)",
        );
      }
      // An envelope naming its version was checked as it arrived (`stdio_server.ts`); one
      // without it is refused here, as the SDK's server refuses it.
      if (!(ENVELOPE.version in envelope)) {
        return fail(
          INVALID_PARAMS,
          `Invalid _meta envelope for protocol revision 2026-07-28: ${
            envelopeSchemaIssues(envelope).map((issue) => issue.message).join("; ")
          }`,
        );
      }
    }
    const controller = new AbortController();
    this.#calls.set(request.id, controller);
    Promise.resolve().then(() => this.#answer(request.method, params, requestState, controller))
      .then(
        (result) => {
          if (controller.signal.aborted) return;
          return this.#options.send(
            {
              result: this.#encode(request.method, result),
              jsonrpc: "2.0",
              id: request.id,
            } as never,
          );
        },
        (error: { code?: unknown; message?: string; data?: unknown }) => {
          if (controller.signal.aborted) return;
          // As the SDK answers a handler's throw: its integer code (the retired -32002, resource
          // not found, as invalid params), else an internal error.
          const code = Number.isSafeInteger(error.code)
            ? error.code as number
            : JSON_RPC_CODES.internalError;
          fail(
            code === -32_002 ? INVALID_PARAMS : code,
            error.message ?? "Internal error",
            error.data,
          );
        },
      ).catch(this.#options.report).finally(() => {
        if (this.#calls.get(request.id) === controller) this.#calls.delete(request.id);
      });
  }

  async #answer(
    method: string,
    params: Record<string, unknown> | undefined,
    requestState: unknown,
    controller: AbortController,
  ): Promise<Record<string, unknown>> {
    const issues = paramIssues(method, params, this.era === "modern");
    if (method === "tools/call") {
      if (issues.length > 0) {
        throw new Answered(INVALID_PARAMS, `Invalid tools/call request: ${formatIssues(issues)}`);
      }
      if (requestState !== undefined && typeof requestState !== "string") {
        throw new Answered(INVALID_PARAMS, "Invalid or expired requestState", {
          reason: "invalid_request_state",
        });
      }
      const token = isRecord(params!._meta) ? params!._meta.progressToken : undefined;
      const answer = await answerToolCall(
        this.#host,
        params as { name: string },
        {
          tenant: "",
          sessionId: this.#options.session,
          signal: controller.signal,
          era: this.era,
          ...(this.#client === undefined ? {} : { client: this.#client }),
        },
        token === undefined ? undefined : {
          token: token as string | number,
          notify: (note) => this.#options.send({ jsonrpc: "2.0", ...note } as never),
        },
      );
      if (!answer.ok) throw new Answered(answer.code, answer.message);
      // As the SDK: a result without content gets an empty one, then the era's schema shapes it.
      const result = answer.result.content === undefined &&
          !FOREIGN_RESULT_KEYS.some((key) => key in answer.result)
        ? { ...answer.result, content: [] }
        : answer.result;
      const sent = sentResult(result, this.era);
      if (sent === undefined) {
        throw new Answered(INVALID_PARAMS, "Invalid tools/call result: the result is malformed");
      }
      return sent;
    }
    if (issues.length > 0) throw new Error(formatIssues(issues));
    switch (method) {
      case "initialize": {
        const requested = params!.protocolVersion as string;
        const info = isRecord(params!.clientInfo) ? params!.clientInfo : {};
        if (typeof info.name === "string") {
          this.#client = {
            name: info.name.slice(0, 200),
            ...(typeof info.version === "string" ? { version: info.version.slice(0, 200) } : {}),
          };
          this.#instructions = this.#host.instructions(this.#client);
        }
        return {
          protocolVersion: LEGACY_PROTOCOL_VERSIONS.includes(requested)
            ? requested
            : LEGACY_PROTOCOL_VERSIONS[0],
          capabilities: CAPABILITIES,
          serverInfo: this.#host.serverInfo,
          ...(this.#instructions ? { instructions: this.#instructions } : {}),
        };
      }
      case "server/discover":
        return {
          supportedVersions: [MODERN_REVISION],
          capabilities: CAPABILITIES,
          ...(this.#instructions ? { instructions: this.#instructions } : {}),
        };
      case "tools/list":
        return { tools: await this.#host.tools(this.#client) };
      default: // ping, logging/setLevel: the gateway logs nothing
        return {};
    }
  }

  // The 2026-07-28 result: its type, cache fields on a listing, and the server's name.
  #encode(method: string, result: Record<string, unknown>): Record<string, unknown> {
    if (this.era === "legacy") return result;
    let encoded: Record<string, unknown> = { ...result, resultType: "complete" };
    if (CACHEABLE.has(method)) encoded = { ...encoded, ttlMs: 0, cacheScope: "private" };
    const meta = encoded._meta;
    if (meta === undefined) {
      return { ...encoded, _meta: { [SERVER_INFO_META_KEY]: this.#host.serverInfo } };
    }
    if (!isRecord(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return encoded;
    return { ...encoded, _meta: { ...meta, [SERVER_INFO_META_KEY]: this.#host.serverInfo } };
  }
}

// What a handler sees: the envelope keys and the retry members lifted out of the params.
function lift(params: Record<string, unknown> | undefined): {
  params: Record<string, unknown> | undefined;
  envelope: Record<string, unknown> | undefined;
  requestState: unknown;
} {
  if (params === undefined) return { params, envelope: undefined, requestState: undefined };
  const meta = isRecord(params._meta) ? params._meta : undefined;
  const keys = meta === undefined ? [] : ENVELOPE_KEYS.filter((key) => key in meta);
  const retry = "inputResponses" in params || "requestState" in params;
  if (keys.length === 0 && !retry) return { params, envelope: undefined, requestState: undefined };
  const next: Record<string, unknown> = { ...params };
  let envelope: Record<string, unknown> | undefined;
  if (keys.length > 0) {
    envelope = {};
    const rest = { ...meta };
    for (const key of keys) {
      envelope[key] = meta![key];
      delete rest[key];
    }
    if (Object.keys(rest).length > 0) next._meta = rest;
    else delete next._meta;
  }
  const requestState = next.requestState;
  delete next.inputResponses;
  delete next.requestState;
  return { params: next, envelope, requestState };
}
