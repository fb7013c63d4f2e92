/**
 * The gateway's MCP server over a stdio wire, without the MCP SDK: what `serveStdio` of the SDK
 * v2.4 answers for a {@linkcode ToolHost}, in both protocol eras (the opening message picks one
 * per connection: a 2025-era `initialize` or a message without a 2026-07-28 envelope pins the
 * 2025 era; a `server/discover` with an envelope probes the 2026-07-28 era, and its next request
 * pins it). `test/gateway/faces/stdio_server_test.ts` sends the same messages to both and compares.
 * Some answers differ on purpose, given as the SDK's HTTP face gives them: a 2026-07-28
 * subscription to tool list changes receives them (the SDK's stdio server sends them only after
 * `notifications/initialized`, which that era does not have), one to nothing offered ends at once
 * (the SDK's stdio server kept it open), and each request's envelope is checked as at the opening
 * (the SDK's stdio server checked it otherwise once the era was pinned;
 * `test/gateway/faces/stdio_faces_test.ts` compares the faces).
 * Loading the SDK cost the gateway 21–27 MiB and a schema check of every message.
 *
 * @module
 */

import {
  errorResponse,
  isNotification,
  isRequest,
  JSON_RPC_CODES,
} from "../../protocol/jsonrpc.ts";
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../../protocol/jsonrpc.ts";
import { SERVER_INFO_META_KEY, SUBSCRIPTION_ID_META_KEY } from "../../protocol/mcp.ts";
import { isRecord } from "../../utils/record.ts";
import { ENVELOPE, envelopeIssues, MODERN_REVISION } from "./_mcp_checks.ts";
import { type Era, EraServer } from "./_era_server.ts";
import type { WireTransport } from "./stdio_wire.ts";
import type { ToolHost } from "../tool_host.ts";

/** Options of {@linkcode serveToolHost}. */
export interface ToolHostServeOptions {
  /** The 2025-era session the connection is. */
  session: string;
  /** Receives what the client got wrong that has no answer (a stray response, …). */
  onError?: (error: Error) => void;
}

const UNSUPPORTED_VERSION = -32_022;
// Open `subscriptions/listen` of one connection, at most (the SDK's default bound).
const MAX_SUBSCRIPTIONS = 1_024;

/**
 * Serves a host on a wire's transport until the wire closes.
 *
 * @param host The tools.
 * @param transport The wire's transport (`transportOf(wire)`).
 * @param options The session and an error listener.
 * @returns A handle whose `close()` ends the connection.
 *
 * @example Usage
 * ```ts
 * import { serveToolHost } from "./stdio_server.ts";
 * import { openStdioWire, transportOf } from "./stdio_wire.ts";
 * import { equal } from "node:assert/strict";
 *
 * const input = new TransformStream<Uint8Array, Uint8Array>();
 * const answered = Promise.withResolvers<string>();
 * const output = new WritableStream<Uint8Array>({ write: (chunk) => answered.resolve(new TextDecoder().decode(chunk)) });
 * const wire = openStdioWire(input.readable, output);
 * const served = serveToolHost({
 *   serverInfo: { name: "demo", version: "1.0.0" },
 *   instructions: () => "",
 *   tools: () => [],
 *   call: () => Promise.resolve({ ok: false, message: "no tools" }),
 *   onToolsChanged: () => () => {},
 * }, transportOf(wire), { session: "s" });
 * const writer = input.writable.getWriter();
 * await writer.write(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
 * equal(await answered.promise, '{"result":{},"jsonrpc":"2.0","id":1}\n');
 * await served.close();
 * ```
 */
export function serveToolHost(
  host: ToolHost,
  transport: WireTransport,
  options: ToolHostServeOptions,
): { close(): Promise<void> } {
  const report = (error: Error) => options.onError?.(error);
  const send = (message: JsonRpcMessage) => transport.send(message).catch(report);
  const fail = (id: RequestId, code: number, message: string, data?: unknown) =>
    send(errorResponse(id, code, message, data));
  let phase: "opening" | "probe" | "pinned" | "closed" = "opening";
  let server: EraServer | undefined;
  // Subscriptions of a 2026-07-28 connection (`subscriptions/listen`) to tool list changes, by
  // request id: the changes go out on each as the SDK's HTTP face sends them.
  const listens = new Set<RequestId>();
  let unlisten: (() => void) | undefined;
  const toolsChanged = () => {
    if (phase === "closed") return;
    for (const id of listens) {
      void send({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
      });
    }
  };
  // A subscription's end: its request's result.
  const end = (id: RequestId) =>
    send({
      jsonrpc: "2.0",
      id,
      result: {
        resultType: "complete",
        _meta: { [SUBSCRIPTION_ID_META_KEY]: id, [SERVER_INFO_META_KEY]: host.serverInfo },
      },
    });
  const stopListening = () => {
    unlisten?.();
    unlisten = undefined;
  };

  const open = (era: Era) => new EraServer(host, era, { session: options.session, send, report });
  const unsupported = (id: RequestId, requested: string | undefined) =>
    requested === undefined
      ? fail(
        id,
        UNSUPPORTED_VERSION,
        "Unsupported protocol version: the request did not name a protocol version",
        { supported: [MODERN_REVISION] },
      )
      : fail(id, UNSUPPORTED_VERSION, `Unsupported protocol version: ${requested}`, {
        supported: [MODERN_REVISION],
        requested,
      });
  const listen = (request: JsonRpcRequest) => {
    // An envelope naming its version was checked as it arrived (`refusedEnvelope`).
    if (!(ENVELOPE.version in (metaOf(request.params) ?? {}))) {
      return fail(
        request.id,
        JSON_RPC_CODES.invalidParams,
        "Invalid _meta envelope: _meta: the per-request envelope is required on protocol revision 2026-07-28",
      );
    }
    if (listens.size >= MAX_SUBSCRIPTIONS) {
      return fail(request.id, JSON_RPC_CODES.internalError, "Subscription limit reached");
    }
    const filter = request.params?.notifications;
    if (!isFilter(filter)) {
      return fail(
        request.id,
        JSON_RPC_CODES.invalidParams,
        "Invalid params: 'notifications' is required and must be a valid SubscriptionFilter",
      );
    }
    // The gateway's tools list changes; nothing else is offered. A subscription to nothing it
    // offers ends at once, as on the SDK's HTTP face (its stdio server kept it open, idle).
    const tools = filter.toolsListChanged === true;
    if (tools) {
      listens.add(request.id);
      unlisten ??= host.onToolsChanged(toolsChanged);
    }
    const acknowledged = send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: tools ? { toolsListChanged: true } : {},
        _meta: { [SUBSCRIPTION_ID_META_KEY]: request.id },
      },
    });
    return tools ? acknowledged : acknowledged.then(() => end(request.id));
  };
  // Answers a 2026-07-28 message whose envelope is wrong or names another revision (a
  // notification is dropped); whether it was.
  const refusedEnvelope = (message: JsonRpcMessage, meta: Record<string, unknown>): boolean => {
    const issue = envelopeIssues(meta)[0];
    if (issue !== undefined) {
      if (isRequest(message)) {
        void fail(
          message.id,
          JSON_RPC_CODES.invalidParams,
          `Invalid _meta envelope for protocol revision 2026-07-28: ${issue.key}: ${issue.problem}`,
          { envelope: issue },
        );
      }
      return true;
    }
    if (meta[ENVELOPE.version] === MODERN_REVISION) return false;
    if (isRequest(message)) void unsupported(message.id, String(meta[ENVELOPE.version]));
    return true;
  };
  const servedByEntry = (message: JsonRpcMessage): boolean => {
    if (isRequest(message) && message.method === "subscriptions/listen") {
      void listen(message);
      return true;
    }
    if (isNotification(message) && message.method === "notifications/cancelled") {
      const id = message.params?.requestId;
      return id !== undefined && listens.delete(id as RequestId);
    }
    return false;
  };

  const receive = (message: JsonRpcMessage) => {
    if (phase === "closed") return;
    if (phase === "pinned") {
      if (server!.era === "modern") {
        if (isRequest(message) && message.method === "initialize" && !validClaim(message)) {
          const version = message.params?.protocolVersion;
          return void unsupported(message.id, typeof version === "string" ? version : undefined);
        }
        // Each request's envelope is checked as at the opening, as the HTTP face checks each.
        const meta = "params" in message ? metaOf(message.params) : undefined;
        if (meta !== undefined && ENVELOPE.version in meta && refusedEnvelope(message, meta)) {
          return;
        }
        if (servedByEntry(message)) return;
      }
      return server!.receive(message);
    }
    if (!isRequest(message) && !isNotification(message)) {
      return report(
        new Error("Discarded a JSON-RPC response received before the connection negotiated an era"),
      );
    }
    const meta = metaOf(message.params);
    const claimed = meta !== undefined && ENVELOPE.version in meta;
    const legacy = !claimed || (message.method === "initialize" && !validClaim(message));
    if (legacy) {
      // The SDK lets a probe answer what it was sent before setting it aside.
      if (phase === "probe") server!.close({ abort: false });
      server = open("legacy");
      phase = "pinned";
      return server.receive(message);
    }
    if (refusedEnvelope(message, meta!)) return;
    if (isRequest(message) && message.method === "server/discover") {
      if (phase !== "probe") server = open("modern");
      phase = "probe";
      return server!.receive(message);
    }
    if (phase === "probe" && isNotification(message)) return server!.receive(message);
    if (phase !== "probe") server = open("modern");
    phase = "pinned";
    if (servedByEntry(message)) return;
    server!.receive(message);
  };

  transport.onmessage = receive;
  transport.onclose = () => {
    if (phase === "closed") return;
    phase = "closed";
    stopListening();
    server?.close();
  };
  const started = transport.start().catch(report);
  return {
    async close() {
      await started;
      if (phase === "closed") return;
      phase = "closed";
      stopListening();
      for (const id of listens) await end(id);
      listens.clear();
      server?.close();
      await transport.close();
    },
  };
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  return isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
}

// A 2026-07-28 claim (or later) with a valid envelope: such an `initialize` is a modern request.
function validClaim(message: JsonRpcMessage): boolean {
  const meta = "params" in message ? metaOf(message.params) : undefined;
  const version = meta?.[ENVELOPE.version];
  return typeof version === "string" && version >= MODERN_REVISION &&
    envelopeIssues(meta!).length === 0;
}

function isFilter(value: unknown): value is { toolsListChanged?: boolean } {
  if (!isRecord(value)) return false;
  const flags = ["toolsListChanged", "promptsListChanged", "resourcesListChanged"];
  return flags.every((flag) => value[flag] === undefined || typeof value[flag] === "boolean") &&
    (value.resourceSubscriptions === undefined ||
      (Array.isArray(value.resourceSubscriptions) &&
        value.resourceSubscriptions.every((uri) => typeof uri === "string")));
}
