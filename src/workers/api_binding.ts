/**
 * The gateway Worker's HTTP API: every request that is not its own (`/mcp`, and the page's reads
 * when it has upstreams) goes to the API Worker through the `API` service binding, so the gateway's
 * bundle carries no copy of the HTTP API and both Workers answer `/v1` from the same code and the
 * same Durable Objects. A missing binding, or an API Worker that is not deployed or not running,
 * is a 503 `api_unavailable` that says how to fix it, never a crash; so are `/mcp`'s sessions, which
 * are the API Worker's Durable Objects.
 *
 * @module
 */

import { problem } from "../http/problems.ts";
import { SessionStoreError } from "../session/store.ts";

/** The part of a service binding the gateway uses. */
export interface ServiceBinding {
  fetch(request: Request): Promise<Response>;
}

// Said whenever the API Worker cannot answer: what to deploy or start, and how to bind it.
const UNAVAILABLE = "deploy the API Worker (wrangler.toml) before the gateway Worker, or in " +
  "local development start both (wrangler dev -c wrangler.gateway.toml -c wrangler.toml), and " +
  'bind it as "API" ([[services]] in wrangler.gateway.toml)';

/**
 * Forwards requests to the API Worker bound as `API`.
 *
 * @param env The gateway Worker's bindings.
 * @returns The handler: the API Worker's response, or 503 `api_unavailable`.
 *
 * @example Usage
 * ```ts
 * import { forwardToApi } from "./api_binding.ts";
 * import { equal } from "node:assert/strict";
 *
 * const api = { fetch: (request: Request) => Promise.resolve(new Response(new URL(request.url).pathname)) };
 * equal(await (await forwardToApi({ API: api })(new Request("http://x/healthz"))).text(), "/healthz");
 * const unbound = await forwardToApi({})(new Request("http://x/healthz"));
 * equal(unbound.status, 503);
 * equal((await unbound.json()).code, "api_unavailable");
 * ```
 */
export function forwardToApi(
  env: Readonly<Record<string, unknown>>,
): (request: Request) => Promise<Response> {
  const binding = env.API as Partial<ServiceBinding> | undefined;
  if (typeof binding?.fetch !== "function") {
    return () =>
      Promise.resolve(
        problem("api_unavailable", `The gateway Worker has no API binding: ${UNAVAILABLE}`),
      );
  }
  const api = binding as ServiceBinding;
  return async (request) => {
    let response: Response;
    try {
      response = await api.fetch(request);
    } catch (e) {
      return problem(
        "api_unavailable",
        `The API Worker did not answer (${(e as Error)?.message ?? e}): ${UNAVAILABLE}`,
      );
    }
    // The API Worker's own 503 is a problem document; a plain-text one is the platform's (in
    // local development: the bound Worker is not running).
    if (response.status === 503 && !isJson(response)) {
      await response.body?.cancel();
      return problem("api_unavailable", `The API Worker is not running: ${UNAVAILABLE}`);
    }
    return response;
  };
}

/**
 * Wraps the gateway's `/mcp` handler: its sessions are the API Worker's Durable Objects, so a
 * session store that does not answer is 503 `session_store_unavailable` saying to deploy or start
 * that Worker (without the store's own message, as the HTTP API does), not an uncaught error.
 *
 * @param handler The `/mcp` handler.
 * @returns The handler, with session store failures answered.
 *
 * @example Usage
 * ```ts
 * import { withApiSessions } from "./api_binding.ts";
 * import { SessionStoreError } from "../session/store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const down = withApiSessions(() => Promise.reject(new SessionStoreError("no such script")));
 * const response = await down(new Request("http://x/mcp", { method: "POST" }));
 * equal(response.status, 503);
 * equal((await response.json()).code, "session_store_unavailable");
 * ```
 */
export function withApiSessions(
  handler: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await handler(request);
    } catch (e) {
      if (!(e instanceof SessionStoreError)) throw e;
      return problem(
        "session_store_unavailable",
        `The MCP sessions are the API Worker's, and its session objects did not answer: ${UNAVAILABLE}`,
        undefined,
        { "retry-after": "1" },
      );
    }
  };
}

function isJson(response: Response): boolean {
  return /json/i.test(response.headers.get("content-type") ?? "");
}
