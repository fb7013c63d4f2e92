import { deepEqual, equal, fail } from "node:assert/strict";
import {
  type GatewayConfig,
  GatewayConfigError,
  parseGatewayConfig,
} from "../../../src/gateway/config/parse.ts";
import { narrowOptions } from "../../../src/gateway/config/profiles.ts";

function accepted(input: unknown, env: Record<string, string> = {}): GatewayConfig {
  const parsed = parseGatewayConfig(input, env);
  return parsed.ok ? parsed.value : fail(`the config was refused: ${parsed.error.message}`);
}

function refused(input: unknown, env: Record<string, string> = {}): GatewayConfigError {
  const parsed = parseGatewayConfig(input, env);
  return parsed.ok ? fail("the config was accepted") : parsed.error;
}

function pointerOf(input: unknown, env: Record<string, string> = {}): string {
  return refused(input, env).pointer;
}

Deno.test("parseGatewayConfig() answers a bad config as a value, never by throwing", () => {
  for (
    const input of [
      "not json",
      "[]",
      { mcpServers: { a: { command: "" } } },
      { mcpServers: {}, unfold: { availableContextTokens: 0 } },
      { mcpServers: {}, unfold: { bridgeName: "no spaces" } },
    ]
  ) {
    const parsed = parseGatewayConfig(input, {});
    equal(parsed.ok, false, JSON.stringify(input));
    equal(!parsed.ok && parsed.error instanceof GatewayConfigError, true);
  }
  equal(
    pointerOf({ mcpServers: {}, unfold: { availableContextTokens: 0 } }),
    "/unfold/availableContextTokens",
  );
});

Deno.test("parseGatewayConfig() reads stdio and HTTP servers, expanding ${VAR} from the environment", () => {
  const config = accepted({
    mcpServers: {
      fs: {
        command: "npx",
        args: ["-y", "server-filesystem", "${HOME}/notes"],
        env: { A: "${A:-x}" },
      },
      gh: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      off: { command: "nothing", disabled: true },
    },
    unfold: { pinned: ["gh/create_issue"], bridgeName: "tools", callTimeoutMs: null },
  }, { HOME: "/home/u", HOST: "example.com", TOKEN: "t0k" });
  deepEqual(config.servers, [
    {
      server: "fs",
      command: "npx",
      args: ["-y", "server-filesystem", "/home/u/notes"],
      env: { A: "x" },
    },
    { server: "gh", url: "https://example.com/mcp", headers: { Authorization: "Bearer t0k" } },
  ]);
  deepEqual(config.options, {
    pinned: ["gh/create_issue"],
    bridgeName: "tools",
    callTimeoutMs: null,
  });
});

Deno.test("parseGatewayConfig() names the place of each mistake with a JSON pointer", () => {
  equal(pointerOf("{not json"), "");
  equal(pointerOf({}), "/mcpServers");
  equal(pointerOf({ mcpServers: { "a/b": { command: "x" } } }), "/mcpServers/a~1b");
  equal(pointerOf({ mcpServers: { a: { command: "" } } }), "/mcpServers/a/command");
  equal(pointerOf({ mcpServers: { a: { command: "x", url: "http://h" } } }), "/mcpServers/a");
  equal(
    pointerOf({ mcpServers: { a: { command: "x", args: ["ok", 3] } } }),
    "/mcpServers/a/args/1",
  );
  equal(pointerOf({ mcpServers: { a: { url: "ftp://h" } } }), "/mcpServers/a/url");
  equal(
    pointerOf({ mcpServers: { a: { url: "http://h", headers: { X: "${NOPE}" } } } }),
    "/mcpServers/a/headers/X",
  );
  equal(pointerOf({ mcpServers: { a: { url: "http://h", colour: 1 } } }), "/mcpServers/a/colour");
  equal(pointerOf({ mcpServers: {}, unfold: { bridgeName: "has space" } }), "/unfold/bridgeName");
  equal(
    pointerOf({ mcpServers: {}, unfold: { availableContextTokens: -1 } }),
    "/unfold/availableContextTokens",
  );
  equal(
    pointerOf({ mcpServers: {}, unfold: { disclosure: ["manifest", "all"] } }),
    "/unfold/disclosure/1",
  );
  equal(pointerOf({ mcpServers: {}, unfold: { pinned: ["nobody/x"] } }), "/unfold/pinned/0");
  equal(pointerOf({ mcpServers: {}, unfold: { callTimeoutMs: 0 } }), "/unfold/callTimeoutMs");
  equal(pointerOf({ mcpServers: {}, extra: true }), "/extra");
});

Deno.test("parseGatewayConfig() errors are one line that says where and why", () => {
  equal(
    refused({ mcpServers: { gh: { url: "http://h", headers: { A: "${GH_TOKEN}" } } } }).message,
    'Invalid gateway config at "/mcpServers/gh/headers/A": the environment variable GH_TOKEN is not set',
  );
});

Deno.test("parseGatewayConfig() refuses pinned ids that would be listed under one name, naming both", () => {
  const error = refused({
    mcpServers: { a: { command: "x" }, a__b: { command: "y" } },
    unfold: { pinned: ["a/b__c", "a__b/c"] },
  });
  equal(error.pointer, "/unfold/pinned/1");
  equal(error.message.includes('"a__b/c" and "a/b__c" would both be listed as "a__b__c"'), true);
});

Deno.test("parseGatewayConfig() reads the startup timeout and the restart backoff, and refuses bad ones", () => {
  const config = accepted({
    mcpServers: { a: { command: "x" } },
    unfold: { startupTimeoutMs: 1_000, restartDelayMs: 50, restartMaxDelayMs: 5_000 },
  }, {});
  deepEqual(
    [
      config.options.startupTimeoutMs,
      config.options.restartDelayMs,
      config.options.restartMaxDelayMs,
    ],
    [1_000, 50, 5_000],
  );
  equal(
    pointerOf({ mcpServers: { a: { command: "x" } }, unfold: { startupTimeoutMs: 0 } }),
    "/unfold/startupTimeoutMs",
  );
  equal(
    pointerOf({ mcpServers: { a: { command: "x" } }, unfold: { restartDelayMs: "1s" } }),
    "/unfold/restartDelayMs",
  );
});

Deno.test("parseGatewayConfig() reads when the upstreams start and how long a lazy one may idle, and refuses bad ones", () => {
  const config = accepted({
    mcpServers: { a: { command: "x" } },
    unfold: { start: "lazy", idleTimeoutMs: 60_000 },
  });
  deepEqual([config.options.start, config.options.idleTimeoutMs], ["lazy", 60_000]);
  const eager = accepted({ mcpServers: { a: { command: "x" } } });
  deepEqual([eager.options.start, eager.options.idleTimeoutMs], [undefined, undefined]);
  equal(
    refused({ mcpServers: {}, unfold: { start: "later" } }).message,
    'Invalid gateway config at "/unfold/start": must be one of "eager", "lazy"',
  );
  for (const idle of [0, -5, 1.5, "600000", null, 2 ** 31]) {
    equal(
      refused({ mcpServers: {}, unfold: { idleTimeoutMs: idle } }).message,
      'Invalid gateway config at "/unfold/idleTimeoutMs": must be a whole positive number of milliseconds, at most 2147483647',
      String(idle),
    );
  }
});

// As the CLI reads a config: a variable not set in a server or a profile's tokens is deferred.
function deferred(input: unknown, env: Record<string, string> = {}) {
  const parsed = parseGatewayConfig(input, env, { deferUnset: true });
  return parsed.ok ? parsed.value : fail(`the config was refused: ${parsed.error.message}`);
}

Deno.test("parseGatewayConfig() with deferUnset leaves out each server that awaits variables, naming them all", () => {
  const input = {
    mcpServers: {
      fs: { command: "npx", args: ["${ROOT}/notes"], env: { A: "${A}", B: "${B}${A}" } },
      gh: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      memory: { command: "memory", env: { PATH: "${PATH:-/bin}" } },
    },
    unfold: { profiles: { cursor: { servers: ["gh"], tokens: ["${CURSOR}", "fixed"] } } },
  };
  const config = deferred(input, { HOST: "example.com" });
  deepEqual(config.servers, [{
    server: "memory",
    command: "memory",
    args: [],
    env: { PATH: "/bin" },
  }]);
  deepEqual(
    config.awaiting?.map(({ kind, name, variables, error }) => ({
      kind,
      name,
      variables,
      pointer: error.pointer,
    })),
    [
      {
        kind: "server",
        name: "fs",
        variables: ["ROOT", "A", "B"],
        pointer: "/mcpServers/fs/args/0",
      },
      {
        kind: "server",
        name: "gh",
        variables: ["TOKEN"],
        pointer: "/mcpServers/gh/headers/Authorization",
      },
      {
        kind: "profile",
        name: "cursor",
        variables: ["CURSOR"],
        pointer: "/unfold/profiles/cursor/tokens/0",
      },
    ],
  );
  // The first one's error is the very one the whole config fails with without deferUnset.
  equal(config.awaiting?.[0]?.error.message, refused(input, { HOST: "example.com" }).message);
  // Nothing is deferred when every variable is set.
  deepEqual(
    deferred(input, { ROOT: "/r", A: "a", B: "b", HOST: "h", TOKEN: "t", CURSOR: "c" }).awaiting,
    [],
  );
});

Deno.test("parseGatewayConfig() with deferUnset still refuses every other mistake of a server that awaits variables", () => {
  const env = { A: "a" };
  const cases: [Record<string, unknown>, string][] = [
    [{ command: "x", env: { T: "${UNSET}" }, comand: "y" }, "/mcpServers/s/comand"],
    [{ command: "x", env: { T: "${UNSET}", N: 1 } }, "/mcpServers/s/env/N"],
    [{ command: "x", args: ["${UNSET}", 2] }, "/mcpServers/s/args/1"],
    [{ url: "ftp://${A}/mcp", headers: { T: "${UNSET}" } }, "/mcpServers/s/url"],
    [{ command: "", env: { T: "${UNSET}" } }, "/mcpServers/s/command"],
  ];
  for (const [server, pointer] of cases) {
    const parsed = parseGatewayConfig({ mcpServers: { s: server } }, env, { deferUnset: true });
    equal(parsed.ok ? "accepted" : parsed.error.pointer, pointer, JSON.stringify(server));
  }
  // A profile that names a server awaiting variables is right; one naming no server is not.
  const profile = (servers: string[]) => ({
    mcpServers: { s: { command: "x", env: { T: "${UNSET}" } } },
    unfold: { profiles: { p: { servers } } },
  });
  equal(deferred(profile(["s"])).awaiting?.[0]?.name, "s");
  const wrong = parseGatewayConfig(profile(["t"]), {}, { deferUnset: true });
  equal(wrong.ok ? "" : wrong.error.pointer, "/unfold/profiles/p/servers/0");
  // `$schema` is read by no server: a variable not set there fails the config as before.
  const schema = parseGatewayConfig({ $schema: "${UNSET}", mcpServers: {} }, {}, {
    deferUnset: true,
  });
  equal(schema.ok ? "" : schema.error.pointer, "/$schema");
});

Deno.test("parseGatewayConfig() with deferUnset does not judge a value whose part awaits a variable", () => {
  // The URL is only a URL once its variable is set; the secret's client id is the variable.
  const config = deferred({
    mcpServers: {
      api: { url: "${BASE}/mcp" },
      signed: {
        url: "https://example.com/mcp",
        oauth: { clientId: "${CLIENT_ID}", clientSecret: "s" },
      },
    },
  });
  deepEqual(config.servers, []);
  deepEqual(config.awaiting?.map((a) => [a.name, a.variables]), [
    ["api", ["BASE"]],
    ["signed", ["CLIENT_ID"]],
  ]);
});

// Names are the user's: a server, a profile or a tool may be called as an Object.prototype member.
const PROTO_NAMES = ["constructor", "toString", "hasOwnProperty", "__proto__"];

Deno.test("parseGatewayConfig() keeps servers, profiles, tools and variables named like Object.prototype members", () => {
  const names = PROTO_NAMES.map((name) => JSON.stringify(name));
  const text = `{
    "mcpServers": {${
    names.map((name) => `${name}: {"command": "x", "env": {${name}: "v", "PATH": "/bin"}}`)
  }},
    "unfold": {
      "pinned": [${names.map((name) => JSON.stringify(`${JSON.parse(name)}/${JSON.parse(name)}`))}],
      "profiles": {${
    names.map((name) => `${name}: {"servers": [${name}], "tools": [${name.slice(0, -1)}/*"]}`)
  }}
    }
  }`;
  const { servers, options } = accepted(text);
  deepEqual(servers.map((s) => s.server), PROTO_NAMES);
  for (const server of servers) {
    equal(Object.getPrototypeOf("command" in server && server.env), null);
    deepEqual(Object.keys("command" in server ? server.env : {}), [server.server, "PATH"]);
  }
  deepEqual(options.pinned, PROTO_NAMES.map((name) => `${name}/${name}`));
  const profiles = options.profiles!;
  equal(Object.getPrototypeOf(profiles), null);
  deepEqual(Object.keys(profiles), PROTO_NAMES);
  for (const name of PROTO_NAMES) {
    deepEqual(profiles[name], { name, servers: [name], tools: [`${name}/*`] });
  }
  // A lookup of a name the config lacks finds nothing, whatever Object.prototype holds.
  equal(profiles.valueOf, undefined);
  equal(Object.hasOwn(profiles, "isPrototypeOf"), false);
  // A variable is the environment's own: `${constructor}` is not set in an empty environment.
  equal(
    refused({ mcpServers: { a: { command: "${constructor}" } } }).message,
    'Invalid gateway config at "/mcpServers/a/command": the environment variable constructor is not set',
  );
  const set = accepted({ mcpServers: { a: { command: "${toString}" } } }, { toString: "t" });
  equal("command" in set.servers[0]! && set.servers[0].command, "t");
});

Deno.test("parseGatewayConfig() reads a key given as undefined as absent, as JSON would carry it", () => {
  const config = accepted({
    $schema: undefined,
    mcpServers: { a: { command: "x", cwd: undefined, env: { A: undefined, B: "b" } } },
    unfold: { start: undefined, pinned: undefined },
  });
  deepEqual(config.servers, [{ server: "a", command: "x", args: [], env: { B: "b" } }]);
  deepEqual(config.options, { pinned: [] });
  equal(
    pointerOf({ mcpServers: { a: { command: "x", args: [undefined] } } }),
    "/mcpServers/a/args/0",
  );
});

Deno.test("maxResultTokens and maxResultBytes: the block's and a profile's, bad values said clearly", () => {
  const config = accepted({
    mcpServers: {},
    unfold: {
      maxResultTokens: 2_000,
      maxResultBytes: 0,
      profiles: { p: { maxResultTokens: 0, maxResultBytes: 4096 } },
    },
  });
  equal(config.options.maxResultTokens, 2_000);
  equal(config.options.maxResultBytes, 0);
  equal(config.options.profiles?.p?.maxResultTokens, 0);
  equal(config.options.profiles?.p?.maxResultBytes, 4096);
  // The profile's gateway gets its own ceiling.
  const narrowed = narrowOptions(config.options, config.options.profiles!.p!);
  deepEqual([narrowed.maxResultTokens, narrowed.maxResultBytes], [0, 4096]);
  for (
    const [unfold, pointer, said] of [
      [{ maxResultTokens: 50 }, "/unfold/maxResultTokens", "from 100 to 10000000, got 50"],
      [{ maxResultTokens: "big" }, "/unfold/maxResultTokens", 'got "big"'],
      [{ maxResultTokens: 1.5 }, "/unfold/maxResultTokens", "got 1.5"],
      [{ maxResultBytes: -1 }, "/unfold/maxResultBytes", "up to 1073741824, got -1"],
      [
        { profiles: { p: { maxResultTokens: 99 } } },
        "/unfold/profiles/p/maxResultTokens",
        "must be 0 (no ceiling) or an integer from 100",
      ],
      [
        { profiles: { p: { maxResultBytes: null } } },
        "/unfold/profiles/p/maxResultBytes",
        "got null",
      ],
    ] as const
  ) {
    const error = refused({ mcpServers: {}, unfold });
    equal(error.pointer, pointer, error.message);
    equal(error.message.includes(said), true, error.message);
  }
});
