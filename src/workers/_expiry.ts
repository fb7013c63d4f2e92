/**
 * When a Durable Object's storage expires: a session time to live after the last use its record
 * holds. The session and catalogue objects' alarms apply it, and so do the gateway Worker's
 * retired classes (`retired_objects.ts`), which must expire old objects as those would.
 *
 * @module
 */

import type { DurableObjectStorage } from "cloudflare:workers";
import { settingsFromEnv } from "../http/settings.ts";

/** Where an object's record is, and the time of its last use in it. */
export interface Expiry<T> {
  /** The record's storage key. */
  key: string;
  /** The time of the last use, in ms since the epoch. */
  lastUsed(record: T): number;
}

/** A catalogue object's: its `meta` record's `lastUsed`. */
export const CATALOG_EXPIRY: Expiry<{ lastUsed: number }> = {
  key: "meta",
  lastUsed: (meta) => meta.lastUsed,
};

/** A session object's: its `state` record's `updatedAt`. */
export const SESSION_EXPIRY: Expiry<{ updatedAt: number }> = {
  key: "state",
  lastUsed: (state) => state.updatedAt,
};

/**
 * The session time to live of a Worker's variables (`UNFOLD_SESSION_TTL_SECONDS`), in ms.
 *
 * @param env The Worker's bindings and variables.
 * @returns The time to live.
 */
export function ttlMs(env: Readonly<Record<string, unknown>>): number {
  return settingsFromEnv(env).sessionTtlSeconds * 1000;
}

/**
 * An alarm's work: deletes the object's storage once its record is a time to live old;
 * otherwise sets the alarm again for then.
 *
 * @param storage The object's storage.
 * @param expiry Where its record is and the time it holds.
 * @param ttl The time to live, in ms.
 */
export async function expireOrWait<T>(
  storage: DurableObjectStorage,
  expiry: Expiry<T>,
  ttl: number,
): Promise<void> {
  const record = await storage.get<T>(expiry.key);
  if (record === undefined) return;
  const at = expiry.lastUsed(record) + ttl;
  if (Date.now() >= at) await storage.deleteAll();
  else await storage.setAlarm(at);
}
