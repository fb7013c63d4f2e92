/**
 * What a connection's failures say and which code they carry: the SDK's errors sorted into the
 * connection's kinds, a failed request as an `McpError`, a malformed result's problem in words.
 * Off the path of a request that succeeds.
 *
 * @module
 */

import type { StandardSchemaV1 } from "@modelcontextprotocol/client";
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { COMMAND_NOT_FOUND, McpError, type McpErrorCode } from "../tool_error.ts";
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

/** An issue of the SDK's schemas (zod's, through Standard Schema). */
export type Issue = StandardSchemaV1.Issue & { code?: string; expected?: string };

/**
 * Why a request failed, when it can be told: `server`, the server's JSON-RPC error (its `code`
 * and words kept; an answer the client could not read is one with `UNREADABLE_ANSWER_CODE`);
 * `malformed`, an answer that fails a check; `timeout`, the handshake's time ran out or the
 * request was abandoned; `closed`, the connection closed before the answer. Any other failure
 * (a broken pipe, a transport that cannot send) has no kind.
 */
export interface Classified extends Error {
  /** Why. */
  kind: "server" | "malformed" | "timeout" | "closed";
  /** The server's JSON-RPC code, for `server`. */
  code?: number;
}

/**
 * The SDK's errors in the connection's kinds; others (a transport's) pass as they are.
 *
 * @param error What the SDK threw.
 * @returns The error, classified.
 */
export function classified(error: unknown): unknown {
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

/**
 * Why a request failed, as an McpError: closed or unreachable → `disconnected`; the server's
 * JSON-RPC error → a call's `tool_error`, a listing's `list_tools`.
 *
 * @param what What failed (`Cannot call "a/b"`).
 * @param codes The request's own failure and timeout codes.
 * @param error What the SDK or the transport threw.
 * @param connection Whether the connection is closed, why, and its transport's hooks.
 * @returns The error.
 */
export function requestFailure(
  what: string,
  codes: { failure: McpErrorCode; timeout: McpErrorCode },
  error: unknown,
  connection: { closed: boolean; why: string; hooks: TransportHooks },
): McpError {
  if (error instanceof McpError) return error;
  if (connection.closed) {
    return new McpError("disconnected", `${what}: ${connection.why}`, { cause: error });
  }
  const { kind, code } = error as Partial<Classified>;
  if (kind === "closed") {
    return new McpError(
      "disconnected",
      `${what}: the server closed the connection${detail(connection.hooks)}`,
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
  return new McpError("disconnected", `${what}: ${reason(error)}${detail(connection.hooks)}`, {
    cause: error,
  });
}

// How much of an error's message is quoted: a server's message, or the SDK's account of a
// malformed answer, can be as long as the answer.
/** How much of an error's message is quoted. */
export const REASON_CHARS = 1_000;

/**
 * The message of an error, at most {@linkcode REASON_CHARS} long; a command that is not there in
 * a shell's words.
 *
 * @param error What was thrown.
 * @returns The words.
 */
export function reason(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)) || "unknown error";
  // What a shell would say of a command that is not there.
  const missing = /^spawn (.+) ENOENT$/.exec(message);
  if (missing !== null) return `${COMMAND_NOT_FOUND}: ${missing[1]}`;
  return message.length > REASON_CHARS ? `${message.slice(0, REASON_CHARS)}…` : message;
}

/**
 * What a transport adds to a failure's words (a stdio server's last error output), after `; `.
 *
 * @param hooks The transport's hooks.
 * @returns The words, or `""`.
 */
export function detail(hooks: TransportHooks): string {
  const more = hooks.detail?.() ?? "";
  return more === "" ? "" : `; ${more}`;
}

// How much of a bad value a message quotes.
const QUOTE_CHARS = 80;
const EXPECTED: Record<string, string> = {
  array: "a list",
  boolean: "true or false",
  number: "a number",
  object: "an object",
  record: "an object",
  string: "a string",
};

/**
 * A schema issue of a result in words: what the member must be and what it was.
 *
 * @param issue The first issue the SDK's schema found.
 * @param result The result.
 * @returns The words.
 */
export function issueWords(issue: Issue, result: Record<string, unknown>): string {
  const path = (issue.path ?? []).map((key) => typeof key === "object" ? key.key : key);
  const where = path.length === 0 ? "the result" : JSON.stringify(path.join("."));
  let value: unknown = result;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  const expected = issue.code === "invalid_type" ? EXPECTED[issue.expected ?? ""] : undefined;
  if (expected !== undefined) return `${where} must be ${expected}, got ${quote(value)}`;
  if (issue.code === "invalid_union" && path[0] === "content") {
    return `${where} is no content block MCP defines, got ${quote(value)}`;
  }
  return `${where}: ${issue.message}, got ${quote(value)}`;
}

function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}
