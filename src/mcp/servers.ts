/**
 * Several MCP servers as one: their tools in one catalogue, kept current as servers change them,
 * and one invoker that sends each call to the tool's server. Runtime-neutral: it takes
 * connections made by any `connect*` function.
 *
 * @module
 */

import { McpCatalog, type McpCatalogOptions } from "../catalog.ts";
import type { McpInvoker } from "../injector.ts";
import { type McpTool, type ServerInfo, toolId } from "../tool.ts";
import type { McpConnection } from "./types.ts";

/** Several connected MCP servers as one catalogue and one invoker. */
export interface McpServers {
  /** The tools of every server, as they are now (a new catalogue after each change). */
  readonly catalog: McpCatalog;
  /** The connections, by server name. */
  readonly connections: ReadonlyMap<string, McpConnection>;
  /** Runs a catalogue's tool on its server, for `Injector.handle`. */
  readonly invoker: McpInvoker;
  /**
   * Listens for catalogue changes: after a server changes its tools, a new catalogue with them.
   *
   * @param listener Receives the new catalogue.
   * @returns A function that stops listening.
   */
  onCatalogChanged(listener: (catalog: McpCatalog) => void): () => void;
  /**
   * Closes every connection. Safe to call more than once.
   *
   * @returns When every connection is closed.
   */
  close(): Promise<void>;
}

/**
 * Gathers connections to several servers into one catalogue and one invoker. The connections are
 * made concurrently (pass the `connect*` promises); if any fails, or listing any server's tools
 * fails, every connection is closed and the first failure is thrown. Each server's own title (from
 * its handshake) describes it in the catalogue unless `options.servers` says otherwise.
 *
 * @param connections Connections, or promises of them, with distinct server names.
 * @param options Server information and the ranker, as for {@linkcode McpCatalog}.
 * @returns The servers as one.
 * @throws {McpError} The first failure to connect or to list tools, after closing everything.
 * @throws {TypeError} When two connections have the same server name, after closing everything.
 * @throws {InvalidCatalogError} When `options.servers` is invalid, after closing everything.
 *
 * @example Usage
 * ```ts
 * import { connectServers } from "./servers.ts";
 * import { connectTransport } from "./client.ts";
 * import { Injector } from "../injector.ts";
 * import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
 * import { equal } from "node:assert/strict";
 *
 * async function demo(name: string, tool: string, text: string) {
 *   const server = new McpServer({ name, version: "1.0.0" });
 *   server.registerTool(tool, { description: `Says ${text}` }, () => ({ content: [{ type: "text", text }] }));
 *   const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 *   await server.connect(serverSide);
 *   return connectTransport({ server: name, transport: clientSide });
 * }
 *
 * const servers = await connectServers([demo("greeter", "hello", "Hello!"), demo("leaver", "bye", "Bye!")]);
 * equal(servers.catalog.size, 2);
 * const injector = new Injector(servers.catalog);
 * const result = await injector.handle({ action: "execute", name: "leaver/bye", arguments: {} }, servers.invoker);
 * equal(result.toolResult, "Bye!");
 * await servers.close();
 * ```
 */
export async function connectServers(
  connections: Iterable<McpConnection | PromiseLike<McpConnection>>,
  options: McpCatalogOptions = {},
): Promise<McpServers> {
  const settled = await Promise.allSettled([...connections]);
  const open = settled.flatMap((outcome) => outcome.status === "fulfilled" ? [outcome.value] : []);
  const closeAll = () => Promise.all(open.map((connection) => connection.close())).then(() => {});
  try {
    const failed = settled.find((outcome) => outcome.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    const byServer = new Map<string, McpConnection>();
    for (const connection of open) {
      if (byServer.has(connection.server)) {
        throw new TypeError(
          `Cannot gather the servers: two connections are named ${
            JSON.stringify(connection.server)
          }`,
        );
      }
      byServer.set(connection.server, connection);
    }
    const servers = new Servers(byServer, options);
    await servers.list();
    return servers;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

class Servers implements McpServers {
  readonly connections: ReadonlyMap<string, McpConnection>;
  readonly invoker: McpInvoker;
  #options: McpCatalogOptions;
  #tools = new Map<string, McpTool[]>();
  #catalog: McpCatalog | undefined;
  #listeners = new Set<(catalog: McpCatalog) => void>();
  #closing: Promise<void> | undefined;

  constructor(connections: Map<string, McpConnection>, options: McpCatalogOptions) {
    this.connections = connections;
    this.#options = options;
    this.invoker = {
      invoke: (tool: McpTool, args: Record<string, unknown>) => {
        const connection = connections.get(tool?.server);
        if (connection === undefined) {
          throw new TypeError(
            `Cannot invoke ${JSON.stringify(toolId(tool))}: no connected server is named ${
              JSON.stringify(tool?.server)
            }`,
          );
        }
        return connection.call(tool.name, args);
      },
    };
  }

  get catalog(): McpCatalog {
    if (this.#catalog === undefined) throw new Error("Unreachable: the servers were not listed");
    return this.#catalog;
  }

  // Subscribes to changes first, so that none falls between the listing and the subscription.
  async list(): Promise<void> {
    for (const connection of this.connections.values()) {
      connection.onToolsChanged((tools) => this.#changed(connection.server, tools));
    }
    const listed = await Promise.all(
      [...this.connections.values()].map(async (connection) =>
        [connection.server, await connection.tools()] as const
      ),
    );
    for (const [server, tools] of listed) {
      if (!this.#tools.has(server)) this.#tools.set(server, tools);
    }
    this.#catalog = this.#build();
  }

  onCatalogChanged(listener: (catalog: McpCatalog) => void): () => void {
    if (typeof listener !== "function") {
      throw new TypeError("Cannot listen for catalogue changes: the listener must be a function");
    }
    const own = (catalog: McpCatalog) => listener(catalog);
    this.#listeners.add(own);
    return () => void this.#listeners.delete(own);
  }

  close(): Promise<void> {
    this.#listeners.clear();
    this.#closing ??= Promise.all(
      [...this.connections.values()].map((connection) => connection.close()),
    ).then(() => {});
    return this.#closing;
  }

  #changed(server: string, tools: McpTool[]): void {
    this.#tools.set(server, tools);
    if (this.#catalog === undefined) return; // the first listing builds it
    this.#catalog = this.#build();
    for (const listener of [...this.#listeners]) listener(this.#catalog);
  }

  // Servers are described by the host's information, else by their own title; a server without
  // tools (now) is not described, since a catalogue only describes servers it has tools of.
  #build(): McpCatalog {
    const tools = [...this.#tools.values()].flat();
    const withTools = new Set(tools.map((tool) => tool.server));
    const given = new Map((this.#options.servers ?? []).map((info) => [info.server, info]));
    const servers: ServerInfo[] = [];
    for (const connection of this.connections.values()) {
      const info = given.get(connection.server);
      const title = connection.identity.title;
      if (!withTools.has(connection.server)) continue;
      if (info !== undefined) servers.push(info);
      else if (title !== undefined) servers.push({ server: connection.server, title });
    }
    for (const [server, info] of given) {
      if (!this.connections.has(server)) servers.push(info); // the catalogue reports it
    }
    return new McpCatalog(tools, { ...this.#options, servers });
  }
}
