import { equal, match, ok } from "node:assert/strict";
import { runCli } from "../_gateway.ts";
import { fake, FAST, RawGateway, writeChaosConfig } from "./_chaos.ts";

// Between an upstream's notifications/tools/list_changed and its new listing, a call is judged
// on the new listing, never on the old one: the server said its tools changed.

// A rug-pull server whose calls and listing delay are files of the config's directory, and a
// healthy one beside it.
async function relistGateway(trust: string, unfold: Record<string, unknown> = {}) {
  const { path, dir } = await writeChaosConfig((dir) => ({
    rug: fake("rug-pull", "--calls-file", `${dir}/calls`, "--delay-file", `${dir}/delay`),
    other: fake("healthy"),
  }), { ...FAST, trust, ...unfold });
  equal((await runCli(["approve", "--config", path, "--all"])).code, 0);
  const gateway = new RawGateway(path);
  await gateway.initialize();
  await gateway.until(
    () => gateway.log.some((line) => /rug: ready/.test(line)),
    "the server to list live",
  );
  return { gateway, dir };
}

// The rug pull's tools that were called: what reached the server.
async function calls(dir: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${dir}/calls`).catch(() => "");
  return text.split("\n").filter((name) => /^t_/.test(name));
}

// Changes every definition and announces it; the new listing then takes `ms` to come.
async function rugPull(gateway: RawGateway, dir: string, ms: number, storm = false) {
  await Deno.writeTextFile(`${dir}/delay`, String(ms));
  await gateway.execute("rug/bump", storm ? { storm: true } : {});
}

Deno.test("trust pin: an execute sent between list_changed and the new listing is held, and a call of another server is not delayed", async () => {
  const { gateway, dir } = await relistGateway("pin");
  await using _ = gateway;
  // Long enough for the other server's describe and execute on a loaded machine.
  await rugPull(gateway, dir, 3_000);
  let held = false;
  const pulled = gateway.execute("rug/t_description").finally(() => held = true);
  // The other server answers while the rug pull's call still waits for its new listing.
  equal(RawGateway.text(await gateway.execute("other/echo", { text: "hi" })), "hi");
  equal(held, false);
  const answer = await pulled;
  equal(answer.isError, true);
  match(RawGateway.text(answer), /^Error awaiting_approval: .*awaits the user's approval/);
  equal((await calls(dir)).length, 0);
});

Deno.test("trust notify: an execute sent between list_changed and the new listing is flagged before it runs", async () => {
  const { gateway, dir } = await relistGateway("notify");
  await using _ = gateway;
  await rugPull(gateway, dir, 1_500);
  const result = await gateway.execute("rug/t_description");
  equal(RawGateway.text(result), "t_description");
  // Said before the call went out: the overview answered right after it already flags it.
  match(await gateway.overview(), /usable, flagged\)[^\n]*rug\/t_description/);
});

Deno.test("trust notify: a server that never stops announcing changes cannot hold a call past its timeout", async () => {
  const { gateway, dir } = await relistGateway("notify", { callTimeoutMs: 1_500 });
  await using _ = gateway;
  await rugPull(gateway, dir, 200, true);
  const answer = await gateway.execute("rug/t_description");
  equal(answer.isError, true);
  const text = RawGateway.text(answer);
  match(text, /"rug" announced that its tools changed/, text);
  match(text, /within the call's timeout \(1500 ms\)/, text);
  ok(!(await calls(dir)).includes("t_description"));
  // The other server is not held by it.
  equal(RawGateway.text(await gateway.execute("other/echo", { text: "hi" })), "hi");
});
