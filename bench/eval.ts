/**
 * The retrieval evaluation: unfold's default ranker (through `McpCatalog.search`, with server
 * information), the Deno default (with word vectors), the opt-in thesaurus on top of it,
 * MiniSearch with default options and a plain BM25 baseline, side by side on every development
 * set: LiveMCPBench (`route_dev`, `tasks`), the everyday requests over the real servers, and
 * MetaTool's queries (`metatool_single`, `metatool_multi`) and ETOM's long task requests
 * (`etom_tasks`), each set also on its two halves.
 *
 * Run: `deno task eval [--data DIR] [--json] [--rounds N] [--ablation [--deno]] [--replay [--deno]]`
 *
 * `--replay` instead replays every set as a user's sessions (`eval/replay.ts`): each query in its
 * recorded order searched with what the user ran before it, then its tools run; it prints what the
 * learned prior gains, and what a tool run 1,000 times for the set's commonest words costs.
 *
 * `--ablation` instead compares unfold's default ranker with itself with one technique switched
 * off (or one opt-in on) at a time, and then applies the rule for defaults: a variant holds when
 * no half of any set loses more than 0.005 of nDCG@10 or R@5. `--ablation --deno` does the same
 * for the Deno default (the default with word vectors).
 *
 * Queries go to every ranker exactly as they were written (route_dev queries keep their
 * `<tool_assistant>` wrapper): coping with what agents really send is part of the ranker's job.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { defaultDataDir, type EvalData, loadEvalData } from "./eval/dataset.ts";
import { exactRate, readServerMap } from "./eval/exact.ts";
import { renderAblation, renderReport, renderRule } from "./eval/report.ts";
import { type ContenderResult, evaluate } from "./eval/run.ts";
import { ABLATION, CONTENDERS, DENO_ABLATION } from "./eval/contenders.ts";
import { renderReplay, replay } from "./eval/replay.ts";
import { createLexicalRanker } from "../src/ranking/lexical_ranker.ts";
import { denoRankerOptions } from "../src/ranking/deno_ranker.ts";

/** The development sets beside LiveMCPBench, by directory (each holds its own query sets). */
const BESIDE = ["real-servers", "metatool", "etom"];

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      data: { type: "string" },
      json: { type: "boolean", default: false },
      rounds: { type: "string", default: "3" },
      ablation: { type: "boolean", default: false },
      deno: { type: "boolean", default: false },
      replay: { type: "boolean", default: false },
    },
  });
  const dir = values.data ?? defaultDataDir();
  if (dir === undefined) {
    throw new Error("Cannot find the LiveMCPBench data: pass --data DIR or set UNFOLD_DATA_DIR");
  }
  // With --data, only that directory: another data directory has its own sets.
  const dirs = [
    dir,
    ...(values.data === undefined
      ? BESIDE.map((name) => `${dir}/../${name}`).filter(hasQuerySets)
      : []),
  ];
  if (values.replay) {
    const ranker = createLexicalRanker(values.deno ? denoRankerOptions() : {});
    const results = dirs.flatMap((d) => replay(loadEvalData(d), ranker));
    // deno-lint-ignore no-console
    console.log(values.json ? JSON.stringify(results, null, 2) : renderReplay(results));
    Deno.exit(0);
  }
  const contenders = values.ablation ? (values.deno ? DENO_ABLATION : ABLATION) : CONTENDERS;
  const runs = dirs.map((d) => {
    const data = loadEvalData(d);
    return { data, results: evaluate(data, contenders, { rounds: Number(values.rounds) }) };
  });
  // Exact lookups with the default ranker and the Deno default, on this catalogue and the
  // real-server one next to it.
  const first = runs[0]!.data;
  const realServers = readServerMap(`${dir}/../real-servers/tools.json`);
  const deno = createLexicalRanker(denoRankerOptions());
  const exact = {
    [first.dir]: exactRate(first.tools, first.servers),
    [`${first.dir}, Deno default`]: exactRate(first.tools, first.servers, deno),
    ...(realServers === undefined ? {} : {
      "real-servers": exactRate(realServers),
      "real-servers, Deno default": exactRate(realServers, [], deno),
    }),
  };
  const exactLines = Object.entries(exact).map(([name, r]) =>
    `exact lookups at rank 1 (${name}): ids ${r.ids.hits}/${r.ids.total}, ` +
    `unique names ${r.names.hits}/${r.names.total}`
  );
  const render = values.ablation ? renderAblation : renderReport;
  // deno-lint-ignore no-console
  console.log(
    values.json
      ? JSON.stringify(
        {
          data: dir,
          tools: first.tools.length,
          results: runs[0]!.results,
          exact,
          beside: runs.slice(1).map(({ data, results }) => ({
            data: data.dir,
            tools: data.tools.length,
            results,
          })),
        },
        null,
        2,
      )
      : [
        ...runs.map(({ data, results }) => `${heading(data)}\n\n${render(results)}`),
        exactLines.join("\n"),
        ...(values.ablation
          ? [`The rule for defaults, every development set:\n\n${renderRule(merge(runs))}`]
          : []),
      ].join("\n"),
  );
}

function heading(data: EvalData): string {
  return `${data.tools.length} tools, ${data.servers.length} servers described, ${data.dir}: ${
    data.sets.map((set) => `${set.name}, ${set.queries.length} queries`).join("; ")
  }`;
}

// Each contender's results over every directory as one result.
function merge(runs: readonly { results: ContenderResult[] }[]): ContenderResult[] {
  return runs[0]!.results.map((r, i) => ({
    ...r,
    sets: runs.flatMap((run) => run.results[i]!.sets),
  }));
}

function hasQuerySets(dir: string): boolean {
  try {
    return [...Deno.readDirSync(dir)].some((entry) =>
      entry.isFile && entry.name.endsWith(".jsonl")
    );
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}
