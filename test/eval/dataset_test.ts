import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { half, loadEvalData, parseQuery } from "../../bench/eval/dataset.ts";
import { DATA_DIR } from "../_data.ts";

Deno.test("parseQuery() prefers gold groups and makes each plain gold id its own group", () => {
  deepEqual(parseQuery({ id: "t", query: "q", gold: ["a"], gold_groups: [["a", "b"]] }, 0), {
    group: "t",
    query: "q",
    gold: [["a", "b"]],
  });
  deepEqual(parseQuery({ task_id: "t", query: "q", gold: ["a", "b"] }, 0)?.gold, [["a"], ["b"]]);
});

Deno.test("parseQuery() skips a query without gold and rejects malformed lines", () => {
  equal(parseQuery({ query: "q", gold_groups: [] }, 3), undefined);
  equal(parseQuery({ query: "q" }, 3), undefined);
  throws(() => parseQuery({ gold: ["a"] }, 3), /query 3/);
  throws(() => parseQuery({ query: "q", gold: [1] }, 3), TypeError);
});

Deno.test("half() splits groups stably and into both halves", () => {
  deepEqual(["task-0", "task-1"].map(half), ["B", "A"]);
  const groups = Array.from({ length: 40 }, (_, i) => `task-${i}`);
  const halves = groups.map(half);
  deepEqual(groups.map(half), halves);
  ok(halves.includes("A") && halves.includes("B"));
});

Deno.test("loadEvalData() reads the catalogue, servers and every query set, sorted", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const tool = { server: "s", name: "a", description: "", inputSchema: { type: "object" } };
    Deno.writeTextFileSync(`${dir}/catalogue.json`, JSON.stringify([tool]));
    Deno.writeTextFileSync(
      `${dir}/servers.json`,
      JSON.stringify([{ server: "s", title: "S", category: "x" }]),
    );
    Deno.writeTextFileSync(
      `${dir}/b.jsonl`,
      `{"id":"1","query":"q","gold_groups":[["s/a"]]}\n{"id":"2","query":"r","gold_groups":[]}\n`,
    );
    Deno.writeTextFileSync(`${dir}/a.jsonl`, `{"task_id":"1","query":"q","gold":["s/a"]}\n`);
    const data = loadEvalData(dir);
    equal(data.tools.length, 1);
    deepEqual(data.servers, [{ server: "s", title: "S" }]);
    deepEqual(data.sets.map((s) => [s.name, s.queries.length, s.skipped]), [
      ["a", 1, 0],
      ["b", 1, 1],
    ]);
    Deno.removeSync(`${dir}/servers.json`);
    deepEqual(loadEvalData(dir).servers, []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("loadEvalData() reads a tools.json server map when there is no catalogue.json", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const schema = { type: "object" };
    Deno.writeTextFileSync(
      `${dir}/tools.json`,
      JSON.stringify({
        srv: [
          { name: "a", description: "First", inputSchema: schema },
          { name: "b", description: "Second", inputSchema: schema },
        ],
      }),
    );
    Deno.writeTextFileSync(
      `${dir}/q.jsonl`,
      `{"task_id":"t","query":"x","gold_groups":[["srv/a","srv/b"]]}\n`,
    );
    const data = loadEvalData(dir);
    deepEqual(data.tools, [
      { name: "a", description: "First", inputSchema: schema, server: "srv" },
      { name: "b", description: "Second", inputSchema: schema, server: "srv" },
    ]);
    deepEqual(data.servers, []);
    deepEqual(data.sets, [
      { name: "q", queries: [{ group: "t", query: "x", gold: [["srv/a", "srv/b"]] }], skipped: 0 },
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("loadEvalData() throws when a directory has neither catalogue.json nor tools.json", () => {
  const dir = Deno.makeTempDirSync();
  try {
    throws(() => loadEvalData(dir), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("loadEvalData() loads testdata/real-servers: 228 tools, 150 everyday queries with known gold", () => {
  const data = loadEvalData(`${DATA_DIR}/real-servers`);
  equal(data.tools.length, 228);
  const ids = new Set(data.tools.map((tool) => `${tool.server}/${tool.name}`));
  equal(ids.size, 228);
  const everyday = data.sets.find((set) => set.name === "everyday");
  ok(everyday !== undefined, data.sets.map((set) => set.name).join(", "));
  equal(everyday.queries.length, 150);
  equal(everyday.skipped, 0);
  for (const query of everyday.queries) {
    ok(query.gold.length > 0, query.group);
    for (const id of query.gold.flat()) ok(ids.has(id), `${query.group}: ${id}`);
  }
});

Deno.test("the MetaTool development set loads: every gold tool is in its catalogue, both halves used", () => {
  const data = loadEvalData(new URL("../../testdata/metatool", import.meta.url).pathname);
  const ids = new Set(data.tools.map((t) => `${t.server}/${t.name}`));
  deepEqual(data.sets.map((s) => [s.name, s.queries.length, s.skipped]), [
    ["metatool_multi", 497, 0],
    ["metatool_single", 796, 0],
  ]);
  for (const set of data.sets) {
    for (const q of set.queries) ok(q.gold.flat().every((id) => ids.has(id)), q.query);
    const a = set.queries.filter((q) => half(q.group) === "A").length;
    ok(a > set.queries.length / 3 && a < (set.queries.length * 2) / 3, `${set.name}: ${a} in A`);
  }
});

Deno.test("the ETOM development set loads: 103 long requests whose gold tools are all in its catalogue", () => {
  const data = loadEvalData(new URL("../../testdata/etom", import.meta.url).pathname);
  const ids = new Set(data.tools.map((t) => `${t.server}/${t.name}`));
  equal(ids.size, 2375);
  equal(data.servers.length, 491);
  deepEqual(data.sets.map((s) => [s.name, s.queries.length, s.skipped]), [["etom_tasks", 103, 0]]);
  const [set] = data.sets;
  for (const q of set!.queries) {
    ok(q.gold.length > 0 && q.gold.flat().every((id) => ids.has(id)), q.group);
  }
  // Long requests: what this set is for.
  ok(set!.queries.filter((q) => q.query.length > 500).length > 50);
  const a = set!.queries.filter((q) => half(q.group) === "A").length;
  ok(a > 103 / 3 && a < (103 * 2) / 3, `${a} in A`);
});
