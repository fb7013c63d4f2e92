/**
 * The one error type of the MCP client adapters: every failure that comes from a server, its
 * transport or the SDK reaches the host as an {@linkcode McpError} with a stable `code`.
 *
 * @module
 */

import { codeList } from "./utils/code_list.ts";

/**
 * The stable codes of {@linkcode McpError}:
 * - `connect`: the server could not be started or reached, or the handshake failed;
 * - `list_tools`: `tools/list` failed or answered something unusable;
 * - `disconnected`: the connection is closed, or it was lost before or during the request;
 * - `call_timeout`: a tool call took longer than its timeout and was abandoned;
 * - `tool_error`: the server reported that the tool failed (`isError: true`, or a JSON-RPC error);
 * - `unsupported_content`: the result holds content that cannot be handed on (audio, unknown or
 *   malformed blocks);
 * - `needs_login`: the server wants an OAuth sign-in (or more scope) that only the user can give;
 *   the message says the command to run (`unfold login SERVER`).
 */
export type McpErrorCode =
  | "connect"
  | "list_tools"
  | "disconnected"
  | "call_timeout"
  | "tool_error"
  | "unsupported_content"
  | "needs_login";

/**
 * Every {@linkcode McpErrorCode}, in the order of a connection's life.
 *
 * @example Usage
 * ```ts
 * import { MCP_ERROR_CODES } from "./tool_error.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(MCP_ERROR_CODES.includes("call_timeout"));
 * ```
 */
export const MCP_ERROR_CODES: readonly McpErrorCode[] = codeList<McpErrorCode>({
  connect: 0,
  list_tools: 0,
  disconnected: 0,
  call_timeout: 0,
  tool_error: 0,
  unsupported_content: 0,
  needs_login: 0,
});

/**
 * A failure of an MCP server, its transport or its result, with a stable `code`. The underlying
 * error, when there is one, is kept as `cause`.
 *
 * @example Usage
 * ```ts
 * import { McpError } from "./tool_error.ts";
 * import { equal, ok } from "node:assert/strict";
 *
 * const error = new McpError("call_timeout", 'Cannot call "everything/slow": no answer within 50 ms');
 * ok(error instanceof Error);
 * equal(error.code, "call_timeout");
 * equal(error.name, "McpError");
 * ```
 */
export class McpError extends Error {
  /** What kind of failure this is. */
  readonly code: McpErrorCode;

  /**
   * Makes the error.
   *
   * @param code What kind of failure this is.
   * @param message What happened, naming the server and tool.
   * @param options The underlying error, as `cause`.
   */
  constructor(code: McpErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "McpError";
    this.code = code;
  }
}

/**
 * How a stdio server whose command is not on the PATH is said (in its state, on stderr, to the
 * model): `command not found: npxx`, instead of Node's `spawn npxx ENOENT`.
 */
export const COMMAND_NOT_FOUND = "command not found";
