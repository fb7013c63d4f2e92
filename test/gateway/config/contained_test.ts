// A server entry's problem is that server's (`src/gateway/config/contained.ts`): with `contain`,
// each kind of bad entry is set aside with its first problem at its JSON pointer, the rest of the
// file parses exactly as it does without the entry, and what is not an entry's stays fatal.
import { deepEqual, equal, fail, ok } from "node:assert/strict";
import {
  type GatewayConfig,
  type GatewayConfigError,
  parseGatewayConfig,
} from "../../../src/gateway/config/parse.ts";
import { setAsideServers, withUnavailable } from "../../../src/gateway/pool/unavailable.ts";

// Good servers of both kinds, a disabled one, and a block that names the bad one's name (a pin,
// a profile): what is read of them must not change when a bad entry is beside them.
const GOOD = {
  local: { command: "node", args: ["s.js"], env: { A: "${A}" } },
  remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer x" } },
  off: { command: 5, disabled: true },
};
const BLOCK = {
  pinned: ["local/run", "bad/tool"],
  profiles: { p: { servers: ["local", "bad"] }, q: { servers: ["remote"] } },
};
const ENV = { A: "a" };

function withBad(bad: unknown): Record<string, unknown> {
  return { mcpServers: { ...GOOD, bad }, unfold: BLOCK };
}

function read(input: unknown, options = { contain: true }): GatewayConfig {
  const parsed = parseGatewayConfig(input, ENV, options);
  return parsed.ok ? parsed.value : fail(`refused: ${parsed.error.message}`);
}

function refusedWith(input: unknown): GatewayConfigError {
  const parsed = parseGatewayConfig(input, ENV, { contain: true });
  return parsed.ok ? fail(`accepted: ${JSON.stringify(input)}`) : parsed.error;
}

// Each kind of bad entry, and where its problem is.
const BAD: [string, unknown, string][] = [
  ["a mistyped key", { comand: "x" }, "/mcpServers/bad/comand"],
  ["an unknown key", { command: "x", colour: "red" }, "/mcpServers/bad/colour"],
  ["a command that is no string", { command: ["node"] }, "/mcpServers/bad/command"],
  ["an empty command", { command: "" }, "/mcpServers/bad/command"],
  ["args that are no strings", { command: "x", args: [1] }, "/mcpServers/bad/args/0"],
  ["an env value that is no string", { command: "x", env: { B: 1 } }, "/mcpServers/bad/env/B"],
  ["a cwd that is no string", { command: "x", cwd: 7 }, "/mcpServers/bad/cwd"],
  ["neither command nor url", { args: [] }, "/mcpServers/bad"],
  ["both command and url", { command: "x", url: "https://a.example" }, "/mcpServers/bad"],
  ["a URL that is none", { url: "not a url" }, "/mcpServers/bad/url"],
  ["a URL of another scheme", { url: "ftp://a.example/mcp" }, "/mcpServers/bad/url"],
  [
    "headers that are no object",
    { url: "https://a.example", headers: [] },
    "/mcpServers/bad/headers",
  ],
  [
    "a header that is no string",
    { url: "https://a.example", headers: { H: 1 } },
    "/mcpServers/bad/headers/H",
  ],
  [
    "a secret without a client",
    { url: "https://a.example", oauth: { clientSecret: "s" } },
    "/mcpServers/bad/oauth/clientSecret",
  ],
  [
    "a scope with a space",
    { url: "https://a.example", oauth: { scopes: ["a b"] } },
    "/mcpServers/bad/oauth/scopes/0",
  ],
  [
    "an unknown oauth key",
    { url: "https://a.example", oauth: { client: "c" } },
    "/mcpServers/bad/oauth/client",
  ],
  ["an entry that is a string", "node s.js", "/mcpServers/bad"],
  ["an entry that is null", null, "/mcpServers/bad"],
  ["an entry that is an array", ["node"], "/mcpServers/bad"],
];

Deno.test("each kind of bad entry is set aside with its problem, the rest read as without it", () => {
  // Without it: the block still names it, as it names a disabled server.
  const without = read(withBad({ disabled: true }));
  equal(without.servers.length, 2);
  for (const [kind, bad, pointer] of BAD) {
    const input = withBad(bad);
    const contained = read(input);
    // The good ones, the block and its profiles: the same, to the byte.
    deepEqual(JSON.stringify(contained.servers), JSON.stringify(without.servers), kind);
    deepEqual(JSON.stringify(contained.options), JSON.stringify(without.options), kind);
    equal(contained.invalid?.length, 1, kind);
    const { kind: of, name, error } = contained.invalid![0]!;
    deepEqual([of, name], ["server", "bad"], kind);
    equal(error.pointer, pointer, kind);
    // The problem is the one the plain parse fails the whole file with.
    const plain = parseGatewayConfig(input, ENV);
    equal(plain.ok ? "" : plain.error.message, error.message, kind);
    // And as JSON text, the same.
    deepEqual(JSON.stringify(read(JSON.stringify(input))), JSON.stringify(contained), kind);
  }
});

Deno.test("without contain a bad entry still fails the whole parse, and no invalid is said", () => {
  const plain = parseGatewayConfig(withBad({ comand: "x" }), ENV);
  equal(plain.ok ? "" : plain.error.pointer, "/mcpServers/bad/comand");
  equal("invalid" in read({ mcpServers: GOOD }, { contain: false }), false);
  deepEqual(read({ mcpServers: GOOD }).invalid, []);
});

Deno.test("bad entries are each set aside once, in the order of the file, with the first problem", () => {
  const input = {
    mcpServers: {
      z: { url: 5, comand: "x" },
      local: GOOD.local,
      a: { command: "x", args: "no" },
      w: { command: "${UNSET}", colour: 1 },
    },
  };
  const contained = parseGatewayConfig(input, ENV, { contain: true, deferUnset: true });
  ok(contained.ok);
  deepEqual(contained.value.invalid!.map((e) => [e.name, e.error.pointer]), [
    // The unknown key is said before the values, as the plain parse says it.
    ["z", "/mcpServers/z/comand"],
    ["a", "/mcpServers/a/args"],
    ["w", "/mcpServers/w/colour"],
  ]);
  deepEqual(contained.value.servers.map((s) => s.server), ["local"]);
  // A server set aside for its entry is not said again as waiting for a variable.
  deepEqual(contained.value.awaiting, []);
});

Deno.test("a bad entry named __proto__ or constructor is set aside under its own name", () => {
  const text = '{"mcpServers":{"__proto__":{"comand":"x"},"constructor":5,' +
    '"local":{"command":"node"}}}';
  const contained = read(text);
  deepEqual(contained.invalid!.map((e) => e.name), ["__proto__", "constructor"]);
  deepEqual(contained.servers.map((s) => s.server), ["local"]);
});

Deno.test("what is no entry's stays fatal, with contain too", () => {
  const cases: [unknown, string][] = [
    ["{not json", ""],
    ["[]", ""],
    [{ mcpServers: GOOD, extra: 1 }, "/extra"],
    [{ mcpServers: [] }, "/mcpServers"],
    // A name is what ids, profiles and pins mean a server by: never read in part.
    [{ mcpServers: { ...GOOD, "a/b": { command: "x" } } }, "/mcpServers/a~1b"],
    [
      { mcpServers: { ...GOOD, ["x".repeat(65)]: { comand: "x" } } },
      `/mcpServers/${"x".repeat(65)}`,
    ],
    [{ mcpServers: GOOD, unfold: { start: "sometimes" } }, "/unfold/start"],
    // A profile's name is its route (/mcp/NAME): one that cannot be is the file's.
    [{ mcpServers: GOOD, unfold: { profiles: { "a b": { servers: 5 } } } }, "/unfold/profiles/a b"],
    [{ mcpServers: GOOD, unfold: { profiles: [] } }, "/unfold/profiles"],
    // A bad entry beside a bad block: the block's problem is the file's.
    [{ mcpServers: { ...GOOD, bad: 5 }, unfold: { pinned: "x" } }, "/unfold/pinned"],
  ];
  for (const [input, pointer] of cases) {
    equal(refusedWith(input).pointer, pointer, JSON.stringify(input));
  }
});

Deno.test("a server set aside is unavailable with its pointer and what to do, its calls refused", async () => {
  const config = read(withBad({ command: "x", colour: "red" }));
  const servers = setAsideServers(config);
  deepEqual(servers, [{
    server: "bad",
    detail:
      "its entry is invalid at /mcpServers/bad/colour: unknown field for a stdio server; correct it in the config, then start unfold again",
  }]);
  const pool = withUnavailable({
    tools: () => [],
    statuses: () => [{ server: "local", state: "ready" as const, tools: 1 }],
    forward: (_tool: unknown, _args: unknown) => Promise.resolve({ content: [] }),
    onChange: () => () => {},
    close: () => Promise.resolve(),
  }, servers);
  deepEqual(pool.statuses().map((s) => [s.server, s.state]), [["local", "ready"], [
    "bad",
    "unavailable",
  ]]);
  const tool = { server: "bad", name: "t", description: "", inputSchema: {} };
  const refused = await pool.forward(tool, {}).then(() => undefined, (e: Error) => e.message);
  ok(refused?.includes("/mcpServers/bad/colour"), refused);
});

Deno.test("a long problem is quoted clipped, so the detail keeps what to do", () => {
  const config = read(withBad({ url: `https://${"x".repeat(5000)}:99999/` }));
  const detail = setAsideServers(config)[0]?.detail ?? "";
  ok(detail.length < 400, `${detail.length}`);
  ok(detail.endsWith("; correct it in the config, then start unfold again"), detail);
});

Deno.test("setup never edits a config with a bad entry: it reads it whole, and refuses", async () => {
  const { planChecked } = await import("../../../src/cli/setup_plan.ts");
  type Ctx = Parameters<typeof planChecked>[0];
  const ctx = { host: "cursor", config: "/home/me/.config/unfold/mcp.json", options: { env: {} } };
  const text = JSON.stringify(withBad({ comand: "x" }), null, 2);
  const plan = planChecked(ctx as unknown as Ctx, text, []);
  equal(
    plan.ok ? "" : plan.error,
    '/home/me/.config/unfold/mcp.json would be invalid: Invalid gateway config at "/mcpServers/bad/comand": unknown field: did you mean "command"?',
  );
  ok(planChecked(ctx as unknown as Ctx, JSON.stringify(withBad({ disabled: true })), []).ok);
});

Deno.test("a bad profile is set aside with its problem; the other profiles read as without it", () => {
  const mcpServers = { ...GOOD, bad: { disabled: true } };
  const profiles = (p: unknown) => ({
    mcpServers,
    unfold: { ...BLOCK, profiles: { ...BLOCK.profiles, bad: p } },
  });
  const without = read({ mcpServers, unfold: BLOCK });
  const cases: [unknown, string][] = [
    [{ servers: "local" }, "/unfold/profiles/bad/servers"],
    [{ servers: ["nowhere"] }, "/unfold/profiles/bad/servers/0"],
    [{ tools: ["local"] }, "/unfold/profiles/bad/tools/0"],
    [{ tokens: ["has space"] }, "/unfold/profiles/bad/tokens/0"],
    [{ availableContextTokens: 0 }, "/unfold/profiles/bad/availableContextTokens"],
    [{ server: ["local"] }, "/unfold/profiles/bad/server"],
    ["local", "/unfold/profiles/bad"],
  ];
  for (const [bad, pointer] of cases) {
    const contained = read(profiles(bad));
    equal(JSON.stringify(contained.options), JSON.stringify(without.options), pointer);
    equal(JSON.stringify(contained.servers), JSON.stringify(without.servers), pointer);
    deepEqual(
      contained.invalid!.map((e) => [e.kind, e.name, e.error.pointer]),
      [["profile", "bad", pointer]],
    );
  }
  // A bad server and a bad profile: both set aside, the server first.
  const both = read({ mcpServers: { ...GOOD, bad: 5 }, unfold: { profiles: { p: 5, q: {} } } });
  deepEqual(both.invalid!.map((e) => [e.kind, e.name]), [["server", "bad"], ["profile", "p"]]);
  deepEqual(Object.keys(both.options.profiles!), ["q"]);
});
