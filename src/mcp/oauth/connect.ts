/**
 * Connecting to a Streamable HTTP server that may ask for OAuth: {@linkcode connectHttp} over
 * {@linkcode withOAuth}, with a sign-in only the user can give reported as an
 * {@linkcode McpError} of code `needs_login`.
 *
 * @module
 */

import { McpError } from "../../tool_error.ts";
import type { McpConnection } from "../types.ts";
import { connectHttp, type HttpConnectOptions, type HttpServerConfig } from "../http_client.ts";
import { NeedsLoginError, type OAuthFetchOptions, withOAuth } from "./fetch.ts";

/** The OAuth part of {@linkcode connectOAuth}: {@linkcode OAuthFetchOptions} less the server. */
export type OAuthConnectOptions = Omit<OAuthFetchOptions, "server" | "url" | "fetch">;

/**
 * Connects over Streamable HTTP with OAuth in front of `fetch`.
 *
 * @param config The server's name, endpoint and headers.
 * @param oauth The provider, and how the user authorizes (none: the gateway).
 * @param options Timeouts, callbacks and the `fetch` underneath.
 * @returns The connection.
 * @throws {McpError} `needs_login` when the server wants a sign-in the user must give; `connect`
 * for any other failure (including a sign-in that failed, saying why).
 *
 * @example Usage
 * ```ts
 * import { connectOAuth } from "./connect.ts";
 * import { StoredOAuthProvider } from "./provider.ts";
 * import { memoryOAuthStore } from "./store.ts";
 * import { McpError } from "../../tool_error.ts";
 * import { rejects } from "node:assert/strict";
 *
 * const url = "https://example.com/mcp";
 * const provider = new StoredOAuthProvider({ server: "gh", url, store: memoryOAuthStore(), redirectUrl: "http://127.0.0.1/callback" });
 * const refuse = () => Promise.resolve(new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } }));
 * await rejects(
 *   connectOAuth({ server: "gh", url }, { provider }, { fetch: refuse }),
 *   (error) => error instanceof McpError && error.code === "needs_login" && /run `unfold login gh`/.test(error.message),
 * );
 * ```
 */
export async function connectOAuth(
  config: HttpServerConfig,
  oauth: OAuthConnectOptions,
  options: HttpConnectOptions = {},
): Promise<McpConnection> {
  const { fetch, ...rest } = options;
  const wrapped = withOAuth({
    ...oauth,
    server: config.server,
    url: config.url,
    ...(fetch === undefined ? {} : { fetch }),
  });
  try {
    return await connectHttp(config, { ...rest, fetch: wrapped });
  } catch (error) {
    const login = needsLogin(error);
    if (login !== undefined) throw new McpError("needs_login", login.message, { cause: login });
    throw error;
  }
}

/**
 * The {@linkcode NeedsLoginError} behind an error, if there is one (transports wrap errors).
 *
 * @param error The error.
 * @returns The sign-in error, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { needsLogin } from "./connect.ts";
 * import { NeedsLoginError } from "./fetch.ts";
 * import { equal } from "node:assert/strict";
 *
 * const inner = new NeedsLoginError("gh");
 * equal(needsLogin(new Error("wrapped", { cause: inner })), inner);
 * equal(needsLogin(new Error("other")), undefined);
 * ```
 */
export function needsLogin(error: unknown): NeedsLoginError | undefined {
  let current = error;
  // Transports wrap a few times at most; a cycle of causes must not loop.
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof NeedsLoginError) return current;
    current = current.cause;
  }
  return undefined;
}
