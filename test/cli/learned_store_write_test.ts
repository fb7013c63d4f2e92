// What search learned is written as a transaction: two processes writing one scope's prior at
// once each keep the other's runs (counted over rounds, both writes started together), and a
// gateway whose prior was read before `unfold forget` does not write it back.
import { equal, ok } from "node:assert/strict";
import { fileLearnedStore, forgetLearned } from "../../src/cli/learned_store.ts";
import { LearnedRuns } from "../../src/ranking/learned.ts";
import type { LearnedScope } from "../../src/session/learned.ts";

const ROUNDS = 20;
const scope: LearnedScope = { face: "gateway", profile: "work", tenant: "" };

function runs(word: string, tool: string): LearnedRuns {
  const made = new LearnedRuns();
  made.record([word], tool);
  return made;
}

Deno.test(`two writers of one prior at once keep each other's runs (${ROUNDS} rounds)`, async () => {
  const dir = await Deno.makeTempDir();
  const one = fileLearnedStore(dir, () => {});
  const two = fileLearnedStore(dir, () => {});
  const mine = new LearnedRuns();
  const theirs = new LearnedRuns();
  let lost = 0;
  for (let round = 0; round < ROUNDS; round++) {
    mine.record([`a${round}`], `s/a${round}`);
    theirs.record([`b${round}`], `s/b${round}`);
    await Promise.all([one.write(scope, mine), two.write(scope, theirs)]);
    const read = (await one.read(scope))!;
    for (let r = 0; r <= round; r++) {
      if (read.lift([`a${r}`]).size === 0) lost++;
      if (read.lift([`b${r}`]).size === 0) lost++;
    }
  }
  equal(lost, 0, `${lost} learned runs lost over ${ROUNDS} rounds`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a prior read before unfold forget is not written back after it", async () => {
  const dir = await Deno.makeTempDir();
  const store = fileLearnedStore(dir, () => {});
  const held = runs("release", "repo/publish");
  await store.write(scope, held);
  ok((await store.read(scope)) !== undefined);
  equal(await forgetLearned(dir, "work"), 1);
  // The gateway's next write of the runs it read before the clear.
  held.record(["notes"], "repo/notes");
  await store.write(scope, held);
  equal(await store.read(scope), undefined, "the forgotten prior came back");
  // Read again after the clear, its new runs are kept.
  await store.write(scope, runs("weather", "maps/forecast"));
  equal((await store.read(scope))?.lift(["weather"]).size, 1);
  equal((await store.read(scope))?.lift(["release"]).size, 0);
  await Deno.remove(dir, { recursive: true });
});
