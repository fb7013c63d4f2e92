/**
 * The HTTP API's deployment settings (auth tokens and limits), read from environment variables
 * with the defaults of DESIGN.md §5.
 *
 * @module
 */

import { DEFAULT_SESSION_TTL_SECONDS } from "../session/store.ts";

/** Limits and auth of one deployment. */
export interface HttpSettings {
  /** Accepted bearer tokens; none means the API is open. */
  tokens: readonly string[];
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

/** The defaults: open API, 16 MiB bodies, 10,000 tools, 1,000-char queries, 4,000-char descriptions, 24 h sessions. */
export const DEFAULT_SETTINGS: Readonly<HttpSettings> = Object.freeze({
  tokens: [],
  maxBodyBytes: 16 * 1024 * 1024,
  maxTools: 10_000,
  maxQueryChars: 1000,
  maxDescriptionChars: 4000,
  sessionTtlSeconds: DEFAULT_SESSION_TTL_SECONDS,
  maxSessions: 10_000,
});

/** The environment variable that sets each limit (error messages name it, so a caller knows what to raise). */
export const SETTING_VARIABLES: Readonly<Record<Exclude<keyof HttpSettings, "tokens">, string>> = {
  maxBodyBytes: "UNFOLD_MAX_BODY_BYTES",
  maxTools: "UNFOLD_MAX_TOOLS",
  maxQueryChars: "UNFOLD_MAX_QUERY_CHARS",
  maxDescriptionChars: "UNFOLD_MAX_DESCRIPTION_CHARS",
  sessionTtlSeconds: "UNFOLD_SESSION_TTL_SECONDS",
  maxSessions: "UNFOLD_MAX_SESSIONS",
};

/**
 * Reads settings from environment variables: `UNFOLD_API_TOKEN` (comma-separated tokens),
 * `UNFOLD_MAX_BODY_BYTES`, `UNFOLD_MAX_TOOLS`, `UNFOLD_MAX_QUERY_CHARS`,
 * `UNFOLD_MAX_DESCRIPTION_CHARS`, `UNFOLD_SESSION_TTL_SECONDS`, `UNFOLD_MAX_SESSIONS`. Unset or
 * empty variables keep the defaults.
 *
 * @param env The variables (`Deno.env.toObject()`, a Worker's `env`).
 * @returns The settings.
 * @throws {RangeError} When a number variable is not a positive integer.
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
  const tokens = env.UNFOLD_API_TOKEN;
  if (typeof tokens === "string") {
    settings.tokens = tokens.split(",").map((t) => t.trim()).filter((t) => t !== "");
  }
  for (const [field, variable] of Object.entries(SETTING_VARIABLES)) {
    const raw = env[variable];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(
        `Invalid ${variable}: must be a positive integer, got ${JSON.stringify(raw)}`,
      );
    }
    settings[field as keyof typeof SETTING_VARIABLES] = value;
  }
  return settings;
}
