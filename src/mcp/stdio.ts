/**
 * Connecting to an MCP server that runs as a child process over stdio. Deno and Node only (it
 * spawns processes), so it is its own export, `./stdio`, and never reached from `mod.ts`.
 *
 * Why these names: `connectStdio`, its server entry (`StdioServerConfig`) and its options
 * (`StdioConnectOptions`); the connection it returns is `./mcp`'s.
 *
 * @module
 */

import { StdioProcessTransport } from "./_stdio_transport.ts";
import { tlsHint } from "./_tls_hint.ts";
import { checkServerName } from "./_settings.ts";
import type { ConnectOptions, McpConnection } from "./types.ts";

/** How to start an MCP server as a child process. */
export interface StdioServerConfig {
  /** The server's name, as the host knows it: the `server` of every tool; no `/`. */
  server: string;
  /** The program to run, such as `npx` or `deno`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /**
   * Environment variables for the server, added to a safe subset of the host's (`HOME`,
   * `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`).
   */
  env?: Record<string, string>;
  /** The server's working directory. @default {the host's} */
  cwd?: string;
}

/** Options of {@linkcode connectStdio}. */
export interface StdioConnectOptions extends ConnectOptions {
  /**
   * Receives the server's error output (its log), as it comes. Either way its last lines are
   * quoted in `connect` and `disconnected` errors.
   * @default {discard it}
   */
  onStderr?: (text: string) => void;
}

// How much of the server's error output errors quote.
const STDERR_TAIL_CHARS = 2_000;

/**
 * Starts an MCP server as a child process and connects to it over stdio: the handshake, then a
 * live connection whose `close()` stops the process. A server that exits fails pending and later
 * calls at once with `disconnected`.
 *
 * @param config The server's name, command, arguments, environment and working directory.
 * @param options Timeouts and callbacks.
 * @returns The connection.
 * @throws {McpError} `connect` when the command cannot be started, or exits or fails during the
 * handshake; the message quotes its last error output.
 * @throws {TypeError} When the server name is empty or contains `/`, or the command is empty.
 * @throws {RangeError} When a timeout option is invalid.
 *
 * @example Usage
 * ```ts
 * import { connectStdio } from "./stdio.ts";
 * import { McpError } from "../tool_error.ts";
 * import { rejects } from "node:assert/strict";
 *
 * // For a real server: { server: "everything", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] }
 * await rejects(
 *   connectStdio({ server: "missing", command: "/no/such/mcp-server" }),
 *   (error) => error instanceof McpError && error.code === "connect",
 * );
 * ```
 */
export async function connectStdio(
  config: StdioServerConfig,
  options: StdioConnectOptions = {},
): Promise<McpConnection> {
  checkServerName(config?.server);
  if (typeof config.command !== "string" || config.command === "") {
    throw new TypeError(
      `Cannot connect to ${JSON.stringify(config.server)}: the command must be a non-empty string`,
    );
  }
  const { onStderr, ...rest } = options;
  // The SDK's reader would close the connection on a message over its limit; ours fails only the
  // request that message answered. The server is given 250 ms to exit once its stdin is closed,
  // then 350 ms after SIGTERM: the SDK waits 2 s before its SIGTERM, longer than a host gives the
  // gateway to exit, so a server that outlives its stdin would outlive the gateway.
  let failPending = (_why: string) => {};
  let tail = "";
  const transport = new StdioProcessTransport({
    command: config.command,
    args: config.args ?? [],
    ...(config.env === undefined ? {} : { env: config.env }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    graceMs: { exit: 250, term: 350 },
    onUnattributed: (why) => failPending(why),
    onStderr: (text) => {
      tail = (tail + text).slice(-STDERR_TAIL_CHARS);
      onStderr?.(text);
    },
  });
  // The server starts now; the SDK's client loads while it boots (a gateway's upstreams start
  // before it loads anything else).
  transport.start().catch(() => {}); // the connection's own start reports a failure
  const { openConnection } = await import("./_connection.ts");
  return await openConnection(config.server, transport, rest, {
    onConnected: (fail) => failPending = fail,
    detail: () => {
      const last = tail.trim();
      if (last === "") return "";
      return `${tlsHint(last, config.command)}its error output ends with: ${JSON.stringify(last)}`;
    },
  });
}
