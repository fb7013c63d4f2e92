// `unfold setup --undo` as the inverse of what setup did, against the files as they are now: what
// the host or the user wrote since stays, what was in unfold's config before stays, records are
// per file, and each thing it cannot undo is said with why.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { json, sandbox } from "./_sandbox.ts";

const MEMORY = { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] };
const GITHUB = { command: "npx", args: ["-y", "github-mcp"], env: { TOKEN: "t" } };

Deno.test("--undo keeps what the host wrote since setup: its other keys, a server it added", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  await box.write(file, json({ mcpServers: { memory: MEMORY } }));
  equal((await box.run("cursor")).code, 0);
  // The host rewrites its file its own way: a new key, a server added beside unfold's entry.
  const now = await box.json(file);
  now.theme = "dark";
  (now.mcpServers as Record<string, unknown>).added = { command: "added-since" };
  await box.write(file, JSON.stringify(now));
  const undone = await box.run("cursor", { undo: true });
  equal(undone.code, 0, undone.err.join("\n"));
  deepEqual(await box.json(file), {
    mcpServers: { added: { command: "added-since" }, memory: MEMORY },
    theme: "dark",
  });
  deepEqual(undone.out, [
    `Undid setup in ${file} (user): put back memory; took out the unfold entry`,
    `Removed ${box.config}: setup had made it`,
  ]);
});

Deno.test("a server and a profile the user had in unfold's config survive setup and --undo", async () => {
  await using box = await sandbox();
  const mine = {
    mcpServers: { memory: MEMORY, github: { command: "my-github" } },
    unfold: { profiles: { cursor: { servers: ["github"], tokens: ["s3cret"] } } },
  };
  await box.write(box.config, json(mine));
  const before = await box.read(box.config);
  const file = `${box.home}/.cursor/mcp.json`;
  await box.write(file, json({ mcpServers: { memory: MEMORY, github: GITHUB } }));
  const done = await box.run("cursor");
  equal(done.code, 0, done.err.join("\n"));
  const set = await box.json(box.config);
  deepEqual(Object.keys(set.mcpServers as object), ["memory", "github", "cursor-github"]);
  deepEqual((set.unfold as { profiles: unknown }).profiles, {
    cursor: { servers: ["github", "memory", "cursor-github"], tokens: ["s3cret"] },
  });
  ok(done.out.includes(
    `Renamed github to cursor-github in ${box.config}: "github" is another server in unfold's config`,
  ));
  const undone = await box.run("cursor", { undo: true });
  equal(undone.code, 0, undone.err.join("\n"));
  // Only what setup added went: the config is byte for byte the user's again.
  equal(await box.read(box.config), before);
  deepEqual(await box.json(file), { mcpServers: { memory: MEMORY, github: GITHUB } });
});

Deno.test("--undo says what it could not undo, and why, and undoes the rest", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  const servers = { memory: MEMORY, github: GITHUB, fs: { command: "fs" }, db: { command: "db" } };
  await box.write(file, json({ mcpServers: servers }));
  equal((await box.run("cursor")).code, 0);
  // Since setup: the user took github out of unfold's config, changed fs there, wrote tokens
  // into the profile; the host wrote another db, and a server of its own in unfold's entry's place.
  const config = await box.json(box.config);
  const moved = config.mcpServers as Record<string, Record<string, unknown>>;
  delete moved.github;
  moved.fs = { command: "fs", args: ["--fixed"] };
  const profile = (config.unfold as { profiles: Record<string, Record<string, unknown>> }).profiles
    .cursor!;
  profile.servers = (profile.servers as string[]).filter((s) => s !== "github");
  profile.tokens = ["t0ken"];
  await box.write(box.config, json(config));
  const host = await box.json(file);
  const entries = host.mcpServers as Record<string, Record<string, unknown>>;
  entries.db = { command: "the-hosts-own-db" };
  entries.unfold = { command: "my-own-unfold" };
  await box.write(file, json(host));
  const undone = await box.run("cursor", { undo: true });
  equal(undone.code, 0, undone.err.join("\n"));
  deepEqual(undone.out, [
    `Undid setup in ${file} (user): put back memory, fs`,
    `Took servers memory out of ${box.config}`,
    `Not undone: kept unfold in ${file}: changed since setup, it no longer starts unfold's gateway`,
    `Not undone: github not put back into ${file}: it was taken out of ${box.config} since setup`,
    `Not undone: kept fs in ${box.config}: changed there since setup (${file} has fs as it was ` +
    `before setup again)`,
    `Not undone: db not put back into ${file}: the file has another db since setup (kept, and the ` +
    `moved one stays in ${box.config} as db)`,
    `Not undone: kept profile cursor in ${box.config}: changed by hand since setup (tokens)`,
  ]);
  const after = await box.json(file);
  deepEqual(Object.keys(after.mcpServers as object).sort(), ["db", "fs", "memory", "unfold"]);
  deepEqual((after.mcpServers as Record<string, unknown>).db, { command: "the-hosts-own-db" });
  const left = await box.json(box.config);
  deepEqual(Object.keys(left.mcpServers as object), ["fs", "db"]);
  deepEqual((left.unfold as { profiles: unknown }).profiles, {
    cursor: { servers: ["fs", "db"], tokens: ["t0ken"] },
  });
});

Deno.test("a profile setup made and the user added a server to stays, and --undo says so", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  await box.write(file, json({ mcpServers: { memory: MEMORY } }));
  equal((await box.run("cursor")).code, 0);
  const config = await box.json(box.config);
  (config.mcpServers as Record<string, unknown>).mine = { command: "mine" };
  const profile = (config.unfold as { profiles: Record<string, { servers: string[] }> }).profiles
    .cursor!;
  profile.servers.push("mine");
  await box.write(box.config, json(config));
  const undone = await box.run("cursor", { undo: true });
  equal(undone.code, 0);
  ok(
    undone.out.includes(
      `Not undone: kept profile cursor in ${box.config}: it lists servers setup did not add or kept (mine)`,
    ),
    undone.out.join("\n"),
  );
  deepEqual(await box.json(box.config), {
    mcpServers: { mine: { command: "mine" } },
    unfold: { profiles: { cursor: { servers: ["mine"] } } },
  });
});

Deno.test("records and backups are per file: --file undoes that file alone, and says which", async () => {
  await using box = await sandbox();
  const user = `${box.home}/.cursor/mcp.json`;
  const other = `${box.dir}/elsewhere/mcp.json`;
  await box.write(user, json({ mcpServers: { memory: MEMORY } }));
  await box.write(other, json({ mcpServers: { github: GITHUB } }));
  const [userBytes, otherBytes] = [await box.read(user), await box.read(other)];
  equal((await box.run("cursor")).code, 0);
  equal((await box.run("cursor", { file: other })).code, 0);
  const records = [...Deno.readDirSync(`${box.dir}/unfold/setup/cursor`)].map((e) => e.name).sort();
  equal(records.length, 2, records.join(", "));
  for (const name of records) {
    equal(Deno.statSync(`${box.dir}/unfold/setup/cursor/${name}`).mode! & 0o777, 0o600);
  }
  equal(Deno.statSync(`${box.dir}/unfold/setup`).mode! & 0o777, 0o700);
  const one = await box.run("cursor", { undo: true, file: other });
  equal(one.code, 0, one.err.join("\n"));
  match(one.out[0]!, new RegExp(`^Restored ${other} as it was before setup$`));
  equal(await box.read(other), otherBytes);
  ok((await box.read(user)).includes('"unfold"'), "the other file was undone too");
  deepEqual(Object.keys((await box.json(box.config)).mcpServers as object), ["memory"]);
  const again = await box.run("cursor", { undo: true, file: other });
  equal(again.code, 1);
  match(
    again.err[0]!,
    /^unfold: nothing to undo for Cursor in .*elsewhere\/mcp\.json: no record of setup in /,
  );
  const rest = await box.run("cursor", { undo: true });
  equal(rest.code, 0, rest.err.join("\n"));
  equal(await box.read(user), userBytes);
});

Deno.test("an invalid unfold config makes --undo fail in one line, and nothing is undone", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  await box.write(file, json({ mcpServers: { memory: MEMORY } }));
  equal((await box.run("cursor")).code, 0);
  const hostBytes = await box.read(file);
  await box.write(box.config, '{"mcpServers": {,}');
  const undone = await box.run("cursor", { undo: true });
  equal(undone.code, 1);
  deepEqual(undone.err, [
    `unfold: ${box.config}: not JSON (ValueExpected at line 1, column 17): nothing was undone`,
  ]);
  equal(await box.read(file), hostBytes);
  equal(await box.read(box.config), '{"mcpServers": {,}');
});

Deno.test("a second setup moves what the host added since, and --undo puts back both runs' servers", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.gemini/settings.json`;
  await box.write(file, json({ theme: "Dracula", mcpServers: { memory: MEMORY } }));
  const original = await box.read(file);
  equal((await box.run("gemini")).code, 0);
  const twice = await box.run("gemini");
  deepEqual(twice.out, [`Gemini CLI already starts unfold (${file}): nothing to change`]);
  const host = await box.json(file);
  (host.mcpServers as Record<string, unknown>).github = GITHUB;
  await box.write(file, json(host));
  const second = await box.run("gemini");
  match(second.out[0]!, /^Moved 1 server \(github\) from /);
  deepEqual(
    ((await box.json(box.config)).unfold as { profiles: unknown }).profiles,
    { gemini: { servers: ["memory", "github"] } },
  );
  const undone = await box.run("gemini", { undo: true });
  equal(undone.code, 0, undone.err.join("\n"));
  deepEqual(await box.json(file), {
    theme: "Dracula",
    mcpServers: { memory: MEMORY, github: GITHUB },
  });
  ok((await box.read(file)) !== original); // github is back too: not the first run's bytes
});

Deno.test("a host file setup made goes with --undo, unless the host wrote to it since", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  // A host with no file yet but servers elsewhere: windsurf has one, cursor none; setup of a
  // file with no servers writes nothing.
  const none = await box.run("cursor");
  deepEqual(none.out, [`Found no servers for Cursor to move (${file}): nothing was written`]);
  equal(await Deno.stat(file).then(() => true, () => false), false);
  equal(await Deno.stat(box.config).then(() => true, () => false), false);
  // Claude Code's local scope has servers: the file exists, the servers' object is made, and
  // goes again.
  const claude = `${box.home}/.claude.json`;
  await box.write(
    claude,
    json({ projects: { [box.project]: { mcpServers: { memory: MEMORY } } } }),
  );
  const original = await box.read(claude);
  equal((await box.run("claude-code")).code, 0);
  const edited = await box.json(claude);
  edited.numStartups = 4;
  await box.write(claude, json(edited));
  equal((await box.run("claude-code", { undo: true })).code, 0);
  deepEqual(await box.json(claude), { ...JSON.parse(original), numStartups: 4 });
});

Deno.test("a setup that stops half way takes back what it wrote: the files, the records", async () => {
  await using box = await sandbox();
  const claude = `${box.home}/.claude.json`;
  const project = `${box.project}/.mcp.json`;
  await box.write(
    claude,
    json({ projects: { [box.project]: { mcpServers: { memory: MEMORY } } } }),
  );
  await box.write(project, json({ mcpServers: { github: GITHUB } }));
  // The project's file changes at every try: setup gives up on it after writing ~/.claude.json.
  let writes = 0;
  const hooks = {
    beforeRename(target: string) {
      if (target !== project) return;
      writes++;
      const data = JSON.parse(Deno.readTextFileSync(project));
      data.busy = writes;
      Deno.writeTextFileSync(project, JSON.stringify(data));
    },
  };
  const run = await box.run("claude-code", { hooks });
  equal(run.code, 1);
  deepEqual(run.err, [
    `unfold: ${project} kept changing while setup wrote it (10 tries); nothing was changed`,
  ]);
  equal(writes, 10);
  deepEqual(await box.json(claude), {
    projects: { [box.project]: { mcpServers: { memory: MEMORY } } },
  });
  deepEqual(await box.json(project), { mcpServers: { github: GITHUB }, busy: 10 });
  equal(await Deno.stat(box.config).then(() => true, () => false), false);
  deepEqual([...Deno.readDirSync(`${box.dir}/unfold/setup/claude-code`)], []);
});

Deno.test("--undo --dry-run shows each file's change and what it would say, and writes nothing", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.cursor/mcp.json`;
  await box.write(file, json({ mcpServers: { memory: MEMORY, github: GITHUB } }));
  equal((await box.run("cursor")).code, 0);
  const config = await box.json(box.config);
  delete (config.mcpServers as Record<string, unknown>).github;
  await box.write(box.config, json(config));
  const [hostBytes, configBytes] = [await box.read(file), await box.read(box.config)];
  const records = await Array.fromAsync(Deno.readDir(`${box.dir}/unfold/setup/cursor`));
  const dry = await box.run("cursor", { undo: true, dryRun: true });
  equal(dry.code, 0, dry.err.join("\n"));
  ok(dry.out.some((line) => line.includes(`+++ ${file}`)), dry.out.join("\n"));
  deepEqual(dry.out.slice(-5), [
    "--undo would say:",
    `  Undid setup in ${file} (user): put back memory; took out the unfold entry`,
    `  Removed ${box.config}: setup had made it`,
    `  Not undone: github not put back into ${file}: it was taken out of ${box.config} since setup`,
    "Dry run: nothing was written.",
  ]);
  deepEqual([await box.read(file), await box.read(box.config)], [hostBytes, configBytes]);
  deepEqual(await Array.fromAsync(Deno.readDir(`${box.dir}/unfold/setup/cursor`)), records);
});
