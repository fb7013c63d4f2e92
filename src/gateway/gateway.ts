/**
 * The gateway: unfold as one MCP server over the servers a user already has. It answers
 * `tools/list` (the bridge and the pinned tools) and `tools/call` (bridge actions within a
 * session or by the stateless rules; executes forwarded upstream with cancellation and progress),
 * and follows upstream changes (a new catalogue is a new generation). Free of any MCP SDK: the
 * server faces in `src/mcp/server.ts` wire it to the protocol.
 *
 * @module
 */

import type { BridgeAction } from "../bridge/action.ts";
import { renderDescribe, renderToolFailure } from "../bridge/render.ts";
import { canonicalJson, type Hasher, sha256Hex } from "../canonical_json.ts";
import { McpCatalog } from "../catalog.ts";
import type { Injector } from "../injector.ts";
import type { CallToolResultLike } from "../mcp/content.ts";
import { McpError } from "../mcp/error.ts";
import { routeInSession } from "../session/session_route.ts";
import type { SessionKey, SessionStore } from "../session/store.ts";
import { type McpTool, toolId } from "../tool.ts";
import type { GatewayOptions } from "./config.ts";
import { present, type Presentation, type ToolDefinition } from "./presentation.ts";
import type { UpstreamPool, UpstreamStatus } from "./upstreams.ts";

/** What one `tools/call` brings besides its name and arguments. */
export interface CallContext {
  /** The session (tenant and `Mcp-Session-Id`), or none: the stateless rules apply. */
  session?: SessionKey;
  /** Aborted when the host cancels the call; the upstream is then told. */
  signal?: AbortSignal;
  /** Receives the upstream's progress, to pass back to the host. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

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
}

interface State {
  catalog: McpCatalog;
  injector: Injector;
  catalogHash: string;
  presentation: Presentation;
  statuses: UpstreamStatus[];
}

/**
 * The gateway over a pool of upstreams.
 *
 * @example Usage
 * ```ts
 * import { Gateway } from "./gateway.ts";
 * import { openLivePool } from "./upstreams.ts";
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
  #state: State;
  #listeners = new Set<() => void>();
  #rebuilding: Promise<void> = Promise.resolve();
  #unsubscribe: () => void;

  private constructor(pool: UpstreamPool, deps: GatewayDeps, state: State) {
    this.#pool = pool;
    this.#deps = deps;
    this.#hash = deps.hash ?? sha256Hex;
    this.#state = state;
    this.#unsubscribe = pool.onChange(() => {
      this.#rebuilding = this.#rebuilding.then(() => this.#rebuild()).catch(() => {});
    });
  }

  /**
   * Builds the gateway over a pool whose upstreams have connected (or failed).
   *
   * @param pool The upstreams.
   * @param deps The `unfold` options, the session store and the hash.
   * @returns The gateway.
   * @throws {InvalidCatalogError} When the upstreams' tools cannot form a catalogue.
   */
  static async open(pool: UpstreamPool, deps: GatewayDeps): Promise<Gateway> {
    const state = await build(pool, deps.options, deps.hash ?? sha256Hex);
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

  /** The upstreams' states. */
  statuses(): UpstreamStatus[] {
    return this.#state.statuses.map((status) => ({ ...status }));
  }

  /** The server instructions: the catalogue overview and the unavailable servers. */
  instructions(): string {
    return this.#state.presentation.instructions;
  }

  /** The `tools/list` answer: the bridge tool, then the pinned tools. */
  tools(): ToolDefinition[] {
    return this.#state.presentation.tools;
  }

  /**
   * Listens for changes of the `tools/list` answer (the pinned set, or the bridge's overview):
   * the faces send `notifications/tools/list_changed`.
   *
   * @param listener Called after each change.
   * @returns A function that stops listening.
   */
  onToolsChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
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
    if (name === state.injector.config.bridgeName) {
      return { ok: true, result: await this.#bridge(state, args, context) };
    }
    const pinned = state.presentation.pinned.get(name);
    if (pinned === undefined) {
      return {
        ok: false,
        message: `There is no tool ${JSON.stringify(name)} on this gateway: use ${
          JSON.stringify(state.injector.config.bridgeName)
        } to search, describe and execute the upstream tools`,
      };
    }
    const input = isObject(args) ? args : {};
    return { ok: true, result: await this.#forward(pinned, input, context, false) };
  }

  /** Stops following the upstreams and closes them. */
  async close(): Promise<void> {
    this.#unsubscribe();
    this.#listeners.clear();
    await this.#pool.close();
  }

  async #bridge(state: State, args: unknown, context: CallContext): Promise<CallToolResultLike> {
    const action: BridgeAction = context.session === undefined
      ? stateless(state.injector, args)
      : await routeInSession(state.injector, args, {
        store: this.#deps.store,
        key: context.session,
        catalogHash: state.catalogHash,
        hash: this.#hash,
      });
    switch (action.action) {
      case "search":
        return text(action.toolResult, {
          action: "search",
          query: action.query,
          matches: action.matches.map(({ id, description, score }) => ({ id, description, score })),
          ...(action.miss ? { miss: action.miss } : {}),
        });
      case "describe": {
        const { server: _, ...tool } = action.tool;
        return text(action.toolResult, {
          action: "describe",
          id: action.id,
          tool,
          elided: action.elided === true,
        });
      }
      case "error":
        return {
          ...text(action.toolResult, {
            action: "error",
            code: action.code,
            message: action.message,
            ...(action.id === undefined ? {} : { id: action.id }),
          }),
          isError: true,
        };
      case "execute":
        return await this.#forward(action.tool, action.arguments, context, true);
    }
  }

  // Calls the upstream; its result goes back as it came (the bridge wraps its structured content
  // so that it follows the bridge's output schema). Failures name the tool and its server.
  async #forward(
    tool: McpTool,
    args: Record<string, unknown>,
    context: CallContext,
    bridged: boolean,
  ): Promise<CallToolResultLike> {
    const id = toolId(tool);
    let result: CallToolResultLike;
    try {
      result = await this.#pool.forward(tool, args, {
        ...(context.signal ? { signal: context.signal } : {}),
        ...(context.onProgress ? { onProgress: context.onProgress } : {}),
        ...(this.#deps.options.callTimeoutMs === undefined
          ? {}
          : { timeoutMs: this.#deps.options.callTimeoutMs }),
      });
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      await this.#record(context, true);
      const failure = renderToolFailure(id, error.code, error.message);
      return {
        content: [{ type: "text", text: failure }],
        isError: true,
        ...(bridged
          ? { structuredContent: { action: "error", code: error.code, message: error.message, id } }
          : {}),
      };
    }
    await this.#record(context, result.isError === true);
    if (!bridged) return result;
    const { structuredContent, ...rest } = result;
    return {
      ...rest,
      content: Array.isArray(result.content) ? result.content : [],
      structuredContent: {
        action: "execute",
        id,
        ...(structuredContent === undefined ? {} : { result: structuredContent }),
      },
    };
  }

  async #record(context: CallContext, isError: boolean): Promise<void> {
    if (context.session === undefined) return;
    await this.#deps.store.apply(context.session, { event: { kind: "result", isError } });
  }

  async #rebuild(): Promise<void> {
    const before = JSON.stringify(this.#state.presentation.tools);
    this.#state = await build(this.#pool, this.#deps.options, this.#hash);
    if (JSON.stringify(this.#state.presentation.tools) === before) return;
    for (const listener of [...this.#listeners]) listener();
  }
}

async function build(pool: UpstreamPool, options: GatewayOptions, hash: Hasher): Promise<State> {
  const statuses = pool.statuses();
  const catalog = new McpCatalog(pool.tools());
  const presentation = present(catalog, options, statuses);
  return {
    catalog,
    injector: presentation.injector,
    catalogHash: await hash(`[${catalog.tools.map(canonicalJson).join(",")}]`),
    presentation,
    statuses,
  };
}

// Without a session: arguments are validated, and a violation answers with the schema.
function stateless(injector: Injector, args: unknown): BridgeAction {
  const action = injector.route(args);
  if (action.action !== "error" || action.code !== "invalid_arguments" || !action.id) return action;
  const tool = injector.catalog.get(action.id);
  if (tool === undefined) return action;
  const schema = renderDescribe(action.id, tool, injector.config.maxDescriptionChars);
  return { ...action, toolResult: `${action.toolResult}\n${schema}` };
}

function text(body: string, structured: Record<string, unknown>): CallToolResultLike {
  return { content: [{ type: "text", text: body }], structuredContent: structured };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
