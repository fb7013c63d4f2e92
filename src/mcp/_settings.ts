/**
 * A connection's settings: the options of every `connect*` function with their defaults, checked.
 *
 * @module
 */

import type { ConnectOptions } from "./types.ts";
import type { McpError } from "../tool_error.ts";
import type { ToolIssue } from "./tool_list.ts";

/** The default {@linkcode ConnectOptions.callTimeoutMs}: five minutes. */
export const DEFAULT_CALL_TIMEOUT_MS = 300_000;
/** The default {@linkcode ConnectOptions.requestTimeoutMs}: one minute. */
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The longest wait a timer can have: larger values make setTimeout fire at once. Our own timers
 * bound every request; the SDK's are set to this so that they never fire first.
 */
export const SDK_TIMEOUT_MS = 2_147_483_647;

/** {@linkcode ConnectOptions} with every default filled in. */
export interface Settings {
  /** The calls' timeout, or `null` for none. */
  callTimeoutMs: number | null;
  /** The handshake's and each listing page's timeout. */
  requestTimeoutMs: number;
  /** Receives each problem with a listed tool. */
  onToolIssue: (issue: ToolIssue) => void;
  /** Receives failures outside any call; never throws. */
  onError: (error: McpError) => void;
  /** The client's name and version. */
  clientInfo: NonNullable<ConnectOptions["clientInfo"]>;
}

/**
 * Fills in and checks the options of a connection.
 *
 * @param options The host's options.
 * @returns The settings.
 * @throws {RangeError} When a timeout is not a positive number of milliseconds (or `null` where
 * allowed).
 *
 * @example Usage
 * ```ts
 * import { settingsOf } from "./_settings.ts";
 * import { equal, throws } from "node:assert/strict";
 *
 * equal(settingsOf({}).callTimeoutMs, 300_000);
 * equal(settingsOf({ callTimeoutMs: null }).callTimeoutMs, null);
 * throws(() => settingsOf({ requestTimeoutMs: 0 }), RangeError);
 * ```
 */
export function settingsOf(options: ConnectOptions): Settings {
  return {
    callTimeoutMs: options.callTimeoutMs === undefined
      ? DEFAULT_CALL_TIMEOUT_MS
      : checkTimeout(options.callTimeoutMs, "callTimeoutMs", true, "Cannot connect"),
    requestTimeoutMs: options.requestTimeoutMs === undefined
      ? DEFAULT_REQUEST_TIMEOUT_MS
      : checkTimeout(options.requestTimeoutMs, "requestTimeoutMs", false, "Cannot connect")!,
    onToolIssue: options.onToolIssue ?? warnToolIssue,
    onError: reportingErrors(options.onError),
    clientInfo: options.clientInfo ?? { name: "unfold", version: "0.1.0" },
  };
}

/**
 * Checks a timeout option.
 *
 * @param value The value given.
 * @param name The option's name, for the message.
 * @param nullable Whether `null` (no timeout) is allowed.
 * @param what What fails, for the message: `Cannot connect`, `Cannot call "a/b"`.
 * @returns The timeout, or `null`.
 * @throws {RangeError} When it is not a positive number of milliseconds (or an allowed `null`).
 *
 * @example Usage
 * ```ts
 * import { checkTimeout } from "./_settings.ts";
 * import { equal, throws } from "node:assert/strict";
 *
 * equal(checkTimeout(50, "timeoutMs", true, "Cannot call"), 50);
 * throws(() => checkTimeout(-1, "timeoutMs", true, "Cannot call"), RangeError);
 * ```
 */
export function checkTimeout(
  value: unknown,
  name: string,
  nullable: boolean,
  what: string,
): number | null {
  if (nullable && value === null) return null;
  if (typeof value !== "number" || !(value > 0) || value > SDK_TIMEOUT_MS) {
    throw new RangeError(
      `${what}: ${name} must be a positive number of milliseconds${
        nullable ? " or null" : ""
      }, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Rethrows an error on its own, as a throwing event listener's error is: reported as uncaught,
 * without breaking the code that called the listener.
 *
 * @param error The error.
 *
 * @example Usage
 * ```ts
 * import { rethrow } from "./_settings.ts";
 * import { equal } from "node:assert/strict";
 *
 * const uncaught = Promise.withResolvers<unknown>();
 * const catcher = (event: ErrorEvent) => {
 *   event.preventDefault();
 *   uncaught.resolve(event.error);
 * };
 * globalThis.addEventListener("error", catcher);
 * rethrow(new Error("listener bug"));
 * equal((await uncaught.promise as Error).message, "listener bug");
 * globalThis.removeEventListener("error", catcher);
 * ```
 */
export function rethrow(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

// The host's onError runs inside transport callbacks: if it throws, its error is rethrown on its
// own, as an event listener's would be, instead of breaking the transport.
function reportingErrors(
  onError: ((error: McpError) => void) | undefined,
): (error: McpError) => void {
  if (onError === undefined) return () => {};
  return (error) => {
    try {
      onError(error);
    } catch (thrown) {
      rethrow(thrown);
    }
  };
}

function warnToolIssue(issue: ToolIssue): void {
  // A library should not print, but a tool left out must not vanish unnoticed: hosts that want
  // otherwise pass onToolIssue.
  // deno-lint-ignore no-console
  console.warn(
    `unfold: the tool ${JSON.stringify(issue.name)} of ${
      JSON.stringify(issue.server)
    } ${issue.problem}${issue.dropped ? "; it is left out" : "; it is kept"}`,
  );
}

/**
 * Checks a server name as the catalogue will: not empty, no `/`.
 *
 * @param server The name.
 * @throws {TypeError} When it is empty or contains `/`.
 *
 * @example Usage
 * ```ts
 * import { checkServerName } from "./_settings.ts";
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
