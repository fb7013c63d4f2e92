/**
 * Random gateway configs, as users and hosts write them and as they get them wrong: mostly well
 * formed, with near misses of keys, values of the wrong type, `${VAR}`s set, unset, empty and
 * defaulted, names that are `Object.prototype`'s members, and profiles and pinned ids that name
 * servers there are and are not. Used by `config_fuzz_test.ts`.
 */

import fc from "fast-check";

/** The environment the configs are read with. */
export const ENV: Readonly<Record<string, string>> = Object.freeze({
  A: "a",
  B: "b b",
  HOST: "example.com",
  EMPTY: "",
  PATHY: "/x/y",
});

/** Names that are members of `Object.prototype`, and other names a config may hold. */
export const PROTO_NAMES = ["constructor", "toString", "hasOwnProperty", "__proto__"] as const;
const NAMES = ["a", "gh", "mem", "a__b", "work.laptop", ...PROTO_NAMES] as const;
const BAD_NAMES = ["a b", "x/y", "", "n".repeat(65)];

const name = fc.oneof({ weight: 60, arbitrary: fc.constantFrom(...NAMES) }, {
  weight: 1,
  arbitrary: fc.constantFrom(...BAD_NAMES),
});

// Strings as config values: literal, with variables set, empty, unset, defaulted or odd.
const text = fc.oneof(
  { weight: 40, arbitrary: fc.constantFrom("x", "npx", "-y", "/tmp", "Bearer t0k", "repo") },
  {
    weight: 20,
    arbitrary: fc.constantFrom(
      "${A}",
      "${B}",
      "${HOST}/mcp",
      "${EMPTY:-e}",
      "${UNSET:-d}",
      "pre${A}post",
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("${UNSET}", "${OTHER}${UNSET}", "${EMPTY}", "", "${constructor}"),
  },
);
const wrong = fc.constantFrom<unknown>(null, 0, -1, 1.5, true, [], {}, "", "s", ["s"], { a: 1 });
const maybeWrong = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 60, arbitrary: good }, { weight: 1, arbitrary: wrong });
// Mostly a good value, one in 15 a bad one.
const pick = <T>(good: readonly T[], bad: readonly unknown[]) =>
  fc.oneof({ weight: 14, arbitrary: fc.constantFrom(...good) }, {
    weight: 1,
    arbitrary: fc.constantFrom(...bad),
  });
// Now and then: a rare case is one in `n`.
const rarely = <T>(n: number, value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });

// An object of some of the keys (the `needed` ones nearly always), each maybe of the wrong
// type, now and then with a near miss or another key.
function object(
  keys: Record<string, fc.Arbitrary<unknown>>,
  typos: readonly string[],
  needed: readonly string[] = [],
): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(keys).map(([key, value]) => {
    const pair = fc.tuple(fc.constant(key), maybeWrong(value));
    return needed.includes(key) ? fc.oneof({ weight: 40, arbitrary: pair }, rarely(2, pair)) : fc
      .option(pair, { freq: 2 });
  });
  const typo = rarely(40, fc.tuple(fc.constantFrom(...typos), text));
  return fc.tuple(fc.tuple(...entries), typo).map(([pairs, extra]) => {
    const out: Record<string, unknown> = {};
    for (const pair of [...pairs, extra]) {
      if (pair !== null) Object.defineProperty(out, pair[0], { value: pair[1], enumerable: true });
    }
    return out;
  });
}

const strings = fc.dictionary(
  fc.oneof(fc.constantFrom("A", "PATH", ...PROTO_NAMES), fc.string({ maxLength: 3 })),
  maybeWrong(text),
  { maxKeys: 3 },
).map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
const url = pick(["https://example.com/mcp", "http://127.0.0.1:8080/mcp", "https://${HOST}/mcp"], [
  "${HOST}/mcp",
  "ftp://h",
  "not a url",
  "${UNSET}/mcp",
]);

const stdio = object(
  {
    command: text,
    args: fc.oneof(fc.array(maybeWrong(text), { maxLength: 3 }), fc.constant(null)),
    env: fc.oneof(strings, fc.constant(null)),
    cwd: text,
    type: fc.constantFrom("stdio", 3),
    disabled: pick([false], ["no", true]),
  },
  ["comand", "arg", "url", "headers", "cwdd", "colour"],
  ["command"],
);
const http = object(
  {
    url,
    headers: fc.oneof(strings, fc.constant(null)),
    oauth: object({
      clientId: text,
      clientSecret: text,
      scopes: fc.array(pick(["repo", "read:org"], ["a b", ""]), { maxLength: 2 }),
      clientMetadataUrl: pick(["https://example.com/client.json"], [
        "https://example.com/",
        "http://example.com/c.json",
        "${UNSET}",
      ]),
    }, ["clientID", "scope", "secret"]),
    type: fc.constantFrom("http", "streamable-http"),
    disabled: pick([false], [true]),
  },
  ["uri", "header", "command", "oaut", "env"],
  ["url"],
);
const entry = fc.oneof(
  { weight: 5, arbitrary: stdio },
  { weight: 5, arbitrary: http },
  { weight: 1, arbitrary: fc.constant({ disabled: true, comand: "x" }) },
  { weight: 1, arbitrary: rarely(4, wrong) },
);

const toolId = fc.tuple(
  pick(NAMES, ["nobody", "g*", "*", "!gh", "!a", ""]),
  pick(["/x", "/b__c", "/constructor", "/get_*"], ["/*", "/", ""]),
).map(([server, tool]) => `${server}${tool}`);
const ids = fc.array(maybeWrong(toolId), { maxLength: 3 });

const profile = object({
  servers: fc.array(maybeWrong(pick(NAMES, ["nobody", ""])), { maxLength: 3 }),
  tools: ids,
  pinned: ids,
  availableContextTokens: pick([1, 8_000, 2 ** 50], [0, -3, 1.5, 2 ** 60]),
  tokens: fc.array(maybeWrong(text), { maxLength: 3 }),
}, ["server", "tool", "pined", "colour"]);

const unfold = object({
  availableContextTokens: pick([1, 32_000, 10_000_000], [0, 10_000_001, 1.5, "1000"]),
  inventoryThresholdPercent: pick([6, 100, 0.5], [0, 101]),
  disclosure: fc.oneof(
    { weight: 6, arbitrary: fc.subarray(["manifest", "brief", "names", "inventory"]) },
    {
      weight: 1,
      arbitrary: fc.array(fc.constantFrom("manifest", "names", "all"), { maxLength: 3 }),
    },
  ),
  pinned: ids,
  bridgeName: pick(["mcp", "tools"], ["has space", "", "x".repeat(65)]),
  callTimeoutMs: pick([null, 1, 300_000, 2 ** 31 - 1], [0, 2 ** 31]),
  startupTimeoutMs: pick([1, 5_000, 0.5, 2 ** 31 - 1], [0, -1, 2 ** 31]),
  restartDelayMs: pick([50, 0.5], [0]),
  restartMaxDelayMs: pick([5_000], ["1s"]),
  start: pick(["eager", "lazy"], ["later"]),
  idleTimeoutMs: pick([60_000], [1.5, 0]),
  describeFirst: pick(["enforce", "off"], ["on"]),
  overviewIn: pick(["both", "instructions", "description"], ["tools"]),
  upstreamInstructions: pick(["brief", "none"], ["all"]),
  trust: pick(["off", "notify", "pin"], ["strict"]),
  lockFile: pick(["unfold.lock.json"], [""]),
  profiles: fc.dictionary(name, profile, { maxKeys: 3 })
    .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>),
}, ["strat", "pinnned", "profile", "bridge_name", "colour"]);

/**
 * A server entry that cannot be read, as users get one wrong: a key of another kind or none, a
 * value of the wrong type, a URL that is none, no object at all (an entry of `entry` made bad;
 * the property checks it is).
 */
export const badEntry: fc.Arbitrary<unknown> = fc.oneof(
  entry.map((e) => ({ ...(typeof e === "object" && e !== null ? e : {}), colour: "red" })),
  entry.map((e) => ({ ...(typeof e === "object" && e !== null ? e : {}), comand: "x" })),
  fc.tuple(stdio, wrong).map(([e, command]) => ({ ...e, command })),
  fc.tuple(http, fc.constantFrom("not a url", "ftp://h", 5)).map(([e, url]) => ({ ...e, url })),
  fc.tuple(http, wrong).map(([e, headers]) => ({ ...e, headers: { H: headers } })),
  fc.constantFrom<unknown>(null, 5, "npx server", [], {}, { args: [] }),
).map((e) => JSON.parse(JSON.stringify(e ?? null)));

const servers = fc.array(fc.tuple(name, entry), { maxLength: 4 }).map((pairs) => {
  const out: Record<string, unknown> = {};
  for (const [key, value] of pairs) {
    Object.defineProperty(out, key, { value, enumerable: true, configurable: true });
  }
  return out;
});

/** A whole config, as a file holds it (JSON text parsed, so `__proto__` is a key like another). */
export const config: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 20,
    arbitrary: object(
      {
        $schema: pick(["../../docs/unfold.schema.json"], ["", "${UNSET}"]),
        mcpServers: servers,
        unfold,
      },
      ["mcpServer", "unfodl", "servers"],
      ["mcpServers"],
    ),
  },
  { weight: 1, arbitrary: rarely(3, wrong) },
).map((value) => JSON.parse(JSON.stringify(value)));

/** Whether a variable not set is deferred: both ways of reading. */
export const deferUnset: fc.Arbitrary<boolean> = fc.boolean();
