/**
 * The Cloudflare Workers entry of the HTTP API (`wrangler.toml`): sessions and catalogues in
 * Durable Objects. Configure with `UNFOLD_*` variables (secrets for `UNFOLD_API_TOKEN`) and the
 * `SESSIONS` and `CATALOGS` bindings. The gateway's `/mcp` is its own Worker
 * (`gateway_entry.ts`, `wrangler.gateway.toml`), so this one stays small and starts fast.
 *
 * @module
 */

import { env as startupEnv } from "cloudflare:workers";
import { workerApi } from "./api.ts";
import { workerEntry } from "./worker_entry.ts";

export { CatalogObject } from "./catalog_object.ts";
export { SessionObject } from "./session_object.ts";

export default workerEntry(startupEnv, workerApi, ({ api }, request) => api.fetch(request));
