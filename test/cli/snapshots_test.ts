import { deepEqual, equal, match } from "node:assert/strict";
import { fileSnapshotStore, MAX_SNAPSHOT_BYTES } from "../../src/cli/snapshots.ts";
import { canonicalJson, sha256Hex } from "../../src/canonical_json.ts";

const CONFIG = { server: "demo", command: "demo-server", args: ["--x"], env: { TOKEN: "a" } };
const TOOL = {
  server: "demo",
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object" },
};

async function setup() {
  const dir = await Deno.makeTempDir({ prefix: "unfold-snapshots-" });
  const warnings: string[] = [];
  const store = fileSnapshotStore(dir, (line) => warnings.push(line));
  const file = `${dir}/snapshots/${await sha256Hex(canonicalJson(CONFIG))}.json`;
  return { dir, warnings, store, file };
}

Deno.test("fileSnapshotStore() keeps a listing under the hash of the config entry, atomically", async () => {
  const { dir, warnings, store, file } = await setup();
  equal(await store.read(CONFIG), undefined);
  await store.write(CONFIG, { tools: [TOOL], instructions: "Notes" });
  deepEqual(await store.read(CONFIG), { tools: [TOOL], instructions: "Notes" });
  // The same entry with its keys in another order is the same entry.
  const reordered = { env: { TOKEN: "a" }, args: ["--x"], command: "demo-server", server: "demo" };
  deepEqual((await store.read(reordered))?.tools, [TOOL]);
  // Any change to the entry (here a variable's value) starts without a snapshot.
  equal(await store.read({ ...CONFIG, env: { TOKEN: "b" } }), undefined);
  // Only the snapshot is left: the temporary file was renamed over it.
  deepEqual([...Deno.readDirSync(`${dir}/snapshots`)].map((e) => e.name), [file.split("/").pop()]);
  deepEqual(warnings, []);
});

Deno.test("fileSnapshotStore() ignores a corrupt, foreign or oversized snapshot with one line", async () => {
  const { warnings, store, file } = await setup();
  await store.write(CONFIG, { tools: [TOOL] });
  await Deno.writeTextFile(file, '{"tools": [');
  equal(await store.read(CONFIG), undefined);
  equal(warnings.length, 1);
  match(warnings[0]!, /ignoring the snapshot of "demo"/);
  await Deno.writeTextFile(file, '{"tools": 3}');
  equal(await store.read(CONFIG), undefined);
  match(warnings[1]!, /no list of tools/);
  // Entries a live listing would refuse are refused here too.
  await Deno.writeTextFile(file, JSON.stringify({ tools: [{ name: "x" }, TOOL], instructions: 4 }));
  deepEqual(await store.read(CONFIG), { tools: [TOOL] });
  await Deno.writeTextFile(file, " ".repeat(MAX_SNAPSHOT_BYTES + 1));
  equal(await store.read(CONFIG), undefined);
  match(warnings[2]!, /over 16777216 bytes/);
  equal(warnings.length, 3);
});

Deno.test("fileSnapshotStore() writes no snapshot over the size cap", async () => {
  const { store, file, warnings } = await setup();
  const huge = { ...TOOL, description: "d".repeat(MAX_SNAPSHOT_BYTES) };
  await store.write(CONFIG, { tools: [huge] });
  equal(await Deno.stat(file).then(() => true, () => false), false);
  deepEqual(warnings, []);
});

Deno.test("fileSnapshotStore() keeps at most its bound of files, the latest written, 0600", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-snapshots-" });
  const warnings: string[] = [];
  const store = fileSnapshotStore(dir, (line) => warnings.push(line), 8);
  // A config entry edited 30 times: each version is a new snapshot file.
  for (let version = 0; version < 30; version++) {
    await store.write({ ...CONFIG, env: { TOKEN: `v${version}` } }, { tools: [TOOL] });
  }
  const names = [...Deno.readDirSync(`${dir}/snapshots`)].map((e) => e.name);
  equal(names.length, 8, names.join(", "));
  deepEqual((await store.read({ ...CONFIG, env: { TOKEN: "v29" } }))?.tools, [TOOL]);
  if (Deno.build.os !== "windows") {
    for (const name of names) {
      equal((await Deno.stat(`${dir}/snapshots/${name}`)).mode! & 0o777, 0o600, name);
    }
    equal((await Deno.stat(`${dir}/snapshots`)).mode! & 0o777, 0o700);
  }
  deepEqual(warnings, []);
  await Deno.remove(dir, { recursive: true });
});
