import { deepEqual, equal, rejects } from "node:assert/strict";
import { backgroundRanker, denoRankerOptions } from "../../src/ranking/deno_ranker.ts";
import type { RankerFactory } from "../../src/ranking/ranker.ts";
import { McpCatalog } from "../../mod.ts";
import { tool } from "../_data.ts";

const TOOLS = [tool("s", "a"), tool("s", "b")];
// Each fake ranker answers with its own tool, so the answer says which one is in use.
const answering = (id: string): RankerFactory => () => ({
  search: () => [{ id, score: 1 }],
});

Deno.test("backgroundRanker() answers with the fallback until the load has run, then with it", async () => {
  let run: (() => void) | undefined;
  const ranker = backgroundRanker({
    load: () => answering("s/b"),
    fallback: answering("s/a"),
    schedule: (r) => run = r,
  });
  const catalog = new McpCatalog(TOOLS, { ranker });
  // Nothing is loaded while the process starts: searches get the fallback.
  deepEqual(catalog.search("x", 1).map((m) => m.id), ["s/a"]);
  run!();
  await ranker.ready;
  deepEqual(catalog.search("x", 1).map((m) => m.id), ["s/b"]);
});

Deno.test("backgroundRanker() builds each catalogue's index once per ranker in use", () => {
  let builds = 0;
  let run: (() => void) | undefined;
  const counted = (id: string): RankerFactory => (...args) => {
    builds++;
    return answering(id)(...args);
  };
  const ranker = backgroundRanker({
    load: () => counted("s/b"),
    fallback: counted("s/a"),
    schedule: (r) => run = r,
  });
  const index = ranker(TOOLS, { servers: [] });
  for (let i = 0; i < 3; i++) index.search("x", 1);
  run!();
  for (let i = 0; i < 3; i++) index.search("x", 1);
  equal(builds, 2);
});

Deno.test("backgroundRanker() keeps the fallback when the load fails, and says so in ready", async () => {
  let run: (() => void) | undefined;
  const ranker = backgroundRanker({
    load: () => {
      throw new Error("no tables");
    },
    fallback: answering("s/a"),
    schedule: (r) => run = r,
  });
  run!();
  await rejects(ranker.ready, /no tables/);
  deepEqual(ranker(TOOLS, { servers: [] }).search("x", 1), [{ id: "s/a", score: 1 }]);
});

Deno.test("backgroundRanker() states the load's cost with the given clock", async () => {
  let t = 0;
  const ranker = backgroundRanker({
    load: () => answering("s/b"),
    schedule: (r) => r(),
    now: () => (t += 7),
  });
  equal(await ranker.ready, 7);
});

Deno.test("the Deno default's ranker ranks a request in everyday words by meaning", async () => {
  const tools = [
    tool("img", "resize_image", "Resize an image to a width and height"),
    tool("mail", "send_email", "Send an email message"),
  ];
  const ranker = backgroundRanker({ schedule: (r) => r() });
  await ranker.ready;
  equal(
    new McpCatalog(tools, { ranker }).search("make my photo smaller", 1)[0]?.id,
    "img/resize_image",
  );
  equal(Boolean(denoRankerOptions().vectors), true);
  equal(Boolean(denoRankerOptions().thesaurus), true);
});

Deno.test("backgroundRanker() restores a stored index only once loaded, and snapshots the ranker in use", async () => {
  const tools = [tool("fs", "read_file"), tool("fs", "write_file")];
  let run: (() => void) | undefined;
  const ranker = backgroundRanker({ schedule: (r) => run = r });
  // The fallback's (lexical) snapshot, before the load.
  const early = ranker(tools, { servers: [] });
  early.search("read", 1);
  const lexical = early.snapshot!();
  equal(ranker.restore!(tools, { servers: [] }, lexical), undefined);
  run!();
  await ranker.ready;
  const built = ranker(tools, { servers: [] });
  built.search("read", 1);
  const stored = built.snapshot!();
  equal(ranker.restore!(tools, { servers: [] }, lexical), undefined);
  const restored = ranker.restore!(tools, { servers: [] }, stored);
  deepEqual(restored?.search("read a file", 2), built.search("read a file", 2));
});
