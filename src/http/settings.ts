/**
 * The HTTP API's deployment settings (auth tokens, browser origins and limits), read from
 * environment variables with the defaults of DESIGN.md §5.
 *
 * @module
 */

import { DEFAULT_SESSION_TTL_SECONDS } from "../session/store.ts";

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
}

/** The defaults: open API, no browser origin, 16 MiB bodies, 10,000 tools, 1,000-char queries, 4,000-char descriptions, 24 h sessions. */
export const DEFAULT_SETTINGS: Readonly<HttpSettings> = Object.freeze({
  tokens: [],
  allowedOrigins: [],
  maxBodyBytes: 16 * 1024 * 1024,
  maxTools: 10_000,
  maxQueryChars: 1000,
  maxDescriptionChars: 4000,
  sessionTtlSeconds: DEFAULT_SESSION_TTL_SECONDS,
  maxSessions: 10_000,
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
});

/**
 * Reads settings from environment variables: `UNFOLD_API_TOKEN` (comma-separated tokens),
 * `UNFOLD_ALLOWED_ORIGINS` (comma-separated origins, or `*`), `UNFOLD_MAX_BODY_BYTES`,
 * `UNFOLD_MAX_TOOLS`, `UNFOLD_MAX_QUERY_CHARS`, `UNFOLD_MAX_DESCRIPTION_CHARS`,
 * `UNFOLD_SESSION_TTL_SECONDS`, `UNFOLD_MAX_SESSIONS` ({@linkcode SETTING_VARIABLES}). Unset or
 * empty variables keep the defaults.
 *
 * @param env The variables (`Deno.env.toObject()`, a Worker's `env`).
 * @returns The settings.
 * @throws {RangeError} When a number variable is not a positive integer, or an origin is not of
 * the form `scheme://host[:port]`; the message names the variable.
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
  const settings: HttpSettings = { ...DEFAULT_SETTINGS };
  const list = (field: "tokens" | "allowedOrigins") => {
    const raw = env[SETTING_VARIABLES[field]];
    return typeof raw === "string"
      ? raw.split(",").map((t) => t.trim()).filter((t) => t !== "")
      : undefined;
  };
  settings.tokens = list("tokens") ?? settings.tokens;
  settings.allowedOrigins = list("allowedOrigins")?.map(origin) ?? settings.allowedOrigins;
  for (const field of NUMBERS) {
    const variable = SETTING_VARIABLES[field];
    const raw = env[variable];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(
        `Invalid ${variable}: must be a positive integer, got ${JSON.stringify(raw)}`,
      );
    }
    settings[field] = value;
  }
  return settings;
}

const NUMBERS = [
  "maxBodyBytes",
  "maxTools",
  "maxQueryChars",
  "maxDescriptionChars",
  "sessionTtlSeconds",
  "maxSessions",
] as const satisfies ReadonlyArray<keyof HttpSettings>;

// An origin as browsers send it in `Origin` (lower-case host, no default port), or `*`.
function origin(text: string): string {
  if (text === "*") return text;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch { /* reported below */ }
  if (
    url === undefined || url.origin === "null" || url.username !== "" || url.password !== "" ||
    url.search !== "" || url.hash !== "" || !/^[^:/]+:\/\/[^/]+\/?$/.test(text)
  ) {
    throw new RangeError(
      `Invalid ${SETTING_VARIABLES.allowedOrigins}: ${
        JSON.stringify(text)
      } is not an origin such as "https://app.example.com" (or "*")`,
    );
  }
  return url.origin;
}
