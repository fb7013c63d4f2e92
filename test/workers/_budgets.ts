/**
 * The gzip size each Worker's bundle may not exceed: a ceiling with headroom, well below what
 * Workers accept (3 MiB compressed on the free plan, 10 MiB paid), so that a change that balloons a
 * bundle fails a test. It is not a target to bend the code for: what users feel is the cold
 * isolate's first request, which `bench/cold_isolate.ts` measures. The bundle test asserts the
 * ceilings; the benchmark reports each bundle against its ceiling.
 *
 * @module
 */

/**
 * The ceiling of each Worker's bundle, in KiB gzip, by its wrangler config.
 *
 * @example Usage
 * ```ts
 * import { WORKER_CEILINGS_KIB } from "./_budgets.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(WORKER_CEILINGS_KIB["wrangler.toml"]! < WORKER_CEILINGS_KIB["wrangler.gateway.toml"]!);
 * ```
 */
export const WORKER_CEILINGS_KIB: Readonly<Record<string, number>> = Object.freeze({
  // The HTTP API (hono, zod/mini, the core, the Deno default's code): measured about 92 KiB.
  "wrangler.toml": 150,
  // /mcp: the API's core plus the MCP SDK's server and client packages as they ship (each with
  // its own protocol core, and classic zod): measured about 216 KiB.
  "wrangler.gateway.toml": 1024,
});
