/**
 * The Cloudflare Workers entry of the HTTP API (`wrangler.toml`): sessions and catalogues in
 * Durable Objects. Configure with `UNFOLD_*` variables (secrets for `UNFOLD_API_TOKEN`) and the
 * `SESSIONS` and `CATALOGS` bindings. The gateway's `/mcp` is its own Worker
 * (`gateway_entry.ts`, `wrangler.gateway.toml`), so this one stays small and starts fast.
 *
 * @module
 */

import { env as startupEnv } from "cloudflare:workers";
import { problem } from "../http/problems.ts";
import { type WorkerApi, workerApi } from "./api.ts";

export { CatalogObject } from "./catalog_object.ts";
export { SessionObject } from "./session_object.ts";

// Built at startup, while the module is evaluated (Workers count that CPU apart from each
// request's), when the runtime exposes the environment there; else by the first request.
let app: WorkerApi | string | undefined = startupEnv === undefined ? undefined : build(startupEnv);

export default {
  /**
   * Serves one request.
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
    return app.api.fetch(request);
  },
};

// The API for an environment, or why it cannot be built.
function build(env: Record<string, unknown>): WorkerApi | string {
  try {
    return workerApi(env);
  } catch (e) {
    return (e as Error).message;
  }
}
