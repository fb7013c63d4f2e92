import { deepEqual, equal, ok } from "node:assert/strict";
import { coreModule, installedCore, OUTPUT } from "../../scripts/build_mcp_core.ts";
import { ROOT, runDeno } from "../_deno.ts";

const root = new URL(`file://${ROOT}`);
const read = (path: string) => Deno.readTextFile(new URL(path, root));
const AGAIN = "deno run --allow-read --allow-write=src/workers scripts/build_mcp_core.ts";

Deno.test(`the gateway Worker's one MCP core is what the installed SDK gives (else run: ${AGAIN})`, async () => {
  const { module, aliases } = await installedCore(root);
  equal(await read(OUTPUT), module);
  const toml = await read("wrangler.gateway.toml");
  for (const alias of aliases) {
    ok(toml.includes(`\n${alias}\n`), `wrangler.gateway.toml lacks ${alias}`);
  }
});

Deno.test("the code copied from the client's chunk uses nothing it does not import or declare", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-mcp-core-" });
  try {
    await Deno.copyFile(new URL(OUTPUT, root), `${dir}/core.js`);
    const { stdout } = await runDeno([
      "lint",
      "--no-config",
      "--rules-tags=",
      "--rules-include=no-undef",
      "--json",
      `${dir}/core.js`,
    ]);
    const { diagnostics } = JSON.parse(stdout) as { diagnostics: { message: string }[] };
    deepEqual(diagnostics.map((d) => d.message), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a name only the client's chunk exports is copied with what it uses, the rest re-exported from the server's", () => {
  const client = [
    'import { OAuthTokensSchema } from "@modelcontextprotocol/core/internal";',
    "class SdkError extends Error {}",
    "const LIMIT = 5;",
    "function fetchLeavingRedirects() {}",
    "function within(url) {",
    "\treturn url.length < LIMIT && OAuthTokensSchema.safeParse(url).success;",
    "}",
    "function fetchWithinOrigin(url) {",
    "\tif (!within(url)) throw new SdkError(`No ${url}: see fetchLeavingRedirects`);",
    "}",
    "export { Protocol as v, fetchWithinOrigin as s, SdkError as e };",
  ].join("\n");
  const text = coreModule(client, "export { Protocol as g, SdkError as Kt };");
  ok(text.includes("g as v, // Protocol"), text);
  ok(text.includes("Kt as e, // SdkError"), text);
  // The server's copy of a class, not a second one.
  ok(text.includes("Kt as SdkError,"), text);
  ok(!text.includes("class SdkError"), text);
  ok(text.includes("fetchWithinOrigin as s,"), text);
  ok(text.includes('OAuthTokensSchema,\n} from "@modelcontextprotocol/core/internal"'), text);
  ok(text.indexOf("const LIMIT") < text.indexOf("function within"), text);
  // The words of a template literal are not code.
  ok(!text.includes("function fetchLeavingRedirects"), text);
});
