/**
 * What a connection needs of the MCP client under it (the handshake, requests, a ping, two
 * notifications, the server's identity, closing), so that a connection can run on the SDK's
 * `Client` (`_sdk_peer.ts`: HTTP, any transport) or on unfold's own JSON-RPC client
 * (`_lite_peer.ts`: stdio, without loading the SDK). Failures of a request carry a
 * {@linkcode PeerErrorKind} that the connection maps to its error codes.
 *
 * @module
 */

import type { McpTransport, ServerIdentity } from "./types.ts";
import type { ProgressParams } from "./_progress.ts";

/**
 * The JSON-RPC code of the answer that stands in for one over the line limit (`_line_reader.ts`):
 * the request fails with its size and the limit, not with the server's code.
 *
 * @example Usage
 * ```ts
 * import { OVERSIZED_CODE } from "./_peer.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(OVERSIZED_CODE, -32_099);
 * ```
 */
export const OVERSIZED_CODE = -32_099;

/**
 * Why a request failed, when the peer can tell: `server`, the server's JSON-RPC error (its
 * `code` and words kept); `malformed`, an answer that fails a check (the message says which);
 * `timeout`, the handshake's time ran out or the request was abandoned; `closed`, the connection
 * closed before the answer. (An answer over the line limit is a `server` error with the code
 * {@linkcode OVERSIZED_CODE}.) Any other failure (a broken pipe, a transport that cannot send) has
 * no kind.
 */
export type PeerErrorKind = "server" | "malformed" | "timeout" | "closed";

/** A failed request's error, with its kind (and the server's JSON-RPC code for `server`). */
export interface PeerError extends Error {
  /** Why it failed. */
  kind: PeerErrorKind;
  /** The server's JSON-RPC error code, for `server`. */
  code?: number;
}

/**
 * Makes a {@linkcode PeerError}.
 *
 * @param kind Why the request failed.
 * @param message The words, as the connection quotes them.
 * @param code The server's JSON-RPC error code, for `server`.
 * @param cause The error it stands for, when it stands for one.
 * @returns The error.
 *
 * @example Usage
 * ```ts
 * import { peerError } from "./_peer.ts";
 * import { equal } from "node:assert/strict";
 *
 * const error = peerError("server", "No such tool", -32602);
 * equal(error.kind, "server");
 * equal(error.code, -32602);
 * ```
 */
export function peerError(
  kind: PeerErrorKind,
  message: string,
  code?: number,
  cause?: unknown,
): PeerError {
  const error = new Error(message, cause === undefined ? undefined : { cause }) as PeerError;
  error.kind = kind;
  if (code !== undefined) error.code = code;
  return error;
}

/** The MCP client a connection runs on. */
export interface Peer {
  /**
   * Starts the transport and runs the handshake.
   *
   * @param transport The transport, not yet started.
   * @param timeoutMs How long the server may take to answer `initialize`.
   * @throws {Error} When the transport fails to start or the handshake fails.
   */
  connect(transport: McpTransport, timeoutMs: number): Promise<void>;
  /**
   * Sends a request and waits for its result, as the server sent it. Aborting the signal tells the
   * server the request is cancelled.
   *
   * @param method The method.
   * @param params Its params, when it has any.
   * @param signal Abandons the request.
   * @returns The result.
   * @throws {PeerError} When it fails (an error without a kind: the transport failed).
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** Listens for `notifications/tools/list_changed`; set before connecting. */
  onListChanged(handler: () => void): void;
  /** Listens for `notifications/progress` with well-formed params; set before connecting. */
  onProgress(handler: (params: ProgressParams) => void): void;
  /** Listens for the connection closing (after the handshake: the server has gone). */
  onClose(handler: () => void): void;
  /** Listens for a transport error or an unreadable message: the connection may be broken. */
  onError(handler: (error: Error) => void): void;
  /** What the server said about itself in the handshake. */
  readonly identity: ServerIdentity;
  /** The server's instructions from the handshake. */
  readonly instructions: string | undefined;
  /** Closes the transport. */
  close(): Promise<void>;
}
