/**
 * The gateway's stdio face: one MCP server over the process's stdin and stdout, for desktop hosts
 * that launch their servers (Deno and Node only). One session per connection. The connection ends
 * when the host closes stdin, whatever it sent before (a 2025-era `initialize`, a 2026-07-28
 * request, or nothing). Served by the SDK-free server of `stdio_server.ts`: the gateway over stdio
 * never loads the MCP SDK's server package.
 *
 * @module
 */

import { serveToolHost } from "./stdio_server.ts";
import { hostStdin, openStdioWire, type StdioWire, transportOf } from "./stdio_wire.ts";
import type { ToolHost } from "../tool_host.ts";

/** Options of {@linkcode serveHostStdio}. */
export interface HostStdioOptions {
  /**
   * The wire to serve on, already reading (so that an early end of stdin is seen).
   * @default {a wire over Deno's stdin and stdout}
   */
  wire?: StdioWire;
  /** Receives transport errors. */
  onError?: (error: Error) => void;
  /** Runs once when the host goes away (stdin ended) or the connection is closed. */
  onClose?: () => void;
}

/**
 * Serves a host over stdio until stdin closes. Everything but protocol messages must go to
 * stderr.
 *
 * @param host The tools.
 * @param options The wire, an error listener and a close listener.
 * @returns A handle whose `close()` ends the connection.
 *
 * @example Usage
 * ```ts ignore
 * import { serveHostStdio } from "./stdio.ts";
 *
 * serveHostStdio(gateway, { onClose: () => gateway.close() });
 * ```
 */
export function serveHostStdio(
  host: ToolHost,
  options: HostStdioOptions = {},
): { close(): Promise<void> } {
  const session = crypto.randomUUID();
  const wire = options.wire ?? openStdioWire(hostStdin(), Deno.stdout);
  void wire.ended.then(() => options.onClose?.());
  return serveToolHost(host, transportOf(wire), {
    session,
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
