/**
 * Every exported code list of `src/` (error codes, modes, reasons, kinds…) names exactly the
 * members of the union it stands for, and the docs tables that list codes list the same ones.
 *
 * Each list is checked one way, and this test finds the lists itself (by name in `src/`), so a
 * new list without a check fails here:
 * - `codeList`: declared with `codeList<Union>({...})` (`src/utils/code_list.ts`): the compiler
 *   refuses a missing or an extra member;
 * - `keys`: `Object.keys` of a record typed by the union (complete by the record's type);
 * - `source`: the union is derived from the list (`typeof NAME[number]`);
 * - `every`: here, against `codeList<Union>` (for a list declared where this change could not go);
 * - `within`: a subset of another list, checked here.
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { ROOT } from "./_deno.ts";
import { codeList } from "../src/utils/code_list.ts";
import { MCP_ERROR_CODES } from "../src/tool_error.ts";
import { DEFINITION_FIELDS } from "../src/gateway/trust/lock.ts";
import { TRUST_MODES } from "../src/gateway/trust/policy.ts";
import {
  OVERVIEW_PLACES,
  START_MODES,
  type StartMode,
  UPSTREAM_INSTRUCTIONS_MODES,
} from "../src/gateway/config/model.ts";
import type { GatewayOptions } from "../src/gateway/config/types.ts";
import { DISCOVERY_ACTIONS } from "../src/gateway/presentation.ts";
import { KNOWN_HOSTS, type KnownHost } from "../src/gateway/host_profiles.ts";
import type { UpstreamStatus } from "../src/gateway/pool/upstreams.ts";
import { CODE_LIMIT_NAMES, CODE_MODES } from "../src/code_mode/limits.ts";
import { LOG_LEVELS } from "../src/code_mode/protocol.ts";
import { RUN_ERROR_CODES } from "../src/code_mode/answer.ts";
import { RELATION_KINDS } from "../src/ranking/lexicon_codec.ts";
import { NEIGHBOUR_FIELDS } from "../src/ranking/semantic.ts";
import { EXPLAINED_FIELDS, MATCH_KINDS } from "../src/ranking/explain_index.ts";
import { BODY_PROBLEMS, CATALOG_PROBLEMS, GUARD_PROBLEMS } from "../src/http/route.ts";
import { RESULT_ERROR_CODES } from "../src/http/response_schemas.ts";
import { NATIVE_KINDS } from "../src/http/native_schemas.ts";
import { PROBLEM_CODES } from "../src/http/problems.ts";
import { DISCLOSURE_LEVELS, TOOL_FORMATS } from "../src/config.ts";
import { DESCRIBE_FIRST_MODES } from "../src/session/describe_first.ts";
import { HOST_NAMES } from "../src/cli/hosts/known.ts";
import { BRIDGE_ERROR_CODES, SEARCH_MISS_REASONS } from "../src/bridge/action.ts";
import { BRIDGE_ACTIONS } from "../src/bridge/tool.ts";
import { SEMANTIC_FIELD_WEIGHTS } from "../src/ranking/semantic.ts";

type How =
  | { by: "codeList" | "keys" | "source" }
  | { by: "every"; every: readonly string[] }
  | { by: "within"; within: readonly string[] };

// The upstream states the gateway reports (a union of `UpstreamStatus`, with no list in src/).
const UPSTREAM_STATES = codeList<UpstreamStatus["state"]>({
  starting: 0,
  ready: 0,
  failed: 0,
  lost: 0,
  needs_login: 0,
  stopped: 0,
  unavailable: 0,
});

// Every code list of src/, by its exported name.
const LISTS: Record<string, { list: readonly string[] } & How> = {
  MCP_ERROR_CODES: { list: MCP_ERROR_CODES, by: "codeList" },
  DEFINITION_FIELDS: { list: DEFINITION_FIELDS, by: "codeList" },
  TRUST_MODES: { list: TRUST_MODES, by: "codeList" },
  // src/gateway/config/model.ts writes these out by hand: held to their unions here.
  START_MODES: {
    list: START_MODES,
    by: "every",
    every: codeList<StartMode>({ eager: 0, lazy: 0 }),
  },
  OVERVIEW_PLACES: {
    list: OVERVIEW_PLACES,
    by: "every",
    every: codeList<NonNullable<GatewayOptions["overviewIn"]>>({
      both: 0,
      instructions: 0,
      description: 0,
    }),
  },
  UPSTREAM_INSTRUCTIONS_MODES: {
    list: UPSTREAM_INSTRUCTIONS_MODES,
    by: "every",
    every: codeList<NonNullable<GatewayOptions["upstreamInstructions"]>>({ brief: 0, none: 0 }),
  },
  DISCOVERY_ACTIONS: { list: DISCOVERY_ACTIONS, by: "within", within: BRIDGE_ACTIONS },
  CODE_MODES: { list: CODE_MODES, by: "codeList" },
  CODE_LIMIT_NAMES: { list: CODE_LIMIT_NAMES, by: "keys" },
  LOG_LEVELS: { list: LOG_LEVELS, by: "source" },
  RUN_ERROR_CODES: { list: RUN_ERROR_CODES, by: "codeList" },
  RELATION_KINDS: { list: RELATION_KINDS, by: "codeList" },
  NEIGHBOUR_FIELDS: {
    list: NEIGHBOUR_FIELDS,
    by: "within",
    within: Object.keys(SEMANTIC_FIELD_WEIGHTS),
  },
  EXPLAINED_FIELDS: { list: EXPLAINED_FIELDS, by: "source" },
  MATCH_KINDS: { list: MATCH_KINDS, by: "source" },
  BODY_PROBLEMS: { list: BODY_PROBLEMS, by: "within", within: PROBLEM_CODES },
  GUARD_PROBLEMS: { list: GUARD_PROBLEMS, by: "within", within: PROBLEM_CODES },
  CATALOG_PROBLEMS: { list: CATALOG_PROBLEMS, by: "within", within: PROBLEM_CODES },
  RESULT_ERROR_CODES: { list: RESULT_ERROR_CODES, by: "within", within: MCP_ERROR_CODES },
  NATIVE_KINDS: { list: Object.keys(NATIVE_KINDS), by: "source" },
  PROBLEM_CODES: { list: PROBLEM_CODES, by: "keys" },
  DISCLOSURE_LEVELS: { list: DISCLOSURE_LEVELS, by: "codeList" },
  TOOL_FORMATS: { list: TOOL_FORMATS, by: "codeList" },
  DESCRIBE_FIRST_MODES: { list: DESCRIBE_FIRST_MODES, by: "codeList" },
  HOST_NAMES: { list: HOST_NAMES, by: "keys" },
  BRIDGE_ERROR_CODES: { list: BRIDGE_ERROR_CODES, by: "codeList" },
  SEARCH_MISS_REASONS: { list: SEARCH_MISS_REASONS, by: "codeList" },
  BRIDGE_ACTIONS: { list: BRIDGE_ACTIONS, by: "source" },
  KNOWN_HOSTS: {
    list: KNOWN_HOSTS.map((host) => host.name),
    by: "every",
    every: codeList<KnownHost["name"]>({ "claude-code": 0, codex: 0, gemini: 0 }),
  },
};

const CODE_LIST =
  /^export const ([A-Z][A-Z0-9_]*_(?:CODES|MODES|REASONS|KINDS|LEVELS|FORMATS|ACTIONS|FIELDS|NAMES|PLACES|PROBLEMS|STATES|HOSTS))\b([^;]*)/gm;

function sources(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts") ? [path] : [];
  });
}

const SOURCE = sources(`${ROOT}src`).map((file) => Deno.readTextFileSync(file)).join("\n");
const DECLARED = new Map([...SOURCE.matchAll(CODE_LIST)].map((m) => [m[1]!, m[2]!]));

Deno.test("every exported code list of src/ is one this test checks, and each is checked one way", () => {
  ok(DECLARED.size >= 25, `found ${DECLARED.size} lists`);
  deepEqual([...DECLARED.keys()].filter((name) => !Object.hasOwn(LISTS, name)), []);
  for (const [name, how] of Object.entries(LISTS)) {
    const declaration = DECLARED.get(name);
    ok(declaration !== undefined, `${name} is declared in src/`);
    if (how.by === "codeList") ok(declaration.includes("codeList<"), `${name} uses codeList`);
    if (how.by === "keys") ok(declaration.includes("Object.keys("), `${name} is a record's keys`);
    if (how.by === "source") ok(SOURCE.includes(`typeof ${name}`), `${name} is its union's source`);
  }
});

Deno.test("every code list names each member once, all of its union's, or only its superset's", () => {
  for (const [name, how] of Object.entries(LISTS)) {
    ok(how.list.length > 0, name);
    equal(new Set(how.list).size, how.list.length, `${name} names a code twice`);
    if (how.by === "every") deepEqual([...how.list].sort(), [...how.every].sort(), name);
    if (how.by === "within") {
      deepEqual(how.list.filter((code) => !how.within.includes(code)), [], name);
    }
  }
});

// The codes in the first column of the docs table whose header's first cell is `header`.
function tableCodes(file: string, header: string): string[] {
  const text = Deno.readTextFileSync(`${ROOT}${file}`);
  const start = text.split("\n").findIndex((line) =>
    new RegExp(`^\\|\\s*${header}\\s*\\|`).test(line)
  );
  ok(start >= 0, `${file} has a table headed ${header}`);
  const rows = [];
  for (const line of text.split("\n").slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(/^\|\s*`([^`]+)`/.exec(line)?.[1] ?? line);
  }
  return rows;
}

Deno.test("the docs tables of codes list every code of their list, once", () => {
  const tables: [string, string, readonly string[]][] = [
    ["docs/adapters.md", "code", MCP_ERROR_CODES],
    ["docs/code_mode.md", "`error.code`", RUN_ERROR_CODES],
    ["docs/gateway.md", "state", UPSTREAM_STATES],
    ["docs/gateway.md", "HOST", HOST_NAMES],
  ];
  for (const [file, header, codes] of tables) {
    deepEqual(tableCodes(file, header).sort(), [...codes].sort(), `${file}: ${header}`);
  }
});

Deno.test("docs/http.md names every bridge error code and search miss reason", () => {
  const text = Deno.readTextFileSync(`${ROOT}docs/http.md`);
  deepEqual(BRIDGE_ERROR_CODES.filter((code) => !text.includes(`\`${code}\``)), []);
  deepEqual(SEARCH_MISS_REASONS.filter((code) => !text.includes(`\`${code}\``)), []);
});
