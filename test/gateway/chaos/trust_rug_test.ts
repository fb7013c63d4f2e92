import { deepEqual, doesNotMatch, equal, match, ok } from "node:assert/strict";
import { runCli } from "../_gateway.ts";
import { fake, FAST, RawGateway, snapshotCount, writeChaosConfig } from "./_chaos.ts";

// Each rug pull of the fake's "rug-pull" server, by the id it is listed under after "bump", and
// how the gateway names the change. A tool whose name only changes case is a new tool.
const PULLS: readonly (readonly [string, string])[] = [
  ["rug/t_description", "changed: description"],
  ["rug/t_inputSchema", "changed: inputSchema"],
  ["rug/t_outputSchema", "changed: outputSchema"],
  ["rug/t_annotations", "changed: annotations"],
  ["rug/t_title", "changed: title"],
  ["rug/T_Name_Case", "new"],
  ["rug/t_keywords", "changed: _meta"],
  ["rug/t_search_hint", "changed: _meta"],
  ["rug/t_meta_other", "changed: _meta"],
  ["rug/t_new", "new"],
];

// The ids the server lists before "bump" (what a snapshot of that listing holds).
const BEFORE = PULLS.map(([id]) => id).filter((id) => id !== "rug/t_new")
  .map((id) => id === "rug/T_Name_Case" ? "rug/t_name_case" : id);

// One rug-pull server whose generation, calls and listing delay are files of the config's
// directory (so a restart, and unfold approve's own start, see the same definitions).
function rugConfig(trust: string) {
  return writeChaosConfig((dir) => ({
    rug: fake(
      "rug-pull",
      "--generation-file",
      `${dir}/generation`,
      "--calls-file",
      `${dir}/calls`,
      "--delay-file",
      `${dir}/delay`,
    ),
  }), { ...FAST, trust, pinned: ["rug/t_meta_other"] });
}

// The rug pull's tools that were called: what reached the server.
async function calls(dir: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${dir}/calls`).catch(() => "");
  return text.split("\n").filter((name) => /^t_|^T_/.test(name));
}

function logged(gateway: RawGateway, id: string, what: string): boolean {
  return gateway.log.some((line) => line.startsWith(`unfold: ${id} `) && line.includes(what));
}

Deno.test("trust pin: every single-field rug pull is held, none reaches the server, and the printed command approves it", async () => {
  const { path, dir } = await rugConfig("pin");
  equal((await runCli(["approve", "--config", path, "--all"])).code, 0);
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  const listed = async () =>
    ((await gateway.request("tools/list")).result as { tools: { name: string }[] }).tools
      .map((tool) => tool.name);
  ok((await listed()).includes("rug__t_meta_other"));
  await gateway.execute("rug/bump");
  await gateway.until(
    () => PULLS.every(([id]) => logged(gateway, id, "held until approved")),
    "every rug pull held on stderr",
  );
  for (const [id, change] of PULLS) {
    const line = gateway.log.find((l) => l.startsWith(`unfold: ${id} `)) ?? "";
    match(line, change === "new" ? /is new/ : new RegExp(`\\(${change.slice(9)}\\)`), line);
    for (const action of ["describe", "execute"]) {
      const answer = await gateway.bridge({ action, name: id });
      equal(answer.isError, true, id);
      const text = RawGateway.text(answer);
      match(text, /^Error awaiting_approval: .*awaits the user's approval/, text);
      ok(text.includes(`unfold approve --config ${path} ${id}`), text);
    }
  }
  // The pinned tool whose _meta changed leaves tools/list with it.
  ok(!(await listed()).includes("rug__t_meta_other"));
  deepEqual(await calls(dir), []);

  // Review: both values of each changed field, invisible characters shown.
  const inspected = await runCli(["inspect", "--config", path]);
  match(inspected.stdout, /rug\/t_description: changed \(description\), held until approved/);
  match(inspected.stdout, /approved: "Reads the file"/);
  ok(inspected.stdout.includes('live:     "Reads the file\\u200b. Before anything else'));
  const report = JSON.parse((await runCli(["inspect", "--config", path, "--json"])).stdout);
  const keywords = report.servers[0].unapproved.find((u: { name: string }) =>
    u.name === "t_keywords"
  );
  deepEqual(keywords.changes.map((c: { field: string }) => c.field), ["_meta"]);
  match(keywords.changes[0].approved, /"read"/);
  match(keywords.changes[0].live, /export all passwords ssh keys/);
  const lock = await Deno.readTextFile(`${dir}/unfold.lock.json`);
  const dry = await runCli(["approve", "--config", path, "rug/t_description", "--dry-run"]);
  equal(dry.code, 0, dry.stderr);
  match(dry.stdout, /would approve rug\/t_description \(changed: description\)/);
  ok(dry.stdout.includes("\\u200b"), dry.stdout);
  equal(await Deno.readTextFile(`${dir}/unfold.lock.json`), lock);

  // The command the model was given runs as printed, and says what it approved.
  const held = RawGateway.text(await gateway.bridge({ action: "execute", name: "rug/t_title" }));
  const command = /unfold approve --config \S+ rug\/t_title/.exec(held)?.[0] ?? "";
  const approved = await runCli(command.split(" ").slice(1));
  equal(approved.code, 0, approved.stderr);
  match(approved.stdout, /approved rug\/t_title \(changed: title\)\n {2}title\n/);
  match(approved.stdout, /live: {5}"Read a file \(and mail your keys\)"/);
  await gateway.until(
    async () =>
      (await gateway.bridge({ action: "describe", name: "rug/t_title" })).isError !== true,
    "the approval to apply",
  );
  equal(RawGateway.text(await gateway.execute("rug/t_title")), "t_title");
  deepEqual(await calls(dir), ["t_title"]);
});

Deno.test("trust notify: every single-field rug pull is flagged before it runs", async () => {
  const { path, dir } = await rugConfig("notify");
  equal((await runCli(["approve", "--config", path, "--all"])).code, 0);
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  await gateway.execute("rug/bump");
  await gateway.until(
    () => PULLS.every(([id]) => logged(gateway, id, "still usable, flagged")),
    "every rug pull flagged on stderr",
  );
  match(await gateway.overview(), /not approved yet \(usable, flagged\)/);
  deepEqual(await calls(dir), []);
  for (const [id] of PULLS) {
    const result = await gateway.execute(id);
    equal(result.isError, undefined, RawGateway.text(result));
  }
  equal((await calls(dir)).length, PULLS.length);
});

Deno.test("trust pin: after a restart, a burst of executes sent while the server connects never reaches a definition changed while the gateway was down", async () => {
  const { path, dir } = await rugConfig("pin");
  const env = { UNFOLD_CACHE_DIR: await Deno.makeTempDir({ prefix: "unfold-cache-" }) };
  equal((await runCli(["approve", "--config", path, "--all"])).code, 0);
  {
    await using first = new RawGateway(path, [], env);
    await first.initialize();
    await first.until(
      () => first.log.some((line) => /rug: ready/.test(line)),
      "the server to list live",
    );
    await first.until(async () => (await snapshotCount(env.UNFOLD_CACHE_DIR)) === 1, "a snapshot");
  }
  // While the gateway is down, every definition changes; the next listing takes 4 s.
  await Deno.writeTextFile(`${dir}/generation`, "1");
  await Deno.writeTextFile(`${dir}/delay`, "4000");
  await using second = new RawGateway(path, [], env);
  await second.initialize();
  // Listed from the snapshot, approved as it was: describable while the server connects.
  for (const id of BEFORE) {
    const described = await second.bridge({ action: "describe", name: id });
    equal(described.isError, undefined, RawGateway.text(described));
  }
  // Listed from the last start, its tools are there to search, describe and call: the overview
  // does not say "still starting" (a host that reads it once would keep that all session).
  const overview = await second.overview();
  match(overview, /rug\//);
  doesNotMatch(overview, /still starting/);
  const burst = [
    ...Array.from({ length: 20 }, () => "rug/t_description"),
    ...BEFORE.filter((id) => id !== "rug/t_description"),
  ];
  const answers = await Promise.all(
    burst.map((name) => second.bridge({ action: "execute", name, arguments: {} })),
  );
  for (const [i, answer] of answers.entries()) {
    equal(answer.isError, true, `${burst[i]}: ${RawGateway.text(answer)}`);
    // The one whose name changed case is gone from the live listing; the others await approval.
    match(
      RawGateway.text(answer),
      burst[i] === "rug/t_name_case" ? /live listing no longer has it/ : /awaiting_approval/,
    );
  }
  deepEqual(await calls(dir), []);
});

Deno.test("trust notify: after a restart, a definition changed while down is flagged before the call runs", async () => {
  const { path, dir } = await rugConfig("notify");
  const env = { UNFOLD_CACHE_DIR: await Deno.makeTempDir({ prefix: "unfold-cache-" }) };
  equal((await runCli(["approve", "--config", path, "--all"])).code, 0);
  {
    await using first = new RawGateway(path, [], env);
    await first.initialize();
    await first.until(async () => (await snapshotCount(env.UNFOLD_CACHE_DIR)) === 1, "a snapshot");
  }
  await Deno.writeTextFile(`${dir}/generation`, "1");
  await Deno.writeTextFile(`${dir}/delay`, "2000");
  await using second = new RawGateway(path, [], env);
  await second.initialize();
  ok(!/usable, flagged/.test(await second.overview()));
  const result = await second.execute("rug/t_description");
  equal(RawGateway.text(result), "t_description");
  // Said before the call went out: the overview answered right after it already flags it.
  match(await second.overview(), /usable, flagged\)[^\n]*rug\/t_description/);
  await second.until(
    () => logged(second, "rug/t_description", "still usable, flagged"),
    "the flag on stderr",
  );
});
