/**
 * Writes `src/workers/_mcp_core.js`, through which the gateway Worker bundles one copy of the MCP
 * SDK's protocol core instead of two.
 *
 * `@modelcontextprotocol/client` and `@modelcontextprotocol/server` each inline the SDK's private
 * core (protocol, wire codecs for both revisions, errors) into a chunk of their own, and no package
 * exports it under a stable name. `wrangler.gateway.toml` points the client's imports of its chunk
 * at the generated module, which re-exports, under the client chunk's export letters, the server
 * chunk's copy of each name; the few the server's chunk lacks (client-only helpers: redirect-checked
 * fetch, `Mcp-Param-` headers, the input-required driver) are their declarations copied unchanged
 * from the client's chunk, with what they use in turn. Importing those from the client's chunk
 * instead would bring it back whole: its top-level statements (schema registration) keep every
 * binding alive for the bundler. One copy also means one class per SDK error.
 *
 * Run: `deno run --allow-read --allow-write=src/workers scripts/build_mcp_core.ts` after an SDK
 * upgrade, and set the aliases it prints in `wrangler.gateway.toml`; `test/workers/mcp_core_test.ts`
 * fails until both are done.
 *
 * @module
 */

/** Where the module goes. */
export const OUTPUT = "src/workers/_mcp_core.js";
/** The specifier the module imports the server's chunk by (an alias in the gateway's config). */
export const SERVER_CORE = "@modelcontextprotocol/server/_core";
/** The specifier the chunks import the SDK's public schemas by (an alias too: not ours to import). */
export const SCHEMAS = "@modelcontextprotocol/core/internal";

/** Where the SDK's packages keep their chunks. */
export const DIST = {
  client: "node_modules/@modelcontextprotocol/client/dist",
  server: "node_modules/@modelcontextprotocol/server/dist",
};

/**
 * A chunk's exports: each exported name and the letter it is exported as.
 *
 * @param text The chunk's text.
 * @returns Name → exported letter.
 * @throws {SyntaxError} When the chunk has no single-line export list.
 *
 * @example Usage
 * ```ts
 * import { exportsOf } from "./build_mcp_core.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(exportsOf("export { Protocol as v, fromJsonSchema as t };").get("Protocol"), "v");
 * ```
 */
export function exportsOf(text: string): Map<string, string> {
  const line = text.match(/^export \{ (.*) \};$/m)?.[1];
  if (line === undefined) throw new SyntaxError("Cannot read the chunk's exports: no export line");
  return new Map(
    line.split(", ").map((item) => {
      const [name = "", letter = name] = item.split(" as ");
      return [name, letter];
    }),
  );
}

/**
 * The file name of the chunk a package's `index.mjs` imports a name from.
 *
 * @param index The package's `dist/index.mjs` text.
 * @param name The name imported (`Protocol`: the chunk holding the package's copy of the core).
 * @returns The chunk's file name, as `index.mjs` imports it (`./src-….mjs`).
 * @throws {SyntaxError} When no import of `index.mjs` brings the name.
 *
 * @example Usage
 * ```ts
 * import { chunkOf } from "./build_mcp_core.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(chunkOf(`import { v as Protocol } from "./src-X1.mjs";`, "Protocol"), "./src-X1.mjs");
 * ```
 */
export function chunkOf(index: string, name: string): string {
  for (const [, names, from] of index.matchAll(/^import \{ ([^}]*) \} from "(\.\/[^"]+)";$/gm)) {
    if (names?.split(", ").some((item) => item.endsWith(` as ${name}`))) return from ?? "";
  }
  throw new SyntaxError(`Cannot find the SDK's chunk of ${name}: index.mjs does not import it`);
}

/** What the generated module and the gateway's aliases are, for the installed SDK. */
export interface McpCore {
  /** The module's text. */
  module: string;
  /** The `[alias]` entries of `wrangler.gateway.toml`, as TOML lines. */
  aliases: string[];
}

// A top-level declaration of a chunk starts at the line's first column; it runs until the next line
// there that starts a statement or a comment (closing brackets stay with their declaration).
const DECLARATION = /^(?:async function\*?|function\*?|const|let|var|class) ([A-Za-z_$][\w$]*)/;
const STATEMENT = /^[A-Za-z/]/;

function declarationsOf(lines: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const name = lines[i]?.match(DECLARATION)?.[1];
    if (name === undefined) continue;
    let end = i + 1;
    while (end < lines.length && !STATEMENT.test(lines[end] ?? "")) end++;
    found.set(name, lines.slice(i, end).join("\n").trimEnd());
    i = end - 1;
  }
  return found;
}

// The names a declaration's code uses, leaving out comments, the text of strings and property
// names; a false match is at worst imported or copied without need, a miss fails the lint test.
function namesIn(code: string): Set<string> {
  const bare = code
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\/\/[^\n]*/g, " ")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""')
    .replace(/`(?:[^`\\]|\\.)*`/g, (text) => (text.match(/\$\{[^}]*\}/g) ?? []).join(" "));
  return new Set(bare.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g) ?? []);
}

// The chunk's imports: each local name and the specifier and name it comes from.
function importsOf(text: string): Map<string, [string, string]> {
  const found = new Map<string, [string, string]>();
  for (const [, names, from = ""] of text.matchAll(/^import \{ ([^}]*) \} from "([^"]+)";$/gm)) {
    for (const item of names?.split(", ") ?? []) {
      const [name = "", local = name] = item.split(" as ");
      found.set(local, [from, name]);
    }
  }
  return found;
}

/**
 * The module's text, from the two chunks' texts: the server chunk's copy of every name it exports,
 * and for the names only the client's chunk has, their declarations copied from it with whatever
 * they use in turn (again the server's copy where it exports it).
 *
 * @param client The client chunk's text.
 * @param server The server chunk's text.
 * @returns The module's text.
 * @throws {SyntaxError} When a name the client chunk exports is neither the server chunk's, nor
 * declared or imported by the client chunk.
 *
 * @example Usage
 * ```ts
 * import { coreModule } from "./build_mcp_core.ts";
 * import { ok } from "node:assert/strict";
 *
 * const client = [
 *   "class SdkError extends Error {}",
 *   "function withoutIssuer(body) {",
 *   "\treturn new SdkError(body);",
 *   "}",
 *   "export { Protocol as v, withoutIssuer as w, SdkError as s };",
 * ].join("\n");
 * const text = coreModule(client, "export { Protocol as g, SdkError as e };");
 * ok(text.includes("g as v, // Protocol"));
 * ok(text.includes("function withoutIssuer(body)"));
 * ok(text.includes("e as SdkError,"));
 * ```
 */
export function coreModule(client: string, server: string): string {
  const theirs = exportsOf(server);
  const declared = declarationsOf(client.split("\n"));
  const imported = importsOf(client);
  const shared: string[] = [];
  const own: string[] = [];
  const wanted: string[] = [];
  for (const [name, letter] of [...exportsOf(client)].sort((a, b) => a[0].localeCompare(b[0]))) {
    const from = theirs.get(name);
    if (from !== undefined) shared.push(`  ${from} as ${letter}, // ${name}`);
    else {
      own.push(`  ${name} as ${letter},`);
      wanted.push(name);
    }
  }
  const copied = new Map<string, string>();
  const fromServer = new Set<string>();
  const fromImports = new Set<string>();
  for (let name = wanted.pop(); name !== undefined; name = wanted.pop()) {
    if (copied.has(name) || fromServer.has(name) || fromImports.has(name)) continue;
    const code = declared.get(name);
    if (theirs.has(name)) fromServer.add(name);
    else if (imported.has(name)) fromImports.add(name);
    else if (code === undefined) {
      throw new SyntaxError(
        `Cannot copy ${name}: the client chunk neither declares nor imports it`,
      );
    } else {
      copied.set(name, code);
      for (const used of namesIn(code)) {
        if (used !== name && (declared.has(used) || imported.has(used))) wanted.push(used);
      }
    }
  }
  const bySpecifier = new Map<string, string[]>();
  for (const local of [...fromImports].sort()) {
    const [from, name] = imported.get(local)!;
    const list = bySpecifier.get(from) ?? [];
    list.push(name === local ? `  ${name},` : `  ${name} as ${local},`);
    bySpecifier.set(from, list);
  }
  const serverImports = [...fromServer].sort().map((name) => `  ${theirs.get(name)} as ${name},`);
  return [
    "// Generated by scripts/build_mcp_core.ts from the installed MCP SDK: do not edit.",
    `import {\n${serverImports.join("\n")}\n} from "${SERVER_CORE}";`,
    ...[...bySpecifier].map(([from, list]) => `import {\n${list.join("\n")}\n} from "${from}";`),
    `export {\n${shared.join("\n")}\n} from "${SERVER_CORE}";`,
    `export {\n${own.join("\n")}\n};`,
    // In the client chunk's order, so that a constant is declared before what reads it at load.
    ...[...declared].filter(([name]) => copied.has(name)).map(([, code]) => code),
    "",
  ].join("\n");
}

/**
 * The module and aliases for the SDK installed under `node_modules/`.
 *
 * @param root The repository's root.
 * @returns The module's text and the aliases.
 *
 * @example Usage
 * ```ts
 * import { installedCore, OUTPUT } from "./build_mcp_core.ts";
 * import { equal } from "node:assert/strict";
 *
 * const root = new URL("../", import.meta.url);
 * const { module } = await installedCore(root);
 * equal(module, await Deno.readTextFile(new URL(OUTPUT, root)));
 * ```
 */
export async function installedCore(root: URL): Promise<McpCore> {
  const read = (path: string) => Deno.readTextFile(new URL(path, root));
  const client = chunkOf(await read(`${DIST.client}/index.mjs`), "Protocol");
  const server = chunkOf(await read(`${DIST.server}/index.mjs`), "Protocol");
  const serverPath = `./${DIST.server}/${server.slice(2)}`;
  // The schemas' package sits beside the server's in Deno's layout, under its locked version.
  const installed = await Deno.realPath(new URL(DIST.server, root));
  const schemas = `${installed.slice(0, installed.lastIndexOf("/server/"))}/core/dist/internal.mjs`;
  const schemasPath = await Deno.realPath(schemas);
  const base = (await Deno.realPath(root)).replace(/\/?$/, "/");
  return {
    module: coreModule(
      await read(`${DIST.client}/${client.slice(2)}`),
      await read(serverPath),
    ),
    aliases: [
      `"${client}" = "./${OUTPUT}"`,
      `"${SERVER_CORE}" = "${serverPath}"`,
      `"${SCHEMAS}" = "./${schemasPath.slice(base.length)}"`,
    ],
  };
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url);
  const { module, aliases } = await installedCore(root);
  await Deno.writeTextFile(new URL(OUTPUT, root), module);
  // deno-lint-ignore no-console
  console.log(
    `Wrote ${OUTPUT}; the [alias] entries of wrangler.gateway.toml:\n${aliases.join("\n")}`,
  );
}
