/**
 * The session store of the Workers deployment: one Durable Object per (tenant, session), reached
 * through a namespace binding. It also keeps each session's cut answers, in the same object, the
 * text sent in batches that fit an RPC message.
 *
 * @module
 */

import type { Ceiling } from "../bridge/ceiling.ts";
import {
  type KeepOutcome,
  type KeptAnswer,
  keptBytes,
  type KeptPart,
  PART_START_BYTES,
  type ResultKey,
  type ResultStore,
} from "../session/result_store.ts";
import type { SessionDecision, SessionInput, SessionState } from "../session/state.ts";
import { type SessionKey, type SessionStore, SessionStoreError } from "../session/store.ts";
import { CHUNKS_PER_CALL, chunksOf, type KeepCall } from "./kept_answers.ts";

/** The RPC surface of the session Durable Object (see `session_object.ts`). */
export interface SessionObjectStub {
  apply(input: SessionInput): Promise<SessionDecision>;
  read(): Promise<SessionState | undefined>;
  remove(): Promise<boolean>;
  keep(call: KeepCall): Promise<KeepOutcome>;
  part(
    scope: string,
    id: string,
    part: number,
    ceiling: Pick<Ceiling, "maxResultTokens" | "maxResultBytes">,
  ): Promise<KeptPart | undefined>;
}

/** The part of a Durable Object namespace binding the store uses. */
export interface SessionNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): SessionObjectStub;
}

/**
 * Sessions in Durable Objects, and the cut answers each keeps; a failed call to one is a
 * {@linkcode SessionStoreError}. Parts are measured there with the default estimate.
 */
export class DurableSessionStore implements SessionStore, ResultStore {
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

  /**
   * Keeps a cut answer in its session's object, its text in batches of chunks.
   *
   * @param key Whose.
   * @param kept The answer's text, layout and where part 2 starts.
   * @returns Its id, or why it is not kept.
   */
  async keep(key: ResultKey, kept: KeptAnswer): Promise<KeepOutcome> {
    const scope = key.scope ?? "";
    const chunks = chunksOf(kept.text);
    const bytes = keptBytes(kept) + PART_START_BYTES;
    const answer = { layout: kept.layout, next: kept.next, chunks: chunks.length, bytes };
    const first = await this.#call(
      key,
      (stub) => stub.keep({ scope, answer, chunks: chunks.slice(0, CHUNKS_PER_CALL) }),
    );
    if (!first.ok) return first;
    for (let offset = CHUNKS_PER_CALL; offset < chunks.length; offset += CHUNKS_PER_CALL) {
      const batch = chunks.slice(offset, offset + CHUNKS_PER_CALL);
      const more = await this.#call(
        key,
        (stub) => stub.keep({ scope, part: { id: first.id, offset }, chunks: batch }),
      );
      if (!more.ok) return more;
    }
    return first;
  }

  /**
   * Reads a part of a kept answer in its session's object.
   *
   * @param key Whose.
   * @param id The answer's id.
   * @param part The part's number, from 2.
   * @param ceiling The ceilings (the object measures with the default estimate).
   * @returns The part, or `undefined` when it is not kept.
   */
  part(key: ResultKey, id: string, part: number, ceiling: Ceiling): Promise<KeptPart | undefined> {
    const { maxResultTokens, maxResultBytes } = ceiling;
    return this.#call(
      key,
      (stub) => stub.part(key.scope ?? "", id, part, { maxResultTokens, maxResultBytes }),
    );
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
