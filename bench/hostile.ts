/**
 * The worst case of each hostile-input path within the documented limits (`src/limits.ts`),
 * timed as route work (the body is already parsed and the catalogue built, as the HTTP API has
 * them from its cache), each group against a plain request of the same path measured in the same
 * run. The budget: no request costs more than 50 ms of route work, so one hostile request cannot
 * stall the others. Also the cost of checking input schemas when a catalogue is built, at 1,000
 * and 10,000 tools.
 *
 * Run: `deno task bench` (or `deno bench --allow-read --allow-env bench/hostile.ts`)
 *
 * @module
 */

import { Injector, McpCatalog, type McpTool } from "../mod.ts";
import { checkSchema } from "../src/schema/check.ts";
import { canonicalCatalog } from "../src/http/catalog_cache.ts";
import { canonicalShapes } from "./_canonical_shapes.ts";
import { MAX_NAME_CHARS } from "../src/limits.ts";
import { transition } from "../src/session/state.ts";
import { DATA_DIR, longDescribe, realServerTools } from "../test/_data.ts";
import { createLexicalRanker } from "../src/ranking/lexical_ranker.ts";
import { englishLexicon } from "../src/ranking/lexicon.ts";
import { englishVectors } from "../src/ranking/vectors.ts";
import { denoRankerOptions } from "../src/ranking/deno_ranker.ts";
import { listPages, MAX_LIST_PAGES } from "../src/mcp/tool_list.ts";
import { ServerLines } from "../src/mcp/_stdio_transport.ts";
import { parseJSONRPCMessage } from "@modelcontextprotocol/client";
import { ProgressGate } from "../src/mcp/_progress.ts";
import { explainSearch } from "../src/ranking/explain.ts";

const object = { type: "object" };

// 10,000 tools whose 128-character names share every letter: the letter-count filter cannot tell
// them apart, so suggestions compare the full MAX_SUGGESTION_COMPARISONS.
const alike = new Injector(
  new McpCatalog(Array.from({ length: 10_000 }, (_, i) => ({
    server: "s",
    name: "q".repeat(MAX_NAME_CHARS - 4) + i.toString(36).padStart(4, "0"),
    description: "",
    inputSchema: object,
  }))),
);
// 10,000 realistic tools: the real servers' catalogue copied under 44 server names.
const real = realServerTools();
const copies: McpTool[] = [];
for (let copy = 0; copies.length < 10_000; copy++) {
  for (const tool of real) {
    if (copies.length < 10_000) copies.push({ ...tool, server: `${tool.server}-${copy}` });
  }
}
const realistic = new Injector(new McpCatalog(copies));
const knownAlike = `s/${"q".repeat(MAX_NAME_CHARS - 4)}0000`;
realistic.route({ action: "describe", name: "x/y" }); // builds the name index before timing
alike.route({ action: "describe", name: "x/y" });

Deno.bench({
  name: "describe a known id (10,000 tools)",
  group: "unknown name",
  baseline: true,
  fn: () => void alike.route({ action: "describe", name: knownAlike }),
});
Deno.bench({
  name: "describe a 200-char unknown name, 10,000 alike 128-char names",
  group: "unknown name",
  fn: () => void alike.route({ action: "describe", name: `s/${"q".repeat(198)}` }),
});
Deno.bench({
  name: "execute a near miss of a 128-char name, 10,000 alike names",
  group: "unknown name",
  fn: () => void alike.route({ action: "execute", name: `${knownAlike.slice(0, -1)}!` }),
});
Deno.bench({
  name: "describe a 40-char unknown name, 10,000 real tools",
  group: "unknown name",
  fn: () =>
    void realistic.route({ action: "describe", name: "filesystem-3/read_text_fil_with_typos_xx" }),
});
Deno.bench({
  name: "describe a 257-char unknown id of random words, 10,000 real tools",
  group: "unknown name",
  fn: () =>
    void realistic.route({
      action: "describe",
      name: Array.from({ length: 43 }, (_, i) => `w${i}rd`).join(" ").slice(0, 257),
    }),
});

function tool(inputSchema: Record<string, unknown>): Injector {
  return new Injector(new McpCatalog([{ server: "s", name: "t", description: "", inputSchema }]));
}
const execute = (injector: Injector, args: unknown) => () => {
  const action = injector.route({ action: "execute", name: "s/t", arguments: args });
  if (action.action !== "execute" && action.action !== "error") throw new Error(action.action);
};
const long = "a".repeat(100_000);
const plain = tool({ type: "object", properties: { c: { type: "string" } } });
const catastrophic = tool({
  type: "object",
  properties: { c: { type: "string", pattern: "^(a+)+$" } },
});
const url = tool({ type: "object", properties: { c: { type: "string", format: "url" } } });
const defs: Record<string, unknown> = { l20: { type: "string" } };
for (let i = 0; i < 20; i++) {
  defs[`l${i}`] = { anyOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
}
const exponential = tool({
  type: "object",
  $defs: defs,
  properties: { x: { $ref: "#/$defs/l0" } },
});
const loop = tool({ type: "object", properties: { x: { $ref: "#/properties/x" } } });
const strict = tool({
  type: "object",
  properties: { path: { type: "string", pattern: "^/safe/" }, mode: { enum: ["read"] } },
  required: ["path", "mode"],
  additionalProperties: false,
});
const wide = tool({
  type: "object",
  properties: { c: { type: "array", items: { type: "integer" }, uniqueItems: true } },
});
let deep: unknown = 1;
for (let i = 0; i < 100_000; i++) deep = { a: deep };

Deno.bench({
  name: "execute with a 100,000-char string, no pattern",
  group: "validation",
  baseline: true,
  fn: execute(plain, { c: long }),
});
Deno.bench({
  name: 'pattern "^(a+)+$" on 100,000 a\'s and "!"',
  group: "validation",
  fn: execute(catastrophic, { c: `${long}!` }),
});
Deno.bench({
  name: 'pattern "^(a+)+$" on 10,000 a\'s and "!", run in full',
  group: "validation",
  fn: execute(catastrophic, { c: `${"a".repeat(10_000)}!` }),
});
// 2,000 instructions, some 2,000 live threads per character: refused by its engine steps.
const wideProgram = tool({
  type: "object",
  properties: { c: { type: "string", pattern: "[a-y]{0,1000}z" } },
});
Deno.bench({
  name: 'pattern "[a-y]{0,1000}z" on 20,000 a\'s, refused at MAX_VALIDATION_STEPS',
  group: "validation",
  fn: execute(wideProgram, { c: "a".repeat(20_000) }),
});
Deno.bench({
  name: 'format "url" on "http://" + 4,088 ones + "!" (MAX_FORMAT_CHARS)',
  group: "validation",
  fn: execute(url, { c: `http://${"1".repeat(4_088)}!` }),
});
Deno.bench({
  name: "2^20 anyOf branches: refused at MAX_VALIDATION_STEPS (50,000)",
  group: "validation",
  fn: execute(exponential, { x: 1 }),
});
Deno.bench({
  name: "a $ref loop: refused at MAX_VALIDATION_DEPTH",
  group: "validation",
  fn: execute(loop, { x: 1 }),
});
Deno.bench({
  name: "the lone-surrogate reproduction: refused",
  group: "validation",
  fn: execute(strict, { path: "/etc/shadow", mode: "write", "\ud800": 1 }),
});
Deno.bench({
  name: "uniqueItems over 100,000 integers: refused at MAX_VALIDATION_STEPS",
  group: "validation",
  fn: execute(wide, { c: Array.from({ length: 100_000 }, (_, i) => i) }),
});
Deno.bench({
  name: "arguments nested 100,000 deep: refused at MAX_JSON_DEPTH",
  group: "validation",
  fn: execute(plain, deep),
});

// Search at the bridge's query cap (maxQueryChars, 1,000) over the 10,000 realistic tools: distinct
// words no tool uses (each spelt in pieces by the word vectors), with the default ranker and with
// the opt-in thesaurus and word vectors, against a two-word query.
const optedIn = new McpCatalog(copies, {
  ranker: createLexicalRanker({ thesaurus: englishLexicon(), vectors: englishVectors() }),
});
optedIn.search("-", 1);
realistic.catalog.search("-", 1);
const strangeWords = Array.from({ length: 200 }, (_, i) => `zq${(i * 7919).toString(36)}vx`)
  .join(" ").slice(0, 1_000);
const everydayWords = "make my photo smaller then show me who reacted to my message yesterday "
  .repeat(20).slice(0, 1_000);
Deno.bench({
  name: "search a two-word query, 10,000 tools",
  group: "search",
  baseline: true,
  fn: () => void realistic.catalog.search("read file", 10),
});
Deno.bench({
  name: "search 1,000 chars of distinct unknown words, 10,000 tools",
  group: "search",
  fn: () => void realistic.catalog.search(strangeWords, 10),
});
Deno.bench({
  name: "search 1,000 chars of distinct unknown words, 10,000 tools, thesaurus + vectors",
  group: "search",
  fn: () => void optedIn.search(strangeWords, 10),
});
Deno.bench({
  name: "search 1,000 chars of everyday words, 10,000 tools, thesaurus + vectors",
  group: "search",
  fn: () => void optedIn.search(everydayWords, 10),
});

// The Deno default ranker (word vectors, each query word reaching its nearest catalogue words)
// over the same tools, each search a different 1,000 characters of users' requests, so the memo of
// nearest words seldom answers: what a model sending fresh words every time costs.
const denoDefault = new McpCatalog(copies, { ranker: createLexicalRanker(denoRankerOptions()) });
denoDefault.search("-", 1);
const requests = (await Deno.readTextFile(`${DATA_DIR}/metatool/metatool_single.jsonl`))
  .split("\n").filter((line) => line !== "").map((line) => JSON.parse(line).query as string);
let request = 0;
const freshWords = () => {
  let text = "";
  while (text.length < 1_000) text += `${requests[request++ % requests.length]} `;
  return text.slice(0, 1_000);
};
Deno.bench({
  name: "search 1,000 chars of fresh users' words each time, 10,000 tools, Deno default",
  group: "search",
  fn: () => void denoDefault.search(freshWords(), 10),
});

// A session at MAX_SESSION_BYTES (it has begun to forget its oldest records), and one more describe.
let session = transition(undefined, { catalogHash: "c", event: { kind: "inject" } }, 0).state;
for (let i = 0; i < 2_000; i++) {
  session = transition(session, { catalogHash: "c", event: longDescribe(i) }, i).state;
}
Deno.bench({
  name: "a search event in a new session",
  group: "session",
  baseline: true,
  fn: () =>
    void transition(undefined, { catalogHash: "c", event: { kind: "search", empty: false } }, 0),
});
Deno.bench({
  name: "a describe into a full session (64 KiB): forgets the oldest records",
  group: "session",
  fn: () =>
    void transition(session, {
      catalogHash: "c",
      event: { kind: "describe", id: "s/new", schemaHash: "x", bodyHash: "y", resend: false },
    }, 1),
});

const invisible = "\u200b\u202e\u{e0041}\ufeff\u2800".repeat(20_000);
const hidden = tool({
  type: "object",
  description: invisible,
  properties: { [invisible]: object },
});
const clean = tool({ type: "object", description: "x".repeat(100_000), properties: { x: object } });
Deno.bench({
  name: "describe a schema with 100 KB of text",
  group: "rendering",
  baseline: true,
  fn: () => void clean.route({ action: "describe", name: "s/t" }),
});
Deno.bench({
  name: "describe a schema with 200,000 invisible characters (escaped)",
  group: "rendering",
  fn: () => void hidden.route({ action: "describe", name: "s/t" }),
});

// Catalogue construction: the input-schema check alone, per catalogue size (what checking every
// schema up front adds to building a catalogue).
for (const size of [1_000, 10_000]) {
  const tools = copies.slice(0, size);
  Deno.bench({
    name: `check the input schemas of ${size} real tools`,
    group: `catalogue ${size}`,
    fn: () => {
      for (const t of tools) checkSchema(t.inputSchema);
    },
  });
  Deno.bench({
    name: `JSON.stringify the input schemas of ${size} real tools (the floor)`,
    group: `catalogue ${size}`,
    baseline: true,
    fn: () => {
      for (const t of tools) JSON.stringify(t.inputSchema);
    },
  });
  Deno.bench({
    name: `build a catalogue of ${size} real tools (with the check)`,
    group: `catalogue ${size}`,
    fn: () => void new McpCatalog(tools),
  });
}

// An upstream whose every tools/list page has a fresh cursor: the client's listing stops at
// MAX_LIST_PAGES. Against JSON.parse of the same pages' bodies (what reading them costs anyway).
const endlessPages = Array.from({ length: MAX_LIST_PAGES }, (_, page) =>
  JSON.stringify({
    tools: [{ name: `page_${page}`, description: "A page", inputSchema: object }],
    nextCursor: String(page + 1),
  }));
Deno.bench({
  name: `JSON.parse ${MAX_LIST_PAGES} pages of an endless listing (the floor)`,
  group: "endless cursor",
  baseline: true,
  fn: () => {
    for (const page of endlessPages) JSON.parse(page);
  },
});
Deno.bench({
  name: `list an endless cursor until it fails at ${MAX_LIST_PAGES} pages`,
  group: "endless cursor",
  fn: async () => {
    await listPages(
      "Cannot list",
      (cursor) => Promise.resolve(JSON.parse(endlessPages[Number(cursor ?? 0)]!)),
    ).catch(() => {});
  },
});

// 100,000 progress notifications of one call over stdio: read, parsed and coalesced by the client
// (one listener call per 100 ms). Against JSON.parse of the same lines.
const floodLines = Array.from({ length: 100_000 }, (_, i) =>
  JSON.stringify({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: "unfold-1", progress: i, total: 100_000 },
  }));
const floodBytes = new TextEncoder().encode(floodLines.join("\n") + "\n");
Deno.bench({
  name: "JSON.parse 100,000 progress notifications (the floor)",
  group: "progress flood",
  baseline: true,
  fn: () => {
    for (const line of floodLines) JSON.parse(line);
  },
});
Deno.bench({
  name: "read and coalesce 100,000 progress notifications (64 KiB chunks)",
  group: "progress flood",
  fn: () => {
    let heard = 0;
    const gate = new ProgressGate(() => heard++);
    const reader = new ServerLines(parseJSONRPCMessage, {
      message: (message) =>
        gate.push((message as unknown as { params: { progress: number } }).params),
      error: () => {},
      unattributed: () => {},
    });
    for (let at = 0; at < floodBytes.length; at += 65_536) {
      reader.push(floodBytes.subarray(at, at + 65_536));
    }
    gate.flush();
  },
});

// The catalogue hash's canonical text against JSON.stringify of the same tools, for each shape that
// makes it work hardest (bench/_canonical_shapes.ts). A 40,000-object enum was quadratic before (6 s).
for (const [label, catalog] of canonicalShapes(copies)) {
  Deno.bench({
    name: `JSON.stringify ${label} (the floor of canonical JSON)`,
    group: `canonical JSON, ${label}`,
    baseline: true,
    fn: () => void JSON.stringify(catalog.tools),
  });
  Deno.bench({
    name: `canonical JSON of ${label} (what the catalogue hash reads)`,
    group: `canonical JSON, ${label}`,
    fn: () => void canonicalCatalog(catalog),
  });
}

// A 92 KiB body of distinct ^[a-z]{1,1000}N$ patterns (compiled at build before, 5-9 ms each: 7 s):
// building its catalogue against parsing the body.
const patternProperties: Record<string, unknown> = {};
for (let i = 0; JSON.stringify(patternProperties).length < 92 * 1024; i++) {
  patternProperties[`p${i}`] = { type: "string", pattern: `^[a-z]{1,1000}${i}$` };
}
const patternBody = JSON.stringify([{
  server: "s",
  name: "t",
  description: "",
  inputSchema: { type: "object", properties: patternProperties },
}]);
Deno.bench({
  name: "JSON.parse a 92 KiB body of distinct {1,1000} patterns (the floor)",
  group: "distinct patterns",
  baseline: true,
  fn: () => void JSON.parse(patternBody),
});
Deno.bench({
  name: "parse it and build its catalogue (patterns inspected, none compiled)",
  group: "distinct patterns",
  fn: () => void new McpCatalog(JSON.parse(patternBody)),
});

// Issue 27's catalogue: one tool of 1,400 properties, each its own ^[A-Z0-9]{2,999}-N$ (84 KiB).
// Building it inspects every pattern and compiles none; a call compiles (or takes from the cache)
// the patterns its arguments reach, at most MAX_PATTERN_UNITS of them.
const codeProperties: Record<string, unknown> = {};
for (let i = 0; i < 1_400; i++) {
  codeProperties[`p${i}`] = { type: "string", pattern: `^[A-Z0-9]{2,999}-${i}$` };
}
const codesBody = JSON.stringify([{
  server: "s",
  name: "codes",
  description: "",
  inputSchema: { type: "object", properties: codeProperties },
}]);
const codesInjector = new Injector(new McpCatalog(JSON.parse(codesBody)));
const codeArguments = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, `AB-${i}`]));
Deno.bench({
  name: "JSON.parse the 84 KiB body of 1,400 distinct {2,999} patterns (the floor)",
  group: "1,400 patterns",
  baseline: true,
  fn: () => void JSON.parse(codesBody),
});
Deno.bench({
  name: "parse it and build its catalogue (every pattern inspected, none compiled)",
  group: "1,400 patterns",
  fn: () => void new McpCatalog(JSON.parse(codesBody)),
});
for (const count of [1, 40, 60]) {
  Deno.bench({
    name: `an execute reaching ${count} of its patterns${count === 60 ? " (refused)" : ""}`,
    group: "1,400 patterns",
    fn: () =>
      void codesInjector.route({
        action: "execute",
        name: "s/codes",
        arguments: codeArguments(count),
      }),
  });
}

// A schema 60 levels deep whose keys are 100,000 characters long (3.1 MB): every subschema was
// registered under its JSON pointer, which holds all its ancestors' keys (0.76 s at the first
// execute before). A fresh catalogue each time, so the schema is compiled each time.
let longKeys: Record<string, unknown> = { type: "string" };
for (let i = 0; i < 31; i++) {
  longKeys = { type: "object", properties: { [String(i).padEnd(100_000, "k")]: longKeys } };
}
const longKeysText = JSON.stringify(longKeys);
Deno.bench({
  name: "JSON.parse a schema 60 deep with 100,000-char keys (the floor)",
  group: "long keys, deep",
  baseline: true,
  fn: () => void JSON.parse(longKeysText),
});
Deno.bench({
  name: "parse it, build its catalogue, execute once (the schema compiled)",
  group: "long keys, deep",
  fn: () => {
    const schema = JSON.parse(longKeysText);
    const injector = new Injector(
      new McpCatalog([{ server: "s", name: "t", description: "", inputSchema: schema }]),
    );
    injector.route({ action: "execute", name: "s/t", arguments: {} });
  },
});

// Explain against a search of the same catalogue, query and limit (the budget: at most 5x). A
// hostile catalogue like issue 27's (3.4 MiB: 100 tools, each a 4,000-char description and 200
// parameters of 14 distinct words; explain took 1,743x a search before), and the 14 real servers;
// 1,000 chars of the catalogue's own words and of unknown ones, at the largest limit (50).
const distinctWord = (i: number) => `w${(Math.imul(i, 2654435761) >>> 0).toString(36)}`;
let wordCount = 0;
const wordy = new McpCatalog(Array.from({ length: 100 }, (_, t) => {
  const properties: Record<string, unknown> = {};
  for (let p = 0; p < 200; p++) {
    const words = Array.from({ length: 14 }, () => distinctWord(wordCount++));
    properties[`p${p}`] = { type: "string", description: words.join(" ") };
  }
  const description = Array.from({ length: 450 }, () => distinctWord(wordCount++)).join(" ");
  return {
    server: "s",
    name: `t${t}`,
    description: description.slice(0, 4_000),
    inputSchema: { type: "object", properties },
  };
}));
const realServers = new McpCatalog(real);
const ownWords = Array.from({ length: 150 }, (_, i) => distinctWord(i * 37)).join(" ").slice(
  0,
  1_000,
);
for (
  const [label, catalog, query] of [
    ["hostile 3.4 MiB catalogue, its own words", wordy, ownWords],
    ["hostile 3.4 MiB catalogue, unknown words", wordy, strangeWords],
    ["14 real servers, users' words", realServers, everydayWords],
    ["14 real servers, unknown words", realServers, strangeWords],
  ] as const
) {
  const id = catalog.tools[catalog.size - 1]!;
  explainSearch(catalog, query, { limit: 50 }); // indexes the tools once, as a cached catalogue has
  Deno.bench({
    name: `search 50, ${label}`,
    group: `explain, ${label}`,
    baseline: true,
    fn: () => void catalog.search(query, 50),
  });
  Deno.bench({
    name: `explain 50, ${label}`,
    group: `explain, ${label}`,
    fn: () => void explainSearch(catalog, query, { limit: 50 }),
  });
  Deno.bench({
    name: `explain 50 and where the last tool ranked, ${label}`,
    group: `explain, ${label}`,
    fn: () => void explainSearch(catalog, query, { limit: 50, id: `${id.server}/${id.name}` }),
  });
}
