/**
 * The gateway's configuration: the `mcpServers` JSON that MCP hosts already use (stdio servers
 * with `command`/`args`/`env`, Streamable HTTP servers with `url`/`headers`), `${VAR}` expanded
 * from the environment, plus an `unfold` block. Pure: the environment comes in as a parameter.
 *
 * @module
 */

import { closestKey } from "../_edit_distance.ts";
import { isRecord } from "../_record.ts";
import { DESCRIBE_FIRST_MODES } from "../session/session_route.ts";
import { checkConfig, DISCLOSURE_LEVELS, type DisclosureLevel } from "../config.ts";
import type { OAuthSettings } from "../mcp/oauth/provider.ts";
import { parseOAuthSettings } from "../mcp/oauth/settings.ts";
import { parseProfile, type Profile } from "./profiles.ts";
import { TRUST_MODES, type TrustMode } from "./trust.ts";

/** An upstream started as a child process, spoken to over stdio. */
export interface StdioUpstream {
  /** The server's name: the `server` of its tools' ids. */
  server: string;
  /** The program. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Environment variables for it. */
  env: Record<string, string>;
  /** Its working directory, when given. */
  cwd?: string;
}

/** An upstream reached over Streamable HTTP. */
export interface HttpUpstream {
  /** The server's name: the `server` of its tools' ids. */
  server: string;
  /** Its MCP endpoint. */
  url: string;
  /** Headers sent with every request (its own credentials, from the config: never the host's). */
  headers: Record<string, string>;
  /** How to sign in with OAuth, when the entry says (`unfold login`; Deno only). */
  oauth?: OAuthSettings;
}

/** One upstream server. */
export type UpstreamConfig = StdioUpstream | HttpUpstream;

/** The `unfold` block: how the gateway presents the upstreams. */
export interface GatewayOptions {
  /** The context the model has available, in tokens (sizes the overview). */
  availableContextTokens?: number;
  /** The share of it the overview may use, in percent. */
  inventoryThresholdPercent?: number;
  /** The disclosure levels the overview may use. */
  disclosure?: DisclosureLevel[];
  /** Tool ids (`server/tool`) exposed directly in `tools/list`, besides the bridge. */
  pinned: string[];
  /** The bridge tool's name. */
  bridgeName?: string;
  /** How long an upstream call may take, in milliseconds; `null` waits for ever. */
  callTimeoutMs?: number | null;
  /**
   * How long the gateway waits for its upstreams before it answers the host anyway, in
   * milliseconds; a server still starting then joins with `list_changed`.
   * @default {STARTUP_TIMEOUT_MS}
   */
  startupTimeoutMs?: number;
  /**
   * The first delay before a failed or lost upstream is restarted, in milliseconds; it doubles
   * at each failure in a row.
   * @default {RESTART_DEFAULTS.initialDelayMs}
   */
  restartDelayMs?: number;
  /**
   * The longest delay between restarts, in milliseconds.
   * @default {RESTART_DEFAULTS.maxDelayMs}
   */
  restartMaxDelayMs?: number;
  /** Per-client profiles by name: each a narrower view of this config. */
  profiles?: Record<string, Profile>;
  /**
   * What happens to tool definitions the user has not approved (see `trust.ts`).
   * @default {DEFAULT_TRUST}
   */
  trust?: TrustMode;
  /**
   * The lock file of approved definitions, as written in the config (relative to its directory).
   * @default {LOCK_FILE_NAME}
   */
  lockFile?: string;
  /**
   * Whether an execute of a tool not yet described in the session is answered with its schema
   * instead of run (the HTTP API's option of that name). `"off"` runs an execute whose arguments
   * pass the schema, so a client that opens a new session per call can execute.
   * @default {"enforce"}
   */
  describeFirst?: "enforce" | "off";
  /**
   * Where the catalogue overview goes: the bridge tool's description, the server `instructions`,
   * or both (for hosts that read only one of them; a host that reads instructions need not pay
   * for it twice).
   * @default {"description"}
   */
  overviewIn?: "both" | "instructions" | "description";
  /**
   * Whether each upstream's own `instructions` are shown in the overview (as untrusted data, at
   * most {@linkcode UPSTREAM_INSTRUCTIONS_CHARS} characters each).
   * @default {"brief"}
   */
  upstreamInstructions?: "brief" | "none";
  /**
   * When the upstreams' processes run: `"eager"` starts every one with the gateway and keeps it
   * running; `"lazy"` starts one at the first call of one of its tools (listing it once at start
   * when it has no snapshot) and stops it after `idleTimeoutMs` without a call.
   * @default {"eager"}
   */
  start?: StartMode;
  /**
   * How long a lazily started upstream may go without a call before it is stopped, in
   * milliseconds (`start: "lazy"` only: an eager gateway never stops a server).
   * @default {IDLE_TIMEOUT_MS}
   */
  idleTimeoutMs?: number;
}

/** When the upstreams' processes run: see {@linkcode GatewayOptions.start}. */
export type StartMode = "eager" | "lazy";
/** Every {@linkcode StartMode}, the default first. */
export const START_MODES: readonly StartMode[] = ["eager", "lazy"];
/** How long a lazy upstream may go without a call before it is stopped, by default: 10 min. */
export const IDLE_TIMEOUT_MS = 600_000;

/** Where the overview may go: see {@linkcode GatewayOptions.overviewIn}. */
export const OVERVIEW_PLACES: readonly NonNullable<GatewayOptions["overviewIn"]>[] = [
  "both",
  "instructions",
  "description",
];
/** How an upstream's own instructions may be shown. */
export const UPSTREAM_INSTRUCTIONS_MODES: readonly NonNullable<
  GatewayOptions["upstreamInstructions"]
>[] = ["brief", "none"];
/** The most characters of one upstream's instructions the overview shows. */
export const UPSTREAM_INSTRUCTIONS_CHARS = 300;

/** How long the gateway waits for its upstreams at start, by default: 5 s. */
export const STARTUP_TIMEOUT_MS = 5_000;

/** The restart backoff by default: 1 s, doubled at each failure in a row, at most 60 s. */
export const RESTART_DEFAULTS: Readonly<{ initialDelayMs: number; maxDelayMs: number }> = Object
  .freeze({ initialDelayMs: 1_000, maxDelayMs: 60_000 });

// The delays of the unfold block: positive, and within what a timer can hold.
const DELAY_FIELDS = ["startupTimeoutMs", "restartDelayMs", "restartMaxDelayMs"] as const;
const MAX_DELAY_MS = 2 ** 31 - 1;

/** A whole gateway configuration. */
export interface GatewayConfig {
  /** The upstreams, in the order of the file. */
  servers: UpstreamConfig[];
  /** The `unfold` block. */
  options: GatewayOptions;
}

/**
 * A configuration that cannot be used: one message naming the place (a JSON pointer into the
 * file) and what is wrong there.
 *
 * @example Usage
 * ```ts
 * import { GatewayConfigError } from "./config.ts";
 * import { equal } from "node:assert/strict";
 *
 * const error = new GatewayConfigError("/mcpServers/a/command", "must be a non-empty string");
 * equal(error.message, 'Invalid gateway config at "/mcpServers/a/command": must be a non-empty string');
 * ```
 */
export class GatewayConfigError extends TypeError {
  /** Where the problem is: a JSON pointer into the configuration (`""` for the whole). */
  readonly pointer: string;

  /**
   * Makes the error.
   *
   * @param pointer The JSON pointer of the bad value.
   * @param problem What is wrong with it.
   */
  constructor(pointer: string, problem: string) {
    super(`Invalid gateway config at ${JSON.stringify(pointer)}: ${problem}`);
    this.name = "GatewayConfigError";
    this.pointer = pointer;
  }
}

// The fields of profiles and trusted definitions, parsed in parseTrustFields.
const TRUST_FIELDS = ["profiles", "trust", "lockFile"] as const;
const UNFOLD_FIELDS = new Set([
  "availableContextTokens",
  "inventoryThresholdPercent",
  "disclosure",
  "pinned",
  "bridgeName",
  "callTimeoutMs",
  ...DELAY_FIELDS,
  ...TRUST_FIELDS,
  "describeFirst",
  "overviewIn",
  "upstreamInstructions",
  "start",
  "idleTimeoutMs",
]);
const STDIO_FIELDS = new Set(["command", "args", "env", "cwd", "type", "disabled"]);
const HTTP_FIELDS = new Set(["url", "headers", "type", "disabled", "oauth"]);
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

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
  // The checks below stop at the first problem by throwing it; this is the one place that turns
  // it into a value, so no caller has to tell a bad file from a bug by catching.
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
  if (!isRecord(value)) throw new GatewayConfigError("", "must be a JSON object");
  const unknown = Object.keys(value).find((key) => key !== "mcpServers" && key !== "unfold");
  if (unknown !== undefined) {
    throw new GatewayConfigError(
      pointer([unknown]),
      'unknown field: the config has "mcpServers" and "unfold"',
    );
  }
  const servers = value.mcpServers;
  if (!isRecord(servers)) {
    throw new GatewayConfigError("/mcpServers", "must be an object of servers by name");
  }
  const upstreams: UpstreamConfig[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const upstream = parseServer(name, entry, env);
    if (upstream !== undefined) upstreams.push(upstream);
  }
  return { servers: upstreams, options: parseOptions(value.unfold, upstreams) };
}

function parseServer(
  name: string,
  entry: unknown,
  env: Readonly<Record<string, string | undefined>>,
): UpstreamConfig | undefined {
  const at = (...path: string[]) => pointer(["mcpServers", name, ...path]);
  if (!SERVER_NAME.test(name)) {
    throw new GatewayConfigError(
      at(),
      "a server name is 1 to 64 of A-Z a-z 0-9 _ . - (it becomes the first part of tool ids)",
    );
  }
  if (!isRecord(entry)) throw new GatewayConfigError(at(), "must be an object");
  if (entry.disabled === true) return undefined;
  // A mistyped key ("comand") is named with the key it meant before anything else is judged.
  for (const key of Object.keys(entry)) {
    if (STDIO_FIELDS.has(key) || HTTP_FIELDS.has(key)) continue;
    const meant = closestKey(key, [...STDIO_FIELDS, ...HTTP_FIELDS]);
    if (meant !== undefined) {
      throw new GatewayConfigError(
        at(key),
        `unknown field: did you mean ${JSON.stringify(meant)}?`,
      );
    }
  }
  const hasCommand = "command" in entry;
  const hasUrl = "url" in entry;
  if (hasCommand === hasUrl) {
    throw new GatewayConfigError(
      at(),
      'needs either "command" (a stdio server) or "url" (a Streamable HTTP server)',
    );
  }
  const allowed = hasCommand ? STDIO_FIELDS : HTTP_FIELDS;
  for (const key of Object.keys(entry)) {
    if (!allowed.has(key)) {
      throw new GatewayConfigError(
        at(key),
        `unknown field for a ${hasCommand ? "stdio" : "Streamable HTTP"} server`,
      );
    }
  }
  const text = (key: string) => {
    const raw = entry[key];
    if (typeof raw !== "string" || raw === "") {
      throw new GatewayConfigError(at(key), "must be a non-empty string");
    }
    return expand(raw, env, at(key));
  };
  const strings = (key: string): Record<string, string> => {
    const raw = entry[key] ?? {};
    if (!isRecord(raw)) throw new GatewayConfigError(at(key), "must be an object of strings");
    return Object.fromEntries(
      Object.entries(raw).map(([k, v]) => {
        if (typeof v !== "string") throw new GatewayConfigError(at(key, k), "must be a string");
        return [k, expand(v, env, at(key, k))];
      }),
    );
  };
  if (hasUrl) {
    const url = text("url");
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new GatewayConfigError(at("url"), `${JSON.stringify(url)} is not a URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new GatewayConfigError(at("url"), "must be an http: or https: URL");
    }
    const upstream: HttpUpstream = { server: name, url, headers: strings("headers") };
    if (entry.oauth !== undefined) {
      const oauth = parseOAuthSettings(
        entry.oauth,
        (t, path) => expand(t, env, at("oauth", ...path)),
      );
      if (!oauth.ok) {
        throw new GatewayConfigError(at("oauth", ...oauth.error.path), oauth.error.problem);
      }
      upstream.oauth = oauth.value;
    }
    return upstream;
  }
  const args = entry.args ?? [];
  if (!Array.isArray(args)) throw new GatewayConfigError(at("args"), "must be an array of strings");
  const upstream: StdioUpstream = {
    server: name,
    command: text("command"),
    args: args.map((arg, i) => {
      if (typeof arg !== "string") {
        throw new GatewayConfigError(at("args", String(i)), "must be a string");
      }
      return expand(arg, env, at("args", String(i)));
    }),
    env: strings("env"),
  };
  if (entry.cwd !== undefined) upstream.cwd = text("cwd");
  return upstream;
}

function parseOptions(raw: unknown, servers: readonly UpstreamConfig[]): GatewayOptions {
  const options: GatewayOptions = { pinned: [] };
  if (raw === undefined) return options;
  if (!isRecord(raw)) throw new GatewayConfigError("/unfold", "must be an object");
  for (const key of Object.keys(raw)) {
    if (!UNFOLD_FIELDS.has(key)) {
      // A near miss ("strat") is named as the key it meant, as in a server entry; a key like none
      // of them gets the whole list.
      const meant = closestKey(key, UNFOLD_FIELDS);
      throw new GatewayConfigError(
        pointer(["unfold", key]),
        meant === undefined
          ? `unknown field: the unfold block takes ${[...UNFOLD_FIELDS].join(", ")}`
          : `unknown field: did you mean ${JSON.stringify(meant)}?`,
      );
    }
  }
  if (raw.availableContextTokens !== undefined) {
    options.availableContextTokens = raw.availableContextTokens as number;
  }
  if (raw.inventoryThresholdPercent !== undefined) {
    options.inventoryThresholdPercent = raw.inventoryThresholdPercent as number;
  }
  if (raw.bridgeName !== undefined) options.bridgeName = raw.bridgeName as string;
  if (raw.disclosure !== undefined) {
    if (!Array.isArray(raw.disclosure)) {
      throw new GatewayConfigError("/unfold/disclosure", `must be an array of levels`);
    }
    raw.disclosure.forEach((level, i) => {
      if (!(DISCLOSURE_LEVELS as readonly unknown[]).includes(level)) {
        throw new GatewayConfigError(
          `/unfold/disclosure/${i}`,
          `must be one of ${DISCLOSURE_LEVELS.map((l) => JSON.stringify(l)).join(", ")}`,
        );
      }
    });
    options.disclosure = raw.disclosure as DisclosureLevel[];
  }
  // The injector's own checks, with the field mapped to its place in the file.
  const {
    pinned: _,
    callTimeoutMs: __,
    startupTimeoutMs: ___,
    restartDelayMs: ____,
    restartMaxDelayMs: _____,
    profiles: ______,
    trust: _______,
    lockFile: ________,
    describeFirst: _________,
    overviewIn: __________,
    upstreamInstructions: ___________,
    start: ____________,
    idleTimeoutMs: _____________,
    ...config
  } = options;
  const checked = checkConfig(config);
  if (!checked.ok) {
    throw new GatewayConfigError(pointer(["unfold", checked.error.field]), checked.error.message);
  }
  if (raw.callTimeoutMs !== undefined) {
    const timeout = raw.callTimeoutMs;
    if (
      timeout !== null && !(typeof timeout === "number" && timeout > 0 && timeout <= 2 ** 31 - 1)
    ) {
      throw new GatewayConfigError(
        "/unfold/callTimeoutMs",
        "must be a positive number of milliseconds, or null for no timeout",
      );
    }
    options.callTimeoutMs = timeout;
  }
  for (const field of DELAY_FIELDS) {
    const delay = raw[field];
    if (delay === undefined) continue;
    if (!(typeof delay === "number" && delay > 0 && delay <= MAX_DELAY_MS)) {
      throw new GatewayConfigError(
        `/unfold/${field}`,
        `must be a positive number of milliseconds, at most ${MAX_DELAY_MS}`,
      );
    }
    options[field] = delay;
  }
  const describeFirst = choice(raw, "describeFirst", DESCRIBE_FIRST_MODES);
  if (describeFirst !== undefined) options.describeFirst = describeFirst;
  const overviewIn = choice(raw, "overviewIn", OVERVIEW_PLACES);
  if (overviewIn !== undefined) options.overviewIn = overviewIn;
  const upstream = choice(raw, "upstreamInstructions", UPSTREAM_INSTRUCTIONS_MODES);
  if (upstream !== undefined) options.upstreamInstructions = upstream;
  const start = choice(raw, "start", START_MODES);
  if (start !== undefined) options.start = start;
  if (raw.idleTimeoutMs !== undefined) {
    const idle = raw.idleTimeoutMs;
    if (!(Number.isInteger(idle) && (idle as number) > 0 && (idle as number) <= MAX_DELAY_MS)) {
      throw new GatewayConfigError(
        "/unfold/idleTimeoutMs",
        `must be a whole positive number of milliseconds, at most ${MAX_DELAY_MS}`,
      );
    }
    options.idleTimeoutMs = idle as number;
  }
  if (raw.pinned !== undefined) {
    if (!Array.isArray(raw.pinned)) {
      throw new GatewayConfigError("/unfold/pinned", 'must be an array of tool ids "server/tool"');
    }
    const names = new Set(servers.map((s) => s.server));
    raw.pinned.forEach((id, i) => {
      const slash = typeof id === "string" ? id.indexOf("/") : -1;
      if (typeof id !== "string" || slash < 1 || slash === id.length - 1) {
        throw new GatewayConfigError(`/unfold/pinned/${i}`, 'must be a tool id "server/tool"');
      }
      if (!names.has(id.slice(0, slash))) {
        throw new GatewayConfigError(
          `/unfold/pinned/${i}`,
          `names the server ${JSON.stringify(id.slice(0, slash))}, which is not in mcpServers`,
        );
      }
    });
    options.pinned = [...new Set(raw.pinned as string[])];
    checkPinnedNames(options.pinned);
  }
  parseTrustFields(raw, servers, options);
  return options;
}

// Profiles, trust mode and lock file: kept together and apart from the other fields.
function parseTrustFields(
  raw: Record<string, unknown>,
  servers: readonly UpstreamConfig[],
  options: GatewayOptions,
): void {
  if (raw.trust !== undefined) {
    if (!(TRUST_MODES as readonly unknown[]).includes(raw.trust)) {
      throw new GatewayConfigError(
        "/unfold/trust",
        `must be one of ${TRUST_MODES.map((m) => JSON.stringify(m)).join(", ")}`,
      );
    }
    options.trust = raw.trust as TrustMode;
  }
  if (raw.lockFile !== undefined) {
    if (typeof raw.lockFile !== "string" || raw.lockFile === "") {
      throw new GatewayConfigError("/unfold/lockFile", "must be a non-empty path");
    }
    options.lockFile = raw.lockFile;
  }
  if (raw.profiles === undefined) return;
  if (!isRecord(raw.profiles)) {
    throw new GatewayConfigError("/unfold/profiles", "must be an object of profiles by name");
  }
  const names = servers.map((s) => s.server);
  const profiles: Record<string, Profile> = {};
  for (const [name, entry] of Object.entries(raw.profiles)) {
    const parsed = parseProfile(name, entry, names);
    if (!parsed.ok) {
      throw new GatewayConfigError(
        pointer(["unfold", "profiles", name, ...parsed.error.path]),
        parsed.error.problem,
      );
    }
    if (parsed.value.pinned !== undefined) checkPinnedNames(parsed.value.pinned);
    profiles[name] = parsed.value;
  }
  options.profiles = profiles;
}

// One of a few strings, or absent.
function choice<T extends string>(
  raw: Record<string, unknown>,
  field: string,
  choices: readonly T[],
): T | undefined {
  const value = raw[field];
  if (value === undefined) return undefined;
  if (!(choices as readonly unknown[]).includes(value)) {
    throw new GatewayConfigError(
      `/unfold/${field}`,
      `must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`,
    );
  }
  return value as T;
}

// A pinned tool is listed as server__tool: two ids that make the same name would be two tools
// of one name, and calls would reach only one of them.
function checkPinnedNames(pinned: readonly string[]): void {
  const seen = new Map<string, string>();
  pinned.forEach((id, i) => {
    const slash = id.indexOf("/");
    const name = `${id.slice(0, slash)}__${id.slice(slash + 1)}`;
    const other = seen.get(name);
    if (other !== undefined) {
      throw new GatewayConfigError(
        `/unfold/pinned/${i}`,
        `${JSON.stringify(id)} and ${JSON.stringify(other)} would both be listed as ${
          JSON.stringify(name)
        }: pin only one of them`,
      );
    }
    seen.set(name, id);
  });
}

// Replaces ${VAR} and ${VAR:-default}; one pass, so values are never expanded again.
function expand(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  at: string,
): string {
  return text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    throw new GatewayConfigError(at, `the environment variable ${name} is not set`);
  });
}

function pointer(path: readonly string[]): string {
  return path.map((part) => `/${part.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
