/**
 * The gateway's configuration: the `mcpServers` JSON that MCP hosts already use (stdio servers
 * with `command`/`args`/`env`, Streamable HTTP servers with `url`/`headers`), `${VAR}` expanded
 * from the environment, plus an `unfold` block. Every key is declared in `config_model.ts` and `config_servers.ts`; this
 * reads a file's worth by it, and says what the gateway's pool takes from it. Pure: the
 * environment comes in as a parameter.
 *
 * @module
 */

import { isRecord } from "../../utils/record.ts";
import {
  down,
  fail,
  GatewayConfigError,
  knownKeys,
  type Place,
  readShape,
  type UnsetVariableError,
} from "./_fields.ts";
import { CONFIG, RESTART_DEFAULTS, type StartMode, UNFOLD } from "./model.ts";
import type { GatewayOptions, UpstreamConfig } from "./types.ts";

export { GatewayConfigError, UnsetVariableError } from "./_fields.ts";
export type { StartMode } from "./model.ts";
export type {
  GatewayOptions,
  HttpUpstream,
  Profile,
  StdioUpstream,
  UpstreamConfig,
} from "./types.ts";
export {
  IDLE_TIMEOUT_MS,
  OVERVIEW_PLACES,
  RESTART_DEFAULTS,
  START_MODES,
  STARTUP_TIMEOUT_MS,
  UPSTREAM_INSTRUCTIONS_CHARS,
  UPSTREAM_INSTRUCTIONS_MODES,
} from "./model.ts";

/** A whole gateway configuration. */
export interface GatewayConfig {
  /** The upstreams, in the order of the file. */
  servers: UpstreamConfig[];
  /** The `unfold` block. */
  options: GatewayOptions;
  /**
   * With `deferUnset`: the servers (left out of `servers`) and the profiles (their `tokens`)
   * that name environment variables not set, in the order of the file.
   */
  awaiting?: AwaitingVariables[];
}

/** A server or a profile that names environment variables that are not set. */
export interface AwaitingVariables {
  /** A server of `mcpServers`, or a profile (a token of it). */
  kind: "server" | "profile";
  /** Its name. */
  name: string;
  /** The variables, each once, in the order of the file. */
  variables: string[];
  /** The first of them, as the parse fails with it without `deferUnset`. */
  error: UnsetVariableError;
}

/** How {@linkcode parseGatewayConfig} reads. */
export interface ParseOptions {
  /**
   * Whether a variable that is not set in a server's entry or a profile's tokens is said in
   * `awaiting` rather than failing the parse: for a command that serves only some of them. Every
   * other problem still fails it.
   */
  deferUnset?: boolean;
}

/** A usable gateway configuration, or what is wrong with it. */
export type GatewayConfigResult =
  | { ok: true; value: GatewayConfig }
  | { ok: false; error: GatewayConfigError };

/**
 * Parses and checks a gateway configuration: `{"mcpServers": {...}, "unfold": {...}}`. Servers
 * with `"disabled": true` are left out; `${VAR}` (and `${VAR:-default}`) in strings is replaced
 * from `env`, and a variable that is not set is an error naming it (with `deferUnset`, in a
 * server or a profile's tokens, it leaves that server out and says so in `awaiting`).
 *
 * @param input The configuration: JSON text, or the parsed value.
 * @param env The environment variables `${VAR}` reads.
 * @param options How to read it.
 * @returns The configuration, or the first problem found, with its JSON pointer.
 *
 * @example Usage
 * ```ts
 * import { parseGatewayConfig } from "./parse.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const parsed = parseGatewayConfig(
 *   '{"mcpServers":{"gh":{"url":"https://example.com/mcp","headers":{"Authorization":"Bearer ${GH_TOKEN}"}}}}',
 *   { GH_TOKEN: "s3cret" },
 * );
 * deepEqual(parsed.ok && parsed.value.servers[0], { server: "gh", url: "https://example.com/mcp", headers: { Authorization: "Bearer s3cret" } });
 * const missing = parseGatewayConfig('{"mcpServers":{"gh":{"url":"${MISSING}"}}}', {});
 * equal(missing.ok ? "" : missing.error.message, 'Invalid gateway config at "/mcpServers/gh/url": the environment variable MISSING is not set');
 * const deferred = parseGatewayConfig('{"mcpServers":{"gh":{"url":"${MISSING}"}}}', {}, { deferUnset: true });
 * deepEqual(deferred.ok && [deferred.value.servers, deferred.value.awaiting?.[0]?.variables], [[], ["MISSING"]]);
 * ```
 */
export function parseGatewayConfig(
  input: string | unknown,
  env: Readonly<Record<string, string | undefined>>,
  options: ParseOptions = {},
): GatewayConfigResult {
  // The checks stop at the first problem by throwing it; this is the one place that turns it
  // into a value, so no caller has to tell a bad file from a bug by catching.
  try {
    return { ok: true, value: readConfig(input, env, options.deferUnset === true) };
  } catch (e) {
    if (e instanceof GatewayConfigError) return { ok: false, error: e };
    throw e;
  }
}

function readConfig(
  input: string | unknown,
  env: Readonly<Record<string, string | undefined>>,
  deferUnset: boolean,
): GatewayConfig {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      throw new GatewayConfigError("", `not JSON (${(e as Error).message})`);
    }
  }
  const unset: UnsetVariableError[] = [];
  const at: Place = { path: [], env, servers: [], ...(deferUnset ? { unset } : {}) };
  if (!isRecord(value)) return fail(at, "must be a JSON object");
  knownKeys(value, Object.keys(CONFIG), at, "the config takes");
  if (value.$schema !== undefined) CONFIG.$schema.read(value.$schema, down(at, "$schema"));
  const entries = CONFIG.mcpServers.read(value.mcpServers, down(at, "mcpServers"));
  const servers = Object.values(entries).filter((s) => s !== undefined);
  // The unfold block names servers (pinned tools, profiles): it is read knowing them all, the
  // disabled ones too (a profile may list a server that is off: `unfold setup` moves them so).
  const block = { ...down(at, "unfold"), servers: Object.keys(entries) };
  const options = value.unfold === undefined
    ? readShape(UNFOLD, {}, block)
    : CONFIG.unfold.read(value.unfold, block);
  if (!deferUnset) return { servers, options };
  const awaiting = awaitingOf(unset);
  // A server read without its variables is never started: its values are not all there.
  const waits = new Set(awaiting.filter((a) => a.kind === "server").map((a) => a.name));
  return { servers: servers.filter((s) => !waits.has(s.server)), options, awaiting };
}

// The variables not set, by what needs them: a server, or a profile's tokens. One anywhere else
// (`$schema`) fails the config, as it did before they were deferred.
function awaitingOf(unset: readonly UnsetVariableError[]): AwaitingVariables[] {
  const awaiting: AwaitingVariables[] = [];
  for (const error of unset) {
    const [top, key, name] = error.path;
    const kind = top === "mcpServers" ? "server" : key === "profiles" ? "profile" : undefined;
    const named = kind === "server" ? key : name;
    if (kind === undefined || named === undefined) throw error;
    const known = awaiting.find((a) => a.kind === kind && a.name === named);
    if (known === undefined) {
      awaiting.push({ kind, name: named, variables: [...error.variables], error });
    } else {
      known.variables.push(...error.variables.filter((v) => !known.variables.includes(v)));
    }
  }
  return awaiting;
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
 * import { parseGatewayConfig, poolOptions } from "./parse.ts";
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
