/**
 * How the Deno CLI reaches an upstream: a stdio server is started as a child process (its log
 * goes to our stderr, prefixed with its name), a Streamable HTTP server is fetched.
 *
 * @module
 */

import type { UpstreamConfig } from "../gateway/config.ts";
import type { Connector } from "../gateway/upstreams.ts";
import { connectHttp } from "../mcp/http_client.ts";
import { connectStdio } from "../mcp/stdio.ts";

/**
 * A connector for Deno: stdio and Streamable HTTP upstreams.
 *
 * @param log Receives each line an upstream writes to its stderr, with its name.
 * @returns The connector.
 *
 * @example Usage
 * ```ts
 * import { denoConnector } from "./connector.ts";
 * import { rejects } from "node:assert/strict";
 *
 * const connect = denoConnector(() => {});
 * await rejects(connect({ server: "missing", command: "/no/such/server", args: [], env: {} }, {}), /Cannot connect to "missing"/);
 * ```
 */
export function denoConnector(log: (server: string, line: string) => void): Connector {
  return (config: UpstreamConfig, options) => {
    if ("url" in config) {
      return connectHttp(
        { server: config.server, url: config.url, headers: config.headers },
        options,
      );
    }
    return connectStdio({
      server: config.server,
      command: config.command,
      args: config.args,
      env: config.env,
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    }, {
      ...options,
      onStderr: (text) => {
        for (const line of text.split("\n")) if (line.trim() !== "") log(config.server, line);
      },
    });
  };
}
