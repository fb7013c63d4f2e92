/**
 * The HTTP API's deployment settings (auth tokens, browser origins and limits), read from
 * environment variables with the defaults of DESIGN.md §5.
 *
 * @module
 */

import { MAX_KEPT_BYTES_PER_SESSION } from "../limits.ts";
import { DEFAULT_SESSION_TTL_SECONDS } from "../session/store.ts";
import { MAX_QUERY_CHARS } from "../limits.ts";
import type { Result } from "../result.ts";

/** Limits and auth of one deployment. */
export interface HttpSettings {
  /** Accepted bearer tokens; none means the API is open. */
  tokens: readonly string[];
  /**
   * Browser origins (`https://app.example.com`) allowed to call `/v1`, with CORS; `*` allows any.
   * A request with an `Origin` header not listed is refused; requests without one (servers,
   * scripts, SDKs) are not affected.
   */
  allowedOrigins: readonly string[];
  /** The largest request body, in bytes. */
  maxBodyBytes: number;
  /** The most tools in one catalogue. */
  maxTools: number;
  /** The longest search query, in code points. */
  maxQueryChars: number;
  /** The most code points of one description in a listing or result. */
  maxDescriptionChars: number;
  /** Seconds an idle session lives. */
  sessionTtlSeconds: number;
  /** The most sessions an in-memory store keeps. */
  maxSessions: number;
  /** The most bytes of cut answers one session keeps for `more`. */
  maxKeptBytes: number;
}

/** The defaults: open API, no browser origin, 16 MiB bodies, 10,000 tools, 8,000-char queries ({@linkcode MAX_QUERY_CHARS}), 4,000-char descriptions, 24 h sessions, 32 MiB of cut answers kept per session. */
export const DEFAULT_SETTINGS: Readonly<HttpSettings> = Object.freeze({
  tokens: [],
  allowedOrigins: [],
  maxBodyBytes: 16 * 1024 * 1024,
  maxTools: 10_000,
  maxQueryChars: MAX_QUERY_CHARS,
  maxDescriptionChars: 4000,
  sessionTtlSeconds: DEFAULT_SESSION_TTL_SECONDS,
  maxSessions: 10_000,
  maxKeptBytes: MAX_KEPT_BYTES_PER_SESSION,
});

/** The environment variable of each setting (error messages name it, so a caller knows what to change). */
export const SETTING_VARIABLES: Readonly<Record<keyof HttpSettings, string>> = Object.freeze({
  tokens: "UNFOLD_API_TOKEN",
  allowedOrigins: "UNFOLD_ALLOWED_ORIGINS",
  maxBodyBytes: "UNFOLD_MAX_BODY_BYTES",
  maxTools: "UNFOLD_MAX_TOOLS",
  maxQueryChars: "UNFOLD_MAX_QUERY_CHARS",
  maxDescriptionChars: "UNFOLD_MAX_DESCRIPTION_CHARS",
  sessionTtlSeconds: "UNFOLD_SESSION_TTL_SECONDS",
  maxSessions: "UNFOLD_MAX_SESSIONS",
  maxKeptBytes: "UNFOLD_MAX_KEPT_BYTES",
});

/** The settings a deployment's variables give, or the first variable that is not valid. */
export type SettingsResult = Result<HttpSettings, RangeError>;

/**
 * Reads settings from environment variables: `UNFOLD_API_TOKEN` (comma-separated tokens),
 * `UNFOLD_ALLOWED_ORIGINS` (comma-separated origins, or `*`), `UNFOLD_MAX_BODY_BYTES`,
 * `UNFOLD_MAX_TOOLS`, `UNFOLD_MAX_QUERY_CHARS`, `UNFOLD_MAX_DESCRIPTION_CHARS`,
 * `UNFOLD_SESSION_TTL_SECONDS`, `UNFOLD_MAX_SESSIONS`, `UNFOLD_MAX_KEPT_BYTES`
 * ({@linkcode SETTING_VARIABLES}). Unset or
 * empty variables keep the defaults. A variable that is not valid is a value, not an exception:
 * a server started with one says so in one line.
 *
 * @param env The variables (`Deno.env.toObject()`, a Worker's `env`).
 * @returns The settings; or, when a number variable is not a positive integer or an origin is not
 * of the form `scheme://host[:port]`, a `RangeError` whose message names the variable.
 *
 * @example Usage
 * ```ts
 * import { checkSettings } from "./settings.ts";
 * import { equal } from "node:assert/strict";
 *
 * const checked = checkSettings({ UNFOLD_MAX_TOOLS: "500" });
 * equal(checked.ok && checked.value.maxTools, 500);
 * const refused = checkSettings({ UNFOLD_MAX_TOOLS: "many" });
 * equal(refused.ok ? "" : refused.error.message, 'Invalid UNFOLD_MAX_TOOLS: must be a positive integer, got "many"');
 * ```
 */
export function checkSettings(env: Readonly<Record<string, unknown>>): SettingsResult {
  const settings: HttpSettings = { ...DEFAULT_SETTINGS };
  const list = (field: "tokens" | "allowedOrigins") => {
    const raw = env[SETTING_VARIABLES[field]];
    return typeof raw === "string"
      ? raw.split(",").map((t) => t.trim()).filter((t) => t !== "")
      : undefined;
  };
  settings.tokens = list("tokens") ?? settings.tokens;
  const origins = list("allowedOrigins");
  if (origins !== undefined) {
    const read: string[] = [];
    for (const text of origins) {
      const one = origin(text);
      if (one === undefined) {
        const error = new RangeError(
          `Invalid ${SETTING_VARIABLES.allowedOrigins}: ${
            JSON.stringify(text)
          } is not an origin such as "https://app.example.com" (or "*")`,
        );
        return { ok: false, error };
      }
      read.push(one);
    }
    settings.allowedOrigins = read;
  }
  for (const field of NUMBERS) {
    const variable = SETTING_VARIABLES[field];
    const raw = env[variable];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 1) {
      const error = new RangeError(
        `Invalid ${variable}: must be a positive integer, got ${JSON.stringify(raw)}`,
      );
      return { ok: false, error };
    }
    settings[field] = value;
  }
  return { ok: true, value: settings };
}

/**
 * {@linkcode checkSettings} for a caller that cannot go on without valid settings (a Worker's
 * entry): the settings, or the error thrown.
 *
 * @param env The variables (`Deno.env.toObject()`, a Worker's `env`).
 * @returns The settings.
 * @throws {RangeError} When a variable is not valid; the message names it.
 *
 * @example Usage
 * ```ts
 * import { settingsFromEnv } from "./settings.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const settings = settingsFromEnv({ UNFOLD_API_TOKEN: "a, b", UNFOLD_MAX_TOOLS: "500" });
 * deepEqual(settings.tokens, ["a", "b"]);
 * equal(settings.maxTools, 500);
 * ```
 */
export function settingsFromEnv(env: Readonly<Record<string, unknown>>): HttpSettings {
  const checked = checkSettings(env);
  if (!checked.ok) throw checked.error;
  return checked.value;
}

const NUMBERS = [
  "maxBodyBytes",
  "maxTools",
  "maxQueryChars",
  "maxDescriptionChars",
  "sessionTtlSeconds",
  "maxSessions",
  "maxKeptBytes",
] as const satisfies ReadonlyArray<keyof HttpSettings>;

// An origin as browsers send it in `Origin` (lower-case host, no default port), or `*`; undefined
// for text that is no origin.
function origin(text: string): string | undefined {
  if (text === "*") return text;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch { /* not a URL: refused below */ }
  if (
    url === undefined || url.origin === "null" || url.username !== "" || url.password !== "" ||
    url.search !== "" || url.hash !== "" || !/^[^:/]+:\/\/[^/]+\/?$/.test(text)
  ) {
    return undefined;
  }
  return url.origin;
}
