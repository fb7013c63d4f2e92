/**
 * Why a search found what it found: the catalogue's own ranking of a query, and for each tool the
 * query words it matched, where and how (exactly, as another inflection, as a prefix, one typo
 * away, through a synonym, or by meaning alone). It reads the ranker from outside (its ranking and
 * the matching rules of `vocabulary.ts` and `expansion.ts`), so it never changes what a search
 * returns.
 *
 * @module
 */

import type { McpTool } from "../tool.ts";
import type { Lexicon } from "./word_sources.ts";
import { LEXICAL_DEFAULTS } from "./lexical_ranker.ts";
import { stripMarkup, tokenize } from "./terms.ts";
import { withoutDataRuns } from "./data_runs.ts";
import { type LearnedRuns, learnedWords } from "./learned.ts";
import {
  catalogueVocabulary,
  type ExplainedField,
  type ExplainMeter,
  type MatchKind,
  matchWord,
  searchable,
  toolIndex,
  wordCandidates,
} from "./explain_index.ts";
import type { Result } from "../result.ts";
export {
  EXPLAINED_FIELDS,
  type ExplainedField,
  type ExplainMeter,
  MATCH_KINDS,
  type MatchKind,
} from "./explain_index.ts";

/**
 * What an explanation reads of a catalogue: its tools, a tool by id and its own ranking
 * (`McpCatalog` is one). Declared here so that the ranking layer need not import the catalogue.
 */
export interface ExplainableCatalog {
  /** The tools. */
  readonly tools: readonly McpTool[];
  /** The number of tools. */
  readonly size: number;
  /** A tool by its id `server/name`, or `undefined`. */
  get(id: string): McpTool | undefined;
  /**
   * The catalogue's ranking of a query: ids and scores, best first, at most `limit`; lifted by
   * what the user ran when `options.learned` is given.
   */
  search(
    query: string,
    limit: number,
    options?: { learned?: LearnedRuns | undefined },
  ): readonly { id: string; score: number }[];
}

/** One query word matched in a tool. */
export interface WordMatch {
  /** The query word. */
  word: string;
  /** How it matched. */
  kind: MatchKind;
  /** The tool's word it reached (absent for `semantic`). */
  term?: string;
  /** Where that word is (absent for `semantic`). */
  field?: ExplainedField;
}

/** A tool with its place in the ranking and what it matched. */
export interface ExplainedTool {
  /** The tool's id. */
  id: string;
  /** Its 1-based place in the ranking, or `null` when the query does not rank it at all. */
  rank: number | null;
  /** Its score (rounded as search results are), or `null` when unranked. */
  score: number | null;
  /** Each query word it matched, closest match first. */
  matches: WordMatch[];
  /** The query words it did not match. */
  missing: string[];
  /**
   * Present when what the user ran lifted it: the share of the best score it gained (before the
   * bound, `../ranking/learned.ts`) and its place without it (`null`: not in the first results).
   */
  learned?: { share: number; rankWithout: number | null };
}

/** What {@linkcode explainSearch} returns. */
export interface SearchExplanation {
  /** The query's searchable words (markup, stop-words and overlong words left out). */
  words: string[];
  /** The ranked tools, best first, at most `limit`. */
  results: ExplainedTool[];
  /** The tool named by `id`, wherever it ranked, with a sentence saying why. */
  target?: ExplainedTool & { reason: string };
}

/** Options of {@linkcode explainSearch}. */
export interface ExplainOptions {
  /** The most ranked tools to explain. @default {10} */
  limit?: number;
  /** A tool the search was expected to find: where it ranked and why. */
  id?: string;
  /**
   * The thesaurus and synonyms the catalogue's ranker searches with, so that matches through
   * them read as `synonym`. @default {none}
   */
  lexicon?: Lexicon;
  /** Counts the lookups made in tools' indexes (tests and benchmarks). @default {none} */
  meter?: ExplainMeter;
  /** What the user ran, as their searches are lifted by it; each lifted tool says so. */
  learned?: LearnedRuns | undefined;
}

/** A failure of {@linkcode explainSearch}: the named tool is not in the catalogue. */
export interface ExplainError {
  /** Always `unknown_tool`. */
  code: "unknown_tool";
  /** What went wrong and what to do. */
  message: string;
}

// The ranker's matching rules, one source: its defaults.
const RULES = LEXICAL_DEFAULTS;

/**
 * Explains a search of a catalogue: its ranking (the catalogue's own, unchanged) and for each tool
 * which query words it matched and how; for a named tool that did not make the list, where it
 * ranked and why. Each tool's words are indexed once (on its first explanation), and each query
 * word's candidates once per call, so a call costs a few lookups per query word and shown tool.
 *
 * @param catalog The catalogue.
 * @param query The query, as the model sent it.
 * @param options How many results, which tool to look for, the thesaurus.
 * @returns The explanation, or an `unknown_tool` error for an `id` not in the catalogue.
 *
 * @example Usage
 * ```ts
 * import { explainSearch } from "./explain.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "fs", name: "read_file", description: "Read a file", inputSchema: { type: "object" } },
 *   { server: "fs", name: "write_file", description: "Write a file", inputSchema: { type: "object" } },
 * ]);
 * const explained = explainSearch(catalog, "reading files", { id: "fs/write_file" });
 * if (!explained.ok) throw new Error(explained.error.message);
 * equal(explained.value.results[0]?.id, "fs/read_file");
 * equal(explained.value.results[0]?.matches[0]?.kind, "inflection");
 * equal(explained.value.target?.missing[0], "reading");
 * ```
 */
export function explainSearch(
  catalog: ExplainableCatalog,
  query: string,
  options: ExplainOptions = {},
): Result<SearchExplanation, ExplainError> {
  const limit = Math.max(1, Math.floor(options.limit ?? 10));
  const target = options.id === undefined ? undefined : catalog.get(options.id);
  if (options.id !== undefined && target === undefined) {
    return {
      ok: false,
      error: {
        code: "unknown_tool",
        message: `Cannot explain ${
          JSON.stringify(options.id.slice(0, 200))
        }: the tool is not in this catalogue; name a tool by its id "server/tool"`,
      },
    };
  }
  const words = [...new Set(queryWords(query))];
  const learned = options.learned;
  const shown = catalog.search(query, limit, { learned });
  // What the prior lifted, and where each lifted tool ranked without it.
  const lift = learned?.lift(learnedWords(query)) ?? new Map<string, number>();
  const plain = lift.size === 0 ? [] : catalog.search(query, limit + lift.size).map((h) => h.id);
  const lifted = (id: string) => {
    const share = lift.get(id);
    if (share === undefined) return {};
    const at = plain.indexOf(id);
    return {
      learned: { share: Math.round(share * 1e3) / 1e3, rankWithout: at < 0 ? null : at + 1 },
    };
  };
  const vocabulary = catalogueVocabulary(catalog.tools);
  const candidates = words.map((word) => wordCandidates(word, vocabulary, options.lexicon));
  const meter = options.meter ?? { steps: 0 };
  const explain = (tool: McpTool, rank: number | null, score: number | null): ExplainedTool => {
    const index = toolIndex(tool);
    const matches = candidates.flatMap((c): WordMatch[] => {
      const match = matchWord(c, index, meter);
      return match === undefined ? [] : [{ word: c.word, ...match }];
    });
    const found = new Set(matches.map((m) => m.word));
    const missing = words.filter((word) => !found.has(word));
    const id = `${tool.server}/${tool.name}`;
    const why = rank === null ? {} : lifted(id);
    // Ranked without a shared word: the ranker's semantic match (word vectors) put it there,
    // unless what the user ran did.
    if (rank !== null && matches.length === 0 && words.length > 0 && why.learned === undefined) {
      matches.push(...words.map((word) => ({ word, kind: "semantic" as const })));
      missing.length = 0;
    }
    return { id, rank, score, matches, missing, ...why };
  };
  const results = shown.map((hit, i) => explain(catalog.get(hit.id)!, i + 1, hit.score));
  const value: SearchExplanation = { words, results };
  if (target !== undefined) {
    const id = `${target.server}/${target.name}`;
    const listed = results.find((r) => r.id === id);
    let place: ExplainedTool;
    if (listed !== undefined) place = listed;
    else {
      // Its place in the whole ranking: the catalogue is bounded, and this runs on request only.
      const all = catalog.search(query, Math.max(catalog.size, 1), { learned });
      const at = all.findIndex((hit) => hit.id === id);
      place = explain(target, at < 0 ? null : at + 1, at < 0 ? null : all[at]!.score);
    }
    value.target = { ...place, reason: reason(place, results, limit) };
  }
  return { ok: true, value };
}

// The sentence an operator reads first.
function reason(tool: ExplainedTool, results: readonly ExplainedTool[], limit: number): string {
  const quote = (list: readonly string[]) => list.map((w) => JSON.stringify(w)).join(", ");
  const matched = tool.matches.filter((m) => m.kind !== "semantic");
  const how = matched.length === 0
    ? ""
    : `it matches ${
      matched.map((m) => `${JSON.stringify(m.word)} (${m.kind}, ${m.field})`).join(", ")
    }`;
  const lacks = tool.missing.length === 0 ? "" : `it has no word for ${quote(tool.missing)}`;
  const ran = tool.learned === undefined
    ? ""
    : `what you ran lifted it (${
      tool.learned.rankWithout === null
        ? "not in the first results without it"
        : `ranked ${tool.learned.rankWithout} without it`
    })`;
  const both = [how, lacks, ran].filter((s) => s !== "").join("; ");
  if (tool.rank === null) {
    return `Not ranked: ${
      both === "" ? "the query has no searchable word" : both
    }; add the missing words to its description or to _meta["unfold/keywords"]`;
  }
  if (tool.rank <= Math.min(limit, results.length)) {
    return `Ranked ${tool.rank} of the ${results.length} shown${both === "" ? "" : `: ${both}`}`;
  }
  const last = results[results.length - 1];
  return `Ranked ${tool.rank}, below the ${results.length} shown (score ${tool.score}` +
    `${last === undefined ? "" : ` against ${last.score} for the last shown`})` +
    `${both === "" ? "" : `: ${both}`}`;
}

/**
 * The searchable words of a query, as the lexical ranker reads them.
 *
 * @param query The query.
 * @returns Its words, in order, with repeats.
 *
 * @example Usage
 * ```ts
 * import { queryWords } from "./explain.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(queryWords("Send <b>a</b> message"), ["send", "message"]);
 * ```
 */
export function queryWords(query: string): string[] {
  const text = RULES.stripMarkup ? stripMarkup(query) : query;
  return tokenize(withoutDataRuns(text, RULES.dataRunChars)).filter(searchable);
}
