/**
 * The gateway's configuration: the `mcpServers` JSON that MCP hosts already use (stdio servers
 * with `command`/`args`/`env`, Streamable HTTP servers with `url`/`headers`), `${VAR}` expanded
 * from the environment, plus an `unfold` block. Every key is declared with zod in `model.ts` and
 * `servers.ts`; this reads a file's worth by it, names the first problem as one line at its place,
 * and says what the gateway's pool takes from it (a bad server entry or profile may be set aside
 * instead: `contained.ts`). Pure: the environment comes in as a parameter.
 *
 * @module
 */

import * as z from "zod/mini";
import type { Result } from "../../result.ts";
import { isRecord } from "../../utils/record.ts";
import { GatewayConfigError, Unset, UnsetVariableError, whileReading } from "./_reading.ts";
import { firstProblem, invalidEntries, type InvalidEntry, withoutEntries } from "./contained.ts";
import { CONFIG, RESTART_DEFAULTS, type StartMode } from "./model.ts";
import type { GatewayOptions, UpstreamConfig } from "./types.ts";

export { GatewayConfigError, UnsetVariableError } from "./_reading.ts";
export { type InvalidEntry, refusedEntry } from "./contained.ts";
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
  /**
   * With `contain`: the server entries (left out of `servers`) and the profiles (left out of
   * `options.profiles`) that cannot be read, each with its first problem: the servers first, each
   * kind in the order of the file (`contained.ts`).
   */
  invalid?: InvalidEntry[];
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
  /**
   * Whether a server entry or a profile that cannot be read is set aside in `invalid` (with its
   * problem) rather than failing the parse: for a command that serves the others. A problem
   * outside the entries (a key of the `unfold` block, a name, the file) still fails it.
   */
  contain?: boolean;
}

/** A usable gateway configuration, or what is wrong with it. */
export type GatewayConfigResult = Result<GatewayConfig, GatewayConfigError>;

/**
 * Parses and checks a gateway configuration: `{"mcpServers": {...}, "unfold": {...}}`. Servers
 * with `"disabled": true` are left out; `${VAR}` (and `${VAR:-default}`) in strings is replaced
 * from `env`, and a variable that is not set is an error naming it (with `deferUnset`, in a
 * server or a profile's tokens, it leaves that server out and says so in `awaiting`; with
 * `contain`, a server entry or a profile that cannot be read is left out and said in
 * `invalid`). Objects of values by name (`env`, `headers`, `profiles`) have no prototype: any
 * name is its own key.
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
 * const contained = parseGatewayConfig('{"mcpServers":{"a":{"command":"a"},"b":{"comand":"b"}}}', {}, { contain: true });
 * deepEqual(contained.ok && [contained.value.servers.length, contained.value.invalid?.[0]?.error.message], [1, 'Invalid gateway config at "/mcpServers/b/comand": unknown field: did you mean "command"?']);
 * ```
 */
export function parseGatewayConfig(
  input: string | unknown,
  env: Readonly<Record<string, string | undefined>>,
  options: ParseOptions = {},
): GatewayConfigResult {
  let value = withoutUndefined(input);
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return refused(new GatewayConfigError("", `not JSON (${(e as Error).message})`));
    }
  }
  const deferUnset = options.deferUnset === true;
  const reading = { env, servers: configuredServers(value), deferUnset };
  const read = (config: unknown) => whileReading(reading, () => z.safeParse(CONFIG, config));
  let parsed = read(value);
  // A bad entry is its server's (or profile's): the file is read again without it, as if it were
  // not there.
  const invalid = !parsed.success && options.contain === true
    ? invalidEntries(value, parsed.error.issues)
    : [];
  if (invalid.length > 0) parsed = read(withoutEntries(value, invalid));
  if (!parsed.success) return refused(firstProblem(parsed.error.issues));
  const servers: UpstreamConfig[] = Object.values(parsed.data.mcpServers);
  const block: GatewayOptions = parsed.data.unfold;
  const contained = options.contain === true ? { invalid } : {};
  if (!deferUnset) return { ok: true, value: { servers, options: block, ...contained } };
  const awaiting = setAside(servers, block);
  // A server read without its variables is never started: its values are not all there.
  const waits = new Set(awaiting.filter((a) => a.kind === "server").map((a) => a.name));
  return {
    ok: true,
    value: {
      servers: servers.filter((s) => !waits.has(s.server)),
      options: block,
      awaiting,
      ...contained,
    },
  };
}

const refused = (error: GatewayConfigError): GatewayConfigResult => ({ ok: false, error });

// A value as JSON carries it: a key whose value is `undefined` is absent. As deep as the config's
// objects go; what is deeper is no config's to read.
function withoutUndefined(value: unknown, depth = 6): unknown {
  if (depth === 0 || !isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const kept = { value: withoutUndefined(v, depth - 1), enumerable: true, writable: true };
    Object.defineProperty(out, key, kept);
  }
  return out;
}

// What the `unfold` block may name: every server of the file, the disabled ones too (a profile
// may list a server that is off: `unfold setup` moves them so), and one whose entry is set aside
// (`contain`: it is listed as unavailable). The names are read from the file as it is.
function configuredServers(value: unknown): string[] {
  const entries = isRecord(value) && isRecord(value.mcpServers) ? value.mcpServers : {};
  return Object.keys(entries);
}

// With `deferUnset`: each server whose values wait for variables, and each profile's tokens that
// do (left out of its tokens), in the order of the file.
function setAside(
  servers: readonly UpstreamConfig[],
  options: GatewayOptions,
): AwaitingVariables[] {
  const awaiting: AwaitingVariables[] = [];
  const note = (kind: AwaitingVariables["kind"], name: string, found: UnsetVariableError[]) => {
    if (found.length === 0) return;
    const variables = [...new Set(found.flatMap((error) => error.variables))];
    awaiting.push({ kind, name, variables, error: found[0]! });
  };
  for (const server of servers) {
    note("server", server.server, unsetIn(server, ["mcpServers", server.server]));
  }
  for (const profile of Object.values(options.profiles ?? {})) {
    const tokens = profile.tokens ?? [];
    const path = ["unfold", "profiles", profile.name, "tokens"];
    note("profile", profile.name, unsetIn(tokens, path));
    if (profile.tokens !== undefined) {
      profile.tokens = tokens.filter((t) => !(t as unknown instanceof Unset));
    }
  }
  return awaiting;
}

// The values under a parsed value that wait for variables, in order, with their places.
function unsetIn(value: unknown, path: string[]): UnsetVariableError[] {
  if (value instanceof Unset) return [new UnsetVariableError(path, value.variables)];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => unsetIn(v, [...path, k]));
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
