/**
 * The Cloudflare Workers entry of the gateway (`wrangler.gateway.toml`): `/mcp` over the HTTP
 * upstreams in `UNFOLD_UPSTREAMS` (DESIGN §7), beside the same HTTP API, so that
 * `GET /v1/sessions/{Mcp-Session-Id}` shows an MCP session's counters. Its own Worker: the MCP SDK
 * it needs would triple the API Worker's bundle and startup.
 *
 * @module
 */

import { env as startupEnv } from "cloudflare:workers";
import { problem } from "../http/problems.ts";
import { type WorkerApi, workerApi } from "./api.ts";
import { type WorkerMcp, workerMcp } from "./gateway.ts";

export { CatalogObject } from "./catalog_object.ts";
export { SessionObject } from "./session_object.ts";

// The API and the gateway (when UNFOLD_UPSTREAMS lists upstreams) of one isolate.
interface Deployment extends WorkerApi {
  mcp: WorkerMcp | undefined;
}

let app: Deployment | string | undefined = startupEnv === undefined ? undefined : build(startupEnv);

export default {
  /**
   * Serves one request: `/mcp` to the gateway, everything else to the HTTP API.
   *
   * @param request The request.
   * @param env The bindings and variables.
   * @returns The response.
   */
  fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response> {
    app ??= build(env);
    if (typeof app === "string") {
      return problem("internal_error", `The deployment is misconfigured: ${app}`);
    }
    if (new URL(request.url).pathname === "/mcp") {
      return app.mcp === undefined
        ? problem("not_found", "There is no /mcp: set UNFOLD_UPSTREAMS to the upstreams' JSON")
        : app.mcp(request);
    }
    return app.api.fetch(request);
  },
};

// The deployment for an environment, or why it cannot be built.
function build(env: Record<string, unknown>): Deployment | string {
  try {
    const api = workerApi(env);
    return { ...api, mcp: workerMcp(env, api.settings, api.store) };
  } catch (e) {
    return (e as Error).message;
  }
}
