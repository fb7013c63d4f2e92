import { deepEqual, equal, ok } from "node:assert/strict";
import { type LearnedScope, type LearnedStore, Learning } from "../../src/session/learned.ts";
import { LearnedRuns } from "../../src/ranking/learned.ts";

const scope: LearnedScope = { face: "gateway", profile: "", tenant: "" };
const lifted = async (learning: Learning, s: LearnedScope, words: string[]) =>
  (await learning.prior(s)).lift(words);

// A store in memory that counts its reads and writes, and can fail.
function memoryStore(fail = false) {
  const kept = new Map<string, string>();
  let generation = "g0";
  const counts = { reads: 0, writes: 0 };
  const key = (s: LearnedScope) => JSON.stringify(s);
  const store: LearnedStore = {
    read: (s) => {
      counts.reads++;
      if (fail) return Promise.reject(new Error("disk gone"));
      const text = kept.get(key(s));
      return Promise.resolve(text === undefined ? undefined : LearnedRuns.parse(JSON.parse(text)));
    },
    write: (s, runs) => {
      counts.writes++;
      if (fail) return Promise.reject(new Error("disk gone"));
      kept.set(key(s), JSON.stringify(runs));
      return Promise.resolve();
    },
    generation: () => Promise.resolve(generation),
  };
  return { store, counts, kept, clear: () => (kept.clear(), generation = `${generation}+`) };
}

Deno.test("an execute is recorded against the session's searches since its last execute", async () => {
  const learning = new Learning(undefined);
  learning.searched(scope, "s", "ship the release notes");
  learning.searched(scope, "s", "create a release");
  ok(await learning.executed(scope, "s", "repo/publish", "bridge"));
  deepEqual([...(await lifted(learning, scope, ["ship"])).keys()], ["repo/publish"]);
  deepEqual([...(await lifted(learning, scope, ["create"])).keys()], ["repo/publish"]);
  // A second execute after the same searches shares them; a later search starts afresh.
  ok(await learning.executed(scope, "s", "chat/post", "bridge"));
  equal((await lifted(learning, scope, ["notes"])).size, 2);
  learning.searched(scope, "s", "weather in Paris");
  ok(await learning.executed(scope, "s", "maps/forecast", "bridge"));
  equal((await lifted(learning, scope, ["notes"])).has("maps/forecast"), false);
});

Deno.test("only the bridge's own executes teach search: not a pinned call, not a script's", async () => {
  const learning = new Learning(undefined);
  learning.searched(scope, "s", "release notes");
  equal(await learning.executed(scope, "s", "repo/publish", "pinned"), false);
  equal(await learning.executed(scope, "s", "repo/publish", "script"), false);
  equal((await lifted(learning, scope, ["release"])).size, 0);
  // An execute without a search before it teaches nothing either.
  equal(await learning.executed(scope, "other", "repo/publish", "bridge"), false);
});

Deno.test("scopes never share: faces, profiles and tenants each learn alone", async () => {
  const learning = new Learning(undefined);
  const scopes: LearnedScope[] = [
    scope,
    { face: "gateway", profile: "work", tenant: "" },
    { face: "gateway", profile: "", tenant: "t1" },
    { face: "http", profile: "", tenant: "" },
  ];
  learning.searched(scopes[0]!, "s", "release notes");
  await learning.executed(scopes[0]!, "s", "repo/publish", "bridge");
  equal((await lifted(learning, scopes[0]!, ["release"])).size, 1);
  for (const other of scopes.slice(1)) {
    equal((await lifted(learning, other, ["release"])).size, 0, JSON.stringify(other));
    // The same session name in another scope is another session.
    equal(await learning.executed(other, "s", "repo/publish", "bridge"), false);
  }
});

Deno.test("sessions and priors in memory are bounded", async () => {
  const learning = new Learning(undefined, { maxSessions: 3, maxScopes: 2 });
  for (let i = 0; i < 10; i++) learning.searched(scope, `s${i}`, "release notes");
  equal(await learning.executed(scope, "s0", "repo/publish", "bridge"), false);
  ok(await learning.executed(scope, "s9", "repo/publish", "bridge"));
});

Deno.test("writes go one at a time per scope, coalesced; a failing store is said once, never thrown", async () => {
  const { store, counts } = memoryStore();
  const learning = new Learning(store);
  // Twenty sessions executing at once: writes that come while one is going wait for the next.
  for (let i = 0; i < 20; i++) learning.searched(scope, `s${i}`, `release notes ${i}`);
  await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) => learning.executed(scope, `s${i}`, "repo/publish", "bridge"),
    ),
  );
  await learning.settled();
  ok(counts.writes >= 1 && counts.writes < 5, `${counts.writes} writes`);
  equal(counts.reads, 1);
  equal((await lifted(learning, scope, ["19"])).size, 1);
  const lines: string[] = [];
  const failing = new Learning(memoryStore(true).store, { log: (line) => lines.push(line) });
  failing.searched(scope, "s", "release notes");
  ok(await failing.executed(scope, "s", "repo/publish", "bridge"));
  failing.searched(scope, "s", "release notes again");
  ok(await failing.executed(scope, "s", "repo/publish", "bridge"));
  await failing.settled();
  equal(lines.length, 1);
  ok(lines[0]!.includes("disk gone"));
  // What it learned still lifts, for the life of the process.
  equal((await lifted(failing, scope, ["release"])).size, 1);
});

Deno.test("a cleared store (unfold forget) drops what a running process had read", async () => {
  const memory = memoryStore();
  const learning = new Learning(memory.store);
  learning.searched(scope, "s", "release notes");
  await learning.executed(scope, "s", "repo/publish", "bridge");
  await learning.settled();
  equal((await lifted(learning, scope, ["release"])).size, 1);
  memory.clear();
  equal((await lifted(learning, scope, ["release"])).size, 0);
  // And a later run starts the new prior, which the store then keeps.
  learning.searched(scope, "s", "weather report");
  await learning.executed(scope, "s", "maps/forecast", "bridge");
  await learning.settled();
  ok([...memory.kept.values()][0]!.includes("maps/forecast"));
  equal([...memory.kept.values()][0]!.includes("repo/publish"), false);
});
