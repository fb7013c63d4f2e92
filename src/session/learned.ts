/**
 * Search that learns from the user's own runs: each session's recent searches are remembered, and
 * a tool the session then executes successfully is recorded against their words in the prior of
 * the session's scope (face, profile and tenant: never shared across them), which later searches
 * in that scope are lifted by (`../ranking/learned.ts`). Only executes that came through the
 * bridge count (`origin: "bridge"`); a pinned tool's call or a script's internal calls do not, and
 * neither do failed executes (the caller records only successes). Where a prior is kept is the
 * host's {@linkcode LearnedStore} (the Deno one writes files under `UNFOLD_CACHE_DIR`); without
 * one, it lives as long as the process.
 *
 * Doors (each records through {@linkcode Learning.prototype.executed} and searches through
 * {@linkcode Learning.prototype.prior}): the gateway's bridge calls (`src/gateway/tool_calls.ts`)
 * and the HTTP API's sessions (`POST /v1/route` searches, `POST /v1/result` successes). Bounded:
 * at most `maxScopes` priors and `maxSessions` sessions in memory, each session its last
 * {@linkcode RECENT_SEARCHES} searches of {@linkcode MAX_LEARNED_QUERY_WORDS} words.
 *
 * @module
 */

import { LearnedRuns, learnedWords, MAX_LEARNED_QUERY_WORDS } from "../ranking/learned.ts";

/** Whose prior: one per face, profile and tenant. */
export interface LearnedScope {
  /** The face: `gateway` or `http`. */
  face: "gateway" | "http";
  /** The profile served (`""` for none). */
  profile: string;
  /** The tenant (a hash of the caller's token, or `""`). */
  tenant: string;
}

/** Where an execute came from: only the bridge's own executes teach search. */
export type LearnOrigin = "bridge" | "pinned" | "script";

/** Where priors are kept between processes. */
export interface LearnedStore {
  /**
   * Reads a scope's prior.
   *
   * @param scope The scope.
   * @returns The prior, or `undefined` when none is kept (or what is kept is not one).
   */
  read(scope: LearnedScope): Promise<LearnedRuns | undefined>;
  /**
   * Keeps a scope's prior (taking in what another process kept meanwhile).
   *
   * @param scope The scope.
   * @param runs The prior; merged with the stored one in place.
   */
  write(scope: LearnedScope, runs: LearnedRuns): Promise<void>;
  /**
   * A token that changes when the store was cleared (`unfold forget`): a prior read before is
   * then dropped, not written back. Optional.
   *
   * @returns The token.
   */
  generation?(): Promise<string>;
}

/** How many of a session's searches an execute is recorded against (those since the last one). */
export const RECENT_SEARCHES = 3;

/** Options of {@linkcode Learning}. */
export interface LearningOptions {
  /** The most sessions whose recent searches are remembered. @default {1000} */
  maxSessions?: number;
  /** The most scopes whose priors are kept in memory. @default {64} */
  maxScopes?: number;
  /** Told once when the store fails (the prior then lives in memory only). @default {nothing} */
  log?: (line: string) => void;
}

interface SessionSearches {
  // The searches since the session's last execute (its last RECENT_SEARCHES).
  current: string[][];
  // The searches the last execute was recorded against: a second execute after them shares them.
  last: string[][];
}

interface Loaded {
  runs: LearnedRuns;
  generation: string | undefined;
}

/**
 * The learning of one process: priors by scope, recent searches by session.
 *
 * @example Usage
 * ```ts
 * import { Learning } from "./learned.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const learning = new Learning(undefined);
 * const scope = { face: "http" as const, profile: "", tenant: "" };
 * learning.searched(scope, "s1", "ship the release notes");
 * await learning.executed(scope, "s1", "repo/publish", "bridge");
 * const catalog = new McpCatalog([
 *   { server: "repo", name: "publish", description: "Publish a version", inputSchema: { type: "object" } },
 *   { server: "repo", name: "list_notes", description: "List the notes", inputSchema: { type: "object" } },
 * ]);
 * deepEqual(catalog.search("release notes", 5).map((m) => m.id), ["repo/list_notes"]);
 * const learned = await learning.prior(scope);
 * deepEqual(catalog.search("release notes", 5, { learned }).map((m) => m.id), ["repo/list_notes", "repo/publish"]);
 * ```
 */
export class Learning {
  readonly #store: LearnedStore | undefined;
  readonly #maxSessions: number;
  readonly #maxScopes: number;
  readonly #log: ((line: string) => void) | undefined;
  readonly #priors = new Map<string, Promise<Loaded>>();
  readonly #sessions = new Map<string, SessionSearches>();
  readonly #writing = new Map<string, Promise<void>>();
  readonly #dirty = new Set<string>();
  #failed = false;

  /**
   * Makes the learning of one process.
   *
   * @param store Where priors are kept, or `undefined` for memory only.
   * @param options Bounds and the log.
   */
  constructor(store: LearnedStore | undefined, options: LearningOptions = {}) {
    this.#store = store;
    this.#maxSessions = options.maxSessions ?? 1000;
    this.#maxScopes = options.maxScopes ?? 64;
    this.#log = options.log;
  }

  /**
   * A scope's prior, read once (then kept in memory; read again after the store was cleared).
   *
   * @param scope The scope.
   * @returns The prior (empty when none was kept).
   */
  async prior(scope: LearnedScope): Promise<LearnedRuns> {
    const key = scopeKey(scope);
    let loading = this.#priors.get(key);
    if (loading !== undefined) {
      const loaded = await loading;
      const now = await this.#generation();
      if (now === loaded.generation) {
        this.#touch(this.#priors, key, loading);
        return loaded.runs;
      }
      this.#priors.delete(key);
    }
    loading = this.#load(scope);
    this.#touch(this.#priors, key, loading);
    while (this.#priors.size > this.#maxScopes) this.#evictOldest(this.#priors);
    return (await loading).runs;
  }

  /**
   * Remembers a search of a session: an execute that follows is recorded against its words.
   *
   * @param scope The session's scope.
   * @param session The session's name.
   * @param query The search's query, as it was sent.
   */
  searched(scope: LearnedScope, session: string, query: string): void {
    const words = learnedWords(query);
    if (words.length === 0) return;
    const key = `${scopeKey(scope)}\u0000${session}`;
    const known = this.#sessions.get(key) ?? { current: [], last: [] };
    known.current.push(words.slice(0, MAX_LEARNED_QUERY_WORDS));
    if (known.current.length > RECENT_SEARCHES) known.current.shift();
    this.#touch(this.#sessions, key, known);
    while (this.#sessions.size > this.#maxSessions) this.#evictOldest(this.#sessions);
  }

  /**
   * Records a successful execute of a session against its searches since its last execute (or,
   * for a second execute after the same searches, those): their words now lift the tool.
   *
   * @param scope The session's scope.
   * @param session The session's name.
   * @param tool The executed tool's id.
   * @param origin Where the execute came from: only `bridge` is recorded.
   * @returns Whether it was recorded.
   */
  async executed(
    scope: LearnedScope,
    session: string,
    tool: string,
    origin: LearnOrigin,
  ): Promise<boolean> {
    if (origin !== "bridge") return false;
    const key = `${scopeKey(scope)}\u0000${session}`;
    const known = this.#sessions.get(key);
    if (known === undefined) return false;
    const searches = known.current.length > 0 ? known.current : known.last;
    if (searches.length === 0) return false;
    if (known.current.length > 0) {
      known.last = known.current;
      known.current = [];
    }
    const runs = await this.prior(scope);
    for (const words of searches) runs.record(words, tool);
    this.#persist(scope, runs);
    return true;
  }

  /** Resolves once every write started so far has ended (tests, a closing process). */
  async settled(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all([...this.#writing.values()]);
  }

  async #load(scope: LearnedScope): Promise<Loaded> {
    const generation = await this.#generation();
    let runs: LearnedRuns | undefined;
    try {
      runs = await this.#store?.read(scope);
    } catch (error) {
      this.#fail(error);
    }
    return { runs: runs ?? new LearnedRuns(), generation };
  }

  async #generation(): Promise<string | undefined> {
    try {
      return await this.#store?.generation?.();
    } catch {
      return undefined;
    }
  }

  // One write at a time per scope; runs recorded meanwhile go with the next one.
  #persist(scope: LearnedScope, runs: LearnedRuns): void {
    const store = this.#store;
    if (store === undefined) return;
    const key = scopeKey(scope);
    if (this.#writing.has(key)) {
      this.#dirty.add(key);
      return;
    }
    const writing = (async () => {
      do {
        this.#dirty.delete(key);
        try {
          await store.write(scope, runs);
        } catch (error) {
          this.#fail(error);
        }
      } while (this.#dirty.has(key));
    })().finally(() => this.#writing.delete(key));
    this.#writing.set(key, writing);
  }

  #fail(error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#log?.(
      `cannot keep what search learned (${
        error instanceof Error ? error.message : String(error)
      }): it lasts until this process ends`,
    );
  }

  #touch<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
  }

  #evictOldest<V>(map: Map<string, V>): void {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}

function scopeKey(scope: LearnedScope): string {
  return `${scope.face}\u0000${scope.profile}\u0000${scope.tenant}`;
}
