import { deepEqual, equal, ok } from "node:assert/strict";
import { fileLearnedStore, forgetLearned, learnedFolder } from "../../src/cli/learned_store.ts";
import { LearnedRuns, MAX_LEARNED_BYTES } from "../../src/ranking/learned.ts";
import type { LearnedScope } from "../../src/session/learned.ts";

const scope: LearnedScope = { face: "gateway", profile: "work", tenant: "" };

function runs(word: string, tool: string): LearnedRuns {
  const made = new LearnedRuns();
  made.record([word], tool);
  return made;
}

async function files(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      if (at === dir && entry.name === "locks") continue; // the writers' locks, no prior
      if (entry.isDirectory) await walk(`${at}/${entry.name}`);
      else found.push(`${at}/${entry.name}`.slice(dir.length + 1));
    }
  };
  await walk(dir);
  return found.sort();
}

Deno.test("the file store keeps each scope's prior in its own file, written atomically, 0600", async () => {
  const dir = await Deno.makeTempDir();
  const store = fileLearnedStore(dir, () => {});
  await store.write(scope, runs("release", "repo/publish"));
  await store.write({ ...scope, tenant: "t1" }, runs("weather", "maps/forecast"));
  await store.write({ ...scope, face: "http", profile: "" }, runs("notes", "repo/notes"));
  equal((await store.read(scope))?.lift(["release"]).get("repo/publish"), 0.5);
  equal((await store.read(scope))?.lift(["weather"]).size, 0);
  equal((await store.read({ ...scope, tenant: "t1" }))?.lift(["weather"]).size, 1);
  const written = await files(dir);
  equal(written.length, 3);
  ok(written.every((f) => f.startsWith("learned/") && f.endsWith(".json")), `${written}`);
  ok(!written.some((f) => f.includes("work") || f.includes("t1")), "names never become paths");
  if (Deno.build.os !== "windows") {
    equal((await Deno.stat(`${dir}/${written[0]}`)).mode! & 0o777, 0o600);
  }
});

Deno.test("a write takes in what another process kept meanwhile", async () => {
  const dir = await Deno.makeTempDir();
  const one = fileLearnedStore(dir, () => {});
  const two = fileLearnedStore(dir, () => {});
  await one.write(scope, runs("release", "repo/publish"));
  await two.write(scope, runs("weather", "maps/forecast"));
  const read = (await one.read(scope))!;
  equal(read.lift(["release"]).size, 1);
  equal(read.lift(["weather"]).size, 1);
});

Deno.test("a stored file that is too large, not a regular file or not a prior is ignored, said once", async () => {
  const dir = await Deno.makeTempDir();
  const lines: string[] = [];
  const store = fileLearnedStore(dir, (line) => lines.push(line));
  await store.write(scope, new LearnedRuns());
  const [file] = await files(dir);
  const path = `${dir}/${file}`;
  await Deno.writeTextFile(path, "x".repeat(MAX_LEARNED_BYTES + 10_000));
  equal(await store.read(scope), undefined);
  await Deno.writeTextFile(path, '{"format":"unfold-learned/1","tick":1,"words":[["a",7]]}');
  equal(await store.read(scope), undefined);
  await Deno.remove(path);
  await Deno.mkdir(path);
  equal(await store.read(scope), undefined);
  equal(lines.length, 3, lines.join("\n"));
  // And no stored file: nothing to say.
  equal(await store.read({ ...scope, tenant: "new" }), undefined);
  equal(lines.length, 3);
});

Deno.test("unfold forget clears one profile's priors or all, and marks the store cleared", async () => {
  const dir = await Deno.makeTempDir();
  let now = 0;
  const store = fileLearnedStore(dir, () => {}, { now: () => now });
  await store.write(scope, runs("release", "repo/publish"));
  await store.write({ ...scope, profile: "home" }, runs("weather", "maps/forecast"));
  await store.write({ face: "http", profile: "", tenant: "" }, runs("notes", "repo/notes"));
  const before = await store.generation!();
  equal(await forgetLearned(dir, "work"), 1);
  equal(await store.read(scope), undefined);
  ok((await store.read({ ...scope, profile: "home" })) !== undefined);
  // The store looks for a clear at most once a second of its clock.
  equal(await store.generation!(), before);
  now += 1000;
  const after = await store.generation!();
  ok(after !== before);
  equal(await forgetLearned(dir), 2);
  deepEqual((await files(dir)).filter((f) => f.endsWith(".json")), []);
  ok((await learnedFolder(dir, "gateway", "work")).startsWith(`${dir}/learned/gateway/p-`));
  // Forgetting what was never learned is not an error.
  equal(await forgetLearned(await Deno.makeTempDir()), 0);
});
