import { deepEqual, equal, match, ok } from "node:assert/strict";
import { type CliRun, runCli, startHttpGateway } from "../_gateway.ts";
import { fake, FAST, RawGateway, writeChaosConfig } from "./_chaos.ts";

// Runs the CLI to its end (approve, inspect) and returns what it wrote.
function run(...args: string[]): Promise<CliRun> {
  return runCli(args);
}

// One upstream whose echo is described anew after "bump"; the generation survives in a file, so
// the processes that unfold approve and unfold inspect start see the same definition.
function rugConfig(trust: string) {
  return writeChaosConfig((dir) => ({
    rug: fake("changing-definition", "--generation-file", `${dir}/generation`),
  }), { ...FAST, trust });
}

async function describes(gateway: RawGateway, name: string): Promise<boolean> {
  const found = await gateway.bridge({ action: "describe", name });
  return found.isError !== true;
}

Deno.test("trust pin: a definition changed after start is held until unfold approve, then works", async () => {
  const { path, dir } = await rugConfig("pin");
  const approved = await run("approve", "--config", path, "--all");
  equal(approved.code, 0, approved.stderr);
  match(approved.stdout, /approved rug\/echo/);
  const lock = JSON.parse(await Deno.readTextFile(`${dir}/unfold.lock.json`));
  equal(lock.version, 2);
  match(lock.tools["rug/echo"].definition.description, /^Echoes its text/);

  await using gateway = new RawGateway(path);
  await gateway.initialize();
  equal(RawGateway.text(await gateway.execute("rug/echo", { text: "before" })), "before");
  // The rug pull: echo's description changes behind the user's back.
  await gateway.execute("rug/bump");
  await gateway.until(
    async () =>
      /awaiting the user's approval[^\n]*rug\/echo[^\n]*changed: description/.test(
        await gateway.overview(),
      ),
    "the overview to hold echo",
  );
  equal(await describes(gateway, "rug/echo"), false);
  const held = await gateway.bridge({
    action: "execute",
    name: "rug/echo",
    arguments: { text: "x" },
  });
  equal(held.isError, true);
  const search = await gateway.bridge({ action: "search", query: "echoes its text" });
  ok(!RawGateway.text(search).includes("rug/echo"), RawGateway.text(search));
  await gateway.until(
    () =>
      gateway.log.some((line) =>
        /rug\/echo changed since approved \(description\): held/.test(line)
      ),
    "the held line on stderr",
  );
  const inspected = await run("inspect", "--config", path);
  match(inspected.stdout, /rug\/echo: changed \(description\), held until approved/);

  const again = await run("approve", "--config", path, "rug/echo");
  equal(again.code, 0, again.stderr);
  await gateway.until(() => describes(gateway, "rug/echo"), "the approval to apply");
  ok(!/awaiting the user's approval/.test(await gateway.overview()));
  equal(RawGateway.text(await gateway.execute("rug/echo", { text: "after" })), "after");
});

Deno.test("trust notify: a definition changed after start still works and is flagged", async () => {
  const { path } = await rugConfig("notify");
  equal((await run("approve", "--config", path, "--all")).code, 0);
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  await gateway.execute("rug/bump");
  await gateway.until(
    async () =>
      /not approved yet \(usable, flagged\)[^\n]*rug\/echo/.test(await gateway.overview()),
    "the flag in the overview",
  );
  equal(RawGateway.text(await gateway.execute("rug/echo", { text: "still" })), "still");
  await gateway.until(
    () =>
      gateway.log.some((line) =>
        /rug\/echo changed since approved \(description\): still usable/.test(line)
      ),
    "the flag on stderr",
  );
  const inspected = await run("inspect", "--config", path, "--json");
  const rug = JSON.parse(inspected.stdout).servers[0];
  equal(rug.unapproved[0].name, "echo");
  equal(rug.unapproved[0].change, "changed");
});

Deno.test("trust without a lock file: notify says so once, pin holds every tool", async () => {
  const { path } = await rugConfig("pin");
  await using gateway = new RawGateway(path);
  await gateway.initialize();
  match(await gateway.overview(), /No tool definition is approved yet \(trust: pin\)/);
  equal(await describes(gateway, "rug/echo"), false);
  // A name the server lacks: the server is up, its tools await approval (not "try again later").
  const other = RawGateway.text(await gateway.bridge({ action: "describe", name: "rug/ech" }));
  match(other, /"rug" is configured but its tools await the user's approval; describe "rug\//);
  await gateway.until(
    () => gateway.log.some((line) => /no tool definition is approved yet .*"pin"/.test(line)),
    "the pin line on stderr",
  );

  const notify = await rugConfig("notify");
  await using open = new RawGateway(notify.path);
  await open.initialize();
  equal(RawGateway.text(await open.execute("rug/echo", { text: "ok" })), "ok");
  await open.until(
    () => open.log.filter((line) => /no tool definition is approved yet/.test(line)).length === 1,
    "one line on stderr",
  );
});

Deno.test("a lock file that is not JSON is a config error of one line", async () => {
  const { path, dir } = await rugConfig("pin");
  await Deno.writeTextFile(`${dir}/unfold.lock.json`, "{not json");
  const result = await run("inspect", "--config", path);
  equal(result.code, 1);
  equal(result.stderr.trim().split("\n").length, 1, result.stderr);
  match(result.stderr, /unfold\.lock\.json is not JSON/);
});

Deno.test("/status lists each upstream's tools awaiting approval", async () => {
  const { path } = await rugConfig("pin");
  await using gateway = await startHttpGateway(path);
  const status = await (await fetch(gateway.url.replace(/\/mcp$/, "/status"))).json();
  const rug = status.servers.find((s: { server: string }) => s.server === "rug");
  const echo = rug.unapproved.find((u: { name: string }) => u.name === "echo");
  deepEqual([echo.change, echo.held], ["new", true]);
  // The page shows what would be approved: the live value of each field (nothing approved yet).
  const description = echo.changes.find((c: { field: string }) => c.field === "description");
  deepEqual([description.approved, description.live], [null, '"Echoes its text (definition 0)"']);
  equal(rug.tools, 0);
});
