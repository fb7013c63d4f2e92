/**
 * The MCP SDK's `Client` as a connection's {@linkcode Peer}: what HTTP upstreams, any transport a
 * host brings (`connectTransport`) and the 2026 version negotiation run on. Its errors are sorted
 * into the peer's kinds here, so that the connection never needs the SDK's classes.
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
import type { ServerIdentity } from "./types.ts";
import { type Peer, peerError } from "./_peer.ts";
import { BOUNDED_VALIDATOR } from "./_validator.ts";
import { PROGRESS_PARAMS } from "./_progress.ts";
import { SDK_TIMEOUT_MS } from "./_settings.ts";

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
 * Makes a peer on the SDK's `Client`.
 *
 * @param clientInfo The client's name and version, sent in the handshake.
 * @param versionNegotiation How the protocol revision is chosen (`ConnectOptions`).
 * @returns The peer, not yet connected.
 *
 * @example Usage
 * ```ts
 * import { sdkPeer } from "./_sdk_peer.ts";
 * import { InMemoryTransport } from "@modelcontextprotocol/client";
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { equal } from "node:assert/strict";
 *
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * const peer = sdkPeer({ name: "unfold", version: "0.1.0" });
 * await peer.connect(clientSide, 1_000);
 * equal(peer.identity.name, "demo");
 * await peer.close();
 * ```
 */
export function sdkPeer(
  clientInfo: { name: string; version: string },
  versionNegotiation?: "legacy" | "auto",
): Peer {
  const client = new Client(clientInfo, {
    capabilities: {},
    jsonSchemaValidator: BOUNDED_VALIDATOR,
    ...(versionNegotiation === undefined
      ? {}
      : { versionNegotiation: { mode: versionNegotiation } }),
  });
  return {
    connect: (transport, timeoutMs) => client.connect(transport, { timeout: timeoutMs }),
    request: (method, params, signal) =>
      client.request(params === undefined ? { method } : { method, params }, AS_SENT, {
        signal,
        timeout: SDK_TIMEOUT_MS,
      }).catch((error) => {
        throw classified(error);
      }),
    onListChanged: (handler) =>
      client.setNotificationHandler("notifications/tools/list_changed", () => handler()),
    // Checked by hand, not by the SDK's schemas: a server may send a flood of these.
    onProgress: (handler) =>
      client.setNotificationHandler(
        "notifications/progress",
        { params: PROGRESS_PARAMS },
        (params) => handler(params),
      ),
    onClose: (handler) => client.onclose = handler,
    onError: (handler) => client.onerror = handler,
    get identity(): ServerIdentity {
      const info = client.getServerVersion();
      const identity: ServerIdentity = { name: info?.name ?? "", version: info?.version ?? "" };
      if (typeof info?.title === "string") identity.title = info.title;
      return identity;
    },
    get instructions() {
      return client.getInstructions();
    },
    close: () => client.close(),
  };
}

// The SDK's errors in the peer's kinds; others (a transport's) pass as they are.
function classified(error: unknown): unknown {
  if (error instanceof ProtocolError) {
    return peerError("server", error.message, error.code, error);
  }
  if (!(error instanceof SdkError)) return error;
  switch (error.code) {
    case SdkErrorCode.InvalidResult:
    case SdkErrorCode.UnsupportedResultType: {
      const words = error.message
        .replace(/^Invalid result for [\w/]+: /, "the server's answer is malformed: ");
      return peerError("malformed", words, undefined, error);
    }
    case SdkErrorCode.RequestTimeout:
      return peerError("timeout", error.message, undefined, error);
    case SdkErrorCode.ConnectionClosed:
      return peerError("closed", error.message, undefined, error);
  }
  return error;
}
