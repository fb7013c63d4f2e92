// Concurrent writers lose nothing: two setups of two hosts into one unfold config at once, and a
// host writing its own file between setup's write and its rename (the commit hook gives it that
// turn every round, so the race is met each time, not by chance), for setup and for --undo.
import { deepEqual, equal, ok } from "node:assert/strict";
import { json, sandbox } from "./_sandbox.ts";

const ROUNDS = 100;

Deno.test("two setups at once, and two undos at once, lose nothing (100 rounds)", async () => {
  await using box = await sandbox();
  const cursor = `${box.home}/.cursor/mcp.json`;
  const windsurf = `${box.home}/.codeium/windsurf/mcp_config.json`;
  for (let round = 0; round < ROUNDS; round++) {
    await box.write(cursor, json({ mcpServers: { [`c${round}`]: { command: "c" } } }));
    await box.write(windsurf, json({ mcpServers: { [`w${round}`]: { command: "w" } } }));
    const originals = [await box.read(cursor), await box.read(windsurf)];
    const runs = await Promise.all([box.run("cursor"), box.run("windsurf")]);
    for (const run of runs) equal(run.code, 0, run.err.join("\n"));
    const config = await box.json(box.config);
    deepEqual(Object.keys(config.mcpServers as object).sort(), [`c${round}`, `w${round}`].sort());
    deepEqual(Object.keys((config.unfold as { profiles: object }).profiles).sort(), [
      "cursor",
      "windsurf",
    ]);
    for (const file of [cursor, windsurf]) {
      deepEqual(Object.keys((await box.json(file)).mcpServers as object), ["unfold"]);
    }
    const undos = await Promise.all([
      box.run("cursor", { undo: true }),
      box.run("windsurf", { undo: true }),
    ]);
    for (const run of undos) equal(run.code, 0, run.err.join("\n"));
    deepEqual([await box.read(cursor), await box.read(windsurf)], originals);
    equal(await Deno.stat(box.config).then(() => true, () => false), false, `round ${round}`);
  }
});

Deno.test("a host writing its file while setup and --undo write it loses nothing (100 rounds)", async () => {
  await using box = await sandbox();
  const file = `${box.home}/.gemini/settings.json`;
  let turns = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await box.write(file, json({ theme: "Dracula", mcpServers: { memory: { command: "m" } } }));
    // The host writes at setup's first try on its file: a setting, and a server (`mcp add`).
    let written = false;
    const host = (key: string, server?: string) => ({
      beforeRename(target: string) {
        turns++;
        if (written || target !== file) return;
        written = true;
        const data = JSON.parse(Deno.readTextFileSync(file));
        data[key] = round;
        if (server !== undefined) data.mcpServers[server] = { command: server };
        Deno.writeTextFileSync(file, JSON.stringify(data, null, 2));
      },
    });
    const before = turns;
    const done = await box.run("gemini", { hooks: host("during-setup", "late") });
    equal(done.code, 0, done.err.join("\n"));
    ok(turns - before >= 3, "the host file was not written again after the host's write");
    const set = await box.json(file);
    equal(set["during-setup"], round);
    deepEqual(Object.keys(set.mcpServers as object), ["unfold"]);
    deepEqual(Object.keys((await box.json(box.config)).mcpServers as object), ["memory", "late"]);
    written = false;
    const undone = await box.run("gemini", { undo: true, hooks: host("during-undo") });
    equal(undone.code, 0, undone.err.join("\n"));
    deepEqual(await box.json(file), {
      theme: "Dracula",
      mcpServers: { memory: { command: "m" }, late: { command: "late" } },
      "during-setup": round,
      "during-undo": round,
    });
  }
});
