/**
 * How the Deno CLI reaches an upstream: a stdio server is started as a child process (its log
 * goes to our stderr, prefixed with its name), a Streamable HTTP server is fetched. Only the stdio
 * side loads with it: the HTTP client and its sign-in load when an HTTP upstream is first reached,
 * so a config of stdio servers spawns them without waiting for either.
 *
 * @module
 */

import type { HttpUpstream, UpstreamConfig } from "../gateway/config/parse.ts";
import type { Connector } from "../gateway/pool/upstreams.ts";
import type { ConnectOptions } from "../mcp/types.ts";
import { connectStdio } from "../mcp/stdio.ts";
import { unfoldCommand } from "./hints.ts";

/**
 * A connector for Deno: stdio and Streamable HTTP upstreams. An HTTP upstream without its own
 * `Authorization` header signs in with the tokens `unfold login` stored, refreshed as needed; one
 * that needs the user fails with the code `needs_login`.
 *
 * @param log Receives each line an upstream writes to its stderr, with its name.
 * @param oauth Where sign-ins are kept (the environment) and the config's path (for messages).
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
export function denoConnector(
  log: (server: string, line: string) => void,
  oauth: { env?: Readonly<Record<string, string | undefined>>; configPath?: string } = {},
): Connector {
  return (config: UpstreamConfig, options) => {
    if ("url" in config) return connectRemote(config, options, oauth);
    return connectStdio(config, {
      ...options,
      onStderr: (text) => {
        for (const line of text.split("\n")) if (line.trim() !== "") log(config.server, line);
      },
    });
  };
}

// What reaching an HTTP upstream needs, loaded once, on the first.
let remoteModules: ReturnType<typeof loadRemoteModules> | undefined;
async function loadRemoteModules() {
  const [http, connect, fileStore, provider, store] = await Promise.all([
    import("../mcp/http_client.ts"),
    import("../mcp/oauth/connect.ts"),
    import("../mcp/oauth/file_store.ts"),
    import("../mcp/oauth/provider.ts"),
    import("../mcp/oauth/store.ts"),
  ]);
  return { ...http, ...connect, ...fileStore, ...provider, ...store };
}

async function connectRemote(
  config: HttpUpstream,
  options: ConnectOptions,
  oauth: { env?: Readonly<Record<string, string | undefined>>; configPath?: string },
) {
  remoteModules ??= loadRemoteModules();
  const {
    connectHttp,
    connectOAuth,
    fileOAuthStore,
    memoryOAuthStore,
    StoredOAuthProvider,
    unfoldConfigDir,
  } = await remoteModules;
  const { server, url, headers } = config;
  // Credentials the user put in the config are theirs to manage: no OAuth on top of them.
  if (Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) {
    return connectHttp(config, options);
  }
  let store = memoryOAuthStore();
  try {
    store = fileOAuthStore(unfoldConfigDir(oauth.env ?? Deno.env.toObject()), server, url);
  } catch {
    // No config directory: nothing was stored, so a server that needs a sign-in says so.
  }
  const provider = new StoredOAuthProvider({
    server,
    url,
    store,
    // Never visited: the gateway does not authorize, `unfold login` does.
    redirectUrl: "http://127.0.0.1/callback",
    ...(config.oauth === undefined ? {} : { settings: config.oauth }),
  });
  const login = oauth.configPath === undefined
    ? unfoldCommand("login", server)
    : unfoldCommand("login", "--config", oauth.configPath, server);
  return connectOAuth(config, {
    provider,
    eager: config.oauth !== undefined,
    loginCommand: login,
  }, options);
}
