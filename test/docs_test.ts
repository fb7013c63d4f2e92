/**
 * The README and every page of `docs/` name only what exists: each repository path, each exported
 * name of the package, each subpath export and each relative link. A rename or a move that leaves
 * the docs behind fails here, with the file and the name.
 *
 * Only inline code spans (outside fenced blocks) and Markdown links are read, and a span counts
 * only when it has the shape of what it is checked as, so prose never fails: a repository path
 * starts with one of the top-level folders below; a name is an identifier at the start of a span
 * that is PascalCase with two humps (`McpCatalog`), UPPER_SNAKE (`MAX_JSON_DEPTH`) or written as a
 * call (`connectStdio(...)`, `new Injector(...)`). A bare camelCase span (`catalogHash`) reads the
 * same as a field name, so it is checked only when the text says which export it comes from
 * (`` `minisearchRanker` from `./minisearch` ``).
 */

import { deepEqual } from "node:assert/strict";
import { ROOT } from "./_deno.ts";

const DOCS = [
  "README.md",
  ...[...Deno.readDirSync(`${ROOT}docs`)].filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`).sort(),
];

// Sections about other projects' code: their paths and names are those projects', not ours.
const ABOUT_OTHERS: Record<string, string> = { "docs/STYLE.md": "What we take from whom" };

// Names the docs use that are neither ours nor JavaScript's, with where they come from.
const FOREIGN: Record<string, string> = {
  CallToolResult: "the MCP specification's result of tools/call",
  DurableObjectStorage: "the Cloudflare Workers runtime",
  CLOCK_THREAD_CPUTIME_ID: "POSIX clock_gettime",
  CLOUDFLARE_API_TOKEN: "wrangler's credentials",
  MessageCreateParams: "@anthropic-ai/sdk's Messages API request",
  ToolUnion: "@anthropic-ai/sdk's tool definition",
  ToolReferenceBlockParam: "@anthropic-ai/sdk's tool_reference block",
  ToolResultBlockParam: "@anthropic-ai/sdk's tool_result block",
  ResponseCreateParams: "openai's Responses API request",
  NamespaceTool: "openai's namespace tool",
  ToolSearchTool: "openai's tool_search tool",
  ResponseToolSearchOutputItemParam: "openai's tool_search_output item",
};

const PATH = /(?<![\w./@-])(?:src|test|bench|examples|scripts|testdata|docs)\/[\w./-]*/g;
const NAME = /^(?:new\s+)?([A-Za-z_$][\w$]*)(\()?/;

/** A Markdown text without its fenced blocks and the sections about other projects. */
function prose(file: string, text: string): string {
  let kept = text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  const other = ABOUT_OTHERS[file];
  if (other !== undefined) {
    const start = kept.indexOf(`\n## ${other}\n`);
    const end = kept.indexOf("\n## ", start + 1);
    if (start !== -1) kept = kept.slice(0, start) + (end === -1 ? "" : kept.slice(end));
  }
  return kept;
}

/** Every inline code span of a text. */
function spans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim());
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replaceAll(" ", "-");
}

function anchors(text: string): Set<string> {
  const headings = prose("", text).split("\n").filter((line) => /^#{1,6} /.test(line));
  return new Set(headings.map((line) => slug(line.replace(/^#+ /, ""))));
}

const TEXTS = new Map(DOCS.map((file) => [file, Deno.readTextFileSync(`${ROOT}${file}`)]));

/** The names one module exports, following `export *` into the modules it re-exports. */
function exportsOf(path: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(path)) return names;
  seen.add(path);
  const source = Deno.readTextFileSync(path);
  const declared = source.matchAll(
    /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|const|let|var|type|interface|enum|namespace)\s+([\w$]+)/gm,
  );
  for (const m of declared) names.add(m[1]!);
  for (const m of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of m[1]!.split(",")) {
      const name = item.replace(/^\s*type\s+/, "").split(/\s+as\s+/).pop()!.trim();
      if (name !== "") names.add(name);
    }
  }
  for (const m of source.matchAll(/^export\s+\*\s+(?:as\s+([\w$]+)\s+)?from\s+"(\.[^"]+)"/gm)) {
    if (m[1] !== undefined) names.add(m[1]);
    else {
      const target = new URL(m[2]!, `file://${path}`).pathname;
      for (const name of exportsOf(target, seen)) names.add(name);
    }
  }
  return names;
}

function sourceFiles(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((e) =>
    e.isDirectory
      ? sourceFiles(`${dir}/${e.name}`)
      : e.name.endsWith(".ts") && !e.name.endsWith("_data.ts")
      ? [`${dir}/${e.name}`]
      : []
  );
}

const CONFIG = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
const SUBPATHS: Record<string, string> = CONFIG.exports;
const BY_SUBPATH = new Map(
  Object.entries(SUBPATHS).map(([subpath, file]) => [subpath, exportsOf(`${ROOT}${file}`)]),
);
const PACKAGE = new Set([...BY_SUBPATH.values()].flatMap((names) => [...names]));
const SOURCE = sourceFiles(`${ROOT}src`);
const INTERNAL = new Set(SOURCE.flatMap((file) => [...exportsOf(file)]));
// The code a constant or a variable the docs name must appear in (settings are read by name).
const CODE = [
  ...SOURCE,
  ...["bench", "scripts", "examples", "test"].flatMap((d) => sourceFiles(`${ROOT}${d}`)),
].filter((file) => !file.endsWith("/test/docs_test.ts")).map((file) => Deno.readTextFileSync(file))
  .join("\n") + Deno.readTextFileSync(`${ROOT}.ci/run`);
const SRC_TEXT = SOURCE.map((file) => Deno.readTextFileSync(file)).join("\n");
// The HTTP contract's named shapes (`RouteResult`): the OpenAPI document names them as strings.
const SCHEMAS = new Set([...SRC_TEXT.matchAll(/"([A-Z][a-z0-9]+[A-Z]\w*)"/g)].map((m) => m[1]!));

// What the tests write (git-ignored): cited as what a run leaves, absent from a fresh clone.
const WRITTEN_BY_TESTS = ["test/output/"];

function exists(path: string): boolean {
  if (WRITTEN_BY_TESTS.some((prefix) => path.startsWith(prefix))) return true;
  try {
    Deno.statSync(`${ROOT}${path}`);
    return true;
  } catch {
    return false;
  }
}

/** Why a name a doc cites does not exist, or undefined when it does. */
function missingName(name: string, called: boolean): string | undefined {
  if (PACKAGE.has(name) || name in globalThis || name in FOREIGN) return undefined;
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name)) {
    return new RegExp(`\\b${name}\\b`).test(CODE) ? undefined : "is in no source file";
  }
  if (/^[A-Z][a-z0-9]+[A-Z]/.test(name)) {
    return INTERNAL.has(name) || SCHEMAS.has(name)
      ? undefined
      : "is neither exported nor named in src/";
  }
  // A call may be a method or an option of an exported object: declared in the source.
  if (called) {
    return new RegExp(`\\b${name}\\??\\s*[(:]`).test(SRC_TEXT)
      ? undefined
      : "is not declared in src/";
  }
  return undefined;
}

/** Every problem with the paths, names and subpaths one doc cites. */
function problemsOf(file: string): string[] {
  const problems: string[] = [];
  const text = prose(file, TEXTS.get(file)!);
  for (const span of spans(text)) {
    for (const [path] of span.matchAll(PATH)) {
      if (!exists(path.replace(/[.]$/, ""))) problems.push(`${file}: ${path} does not exist`);
    }
    const name = NAME.exec(span);
    if (name !== null && (name[2] !== undefined || span === name[1] || span.startsWith("new "))) {
      const why = missingName(name[1]!, name[2] !== undefined);
      if (why !== undefined) problems.push(`${file}: \`${name[1]}\` ${why}`);
    }
    const subpath = /^@unfold\/unfold(\/[a-z]+)$|^\.(\/[a-z]+)$/.exec(span);
    if (subpath !== null) {
      const key = `.${subpath[1] ?? subpath[2]}`;
      if (!(key in SUBPATHS)) problems.push(`${file}: ${span} is not an export of deno.json`);
    }
  }
  // "`name` from `./subpath`": the name is exported by that very subpath.
  for (
    const m of text.matchAll(/`([\w$]+)(?:\([^`]*\))?`,? from `(?:@unfold\/unfold)?\.?(\/\w+)`/g)
  ) {
    const names = BY_SUBPATH.get(`.${m[2]}`);
    if (names !== undefined && !names.has(m[1]!)) {
      problems.push(`${file}: \`${m[1]}\` is not exported by .${m[2]}`);
    }
  }
  return problems;
}

/** Every relative link of one doc that leads nowhere: a missing file or heading. */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  const text = prose(file, TEXTS.get(file)!);
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue;
    const [path, anchor] = target!.split("#") as [string, string | undefined];
    const resolved = path === "" ? file : new URL(path, `file:///${dir}`).pathname.slice(1);
    if (!exists(resolved)) {
      problems.push(`${file}: the link ${target} leads to no file`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith(".md")) continue;
    const headings = anchors(TEXTS.get(resolved) ?? Deno.readTextFileSync(`${ROOT}${resolved}`));
    if (!headings.has(anchor)) problems.push(`${file}: the link ${target} names no heading`);
  }
  return problems;
}

Deno.test("the README and docs cite only repository paths, package names and subpaths that exist", () => {
  const problems = DOCS.flatMap(problemsOf);
  deepEqual(problems, [], problems.join("\n"));
});

Deno.test("every relative link of the README and docs leads to a file and heading that exist", () => {
  const problems = DOCS.flatMap(brokenLinks);
  deepEqual(problems, [], problems.join("\n"));
});

Deno.test("the docs test reads what it checks: names and paths are found in the README", () => {
  const readme = spans(prose("README.md", TEXTS.get("README.md")!));
  deepEqual(
    ["new McpCatalog(tools)", "connectStdio"].map((name) => readme.includes(name)),
    [true, true],
  );
  deepEqual(
    [PACKAGE.has("McpCatalog"), PACKAGE.has("connectStdio"), PACKAGE.has("createApp")],
    [true, true, true],
  );
  deepEqual(missingName("McpCatalogue", false), "is neither exported nor named in src/");
  deepEqual(missingName("connectStdioo", true), "is not declared in src/");
  deepEqual(missingName("MAX_NOTHING_AT_ALL", false), "is in no source file");
});
