/**
 * A small OAuth 2.1 authorization server and protected resource on 127.0.0.1, in front of a real
 * MCP server: discovery (RFC 9728, RFC 8414), dynamic registration, the authorization code flow
 * with PKCE (approved at once, as a signed-in user would), refresh, and a gate on `/mcp` that
 * passes requests with a live token on to the MCP server (without the token). Beside it, an open
 * proxy that records the `Authorization` headers it receives.
 *
 * @module
 */

/** The gate and what it saw. */
export interface OAuthGate extends AsyncDisposable {
  /** The protected MCP endpoint. */
  url: string;
  /** Every access and refresh token it issued. */
  issued: string[];
  /** The grant types of token requests, in order. */
  grants: string[];
  /** Makes every access token issued so far invalid (as if expired). */
  expireAccessTokens(): void;
  /** Makes every token issued so far invalid, refresh tokens too (as if the user revoked them). */
  revokeAll(): void;
  /** Stops it. */
  close(): Promise<void>;
}

/** An open proxy to an MCP server that records `Authorization` headers. */
export interface Recorder extends AsyncDisposable {
  /** Its MCP endpoint. */
  url: string;
  /** Requests it received. */
  requests: number;
  /** The `Authorization` headers it received. */
  authorizations: string[];
  /** Stops it. */
  close(): Promise<void>;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const secret = () => base64url(crypto.getRandomValues(new Uint8Array(24)));

// Closing a server waits for its responses to end: an event stream forwarded from the MCP
// server ends only when its upstream fetch is aborted, which closing does first.
async function forward(request: Request, target: string, signal: AbortSignal): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.delete("authorization");
  headers.delete("host");
  const body = request.method === "GET" || request.method === "HEAD"
    ? null
    : await request.arrayBuffer();
  const answer = await fetch(target, { method: request.method, headers, body, signal });
  if (answer.body === null) return new Response(null, answer);
  // Piped with the signal, so closing errors the stream we answered with and frees the server.
  const relay = new TransformStream<Uint8Array, Uint8Array>();
  answer.body.pipeTo(relay.writable, { signal }).catch(() => {});
  return new Response(relay.readable, { status: answer.status, headers: answer.headers });
}

/**
 * Starts the gate in front of an MCP endpoint.
 *
 * @param upstream The MCP server's endpoint.
 * @returns The gate.
 */
export function startOAuthGate(upstream: string): OAuthGate {
  const clients = new Set<string>();
  const codes = new Map<string, { challenge: string; redirect: string; client: string }>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  const issued: string[] = [];
  const grants: string[] = [];
  const streams = new AbortController();
  let base = "";
  const mint = (set: Set<string>) => {
    const token = secret();
    set.add(token);
    issued.push(token);
    return token;
  };
  const tokens = () => ({
    access_token: mint(access),
    token_type: "Bearer",
    expires_in: 3600,
    refresh_token: mint(refresh),
    scope: "tools",
  });
  const oauthError = (error: string) => Response.json({ error }, { status: 400 });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      switch (url.pathname) {
        case "/.well-known/oauth-protected-resource/mcp":
          return Response.json({
            resource: `${base}/mcp`,
            authorization_servers: [base],
            scopes_supported: ["tools"],
          });
        case "/.well-known/oauth-authorization-server":
          return Response.json({
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            response_types_supported: ["code"],
            grant_types_supported: ["authorization_code", "refresh_token"],
            code_challenge_methods_supported: ["S256"],
            token_endpoint_auth_methods_supported: ["none"],
          });
        case "/register": {
          const metadata = await request.json();
          const client = secret();
          clients.add(client);
          return Response.json({
            ...metadata,
            client_id: client,
            token_endpoint_auth_method: "none",
          }, {
            status: 201,
          });
        }
        case "/authorize": {
          const p = url.searchParams;
          const client = p.get("client_id") ?? "";
          const redirect = p.get("redirect_uri") ?? "";
          if (!clients.has(client) || p.get("code_challenge_method") !== "S256") {
            return oauthError("invalid_request");
          }
          const code = secret();
          codes.set(code, { challenge: p.get("code_challenge") ?? "", redirect, client });
          const back = new URL(redirect);
          back.searchParams.set("code", code);
          back.searchParams.set("state", p.get("state") ?? "");
          return new Response(null, { status: 302, headers: { location: String(back) } });
        }
        case "/token": {
          const form = new URLSearchParams(await request.text());
          const grant = form.get("grant_type") ?? "";
          grants.push(grant);
          if (grant === "authorization_code") {
            const entry = codes.get(form.get("code") ?? "");
            codes.delete(form.get("code") ?? "");
            const verifier = new TextEncoder().encode(form.get("code_verifier") ?? "");
            const challenge = base64url(
              new Uint8Array(await crypto.subtle.digest("SHA-256", verifier)),
            );
            if (
              entry === undefined || entry.challenge !== challenge ||
              entry.redirect !== form.get("redirect_uri") || entry.client !== form.get("client_id")
            ) return oauthError("invalid_grant");
            return Response.json(tokens());
          }
          if (grant === "refresh_token" && refresh.delete(form.get("refresh_token") ?? "")) {
            return Response.json(tokens());
          }
          return oauthError("invalid_grant");
        }
        case "/mcp": {
          const bearer = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
          if (!access.has(bearer)) {
            await request.body?.cancel();
            return new Response("sign in first\n", {
              status: 401,
              headers: {
                "www-authenticate":
                  `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
              },
            });
          }
          return await forward(request, upstream, streams.signal);
        }
      }
      return new Response("Not found\n", { status: 404 });
    },
  );
  base = `http://127.0.0.1:${server.addr.port}`;
  const close = () => {
    streams.abort();
    return server.shutdown();
  };
  return {
    url: `${base}/mcp`,
    issued,
    grants,
    expireAccessTokens: () => access.clear(),
    revokeAll: () => {
      access.clear();
      refresh.clear();
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Starts an open proxy that records the `Authorization` headers it receives.
 *
 * @param upstream The MCP server's endpoint.
 * @returns The proxy.
 */
export function startRecorder(upstream: string): Recorder {
  const streams = new AbortController();
  const close = () => {
    streams.abort();
    return server.shutdown();
  };
  const recorder = {
    url: "",
    requests: 0,
    authorizations: [] as string[],
    close,
    [Symbol.asyncDispose]: close,
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    recorder.requests++;
    const authorization = request.headers.get("authorization");
    if (authorization !== null) recorder.authorizations.push(authorization);
    return forward(request, upstream, streams.signal);
  });
  recorder.url = `http://127.0.0.1:${server.addr.port}/mcp`;
  return recorder;
}
