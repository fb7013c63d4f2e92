/**
 * OAuth in front of one upstream's `fetch`: the bearer token goes on requests to that server's
 * endpoint and nowhere else, and a `401` (or a `403 insufficient_scope`) runs the MCP SDK's
 * `auth()` flow — discovery, registration, refresh, or a new authorization through an
 * {@linkcode Authorizer} — then the request once more. Without an authorizer (the gateway) a
 * flow that needs the user ends in a {@linkcode NeedsLoginError}.
 *
 * @module
 */

import {
  auth,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  type FetchLike,
  isStrictScopeSuperset,
} from "@modelcontextprotocol/client";
import type { StoredOAuthProvider } from "./provider.ts";
import { commandSpan, shellWord } from "../../utils/shell_words.ts";

/**
 * Sends the user to the authorization URL and answers the URL the browser came back to (the
 * redirect URL with `code`, `state` and perhaps `iss` or `error`).
 */
export type Authorizer = (authorizationUrl: URL) => Promise<URL>;

/** Options of {@linkcode withOAuth}. */
export interface OAuthFetchOptions {
  /** The server's name in the config (for messages). */
  server: string;
  /** The server's MCP endpoint: the only URL the token is sent to. */
  url: string | URL;
  /** The provider that keeps this server's sign-in. */
  provider: StoredOAuthProvider;
  /** How the user authorizes; without it a needed sign-in is a {@linkcode NeedsLoginError}. */
  authorize?: Authorizer;
  /**
   * Whether a `401` without `WWW-Authenticate` starts OAuth too (the entry has an `oauth` block).
   * @default {false}
   */
  eager?: boolean;
  /** The command that signs in, for the message of a {@linkcode NeedsLoginError}. */
  loginCommand?: string;
  /**
   * The `fetch` underneath.
   * @default {globalThis.fetch}
   */
  fetch?: FetchLike;
  /**
   * The clock, in milliseconds since the epoch (token expiry).
   * @default {Date.now}
   */
  now?: () => number;
}

// How many authorizations one request may set off (a 401 then a step-up, say) before its answer
// is handed on as it is: a server that keeps refusing must not make us loop.
const MAX_AUTHORIZATIONS = 3;

/**
 * An upstream needs the user to sign in (or to grant more), which only `unfold login` can do.
 *
 * @example Usage
 * ```ts
 * import { NeedsLoginError } from "./fetch.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(new NeedsLoginError("gh").message, 'Cannot connect to "gh": it needs a sign-in (run `unfold login gh`)');
 * ```
 */
export class NeedsLoginError extends Error {
  /** The server's name in the config. */
  readonly server: string;

  /**
   * Makes the error.
   *
   * @param server The server's name in the config.
   * @param command The command that signs in.
   * @default command `unfold login SERVER`
   */
  constructor(server: string, command = `unfold login ${shellWord(server)}`) {
    super(
      `Cannot connect to ${JSON.stringify(server)}: it needs a sign-in (run ${
        commandSpan(command)
      })`,
    );
    this.name = "NeedsLoginError";
    this.server = server;
  }
}

/**
 * Wraps a `fetch` with OAuth for one upstream.
 *
 * @param options The server, its provider, how the user authorizes, the `fetch` underneath.
 * @returns The `fetch` to give the upstream's transport.
 *
 * @example A server that needs a sign-in, without a way to sign in
 * ```ts
 * import { NeedsLoginError, withOAuth } from "./fetch.ts";
 * import { StoredOAuthProvider } from "./provider.ts";
 * import { memoryOAuthStore } from "./store.ts";
 * import { rejects } from "node:assert/strict";
 *
 * const url = "https://example.com/mcp";
 * const provider = new StoredOAuthProvider({ server: "gh", url, store: memoryOAuthStore(), redirectUrl: "http://127.0.0.1/callback" });
 * const refuse = () => Promise.resolve(new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource/mcp"' } }));
 * const fetch = withOAuth({ server: "gh", url, provider, fetch: refuse });
 * await rejects(fetch(url, { method: "POST" }), NeedsLoginError);
 * ```
 */
export function withOAuth(options: OAuthFetchOptions): FetchLike {
  const base: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const endpoint = new URL(options.url);
  const { provider } = options;
  const now = options.now ?? Date.now;
  let pending: Promise<void> | undefined;

  const send = async (input: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const tokens = await provider.tokens();
    if (tokens !== undefined) headers.set("authorization", `Bearer ${tokens.access_token}`);
    return await base(input, { ...init, headers });
  };

  // One flow at a time: requests refused together wait for the same sign-in.
  const authorizeOnce = (challenge: Challenge): Promise<void> => {
    pending ??= authorize(options, base, challenge).finally(() => pending = undefined);
    return pending;
  };

  return async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (target.origin !== endpoint.origin || target.pathname !== endpoint.pathname) {
      return await base(input, init);
    }
    const expiresAt = await provider.expiresAt();
    if (expiresAt !== undefined && expiresAt <= now() && (await provider.tokens())?.refresh_token) {
      await authorizeOnce({ status: 401 });
    }
    let response = await send(input, init);
    for (let round = 0; round < MAX_AUTHORIZATIONS; round++) {
      const challenge = challengeOf(response, options.eager === true);
      if (challenge === undefined) return response;
      await response.body?.cancel();
      await authorizeOnce(challenge);
      response = await send(input, init);
    }
    return response;
  };
}

interface Challenge {
  status: 401 | 403;
  resourceMetadataUrl?: URL;
  scope?: string;
}

function challengeOf(response: Response, eager: boolean): Challenge | undefined {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const hasChallenge = response.headers.has("www-authenticate");
  const { resourceMetadataUrl, scope, error } = hasChallenge
    ? extractWWWAuthenticateParams(response)
    : {};
  if (response.status === 403 && error !== "insufficient_scope") return undefined;
  if (response.status === 401 && !hasChallenge && !eager) return undefined;
  return {
    status: response.status,
    ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
    ...(scope === undefined ? {} : { scope }),
  };
}

async function authorize(
  options: OAuthFetchOptions,
  fetchFn: FetchLike,
  challenge: Challenge,
): Promise<void> {
  const { provider, server } = options;
  const needsLogin = () => new NeedsLoginError(server, options.loginCommand);
  let previous = await provider.tokens();
  if (challenge.status === 401) {
    // The store may hold newer tokens than the refused ones (another process refreshed them, or
    // the user signed in since): the request goes again with those before any flow.
    const stored = await provider.reload();
    if (stored !== undefined && stored.access_token !== previous?.access_token) return;
    previous = stored;
  }
  if (options.authorize === undefined && previous === undefined) throw needsLogin();
  // A step-up keeps what was granted and adds what the server now asks for.
  const scope = challenge.status === 403
    ? computeScopeUnion(previous?.scope, challenge.scope)
    : challenge.scope;
  // A 401 on a token we hold may mean the server moved to another authorization server.
  if (challenge.status === 401) await provider.invalidateCredentials("discovery");
  const flow = {
    serverUrl: options.url,
    fetchFn,
    ...(challenge.resourceMetadataUrl === undefined
      ? {}
      : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
    ...(scope === undefined ? {} : { scope }),
  };
  const secrets = () => [previous?.access_token, previous?.refresh_token];
  const result = await guarded(server, secrets, () =>
    auth(provider, {
      ...flow,
      forceReauthorization: challenge.status === 403 &&
        isStrictScopeSuperset(scope, previous?.scope),
    }));
  if (result === "AUTHORIZED") return;
  const authorizationUrl = provider.authorizationUrl;
  if (options.authorize === undefined || authorizationUrl === undefined) throw needsLogin();
  const back = await options.authorize(authorizationUrl);
  const params = back.searchParams;
  if (params.has("error")) {
    throw new Error(
      `Cannot sign in to ${JSON.stringify(server)}: the authorization server answered ${
        JSON.stringify(params.get("error"))
      }${params.has("error_description") ? ` (${params.get("error_description")})` : ""}`,
    );
  }
  const expected = provider.expectedState;
  if (expected !== undefined && params.get("state") !== expected) {
    throw new Error(
      `Cannot sign in to ${JSON.stringify(server)}: the redirect's state is not the one sent`,
    );
  }
  const code = params.get("code");
  if (code === null || code === "") {
    throw new Error(`Cannot sign in to ${JSON.stringify(server)}: the redirect carries no code`);
  }
  const iss = params.get("iss");
  const exchanged = await guarded(server, secrets, () =>
    auth(provider, {
      ...flow,
      authorizationCode: code,
      ...(iss === null ? {} : { iss }),
    }));
  provider.finishFlow();
  if (exchanged !== "AUTHORIZED") {
    throw new Error(`Cannot sign in to ${JSON.stringify(server)}: the code was not accepted`);
  }
}

// Errors of the flow name the server and say what failed, with any token we hold blanked out:
// an authorization server's error text is not ours to trust.
async function guarded<T>(
  server: string,
  secrets: () => (string | undefined)[],
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof NeedsLoginError) throw error;
    let text = error instanceof Error ? error.message : String(error);
    for (const secret of secrets()) {
      if (secret !== undefined && secret !== "") text = text.replaceAll(secret, "[token]");
    }
    throw new Error(`Cannot sign in to ${JSON.stringify(server)}: ${text}`);
  }
}
