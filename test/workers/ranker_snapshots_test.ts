import { deepEqual, ok, throws } from "node:assert/strict";
import { ROOT } from "../_deno.ts";
import * as stand_ins from "../../src/workers/_ranker_snapshots.ts";
import * as lexical from "../../src/ranking/lexical_snapshot.ts";
import * as names from "../../src/ranking/name_snapshot.ts";
import * as semantic from "../../src/ranking/semantic_snapshot.ts";
import * as parts from "../../src/ranking/ranker_snapshot.ts";

const MODULES = [
  "lexical_snapshot.ts",
  "name_snapshot.ts",
  "semantic_snapshot.ts",
  "ranker_snapshot.ts",
];
const STAND_IN = "./src/workers/_ranker_snapshots.ts";

Deno.test("the gateway Worker's stand-ins export what the ranker's snapshot modules export", () => {
  const real = [lexical, names, semantic, parts].flatMap((module) => Object.keys(module));
  deepEqual(Object.keys(stand_ins).sort(), [...new Set(real)].sort());
});

Deno.test("every import of the ranker's snapshot modules is aliased to the stand-ins in wrangler.gateway.toml", async () => {
  const toml = await Deno.readTextFile(`${ROOT}wrangler.gateway.toml`);
  const specifiers = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/\.[jt]s$/.test(entry.name)) {
        const code = await Deno.readTextFile(path);
        // Imports and re-exports, not the doc comments' examples.
        for (const [, specifier] of code.matchAll(/^(?:import|export)[^;]*? from "([^"]*)"/gm)) {
          if (MODULES.some((module) => specifier!.endsWith(`/${module}`))) {
            specifiers.add(specifier!);
          }
        }
      }
    }
  };
  await walk(`${ROOT}src`);
  ok(specifiers.size >= MODULES.length, [...specifiers].join(", "));
  for (const specifier of specifiers) {
    ok(
      toml.includes(`\n"${specifier}" = "${STAND_IN}"\n`),
      `wrangler.gateway.toml does not alias ${specifier}`,
    );
  }
});

Deno.test("a stand-in says why it cannot run; nothing is a stored index", () => {
  throws(() => stand_ins.decodeLexicalParts(), /decodeLexicalParts\) is not in the gateway Worker/);
  throws(() => stand_ins.joinParts(), /never stores or restores an index/);
  throws(() => new stand_ins.StoredPostings(), /StoredPostings/);
});
