// The config's declaration gives the JSON Schema editors read and the docs' key table: the
// committed ones must be what it gives, and the schema must say what the parser says.
import { deepEqual, equal, ok } from "node:assert/strict";
import { Ajv } from "ajv";
import { parseGatewayConfig, poolOptions } from "../../../src/gateway/config/parse.ts";
import {
  configSchema,
  REBUILD as COMMAND,
  unfoldKeyRows,
} from "../../../src/gateway/config/schema.ts";
import { TABLE_MARKER } from "../../../scripts/build_config_schema.ts";
import { ROOT } from "../../_deno.ts";
import { parsedConfig } from "../_config.ts";

const REBUILD = `run: ${COMMAND}`;
const committed = JSON.parse(await Deno.readTextFile(`${ROOT}docs/unfold.schema.json`));
const example = JSON.parse(await Deno.readTextFile(`${ROOT}examples/gateway/mcp.json`));
const validate = new Ajv({ allErrors: true }).compile(committed);

Deno.test("docs/unfold.schema.json is the schema the config's declaration gives", () => {
  deepEqual(committed, configSchema(), REBUILD);
});

Deno.test("the docs' table of the unfold block is the one the declaration gives, every key in it", async () => {
  const page = (await Deno.readTextFile(`${ROOT}docs/gateway.md`)).split("\n");
  const start = page.indexOf(TABLE_MARKER);
  ok(start >= 0, `docs/gateway.md has no line ${TABLE_MARKER}`);
  const rows = page.slice(start + 1).filter((line, i, all) =>
    line.startsWith("|") && all.slice(0, i).every((l) => l === "" || l.startsWith("|"))
  ).map((line) => line.slice(1, -1).split(" | ").map((cell) => cell.trim()));
  deepEqual(rows.slice(2), unfoldKeyRows(), REBUILD);
  const keys = Object.keys(committed.properties.unfold.properties);
  deepEqual(rows.slice(2).map(([key]) => key), keys.map((key) => `\`${key}\``));
});

Deno.test("the example config names the schema, which validates it; the parser takes it too", () => {
  equal(example.$schema, "../../docs/unfold.schema.json");
  ok(validate(example), JSON.stringify(validate.errors));
  const parsed = parseGatewayConfig(example, { CONFIG_DIR: "/x" });
  ok(parsed.ok, parsed.ok ? "" : parsed.error.message);
});

Deno.test("the schema refuses a misspelt unfold key, as the parser does", () => {
  const misspelt = { ...example, unfold: { ...example.unfold, strat: "lazy" } };
  equal(validate(misspelt), false);
  deepEqual(validate.errors?.map((e) => [e.instancePath, e.params]), [
    ["/unfold", { additionalProperty: "strat" }],
  ]);
  const parsed = parseGatewayConfig(misspelt, { CONFIG_DIR: "/x" });
  equal(
    parsed.ok ? "" : parsed.error.message,
    'Invalid gateway config at "/unfold/strat": unknown field: did you mean "start"?',
  );
});

// Configs both sides must judge alike (the parser is the judge of ${VAR} and server names).
const SERVERS = { gh: { url: "https://example.com/mcp" }, mem: { command: "mem" } };
const ALIKE: [unknown, boolean][] = [
  [{ mcpServers: SERVERS }, true],
  [{ mcpServers: { off: { disabled: true, comand: "x" } } }, true],
  [{ mcpServers: { a: { command: "x", type: "stdio", args: ["-y"], env: { A: "b" } } } }, true],
  [{ mcpServers: SERVERS, unfold: { profiles: { p: { servers: ["gh"], tokens: ["t"] } } } }, true],
  [{ mcpServers: SERVERS, unfold: { callTimeoutMs: null, start: "lazy", trust: "pin" } }, true],
  [{ mcpServers: SERVERS, unfold: { disclosure: ["names"], pinned: ["gh/x"] } }, true],
  [{ mcpServers: { gh: { url: "https://h", oauth: { scopes: ["repo"] } } } }, true],
  [{}, false],
  [{ mcpServers: SERVERS, extra: 1 }, false],
  [{ mcpServers: { "a b": { command: "x" } } }, false],
  [{ mcpServers: { a: { command: "x", url: "https://h" } } }, false],
  [{ mcpServers: { a: { command: "x", headers: {} } } }, false],
  [{ mcpServers: { a: { command: "" } } }, false],
  [{ mcpServers: { a: { url: "https://h", oauth: { clientID: "x" } } } }, false],
  [{ mcpServers: SERVERS, unfold: { availableContextTokens: 0 } }, false],
  [{ mcpServers: SERVERS, unfold: { disclosure: [] } }, false],
  [{ mcpServers: SERVERS, unfold: { disclosure: ["all"] } }, false],
  [{ mcpServers: SERVERS, unfold: { bridgeName: "has space" } }, false],
  [{ mcpServers: SERVERS, unfold: { idleTimeoutMs: 1.5 } }, false],
  [{ mcpServers: SERVERS, unfold: { pinned: ["gh"] } }, false],
  [{ mcpServers: SERVERS, unfold: { profiles: { "a b": {} } } }, false],
  [{ mcpServers: SERVERS, unfold: { profiles: { p: { colour: 1 } } } }, false],
  [{ mcpServers: SERVERS, unfold: { profiles: { p: { tokens: [""] } } } }, false],
];

Deno.test("the schema and the parser take and refuse the same configs", () => {
  for (const [config, valid] of ALIKE) {
    equal(validate(config), valid, `schema: ${JSON.stringify(config)}`);
    equal(parseGatewayConfig(config, {}).ok, valid, `parser: ${JSON.stringify(config)}`);
  }
});

Deno.test("a profile's tokens are read as strings, ${VAR} expanded, and refused when not", () => {
  const config = parsedConfig({
    mcpServers: SERVERS,
    unfold: { profiles: { p: { tokens: ["${P_TOKEN}", "literal"] } } },
  }, { P_TOKEN: "s3cret" });
  deepEqual(config.options.profiles?.p, { name: "p", tokens: ["s3cret", "literal"] });
  for (const [tokens, at] of [["t", ""], [["t", 3], "/1"], [["${NOPE}"], "/0"]] as const) {
    const parsed = parseGatewayConfig({
      mcpServers: SERVERS,
      unfold: { profiles: { p: { tokens } } },
    }, {});
    equal(parsed.ok ? "" : parsed.error.pointer, `/unfold/profiles/p/tokens${at}`);
  }
});

Deno.test("a profile's pinned ids listed under one name are refused at the profile's place", () => {
  const parsed = parseGatewayConfig({
    mcpServers: { a: { command: "x" }, a__b: { command: "y" } },
    unfold: { profiles: { p: { pinned: ["a/b__c", "a__b/c"] } } },
  }, {});
  equal(parsed.ok ? "" : parsed.error.pointer, "/unfold/profiles/p/pinned/1");
});

Deno.test("poolOptions() gives the pool the block's timings under the pool's names", () => {
  const { options } = parsedConfig({
    mcpServers: SERVERS,
    unfold: {
      startupTimeoutMs: 10,
      restartDelayMs: 20,
      restartMaxDelayMs: 30,
      start: "lazy",
      idleTimeoutMs: 40,
    },
  });
  deepEqual(poolOptions(options), {
    startupTimeoutMs: 10,
    start: "lazy",
    idleTimeoutMs: 40,
    restart: { initialDelayMs: 20, maxDelayMs: 30 },
  });
  deepEqual(poolOptions(parsedConfig({ mcpServers: SERVERS }).options), { restart: {} });
});

Deno.test("null args, env and headers read as absent, as hosts write them", () => {
  const { servers } = parsedConfig({
    mcpServers: {
      a: { command: "x", args: null, env: null },
      b: { url: "https://h/mcp", headers: null },
    },
  });
  deepEqual(servers, [
    { server: "a", command: "x", args: [], env: {} },
    { server: "b", url: "https://h/mcp", headers: {} },
  ]);
});

Deno.test("the docs' words of a key of a few values name each value and the declared fallback", () => {
  const rows = new Map(unfoldKeyRows().map(([key, words, fallback]) => [key, [words, fallback]]));
  let checked = 0;
  for (const [key, schema] of Object.entries(committed.properties.unfold.properties)) {
    const { enum: values, default: declared } = schema as { enum?: string[]; default?: string };
    if (values === undefined) continue;
    const [words, fallback] = rows.get(`\`${key}\``)!;
    for (const value of values) ok(words!.includes(`\`"${value}"\``), `${key}: ${value}`);
    ok(declared !== undefined, `${key} declares the value an absent key stands for`);
    ok(fallback?.startsWith(`\`"${declared}"\``), `${key}: the docs say ${fallback}`);
    checked++;
  }
  equal(checked, 6);
});
