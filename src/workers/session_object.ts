/**
 * The Durable Object that holds one session (one per tenant and session name): storage in, a pure
 * transition, storage out; the cut answers it keeps for `more` (`kept_answers.ts`); an alarm
 * deletes the session, and what it keeps, once it has been idle for its time to live.
 *
 * @module
 */

import { DurableObject } from "cloudflare:workers";
import type { Ceiling } from "../bridge/ceiling.ts";
import { settingsFromEnv } from "../http/settings.ts";
import { type KeepOutcome, type KeptPart, randomId } from "../session/result_store.ts";
import { expireOrWait, SESSION_EXPIRY, ttlMs } from "./_expiry.ts";
import { keepBatch, type KeepCall, keptSize, readKeptPart } from "./kept_answers.ts";
import {
  type SessionDecision,
  type SessionInput,
  type SessionState,
  transition,
} from "../session/state.ts";

const STATE = SESSION_EXPIRY.key;
// An event that changes nothing but the session's last use.
const TOUCH: SessionInput = { event: { kind: "answer", tokens: 0, cut: false, more: false } };

/**
 * One session's state in SQLite-backed Durable Object storage. Its RPC methods run one at a time
 * (Durable Objects deliver no other event while storage is read or written), so a transition never
 * loses a concurrent update.
 */
export class SessionObject extends DurableObject<Record<string, unknown>> {
  #ttlMs(): number {
    return ttlMs(this.env);
  }

  /**
   * Applies one event, creating the session when absent, and pushes its expiry back.
   *
   * @param input The event and its catalogue hash.
   * @returns The session's decision.
   */
  async apply(input: SessionInput): Promise<SessionDecision> {
    const now = Date.now();
    const { state, decision } = transition(await this.read(), input, now);
    await this.ctx.storage.put(STATE, state);
    await this.ctx.storage.setAlarm(now + this.#ttlMs());
    return decision;
  }

  /**
   * Reads the session.
   *
   * @returns The state, or `undefined` when there is none or it has expired.
   */
  async read(): Promise<SessionState | undefined> {
    const state = await this.ctx.storage.get<SessionState>(STATE);
    if (state === undefined || Date.now() - state.updatedAt < this.#ttlMs()) return state;
    await this.ctx.storage.deleteAll();
    return undefined;
  }

  /**
   * Deletes the session.
   *
   * @returns Whether there was a live one.
   */
  async remove(): Promise<boolean> {
    const existed = (await this.read()) !== undefined;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    return existed;
  }

  /**
   * Keeps a batch of a cut answer's chunks (`kept_answers.ts`), within the session's bound
   * (`UNFOLD_MAX_KEPT_BYTES`). Keeping is a use of the session (an expired one is deleted
   * first, an absent one begins), so what is kept lives as long as the session.
   *
   * @param call The batch.
   * @returns The answer's id, or why it is not kept.
   */
  async keep(call: KeepCall): Promise<KeepOutcome> {
    // Keeping is a use of the session (one that was not there begins): what is kept lives as
    // long as the session.
    if (call.part === undefined) await this.apply(TOUCH);
    return await keepBatch(
      this.ctx.storage,
      call,
      settingsFromEnv(this.env).maxKeptBytes,
      randomId,
    );
  }

  /**
   * Reads a part of a kept answer, and records where the next one starts.
   *
   * @param scope The scope it is asked in.
   * @param id The answer's id.
   * @param part The part's number, from 2.
   * @param ceiling The token and byte ceilings (measured with the default estimate).
   * @returns The part, or `undefined` when it is not kept.
   */
  async part(
    scope: string,
    id: string,
    part: number,
    ceiling: Pick<Ceiling, "maxResultTokens" | "maxResultBytes">,
  ): Promise<KeptPart | undefined> {
    if (await this.read() === undefined) return undefined;
    return await readKeptPart(this.ctx.storage, scope, id, part, ceiling);
  }

  /**
   * The bytes and count of the cut answers the session keeps.
   *
   * @returns Their size.
   */
  async kept(): Promise<{ bytes: number; answers: number }> {
    return await keptSize(this.ctx.storage);
  }

  /** Deletes the session when it has been idle for its time to live; otherwise waits again. */
  async alarm(): Promise<void> {
    await expireOrWait(this.ctx.storage, SESSION_EXPIRY, this.#ttlMs());
  }
}
