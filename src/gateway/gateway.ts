/**
 * The gateway: unfold as one MCP server over the servers a user already has. It answers
 * `tools/list` (the bridge and the pinned tools) and `tools/call` (bridge actions within a
 * session or by the stateless rules; executes forwarded upstream with cancellation and progress),
 * and follows upstream changes (a new catalogue is a new generation). Every answer it gives is
 * within the result ceiling, `more` read from the session (`bounded.ts`). What it serves is built in
 * `gateway_state.ts`, its calls are answered in `tool_calls.ts`, its log lines written by
 * `gateway_log.ts`. Free of any MCP SDK: the server faces in `src/gateway/faces/http.ts` wire it to the
 * protocol.
 *
 * @module
 */

import { type Hasher, sha256Hex } from "../canonical_json.ts";
import { deadline, within } from "../utils/deadline.ts";
import { HOST_ARGUMENTS, parseBridgeCall, type ParsedCall } from "../bridge/parse.ts";
import type { McpCatalog } from "../catalog.ts";
import type { RankerFactory } from "../ranking/ranker.ts";
import type { SessionStore } from "../session/store.ts";
import type { CallToolResultLike } from "../tool_result.ts";
import type { GatewayOptions } from "./config/parse.ts";
import { GatewayLog } from "./gateway_log.ts";
import { buildState, type GatewayState } from "./gateway_state.ts";
import type { MissingPin } from "./pinned_check.ts";
import { DISCOVERY_ACTIONS, type Presentation, type ToolDefinition } from "./presentation.ts";
import { type ClientIdentity, type KnownHost, knownHost } from "./host_profiles.ts";
import { errorAction } from "../bridge/action.ts";
import { renderError } from "../bridge/render.ts";
import { actionResult } from "./results.ts";
import { isRecord } from "../utils/record.ts";
import type { Profile } from "./config/profiles.ts";
import { FIRST_LISTING_WAIT_MS, heldOnSnapshot, unlistedNeeded } from "./pool/start_wait.ts";
import { type CallContext, ToolCalls } from "./tool_calls.ts";
import type { TrustSource } from "./trust/policy.ts";
import type { Unapproved } from "./trust/lock.ts";
import type { UpstreamPool, UpstreamStatus } from "./pool/upstreams.ts";
import type { Learning } from "../session/learned.ts";
import type { Sandbox } from "../code_mode/sandbox.ts";
import type { ResultStore } from "../session/result_store.ts";
import { GatewayBounds } from "./bounded.ts";

export type { CallContext } from "./tool_calls.ts";
export type { TrustSource } from "./trust/policy.ts";

/** The outcome of a `tools/call`: a result, or a name that is no tool of the gateway. */
export type CallOutcome =
  | { ok: true; result: CallToolResultLike }
  | { ok: false; message: string };

/** Options of {@linkcode Gateway.open}. */
export interface GatewayDeps {
  /** The `unfold` block. */
  options: GatewayOptions;
  /** Where session state lives. */
  store: SessionStore;
  /**
   * Hashes the catalogue and schemas.
   * @default {sha256Hex}
   */
  hash?: Hasher;
  /**
   * Receives one line for each tool newly quarantined or not approved, each pinned tool found
   * missing after the gateway opened (see {@linkcode Gateway.missingPins} for those at open), and
   * each failure to follow a change.
   * @default {nothing}
   */
  log?: (line: string) => void;
  /**
   * Ranks `search` (the Deno command passes the one with word vectors).
   * @default {lexicalRanker}
   */
  ranker?: RankerFactory;
  /**
   * The profile this gateway serves: only its tools exist for its clients.
   * @default {every tool}
   */
  profile?: Profile;
  /**
   * The definitions the user approved, read again at every rebuild.
   * @default {trust off}
   */
  trust?: TrustSource;
  /**
   * Whether each tool not approved gets its own `log` line; `unfold inspect` says `false`, as its
   * report lists them already.
   * @default {true}
   */
  logUnapproved?: boolean;
  /**
   * Whether the read-only discovery tool (search and describe) is listed beside the bridge;
   * `false` lists the bridge alone (one-tool mode).
   * @default {true}
   */
  discovery?: boolean;
  /**
   * What search learns from the runs of this gateway's sessions (shared by every profile's
   * gateway of a process: each learns in its own scope). `learn: false` in the options turns it
   * off. @default {none: search does not learn}
   */
  learning?: Learning;
  /**
   * Runs the scripts of `run` (code mode, `code_runs.ts`): the bridge offers `run` only with one.
   * @default {none: no run}
   */
  sandbox?: Sandbox;
  /**
   * Where the rest of a cut answer is kept for `more` (per session and profile).
   * @default {the store, when it keeps them; else nothing is kept}
   */
  results?: ResultStore;
}

// One listener of tool changes: who it is, and what it was last told.
interface Listener {
  client?: () => ClientIdentity | undefined;
  // The tools/list it was served when it began listening (before every server had listed).
  served: string;
  // The steady key it was last told of; undefined until every server has listed.
  key?: string;
}

/**
 * The gateway over a pool of upstreams.
 *
 * @example Usage
 * ```ts
 * import { Gateway } from "./gateway.ts";
 * import { openLivePool } from "./pool/live_pool.ts";
 * import { connectTransport } from "../mcp/client.ts";
 * import { MemorySessionStore } from "../session/memory_store.ts";
 * import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
 * import { equal } from "node:assert/strict";
 *
 * const pool = await openLivePool([{ server: "demo", url: "http://demo.invalid/mcp", headers: {} }], async (config) => {
 *   const server = new McpServer({ name: "demo", version: "1.0.0" });
 *   server.registerTool("hello", { description: "Says hello" }, () => ({ content: [{ type: "text", text: "Hello!" }] }));
 *   const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 *   await server.connect(serverSide);
 *   return connectTransport({ server: config.server, transport: clientSide });
 * });
 * const gateway = await Gateway.open(pool, { options: { pinned: [] }, store: new MemorySessionStore() });
 * equal(gateway.tools()[0]?.name, "mcp");
 * const outcome = await gateway.call("mcp", { action: "execute", name: "demo/hello" });
 * equal(outcome.ok && outcome.result.content?.[0] && (outcome.result.content[0] as { text: string }).text, "Hello!");
 * await gateway.close();
 * ```
 */
export class Gateway {
  readonly #pool: UpstreamPool;
  readonly #deps: GatewayDeps;
  readonly #hash: Hasher;
  #state: GatewayState;
  #listeners = new Map<() => void, Listener>();
  #rebuilding: Promise<void> = Promise.resolve();
  #unsubscribe: () => void;
  readonly #log: GatewayLog | undefined;
  #queued = false;
  readonly #calls: ToolCalls;
  // Every answer within the result ceiling, the rest kept for `more` (`bounded.ts`).
  readonly #bounds: GatewayBounds;
  // Resolved (and replaced) after each rebuild: what a call waiting for a first listing awaits.
  #rebuilt = Promise.withResolvers<void>();
  // Servers a call waited for in vain (FIRST_LISTING_WAIT_MS): later calls no longer wait for them.
  readonly #waitedInVain = new Set<string>();

  private constructor(pool: UpstreamPool, deps: GatewayDeps, state: GatewayState) {
    this.#pool = pool;
    this.#deps = deps;
    this.#hash = deps.hash ?? sha256Hex;
    this.#calls = new ToolCalls({
      pool,
      store: deps.store,
      options: deps.options,
      hash: this.#hash,
      ...(deps.log === undefined ? {} : { log: deps.log }),
      ...(deps.trust === undefined ? {} : { trust: deps.trust }),
      settled: () => this.settled(),
      ...(deps.sandbox === undefined ? {} : { sandbox: deps.sandbox }),
      ...(deps.learning === undefined
        ? {}
        : { learning: { learning: deps.learning, profile: deps.profile?.name ?? "" } }),
    });
    this.#bounds = new GatewayBounds({
      store: deps.store,
      scope: deps.profile?.name ?? "",
      ...(deps.results === undefined ? {} : { results: deps.results }),
    });
    this.#state = state;
    this.#log = deps.log === undefined ? undefined : new GatewayLog({ ...deps, log: deps.log });
    this.#log?.opened(state, pool.tools());
    // Changes that arrive while a rebuild runs are folded into one next rebuild: a storm of
    // list_changed costs at most two rebuilds at a time, not one per notification.
    this.#unsubscribe = pool.onChange(() => this.refresh());
  }

  /**
   * Rebuilds the catalogue from the upstreams' tools as they are now: after an upstream change,
   * or when the approved definitions changed.
   *
   * @returns Resolves once the rebuild is done.
   */
  refresh(): Promise<void> {
    if (this.#queued) return this.#rebuilding;
    this.#queued = true;
    this.#rebuilding = this.#rebuilding.then(() => {
      this.#queued = false;
      return this.#rebuild();
    }).catch((error) => this.#deps.log?.(`cannot follow an upstream change: ${String(error)}`));
    return this.#rebuilding;
  }

  /**
   * Builds the gateway over a pool whose upstreams have connected (or failed).
   *
   * @param pool The upstreams.
   * @param deps The `unfold` options, the session store and the hash.
   * @returns The gateway. Tools the catalogue refuses are quarantined: left out, and named in
   * the overview, the statuses and the log.
   */
  static async open(pool: UpstreamPool, deps: GatewayDeps): Promise<Gateway> {
    const state = await buildState(pool, deps, deps.hash ?? sha256Hex);
    return new Gateway(pool, deps, state);
  }

  /** The catalogue of every upstream tool, as it is now. */
  get catalog(): McpCatalog {
    return this.#state.catalog;
  }

  /** The hash of the catalogue: a new one starts a new session generation. */
  get catalogHash(): string {
    return this.#state.catalogHash;
  }

  /** What the host is shown, as it is now. */
  get presentation(): Presentation {
    return this.#state.presentation;
  }

  /**
   * The pinned ids that their server's listing lacks, as they are now (each is also on the
   * statuses, and said on the log when it appears after the gateway opened).
   */
  missingPins(): MissingPin[] {
    return this.#state.missingPins.map((pin) => ({ ...pin }));
  }

  /** The tools whose definitions the user has not approved, as they are now. */
  unapproved(): Unapproved[] {
    return [...this.#state.unapproved];
  }

  /** The upstreams' states. */
  statuses(): UpstreamStatus[] {
    return this.#state.statuses.map((status) => ({ ...status }));
  }

  /**
   * The known host a client is (by its `clientInfo`, else by the profile served).
   *
   * @param client The client, when it said who it is.
   * @returns The host, or `undefined`.
   */
  hostOf(client?: ClientIdentity): KnownHost | undefined {
    return knownHost(client, this.#deps.profile?.name);
  }

  /**
   * What a client is shown.
   *
   * @param client The client, when it said who it is.
   * @returns The presentation for its host (an unknown host's by default).
   */
  presentationFor(client?: ClientIdentity): Presentation {
    return this.#state.presentationFor(this.hostOf(client));
  }

  /**
   * The server instructions: the protocol, or the overview where the client's host (or
   * `overviewIn`) puts it.
   *
   * @param client The client, when it said who it is.
   */
  instructions(client?: ClientIdentity): string {
    return this.presentationFor(client).instructions;
  }

  /**
   * The `tools/list` answer: the bridge tool, the discovery tool, then the pinned tools.
   *
   * @param client The client, when it said who it is.
   */
  tools(client?: ClientIdentity): ToolDefinition[] {
    return this.presentationFor(client).tools;
  }

  /**
   * Listens for changes of the `tools/list` answer a client is given (the pinned set, or the
   * bridge's overview): the faces send `notifications/tools/list_changed`. None is announced
   * before every upstream has had its first listing (listed, or failed to), then at most one for
   * all that changed meanwhile, and none for a server that only restarts.
   *
   * @param listener Called after each change.
   * @param client Who listens, when known.
   * @returns A function that stops listening.
   */
  onToolsChanged(listener: () => void, client?: () => ClientIdentity | undefined): () => void {
    const host = this.hostOf(client?.());
    const state = this.#state;
    this.#listeners.set(listener, {
      ...(client === undefined ? {} : { client }),
      served: JSON.stringify(state.presentationFor(host).tools),
      ...(state.allListed ? { key: state.steadyKey(host) } : {}),
    });
    return () => void this.#listeners.delete(listener);
  }

  /** Resolves once every upstream change seen so far is in the catalogue. */
  settled(): Promise<void> {
    return this.#rebuilding;
  }

  /**
   * Answers one `tools/call`. Model mistakes and upstream failures are results with `isError`,
   * naming the tool and its server; only a name that is no tool of the gateway is not a result.
   *
   * @param name The tool's name: the bridge or a pinned tool.
   * @param args Its arguments.
   * @param context The session, cancellation and progress.
   * @returns The outcome.
   */
  async call(name: string, args: unknown, context: CallContext = {}): Promise<CallOutcome> {
    const state = this.#state;
    const bridgeName = state.injector.config.bridgeName;
    // The discovery tool's name depends on the client's host: looked up only when the name is not
    // the bridge's (an execute never needs it).
    const discovery = () => state.presentationFor(this.hostOf(context.client)).discovery?.name;
    if (name === bridgeName || name === discovery()) {
      if (name !== bridgeName) {
        const refused = readOnlyRefusal(args, name, bridgeName);
        if (refused !== undefined) return { ok: true, result: refused };
      }
      // Parsed once, here: every step after reads the parse (none parses the arguments again).
      const parsed = parseBridgeCall(args, state.injector.config);
      const config = state.injector.config;
      const more = await this.#bounds.more(parsed, config, context.session);
      if (more !== undefined) return { ok: true, result: more };
      const listed = await this.#afterFirstListings(parsed, context.signal);
      const result = await this.#calls.bridge(listed, args, parsed, context);
      return { ok: true, result: await this.#bounds.bound(result, config, context.session, true) };
    }
    const pinned = state.presentation.pinned.get(name);
    if (pinned === undefined) {
      return {
        ok: false,
        message: `There is no tool ${JSON.stringify(name)} on this gateway: use this server's ${
          JSON.stringify(bridgeName)
        } tool to search, describe and execute the upstream tools`,
      };
    }
    const input = withoutHostArguments(isRecord(args) ? args : {}, pinned.inputSchema);
    const result = await this.#calls.forward(pinned, input, context, false);
    const config = state.injector.config;
    return { ok: true, result: await this.#bounds.bound(result, config, context.session, false) };
  }

  /** Stops following the upstreams and closes them. */
  async close(): Promise<void> {
    this.#unsubscribe();
    this.#listeners.clear();
    await this.#pool.close();
  }

  // A bridge call that needs servers which have not listed yet waits for their first listing,
  // within the call's timeout and FIRST_LISTING_WAIT_MS, then is answered by the state then (whose
  // statuses name any server still starting). Until the host cancels it, too. So does one that
  // names a tool held on its server's snapshot: what is held is said of the live definition.
  async #afterFirstListings(parsed: ParsedCall, signal?: AbortSignal): Promise<GatewayState> {
    // Every server listed and nothing held: nothing to wait for (the common case, in one look).
    if (this.#state.unlisted.length === 0 && this.#state.held.size === 0) return this.#state;
    const waiting = () => this.#state.unlisted.filter((server) => !this.#waitedInVain.has(server));
    const needs = () => {
      const { catalog, held, statuses } = this.#state;
      return [
        ...unlistedNeeded(parsed, catalog, waiting()),
        ...heldOnSnapshot(parsed, held, statuses).filter((server) =>
          !this.#waitedInVain.has(server)
        ),
      ];
    };
    if (needs().length === 0) return this.#state;
    const timeout = this.#deps.options.callTimeoutMs;
    const ms = typeof timeout === "number"
      ? Math.min(timeout, FIRST_LISTING_WAIT_MS)
      : FIRST_LISTING_WAIT_MS;
    const stop = deadline(ms, signal)!;
    for (let needed = needs(); needed.length > 0; needed = needs()) {
      const waited = await within(this.#rebuilt.promise, null, stop);
      if (waited.ok) continue;
      // The time ran out (not the caller's cancellation): these are not waited for again.
      if (signal?.aborted !== true) { for (const server of needed) this.#waitedInVain.add(server); }
      break;
    }
    return this.#state;
  }

  async #rebuild(): Promise<void> {
    const state = this.#state = await buildState(this.#pool, this.#deps, this.#hash);
    const rebuilt = this.#rebuilt;
    this.#rebuilt = Promise.withResolvers<void>();
    rebuilt.resolve();
    this.#log?.rebuilt(state, this.#pool.tools());
    // Nothing is announced while servers are still giving their first listing: a host that
    // re-lists at each announcement may send its model's request in between (Claude Code did).
    if (!state.allListed) return;
    for (const [listener, heard] of [...this.#listeners]) {
      const host = this.hostOf(heard.client?.());
      const key = state.steadyKey(host);
      const changed = heard.key === undefined
        ? JSON.stringify(state.presentationFor(host).tools) !== heard.served
        : key !== heard.key;
      heard.key = key;
      if (changed) listener();
    }
  }
}

// The discovery tool searches and describes; anything else is the bridge's to do.
function readOnlyRefusal(args: unknown, name: string, bridgeName: string) {
  let input = args;
  if (typeof input === "string") {
    try {
      input = JSON.parse(input);
    } catch {
      return undefined; // the bridge's parser says what is wrong
    }
  }
  const action = isRecord(input) ? input.action : undefined;
  if (typeof action !== "string" || DISCOVERY_ACTIONS.includes(action)) return undefined;
  const message = `${JSON.stringify(name)} only searches and describes (read-only): ${
    action === "execute"
      ? `execute with this server's ${JSON.stringify(bridgeName)} tool`
      : `"action" must be one of ${DISCOVERY_ACTIONS.map((a) => JSON.stringify(a)).join(", ")}`
  }`;
  return actionResult(
    errorAction("invalid_arguments", message, renderError("invalid_arguments", message)),
  );
}

// A pinned tool's arguments without those a host adds to every tool's schema (Gemini CLI's
// `wait_for_previous`), unless the tool itself declares them.
function withoutHostArguments(
  args: Record<string, unknown>,
  schema: Record<string, unknown>,
): Record<string, unknown> {
  const declared = isRecord(schema.properties) ? schema.properties : {};
  const extra = Object.keys(args).filter((key) =>
    HOST_ARGUMENTS.includes(key) && !Object.hasOwn(declared, key)
  );
  if (extra.length === 0) return args;
  const kept = { ...args };
  for (const key of extra) delete kept[key];
  return kept;
}
