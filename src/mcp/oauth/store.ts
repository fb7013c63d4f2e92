/**
 * What unfold keeps of a sign-in to one upstream, and where: the tokens, when they expire and the
 * client registration the authorization server gave us. Nothing else is kept: the PKCE verifier,
 * the state and the discovery results live only as long as the process that needs them.
 *
 * @module
 */

import type { StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";

/** The sign-in to one upstream, as stored. */
export interface OAuthRecord {
  /** The server's name in the config. */
  server: string;
  /** The server's MCP endpoint: the record is used for this URL only. */
  url: string;
  /** The tokens of the last sign-in or refresh. */
  tokens?: StoredOAuthTokens;
  /** When the access token expires, in milliseconds since the epoch, when the server said. */
  expiresAt?: number;
  /** The client registration from dynamic registration (never a configured secret). */
  client?: StoredOAuthClientInformation;
}

/** Where one upstream's {@linkcode OAuthRecord} is kept. */
export interface OAuthStore {
  /** Reads the record; `undefined` when there is none (or it is unreadable: fail closed). */
  read(): Promise<OAuthRecord | undefined>;
  /** Replaces the record; `undefined` deletes it. */
  write(record: OAuthRecord | undefined): Promise<void>;
  /**
   * Changes the record as it is stored now, as one transaction (another process may have written
   * it since this one read it); `change` returns the new record, `undefined` to delete it.
   *
   * @returns The record stored afterwards.
   */
  update?(
    change: (stored: OAuthRecord | undefined) => OAuthRecord | undefined,
  ): Promise<OAuthRecord | undefined>;
}

/**
 * A store in memory, for tests and for flows that must not touch the disk.
 *
 * @param initial The record it starts with.
 * @returns The store.
 *
 * @example Usage
 * ```ts
 * import { memoryOAuthStore } from "./store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const store = memoryOAuthStore();
 * await store.write({ server: "gh", url: "https://example.com/mcp" });
 * equal((await store.read())?.server, "gh");
 * ```
 */
export function memoryOAuthStore(initial?: OAuthRecord): OAuthStore {
  let record = initial === undefined ? undefined : structuredClone(initial);
  return {
    read: () => Promise.resolve(record === undefined ? undefined : structuredClone(record)),
    write: (next) => {
      record = next === undefined ? undefined : structuredClone(next);
      return Promise.resolve();
    },
    update: (change) => {
      const next = change(record === undefined ? undefined : structuredClone(record));
      record = next === undefined ? undefined : structuredClone(next);
      return Promise.resolve(next);
    },
  };
}

/**
 * Checks a parsed record: only the fields and types unfold writes; anything else is no record.
 *
 * @param value The parsed file.
 * @param server The server it must belong to.
 * @param url The endpoint it must belong to.
 * @returns The record, or `undefined` when it is not one for this server and URL.
 *
 * @example Usage
 * ```ts
 * import { checkOAuthRecord } from "./store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const record = { server: "gh", url: "https://a.example/mcp", tokens: { access_token: "t", token_type: "Bearer" } };
 * equal(checkOAuthRecord(record, "gh", "https://a.example/mcp")?.tokens?.access_token, "t");
 * equal(checkOAuthRecord(record, "gh", "https://b.example/mcp"), undefined);
 * ```
 */
export function checkOAuthRecord(
  value: unknown,
  server: string,
  url: string,
): OAuthRecord | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (v.server !== server || v.url !== url) return undefined;
  const record: OAuthRecord = { server, url };
  const tokens = v.tokens as Record<string, unknown> | undefined;
  if (
    tokens !== undefined &&
    (typeof tokens !== "object" || tokens === null || typeof tokens.access_token !== "string" ||
      typeof tokens.token_type !== "string")
  ) return undefined;
  if (tokens !== undefined) record.tokens = tokens as unknown as StoredOAuthTokens;
  if (v.expiresAt !== undefined) {
    if (typeof v.expiresAt !== "number" || !Number.isFinite(v.expiresAt)) return undefined;
    record.expiresAt = v.expiresAt;
  }
  const client = v.client as Record<string, unknown> | undefined;
  if (client !== undefined) {
    if (typeof client !== "object" || client === null || typeof client.client_id !== "string") {
      return undefined;
    }
    record.client = client as unknown as StoredOAuthClientInformation;
  }
  return record;
}
