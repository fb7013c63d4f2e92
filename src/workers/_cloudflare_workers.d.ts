/**
 * The narrow part of the `cloudflare:workers` module that unfold uses, for `deno check` (which does
 * not know Workers' globals; `wrangler types` output conflicts with Deno's DOM types). deno.json
 * maps `cloudflare:workers` here; wrangler bundles the real module.
 *
 * @module
 */

/** The storage of a Durable Object (the part unfold uses). */
export interface DurableObjectStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  get<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  put<T>(key: string, value: T): Promise<void>;
  put<T>(entries: Record<string, T>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  deleteAll(): Promise<void>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number | Date): Promise<void>;
  deleteAlarm(): Promise<void>;
}

/** The state of a Durable Object instance. */
export interface DurableObjectState {
  readonly storage: DurableObjectStorage;
}

/** The base class of Durable Objects with RPC methods. */
export declare abstract class DurableObject<Env = unknown> {
  protected ctx: DurableObjectState;
  protected env: Env;
  constructor(ctx: DurableObjectState, env: Env);
}

/** The Worker's bindings and variables, readable while the module is evaluated (startup). */
export declare const env: Record<string, unknown> | undefined;
