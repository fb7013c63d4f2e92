/**
 * The gateway's configuration: the `mcpServers` JSON that MCP hosts already use (stdio servers
 * with `command`/`args`/`env`, Streamable HTTP servers with `url`/`headers`), `${VAR}` expanded
 * from the environment, plus an `unfold` block. Every key is declared in `config_model.ts` and `config_servers.ts`; this
 * reads a file's worth by it, and says what the gateway's pool takes from it. Pure: the
 * environment comes in as a parameter.
 *
 * @module
 */

import { isRecord } from "../_record.ts";
import {
  down,
  fail,
  GatewayConfigError,
  knownKeys,
  type Place,
  readShape,
} from "./_config_fields.ts";
import { CONFIG, RESTART_DEFAULTS, type StartMode, UNFOLD } from "./config_model.ts";
import type { GatewayOptions, UpstreamConfig } from "./config_types.ts";

export { GatewayConfigError } from "./_config_fields.ts";
export type { StartMode } from "./config_model.ts";
export type {
  GatewayOptions,
  HttpUpstream,
  Profile,
  StdioUpstream,
  UpstreamConfig,
} from "./config_types.ts";
export {
  IDLE_TIMEOUT_MS,
  OVERVIEW_PLACES,
  RESTART_DEFAULTS,
  START_MODES,
  STARTUP_TIMEOUT_MS,
  UPSTREAM_INSTRUCTIONS_CHARS,
  UPSTREAM_INSTRUCTIONS_MODES,
} from "./config_model.ts";

/** A whole gateway configuration. */
export interface GatewayConfig {
  /** The upstreams, in the order of the file. */
  servers: UpstreamConfig[];
  /** The `unfold` block. */
  options: GatewayOptions;
}

/** A usable gateway configuration, or what is wrong with it. */
export type GatewayConfigResult =
  | { ok: true; value: GatewayConfig }
  | { ok: false; error: GatewayConfigError };

/**
 * Parses and checks a gateway configuration: `{"mcpServers": {...}, "unfold": {...}}`. Servers
 * with `"disabled": true` are left out; `${VAR}` (and `${VAR:-default}`) in strings is replaced
 * from `env`, and a variable that is not set is an error naming it.
 *
 * @param input The configuration: JSON text, or the parsed value.
 * @param env The environment variables `${VAR}` reads.
 * @returns The configuration, or the first problem found, with its JSON pointer.
 *
 * @example Usage
 * ```ts
 * import { parseGatewayConfig } from "./config.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const parsed = parseGatewayConfig(
 *   '{"mcpServers":{"gh":{"url":"https://example.com/mcp","headers":{"Authorization":"Bearer ${GH_TOKEN}"}}}}',
 *   { GH_TOKEN: "s3cret" },
 * );
 * deepEqual(parsed.ok && parsed.value.servers[0], { server: "gh", url: "https://example.com/mcp", headers: { Authorization: "Bearer s3cret" } });
 * const missing = parseGatewayConfig('{"mcpServers":{"gh":{"url":"${MISSING}"}}}', {});
 * equal(missing.ok ? "" : missing.error.message, 'Invalid gateway config at "/mcpServers/gh/url": the environment variable MISSING is not set');
 * ```
 */
export function parseGatewayConfig(
  input: string | unknown,
  env: Readonly<Record<string, string | undefined>>,
): GatewayConfigResult {
  // The checks stop at the first problem by throwing it; this is the one place that turns it
  // into a value, so no caller has to tell a bad file from a bug by catching.
  try {
    return { ok: true, value: readConfig(input, env) };
  } catch (e) {
    if (e instanceof GatewayConfigError) return { ok: false, error: e };
    throw e;
  }
}

function readConfig(
  input: string | unknown,
  env: Readonly<Record<string, string | undefined>>,
): GatewayConfig {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      throw new GatewayConfigError("", `not JSON (${(e as Error).message})`);
    }
  }
  const at: Place = { path: [], env, servers: [] };
  if (!isRecord(value)) return fail(at, "must be a JSON object");
  knownKeys(value, Object.keys(CONFIG), at, "the config takes");
  if (value.$schema !== undefined) CONFIG.$schema.read(value.$schema, down(at, "$schema"));
  const entries = CONFIG.mcpServers.read(value.mcpServers, down(at, "mcpServers"));
  const servers = Object.values(entries).filter((s) => s !== undefined);
  // The unfold block names servers (pinned tools, profiles): it is read knowing them.
  const block = { ...down(at, "unfold"), servers: servers.map((s) => s.server) };
  const options = value.unfold === undefined
    ? readShape(UNFOLD, {}, block)
    : CONFIG.unfold.read(value.unfold, block);
  return { servers, options };
}

/** What the upstreams' pool takes from the `unfold` block (`PoolOptions` of `upstreams.ts`). */
export interface PoolSettings {
  /** How long the pool waits for the upstreams at start. */
  startupTimeoutMs?: number;
  /** When the upstreams run. */
  start?: StartMode;
  /** How long a lazy upstream may idle. */
  idleTimeoutMs?: number;
  /** The restart backoff. */
  restart: Partial<typeof RESTART_DEFAULTS>;
}

/**
 * The pool's options from a parsed `unfold` block: what the CLI's live pool and the Worker's
 * on-demand pool are opened with (keys not given keep the pool's defaults).
 *
 * @param options The parsed block.
 * @returns The pool's options.
 *
 * @example Usage
 * ```ts
 * import { parseGatewayConfig, poolOptions } from "./config.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const parsed = parseGatewayConfig({ mcpServers: {}, unfold: { restartDelayMs: 50, start: "lazy" } }, {});
 * deepEqual(parsed.ok && poolOptions(parsed.value.options), { start: "lazy", restart: { initialDelayMs: 50 } });
 * ```
 */
export function poolOptions(options: GatewayOptions): PoolSettings {
  const { startupTimeoutMs, start, idleTimeoutMs, restartDelayMs, restartMaxDelayMs } = options;
  return {
    ...defined({ startupTimeoutMs, start, idleTimeoutMs }),
    restart: defined({ initialDelayMs: restartDelayMs, maxDelayMs: restartMaxDelayMs }),
  };
}

// The keys that have a value (under exactOptionalPropertyTypes an absent key is no `undefined`).
function defined<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as never;
}
