import { equal, ok, throws } from "node:assert/strict";
import { installedTrims, trimModule, TRIMS } from "../../scripts/build_mcp_standins.ts";
import * as stand_ins from "../../src/workers/_mcp_standins.ts";
import { ROOT } from "../_deno.ts";

const root = new URL(`file://${ROOT}`);
const AGAIN = "deno run --allow-read --allow-write=src/workers scripts/build_mcp_standins.ts";

Deno.test(`the gateway Worker's trimmed SDK chunks are what the installed SDK gives (else run: ${AGAIN})`, async () => {
  const toml = await Deno.readTextFile(new URL("wrangler.gateway.toml", root));
  for (const { output, module, aliases } of await installedTrims(root)) {
    equal(await Deno.readTextFile(new URL(output, root)), module, output);
    for (const alias of aliases) {
      ok(toml.includes(`\n${alias}\n`), `wrangler.gateway.toml lacks ${alias}`);
    }
  }
});

Deno.test("every name that stands in for the SDK's has its stand-in, and nothing else does", () => {
  equal(
    TRIMS.flatMap((trim) => trim.standIns).sort().join(),
    Object.keys(stand_ins).sort().join(),
  );
});

Deno.test("a trimmed chunk re-exports every other name under its letter, and refuses a name the SDK dropped", () => {
  const trim = {
    pkg: "server" as const,
    anchor: "McpServer",
    standIns: ["McpServer"],
    output: "x.js",
    specifier: "sdk/_chunk",
  };
  const text = trimModule("export { Server as r, McpServer as t, completable as b };", trim);
  ok(text.includes('  r, // Server\n} from "sdk/_chunk";'), text);
  ok(text.includes("  b, // completable\n"), text);
  ok(text.includes('  McpServer as t,\n} from "./_mcp_standins.ts";'), text);
  ok(!text.includes("t, // McpServer"), text);
  throws(() => trimModule("export { Server as r };", trim), /no longer exports McpServer/);
});

Deno.test("a stand-in says why it cannot run; nothing is an McpServer", () => {
  throws(() => stand_ins.auth(), /OAuth client flow is not in the gateway Worker/);
  throws(() => stand_ins.findScopeChallenge(), /scope challenge is not in the gateway Worker/);
  throws(() => new stand_ins.McpServer(), /serves the low-level Server/);
  ok(!({} instanceof stand_ins.McpServer));
});
