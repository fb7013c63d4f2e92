/**
 * A host's config file, once parsed, as unfold's `{mcpServers, unfold}` config: each host's own
 * way of writing an entry becomes unfold's (`host_files.ts` says which). Apart from the JSONC and
 * TOML libraries, so that a config in plain JSON is read without loading them: the gateway's
 * start pays neither their load time nor their memory (jsonc-parser alone is ~9 MiB RSS, ~60 ms).
 *
 * @module
 */

import { isRecord } from "../../utils/record.ts";
import type { Result } from "../../result.ts";

/** A host file's format: JSON (comments and trailing commas allowed) or TOML. */
export type HostFormat = "json" | "toml";

/** A host file read as unfold's config. */
export interface HostConfig {
  /** `{mcpServers, unfold?, $schema?}` for the config parser, or the text itself when it is not
   * JSON (the parser then says where it breaks). */
  config: unknown;
  /** What was left out, one phrase each (`the top-level keys "theme", "preferences"`). */
  ignored: string[];
  /** The key the servers were under: `mcpServers`, `servers` (VS Code) or `mcp_servers` (Codex). */
  serversKey: string;
  /**
   * The entries only the host can use (`${input:…}`), in the order of the file: each is in
   * `config` as disabled (its name stays configured), and is that server's problem.
   */
  refused: RefusedEntry[];
}

/** A host file's entry that unfold cannot use as it is written. */
export interface RefusedEntry {
  /** Its name. */
  server: string;
  /** The keys from the file's root to it (`["servers", "gh"]`). */
  path: string[];
  /** Why, and what to write instead. */
  problem: string;
}

/**
 * The format of a host file, by its name.
 *
 * @param path The file's path.
 * @returns `"toml"` for `*.toml`, else `"json"`.
 */
export function hostFormat(path: string): HostFormat {
  return /\.toml$/i.test(path) ? "toml" : "json";
}

// Keys an unfold config has at its top; the rest of a host file is the host's.
const OWN_KEYS = new Set(["mcpServers", "unfold", "$schema"]);

// Entry fields hosts write that unfold has no use for (the host's own timeouts, trust, tool
// filters, ...): left out and named. A key in none of these lists goes on to the config parser,
// which names the key it meant ("comand").
const HOST_ONLY_FIELDS = new Set([
  "timeout",
  "trust",
  "includeTools",
  "excludeTools",
  "description",
  "alwaysAllow",
  "autoApprove",
  "envFile",
  "dev",
  "gallery",
  "version",
  "startup_timeout_sec",
  "startup_timeout_ms",
  "tool_timeout_sec",
  "enabled_tools",
  "disabled_tools",
  "required",
]);

/**
 * A host file in plain JSON read as unfold's config, without the JSONC library.
 *
 * @param text The file's text.
 * @param path The file's path.
 * @returns As `readHostFile` (`host_files.ts`) would, or `undefined` when the text is not plain
 *   JSON (comments, trailing commas, TOML) or names `__proto__`, which only that reader takes as
 *   it always has.
 */
export function readPlainHostFile(
  text: string,
  path: string,
): Result<HostConfig, string> | undefined {
  if (hostFormat(path) !== "json" || text.includes("__proto__")) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  return hostConfigOf(raw, text);
}

/**
 * A host file's parsed data as unfold's config.
 *
 * @param raw The data.
 * @param text The file's text (passed on to the config parser when the data is no object).
 * @returns The config and what was left out, or why the file cannot be used, in one line.
 */
export function hostConfigOf(
  raw: unknown,
  text: string,
): Result<HostConfig, string> {
  if (!isRecord(raw)) {
    return { ok: true, value: { config: text, ignored: [], serversKey: "", refused: [] } };
  }
  const serversKey = Object.hasOwn(raw, "mcpServers")
    ? "mcpServers"
    : Object.hasOwn(raw, "servers")
    ? "servers"
    : Object.hasOwn(raw, "mcp_servers")
    ? "mcp_servers"
    : "mcpServers";
  const config: Record<string, unknown> = {};
  const ignored: string[] = [];
  const others = Object.keys(raw).filter((key) => key !== serversKey && !OWN_KEYS.has(key));
  if (others.length > 0) {
    ignored.push(
      `the top-level key${others.length === 1 ? "" : "s"} ${others.map(quote).join(", ")}`,
    );
  }
  for (const key of OWN_KEYS) if (Object.hasOwn(raw, key)) config[key] = raw[key];
  const servers = raw[serversKey];
  if (!isRecord(servers)) {
    // The parser says what is wrong with it ("must be an object of servers by name").
    if (servers !== undefined || serversKey === "mcpServers") config.mcpServers = servers;
    return { ok: true, value: { config, ignored, serversKey, refused: [] } };
  }
  const entries: Record<string, unknown> = {};
  const refused: RefusedEntry[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const where = `${serversKey}/${name}`;
    if (!isRecord(entry)) {
      setOwn(entries, name, entry);
      continue;
    }
    const normal = normalEntry(entry, where, ignored);
    // A server only its host can start is that server's problem: the others serve.
    if (!normal.ok) {
      refused.push({ server: name, path: [serversKey, name], problem: normal.error });
    }
    setOwn(entries, name, normal.ok ? normal.value : { disabled: true });
  }
  config.mcpServers = entries;
  return { ok: true, value: { config, ignored, serversKey, refused } };
}

/**
 * One server entry of a host's file in unfold's words: the host's own keys renamed (`serverUrl`,
 * `httpUrl`, `bearer_token_env_var`, `enabled = false`, `${env:VAR}`), the keys only the host
 * uses left out and named.
 *
 * @param entry The entry as the host file holds it.
 * @param where Where it is, for messages (`mcpServers/github`).
 * @returns The entry and what was left out of it, or why it cannot be used, in one line.
 *
 * @example Usage
 * ```ts
 * import { unfoldEntry } from "./entries.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(unfoldEntry({ command: "x", enabled: false, timeout: 5 }, "mcp_servers/x"), {
 *   ok: true,
 *   value: { entry: { command: "x", disabled: true }, ignored: ['the field "mcp_servers/x/timeout"'] },
 * });
 * ```
 */
export function unfoldEntry(
  entry: Record<string, unknown>,
  where: string,
): Result<{ entry: Record<string, unknown>; ignored: string[] }, string> {
  const ignored: string[] = [];
  const normal = normalEntry(entry, where, ignored);
  return normal.ok
    ? { ok: true, value: { entry: normal.value, ignored } }
    : { ok: false, error: `${where} ${normal.error}` };
}

// One server entry in unfold's words.
function normalEntry(
  entry: Record<string, unknown>,
  where: string,
  ignored: string[],
): Result<Record<string, unknown>, string> {
  const refused = inputVariable(entry);
  if (refused !== undefined) return { ok: false, error: refused };
  const out: Record<string, unknown> = {};
  const headers: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(entry)) {
    const value = envVariables(raw);
    // unfold tells stdio from HTTP by "command" or "url"; a server is enabled unless it says not.
    if (key === "type" || (key === "disabled" && value === false)) continue;
    if (key === "serverUrl" || key === "httpUrl") out.url = value;
    else if (key === "enabled") {
      if (value === false) out.disabled = true;
    } else if (key === "bearer_token_env_var" && typeof value === "string") {
      headers.Authorization = `Bearer \${${value}}`;
    } else if (key === "http_headers" && isRecord(value)) {
      for (const [name, text] of Object.entries(value)) setOwn(headers, name, text);
    } else if (key === "env_http_headers" && isRecord(value)) {
      for (const [name, variable] of Object.entries(value)) {
        setOwn(headers, name, `\${${variable}}`);
      }
    } else if (HOST_ONLY_FIELDS.has(key)) ignored.push(`the field ${quote(`${where}/${key}`)}`);
    else setOwn(out, key, value);
  }
  if (Object.keys(headers).length > 0) {
    for (const [name, text] of Object.entries(isRecord(out.headers) ? out.headers : {})) {
      setOwn(headers, name, text);
    }
    out.headers = headers;
  }
  return { ok: true, value: out };
}

// VS Code asks the user for `${input:ID}` when it starts a server; unfold cannot.
function inputVariable(entry: unknown): string | undefined {
  const found = JSON.stringify(entry).match(/\$\{input:[^}"]*\}/);
  if (found === null) return undefined;
  return `uses ${found[0]}, which only VS Code can ask for: set the value in an ` +
    `environment variable and write \${env:NAME} (or \${NAME}) instead`;
}

// VS Code's `${env:NAME}` is unfold's `${NAME}`.
function envVariables(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\$\{env:([^}]+)\}/g, "${$1}");
  if (Array.isArray(value)) return value.map(envVariables);
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, envVariables(v)]));
  }
  return value;
}

// An own property whatever the name: a server named `__proto__` is a server.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function quote(text: string): string {
  return JSON.stringify(text);
}
