/**
 * The session store of the Workers deployment: one Durable Object per (tenant, session), reached
 * through a namespace binding.
 *
 * @module
 */

import type { SessionDecision, SessionInput, SessionState } from "../session/state.ts";
import { type SessionKey, type SessionStore, SessionStoreError } from "../session/store.ts";

/** The RPC surface of the session Durable Object (see `session_object.ts`). */
export interface SessionObjectStub {
  apply(input: SessionInput): Promise<SessionDecision>;
  read(): Promise<SessionState | undefined>;
  remove(): Promise<boolean>;
}

/** The part of a Durable Object namespace binding the store uses. */
export interface SessionNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): SessionObjectStub;
}

/** Sessions in Durable Objects; a failed call to one is a {@linkcode SessionStoreError}. */
export class DurableSessionStore implements SessionStore {
  #namespace: SessionNamespace;

  /**
   * Makes the store.
   *
   * @param namespace The Durable Object namespace binding of `SessionObject`.
   */
  constructor(namespace: SessionNamespace) {
    this.#namespace = namespace;
  }

  /**
   * Applies one event in the session's Durable Object.
   *
   * @param key The session.
   * @param input The event and its catalogue hash.
   * @returns The session's decision.
   */
  apply(key: SessionKey, input: SessionInput): Promise<SessionDecision> {
    return this.#call(key, (stub) => stub.apply(input));
  }

  /**
   * Reads a session.
   *
   * @param key The session.
   * @returns The state, or `undefined`.
   */
  get(key: SessionKey): Promise<SessionState | undefined> {
    return this.#call(key, (stub) => stub.read());
  }

  /**
   * Deletes a session.
   *
   * @param key The session.
   * @returns Whether there was one.
   */
  delete(key: SessionKey): Promise<boolean> {
    return this.#call(key, (stub) => stub.remove());
  }

  async #call<T>(key: SessionKey, call: (stub: SessionObjectStub) => Promise<T>): Promise<T> {
    const ns = this.#namespace;
    try {
      return await call(ns.get(ns.idFromName(JSON.stringify([key.tenant, key.session]))));
    } catch (e) {
      throw new SessionStoreError(`Session object failed: ${(e as Error)?.message ?? e}`, {
        cause: e,
      });
    }
  }
}
