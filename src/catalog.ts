/**
 * The catalogue: a validated, immutable set of MCP tools from several servers, looked up by id and
 * searched through a swappable {@linkcode Ranker}.
 *
 * @module
 */

import { isRecord } from "./utils/record.ts";
import { compareStrings } from "./utils/compare.ts";
import { prepareSchema, uncheckedKeywords } from "./schema/validate.ts";
import { tooDeep } from "./utils/json_depth.ts";
import { MAX_JSON_DEPTH, MAX_NAME_CHARS } from "./limits.ts";
import type { RankerFactory } from "./ranking/ranker.ts";
import { lexicalRanker } from "./ranking/lexical_ranker.ts";
import type { Ranker } from "./ranking/ranker.ts";
import { type McpTool, type ServerInfo, toolId } from "./tool.ts";
import type { Result } from "./result.ts";
import { learnedWords, liftRanking } from "./ranking/learned.ts";

/** A search result: the tool's id, server, name and description, and its relevance score. */
export interface ToolMatch {
  /** `server/name`. */
  id: string;
  /** The tool's server. */
  server: string;
  /** The tool's name on its server. */
  name: string;
  /** The tool's description: untrusted third-party text. */
  description: string;
  /** The relevance score (higher is better); only comparable within one search. */
  score: number;
}

/**
 * A part of a tool's input schema that unfold does not check and leaves to the tool's server
 * (the tool stays listed and callable; arguments are checked against the rest of its schema):
 * the tool's id, the keyword (`pattern`, `patternProperties`), a JSON pointer to it in the
 * tool's `inputSchema` (`/properties/q/pattern`), and why, in words.
 */
type SchemaWarning = { tool: string; keyword: string; pointer: string; reason: string };

/** Options of {@linkcode McpCatalog}. */
export interface McpCatalogOptions {
  /**
   * Information about the catalogue's servers; each must name a server that has tools here.
   * @default {[]}
   */
  servers?: readonly ServerInfo[];
  /**
   * The ranker behind {@linkcode McpCatalog.prototype.search}.
   * @default {lexicalRanker}
   */
  ranker?: RankerFactory;
}

/**
 * Thrown when a catalogue entry breaks a rule: says which entry (index and id) and which rule.
 *
 * @example Usage
 * ```ts
 * import { InvalidCatalogError, McpCatalog } from "./catalog.ts";
 * import { throws } from "node:assert/strict";
 *
 * throws(
 *   () => new McpCatalog([{ server: "a/b", name: "x", description: "", inputSchema: { type: "object" } }]),
 *   InvalidCatalogError,
 * );
 * ```
 */
export class InvalidCatalogError extends TypeError {
  /** Where the entry is: `catalog[3]` or `servers[0]`. */
  readonly entry: string;
  /** The entry's id, when it has one. */
  readonly id: string | undefined;
  /** The field that breaks the rule (`(entry)` when the entry itself is wrong). */
  readonly field: string;
  /** The rule, in words. */
  readonly rule: string;
  /**
   * A JSON pointer to the field in `{catalog, servers}`: `/catalog/3/inputSchema`, or into it
   * (`/catalog/3/inputSchema/properties/q/type`).
   */
  readonly pointer: string;
  /** For a broken input schema, the JSON Schema keyword at fault (`type`, `$ref`, `pattern`). */
  readonly keyword: string | undefined;

  /**
   * Makes the error.
   *
   * @param where The list (`catalog` or `servers`) and the entry's index in it.
   * @param id The entry's id, when it has one.
   * @param field The field that breaks the rule (`(entry)` when the entry itself is wrong).
   * @param rule The rule, in words.
   * @param inside Where inside the field: a JSON pointer, and the schema keyword at fault.
   */
  constructor(
    where: { list: "catalog" | "servers"; index: number },
    id: string | undefined,
    field: string,
    rule: string,
    inside: { pointer: string; keyword?: string } = { pointer: "" },
  ) {
    const entry = `${where.list}[${where.index}]`;
    super(
      `Invalid ${entry}${id === undefined ? "" : ` (${showId(id)})`}: "${field}" ${rule}`,
    );
    this.name = "InvalidCatalogError";
    this.entry = entry;
    this.id = id;
    this.field = field;
    this.rule = rule;
    this.pointer = `/${where.list}/${where.index}${
      field === "(entry)" ? "" : `/${field}`
    }${inside.pointer}`;
    this.keyword = inside.keyword;
  }
}

const LONG = `must be at most ${MAX_NAME_CHARS} characters long (MAX_NAME_CHARS, MCP's limit)`;
// Control characters, line/paragraph separators: an id must stay on one line wherever it is shown.
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]/u;

// The list being restored (set only for the synchronous span of `McpCatalog.restore`).
let restoring: McpCatalog["tools"] | undefined;

/**
 * A validated, immutable catalogue of MCP tools. Tools are kept sorted by id, so everything derived
 * from a catalogue is the same whatever order the tools arrived in.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "./catalog.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "github", name: "create_issue", description: "Create a new issue", inputSchema: { type: "object" } },
 *   { server: "slack", name: "post_message", description: "Post a message to a channel", inputSchema: { type: "object" } },
 * ]);
 * equal(catalog.size, 2);
 * equal(catalog.get("slack/post_message")?.name, "post_message");
 * equal(catalog.search("open an issue on github")[0]?.id, "github/create_issue");
 * ```
 */
export class McpCatalog {
  /**
   * The tools, sorted by id. Its type is one only a catalogue makes (the mark exists in types
   * alone): a store that saved it and gives it back unchanged says so with a cast at its boundary,
   * and {@linkcode McpCatalog.restore} then skips validating each tool again.
   */
  readonly tools: readonly McpTool[] & { readonly "unfold/validated": true };
  /** Information about the servers that has been given, sorted by server. */
  readonly servers: readonly ServerInfo[];
  #byId: Map<string, McpTool>;
  #rankerFactory: RankerFactory;
  #ranker: Ranker | undefined;
  // Tools by exact name and by lower-cased id or name, built with the ranker: a search must not
  // lower-case every id of the catalogue.
  #names: { exact: Map<string, McpTool[]>; folded: Map<string, McpTool[]> } | undefined;
  #warnings: readonly SchemaWarning[] | undefined;
  // A restored catalogue inspects its schemas when one is first needed, not when it is built: a
  // search by reference in a fresh isolate needs none. The pass is the same, so every isolate
  // decides what is left to the server the same way.
  #uninspected = false;

  /**
   * Validates the tools and builds the catalogue.
   *
   * @param tools The tools, in any order.
   * @param options Server information and the ranker.
   * @throws {InvalidCatalogError} When an entry breaks a rule: empty `server` or `name`, `/` or a
   * control character in a server name, a control character in a tool name, a `description` that is
   * not a string, an `inputSchema` that is not an object schema, a duplicate id, server information
   * for a server without tools.
   */
  constructor(tools: readonly McpTool[], options: McpCatalogOptions = {}) {
    if (!Array.isArray(tools)) {
      throw new TypeError("Cannot build a catalogue: tools must be an array");
    }
    const byId = new Map<string, McpTool>();
    const indexes = new Map<McpTool, number>();
    // Tools an earlier catalogue validated and a store kept as they were.
    const validated = restoring !== undefined && (restoring as readonly unknown[]) === tools;
    tools.forEach((tool, index) => {
      const valid = validated ? Object.freeze(tool) : validateTool(tool, index);
      const id = toolId(valid);
      if (byId.has(id)) {
        throw new InvalidCatalogError(
          { list: "catalog", index },
          id,
          "name",
          "repeats an id already in the catalogue",
        );
      }
      byId.set(id, valid);
      indexes.set(valid, index);
    });
    // Sorted by the ids already made (making two ids per comparison cost milliseconds at 10k tools).
    this.tools = Object.freeze(
      [...byId.keys()].sort(compareStrings).map((id) => byId.get(id)!),
    ) as readonly McpTool[] as McpCatalog["tools"];
    // Schemas are checked in id order, so the first broken one is the same whatever order the
    // tools arrived in.
    if (validated) this.#uninspected = true;
    else {
      for (const tool of this.tools) {
        // validateTool measured the schema's depth with every field: it is not measured again.
        const broken = prepareSchema(tool, true);
        if (broken !== undefined) throw schemaError(tool, indexes.get(tool)!, broken);
      }
    }
    this.#byId = byId;
    this.servers = validateServers(options.servers ?? [], new Set(this.tools.map((t) => t.server)));
    this.#rankerFactory = options.ranker ?? lexicalRanker;
  }

  /**
   * Validates the tools and builds the catalogue, with a broken rule as a value rather than an
   * exception: for callers that expect bad catalogues (a request body, an upstream's listing).
   *
   * @param tools The tools, in any order.
   * @param options Server information and the ranker.
   * @returns The catalogue, or the {@linkcode InvalidCatalogError} of the first rule broken.
   * @throws {TypeError} When `tools` or `options.servers` is not an array (a bug of the caller).
   *
   * @example Usage
   * ```ts
   * import { McpCatalog } from "./catalog.ts";
   *
   * const good = McpCatalog.create([{ server: "a", name: "b", description: "", inputSchema: { type: "object" } }]);
   * if (!good.ok || good.value.size !== 1) throw new Error("a valid tool makes a catalogue");
   * const bad = McpCatalog.create([{ server: "a/b", name: "c", description: "", inputSchema: { type: "object" } }]);
   * if (bad.ok || bad.error.field !== "server") throw new Error("a bad server name is the error");
   * ```
   */
  static create(
    tools: readonly McpTool[],
    options: McpCatalogOptions = {},
  ): Result<McpCatalog, InvalidCatalogError> {
    try {
      return { ok: true, value: new McpCatalog(tools, options) };
    } catch (error) {
      if (error instanceof InvalidCatalogError) return { ok: false, error };
      throw error;
    }
  }

  /**
   * Builds a catalogue from tools an earlier catalogue validated and a store kept exactly as they
   * were: each tool is not validated again (its input schema is still compiled when first used).
   *
   * @param tools The tools, as a catalogue's `tools` saved and read back.
   * @param options Server information and the ranker.
   * @returns The catalogue.
   * @throws {InvalidCatalogError} When the tools repeat an id or the server information breaks a
   * rule.
   *
   * @example Usage
   * ```ts
   * import { McpCatalog } from "./catalog.ts";
   *
   * const saved = JSON.stringify(new McpCatalog([{ server: "a", name: "b", description: "", inputSchema: { type: "object" } }]).tools);
   * const catalog = McpCatalog.restore(JSON.parse(saved) as McpCatalog["tools"]);
   * if (catalog.get("a/b")?.name !== "b") throw new Error("the stored tool is back");
   * ```
   */
  static restore(tools: McpCatalog["tools"], options: McpCatalogOptions = {}): McpCatalog {
    restoring = tools;
    try {
      return new McpCatalog(tools, options);
    } finally {
      restoring = undefined;
    }
  }

  /**
   * What unfold leaves to the tools' servers: each input-schema keyword it does not check (the
   * tool's id, the keyword, a JSON pointer to it in `inputSchema`, and why), by tool id then
   * pointer. Empty when every schema is checked in full.
   */
  get warnings(): readonly { tool: string; keyword: string; pointer: string; reason: string }[] {
    this.#inspect();
    this.#warnings ??= Object.freeze(
      this.tools.flatMap((tool) =>
        uncheckedKeywords(tool).map(({ keyword, pointer, reason }) => ({
          tool: toolId(tool),
          keyword,
          pointer,
          reason,
        }))
      ),
    );
    return this.#warnings;
  }

  /** The number of tools. */
  get size(): number {
    return this.tools.length;
  }

  /**
   * Looks a tool up by its full id.
   *
   * @param id `server/name`; a bare name never matches.
   * @returns The tool, or `undefined`.
   */
  get(id: string): McpTool | undefined {
    this.#inspect();
    return this.#byId.get(id);
  }

  // The schema pass a restored catalogue put off. Its tools were valid when saved, so a schema
  // that now fails (a store that changed them) is left to the validator, which refuses its calls.
  #inspect(): void {
    if (!this.#uninspected) return;
    this.#uninspected = false;
    for (const tool of this.tools) prepareSchema(tool);
  }

  /**
   * Ranks the tools for a query. An exact id, or a tool name that only one server has, always comes
   * first.
   *
   * @param query What to look for, in words or as an id.
   * @param limit The most results, a positive integer.
   * @param options `learned`: what this user ran after earlier searches (`LearnedRuns` of
   * `./session`); the tools they ran for the query's words rise, by at most half the best score,
   * never above an exact id or name.
   * @returns The best matches, best first; `[]` for a query without searchable terms.
   * @throws {RangeError} When `limit` is not a positive integer.
   */
  search(
    query: string,
    limit = 10,
    options: {
      learned?: { lift(words: readonly string[]): ReadonlyMap<string, number> } | undefined;
    } = {},
  ): ToolMatch[] {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError(`Cannot search: limit must be a positive integer, got ${limit}`);
    }
    const text = String(query).trim();
    if (text === "") return [];
    this.#ranker ??= this.#rankerFactory(this.tools, { servers: this.servers });
    // What the user ran lifts its tools (bounded, see ./ranking/learned.ts), under an exact id.
    const lift = options.learned?.lift(learnedWords(text));
    const ranked = lift === undefined || lift.size === 0
      ? this.#ranker.search(text, limit + 1)
      : liftRanking(this.#ranker.search(text, limit + 1 + lift.size), lift)
        .filter((hit) => this.#byId.has(hit.id));
    const exact = this.#exact(text);
    const top = ranked[0]?.score ?? 0;
    const hits = exact === undefined ? ranked : [
      { id: toolId(exact), score: Math.max(top, 1) + 1 },
      ...ranked.filter((hit) => hit.id !== toolId(exact)),
    ];
    const matches: ToolMatch[] = [];
    for (const hit of hits) {
      const tool = this.#byId.get(hit.id);
      if (tool === undefined) continue; // a ranker must not invent ids
      matches.push({
        id: hit.id,
        server: tool.server,
        name: tool.name,
        description: tool.description,
        score: Math.round(hit.score * 1e6) / 1e6,
      });
      if (matches.length === limit) break;
    }
    return matches;
  }

  // The tool a query names exactly: an id, or a name (then case-insensitively) that one server has.
  #exact(query: string): McpTool | undefined {
    const byId = this.#byId.get(query);
    if (byId !== undefined) return byId;
    this.#names ??= nameIndex(this.tools);
    const named = this.#names.exact.get(query) ?? [];
    if (named.length === 1) return named[0];
    if (named.length > 1) return undefined;
    const folded = this.#names.folded.get(query.toLowerCase()) ?? [];
    return folded.length === 1 ? folded[0] : undefined;
  }
}

// Tools by exact name, and by lower-cased id and lower-cased name (a tool under both keys at most
// once: a lower-cased id always differs from a lower-cased name, having more slashes).
function nameIndex(
  tools: readonly McpTool[],
): { exact: Map<string, McpTool[]>; folded: Map<string, McpTool[]> } {
  const exact = new Map<string, McpTool[]>();
  const folded = new Map<string, McpTool[]>();
  const add = (map: Map<string, McpTool[]>, key: string, tool: McpTool) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [tool]);
    else list.push(tool);
  };
  for (const tool of tools) {
    add(exact, tool.name, tool);
    add(folded, toolId(tool).toLowerCase(), tool);
    add(folded, tool.name.toLowerCase(), tool);
  }
  return { exact, folded };
}

function validateTool(tool: McpTool, index: number): McpTool {
  const entry = { list: "catalog", index } as const;
  if (typeof tool !== "object" || tool === null || Array.isArray(tool)) {
    throw new InvalidCatalogError(entry, undefined, "(entry)", "must be an object");
  }
  const { server, name } = tool as Partial<McpTool>;
  if (typeof server !== "string" || server === "") {
    throw new InvalidCatalogError(entry, undefined, "server", "must be a non-empty string");
  }
  if (server.length > MAX_NAME_CHARS) {
    throw new InvalidCatalogError(entry, undefined, "server", LONG);
  }
  if (server.includes("/")) {
    throw new InvalidCatalogError(entry, undefined, "server", 'must not contain "/"');
  }
  if (UNPRINTABLE.test(server)) {
    throw new InvalidCatalogError(
      entry,
      undefined,
      "server",
      "must not contain control characters",
    );
  }
  if (typeof name !== "string" || name === "") {
    throw new InvalidCatalogError(entry, undefined, "name", "must be a non-empty string");
  }
  if (name.length > MAX_NAME_CHARS) {
    throw new InvalidCatalogError(entry, undefined, "name", LONG);
  }
  const id = toolId({ server, name });
  if (UNPRINTABLE.test(name)) {
    throw new InvalidCatalogError(entry, id, "name", "must not contain control characters");
  }
  if (typeof tool.description !== "string") {
    throw new InvalidCatalogError(entry, id, "description", "must be a string");
  }
  const schema = tool.inputSchema as unknown;
  if (!isRecord(schema) || schema.type !== "object") {
    throw new InvalidCatalogError(
      entry,
      id,
      "inputSchema",
      'must be an object schema with "type": "object"',
    );
  }
  if (tool.title !== undefined && typeof tool.title !== "string") {
    throw new InvalidCatalogError(entry, id, "title", "must be a string when present");
  }
  for (const field of ["outputSchema", "annotations", "_meta"] as const) {
    if (tool[field] !== undefined && !isRecord(tool[field])) {
      throw new InvalidCatalogError(entry, id, field, "must be an object when present");
    }
  }
  for (const [field, value] of Object.entries(tool)) {
    const deep = tooDeep(value, MAX_JSON_DEPTH);
    if (deep !== undefined) {
      throw new InvalidCatalogError(
        entry,
        id,
        field,
        `nests deeper than ${MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH) at ${deep}`,
        { pointer: deep },
      );
    }
  }
  return Object.freeze({ ...tool });
}

function schemaError(
  tool: McpTool,
  index: number,
  broken: { keyword: string; pointer: string; rule: string },
): InvalidCatalogError {
  return new InvalidCatalogError(
    { list: "catalog", index },
    toolId(tool),
    "inputSchema",
    `is not a valid JSON Schema: "${broken.keyword}" at ${
      broken.pointer || "(root)"
    } ${broken.rule}`,
    { pointer: broken.pointer, keyword: broken.keyword },
  );
}

function validateServers(
  servers: readonly ServerInfo[],
  known: Set<string>,
): readonly ServerInfo[] {
  if (!Array.isArray(servers)) {
    throw new TypeError("Cannot build a catalogue: servers must be an array");
  }
  const seen = new Set<string>();
  servers.forEach((info, index) => {
    const entry = { list: "servers", index } as const;
    if (!isRecord(info)) {
      throw new InvalidCatalogError(entry, undefined, "(entry)", "must be an object");
    }
    const { server } = info;
    if (typeof server !== "string" || !known.has(server)) {
      throw new InvalidCatalogError(
        entry,
        undefined,
        "server",
        "must name a server that has tools in the catalogue",
      );
    }
    if (seen.has(server)) {
      throw new InvalidCatalogError(entry, server, "server", "repeats a server already described");
    }
    seen.add(server);
    for (const field of ["title", "description"] as const) {
      if (info[field] !== undefined && typeof info[field] !== "string") {
        throw new InvalidCatalogError(entry, server, field, "must be a string when present");
      }
    }
  });
  return Object.freeze(
    servers.map((info) => Object.freeze({ ...info })).sort((a, b) =>
      compareStrings(a.server, b.server)
    ),
  );
}

// JSON quoting, plus the two line separators JSON leaves raw: an error message stays on one line.
function showId(id: string): string {
  return JSON.stringify(id).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
