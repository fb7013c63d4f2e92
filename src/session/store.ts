/**
 * Where session state lives: the {@linkcode SessionStore} strategy (in memory for Deno, a Durable
 * Object per session on Workers). A store applies {@linkcode transition} atomically per session.
 *
 * @module
 */

import type { SessionDecision, SessionInput, SessionState } from "./state.ts";

/** Which session: the tenant (a hash of the caller's token, or `""`) and the session name. */
export interface SessionKey {
  /** The tenant's namespace. */
  tenant: string;
  /** The session name, `^[A-Za-z0-9._:-]{1,128}$`. */
  session: string;
}

/**
 * A session store. Contract (checked by `test/_contracts/session_store_contract.ts`): `apply` runs
 * the transition atomically per key (no lost update under concurrency) and creates the session when
 * absent; sessions of different keys never see each other; `get` of an unknown or expired session
 * is `undefined`; `delete` says whether there was a session; idle sessions expire after the store's
 * time to live.
 */
export interface SessionStore {
  /**
   * Applies one event to a session, creating it when absent.
   *
   * @param key The session.
   * @param input The event and its catalogue hash.
   * @returns The session's decision.
   */
  apply(key: SessionKey, input: SessionInput): SessionDecision | Promise<SessionDecision>;
  /**
   * Reads a session.
   *
   * @param key The session.
   * @returns The state, or `undefined` when there is none.
   */
  get(key: SessionKey): SessionState | undefined | Promise<SessionState | undefined>;
  /**
   * Deletes a session.
   *
   * @param key The session.
   * @returns Whether there was one.
   */
  delete(key: SessionKey): boolean | Promise<boolean>;
}

/** The default time to live of an idle session: 24 hours, in seconds. */
export const DEFAULT_SESSION_TTL_SECONDS = 86_400;

/** The session-name rule of the HTTP API. */
export const SESSION_NAME = /^[A-Za-z0-9._:-]{1,128}$/;

/** Thrown by a session store that cannot be reached; the HTTP API answers 503 `session_store_unavailable`. *
 * @example Usage
 * ```ts
 * import { SessionStoreError } from "./store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const error = new SessionStoreError("Session object failed", { cause: new Error("reset") });
 * equal(error.name, "SessionStoreError");
 * ```
 */
export class SessionStoreError extends Error {
  /**
   * Makes the error.
   *
   * @param message What failed.
   * @param options The cause.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SessionStoreError";
  }
}

/**
 * What `routeInSession` returns (never throws) for an event that could not be recorded within
 * `MAX_SESSION_BYTES` (`src/limits.ts`) even after the session forgot every schema it had sent. A full session forgets its oldest records
 * instead, so no event kind reaches this today; the HTTP API keeps 409 `session_full` for it.
 *
 * @example Usage
 * ```ts
 * import { SessionFullError } from "./store.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * const error = new SessionFullError("chat-1", 70_000, 65_536);
 * equal(error.limit, 65_536);
 * match(error.message, /MAX_SESSION_BYTES/);
 * ```
 */
export class SessionFullError extends Error {
  /** The bytes the state would have taken. */
  readonly bytes: number;
  /** The most bytes a session may take. */
  readonly limit: number;

  /**
   * Makes the error.
   *
   * @param session The session name.
   * @param bytes The bytes the state would have taken.
   * @param limit The most bytes a session may take.
   */
  constructor(session: string, bytes: number, limit: number) {
    super(
      `Cannot record in session ${JSON.stringify(session)}: its state would take ${bytes} bytes, ` +
        `more than ${limit} (MAX_SESSION_BYTES); delete the session or start a new one`,
    );
    this.name = "SessionFullError";
    this.bytes = bytes;
    this.limit = limit;
  }
}
