/**
 * The Durable Object that holds one session (one per tenant and session name): storage in, a pure
 * transition, storage out; an alarm deletes the session once it has been idle for its time to live.
 *
 * @module
 */

import { DurableObject } from "cloudflare:workers";
import { expireOrWait, SESSION_EXPIRY, ttlMs } from "./_expiry.ts";
import {
  type SessionDecision,
  type SessionInput,
  type SessionState,
  transition,
} from "../session/state.ts";

const STATE = SESSION_EXPIRY.key;

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

  /** Deletes the session when it has been idle for its time to live; otherwise waits again. */
  async alarm(): Promise<void> {
    await expireOrWait(this.ctx.storage, SESSION_EXPIRY, this.#ttlMs());
  }
}
