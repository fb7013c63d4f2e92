// The gateway config's parser on random configs (`_config_arbitraries.ts`): what holds of every
// answer, whatever the file says. It never throws; a refusal is one line at a JSON pointer whose
// parent is in the file; whatever it takes, the committed JSON Schema takes too (the schema is
// looser: it cannot know the servers, the environment or a URL); text and value read alike; a
// variable deferred leaves the rest as the plain parse reads it; objects of names have no
// prototype. With `contain`, one bad server entry more leaves the rest read as without it.
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { Ajv } from "ajv";
import {
  type GatewayConfigResult,
  type InvalidEntry,
  parseGatewayConfig,
  UnsetVariableError,
} from "../../src/gateway/config/parse.ts";
import { ROOT } from "../_deno.ts";
import { badEntry, config, deferUnset, ENV } from "./_config_arbitraries.ts";
import { runs } from "./_runs.ts";

const validate = new Ajv().compile(
  JSON.parse(await Deno.readTextFile(`${ROOT}docs/unfold.schema.json`)),
);

// The value at a JSON pointer's parent, if the input has one there.
function parentOf(input: unknown, pointer: string): boolean {
  const parts = pointer.split("/").slice(1, -1).map((p) =>
    p.replaceAll("~1", "/").replaceAll("~0", "~")
  );
  let at = input;
  for (const part of parts) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, part)) return false;
    at = (at as Record<string, unknown>)[part];
  }
  return typeof at === "object" && at !== null;
}

// What a result says, with objects of names read as any other object.
const said = (result: GatewayConfigResult) =>
  JSON.stringify(result.ok ? result.value : result.error.message);

Deno.test("the config parser's answers hold their promises on random configs", () => {
  let accepted = 0;
  fc.assert(
    fc.property(config, deferUnset, (input, defer) => {
      const parsed = parseGatewayConfig(input, ENV, { deferUnset: defer });
      if (typeof input !== "string") {
        const text = parseGatewayConfig(JSON.stringify(input), ENV, { deferUnset: defer });
        equal(said(text), said(parsed));
      }
      if (!parsed.ok) {
        const { message, pointer } = parsed.error;
        ok(!message.includes("\n"), message);
        ok(message.startsWith(`Invalid gateway config at ${JSON.stringify(pointer)}: `), message);
        ok(pointer === "" || parentOf(input, pointer), `${pointer} in ${JSON.stringify(input)}`);
        return;
      }
      accepted++;
      ok(validate(input), `the schema refuses what the parser takes: ${JSON.stringify(input)}`);
      const { servers, options, awaiting = [] } = parsed.value;
      for (const server of servers) {
        equal(Object.getPrototypeOf("env" in server ? server.env : server.headers), null);
      }
      if (options.profiles !== undefined) equal(Object.getPrototypeOf(options.profiles), null);
      for (const { error, variables } of awaiting) {
        ok(error instanceof UnsetVariableError);
        for (const name of variables) ok(!Object.hasOwn(ENV, name) || ENV[name] === "", name);
      }
      if (defer) {
        // Read plainly, the config is refused for its first variable not set, or the same.
        const plain = parseGatewayConfig(input, ENV);
        if (awaiting.length === 0) {
          deepEqual(said(plain), said({ ok: true, value: { servers, options } }));
        } else equal(plain.ok ? "" : plain.error.message, awaiting[0]!.error.message);
      }
    }),
    // Half the usual runs: a refused config costs a parse of its own and its zod error.
    runs(0.5),
  );
  // The random configs are not all refused: the parser is exercised past the first key.
  ok(accepted > 0);
});

// The config with `entry` under `name` at the `at`-th place of its servers (its keys in order).
function withEntry(input: Record<string, unknown>, name: string, entry: unknown, at: number) {
  const servers = input.mcpServers as Record<string, unknown>;
  const names = Object.keys(servers);
  const order = [...names.slice(0, at), name, ...names.slice(at)];
  const out: Record<string, unknown> = {};
  for (const key of order) {
    const value = key === name ? entry : servers[key];
    Object.defineProperty(out, key, { value, enumerable: true, configurable: true });
  }
  return { ...input, mcpServers: out };
}

Deno.test("with contain, one bad server entry leaves the rest read as without it", () => {
  let contained = 0;
  fc.assert(
    fc.property(
      config,
      badEntry,
      fc.constantFrom("zz_bad", "constructor", "__proto__"),
      fc.nat(4),
      deferUnset,
      (input, bad, name, at, defer) => {
        const record = (v: unknown): v is Record<string, unknown> =>
          typeof v === "object" && v !== null && !Array.isArray(v);
        fc.pre(record(input) && record(input.mcpServers) && !Object.hasOwn(input.mcpServers, name));
        // It is bad alone, for a problem of its entry.
        const alone = parseGatewayConfig({ mcpServers: { [name]: bad } }, ENV, {
          deferUnset: defer,
        });
        fc.pre(!alone.ok && alone.error.pointer.startsWith(`/mcpServers/${name}`));
        const box = input as Record<string, unknown>;
        const options = { contain: true, deferUnset: defer };
        // Without it: its name still there (a pin or a profile may name it), as a disabled one.
        const without = parseGatewayConfig(
          withEntry(box, name, { disabled: true }, at),
          ENV,
          options,
        );
        const text = JSON.stringify(withEntry(box, name, bad, at));
        const parsed = parseGatewayConfig(text, ENV, options);
        if (!without.ok) {
          equal(parsed.ok ? "" : parsed.error.message, without.error.message);
          return;
        }
        ok(parsed.ok, parsed.ok ? "" : `${parsed.error.message} in ${text}`);
        contained++;
        const { invalid = [], ...rest } = parsed.value;
        const { invalid: before = [], ...same } = without.value;
        equal(JSON.stringify(rest), JSON.stringify(same));
        // The bad one is said once, at its place among the others set aside, with its problem.
        const names = Object.keys(JSON.parse(text).mcpServers);
        const expected = [...before.filter((e) => e.kind === "server").map((e) => e.name), name]
          .sort((a, b) => names.indexOf(a) - names.indexOf(b));
        deepEqual(invalid.filter((e) => e.kind === "server").map((e) => e.name), expected);
        const mine = invalid.find((e) => e.kind === "server" && e.name === name)!;
        ok(mine.error.pointer.startsWith(`/mcpServers/${name}`), mine.error.pointer);
        equal(mine.error.message, alone.error.message);
      },
    ),
    runs(0.5),
  );
  ok(contained > 0);
});

// The config with each entry set aside taken out: a server's as disabled (its name stays
// configured), a profile's removed.
function setAsideTaken(input: Record<string, unknown>, invalid: readonly InvalidEntry[]) {
  const servers = { ...input.mcpServers as Record<string, unknown> };
  const unfold = { ...input.unfold as Record<string, unknown> };
  const profiles = { ...unfold.profiles as Record<string, unknown> };
  for (const { kind, name } of invalid) {
    if (kind === "server") {
      Object.defineProperty(servers, name, { value: { disabled: true }, enumerable: true });
    } else delete profiles[name];
  }
  const block = "profiles" in unfold ? { ...unfold, profiles } : unfold;
  return { ...input, mcpServers: servers, ...("unfold" in input ? { unfold: block } : {}) };
}

Deno.test("with contain, what is set aside is all that differs from the plain parse", () => {
  let setAside = 0;
  fc.assert(
    fc.property(config, deferUnset, (input, defer) => {
      const contained = parseGatewayConfig(input, ENV, { deferUnset: defer, contain: true });
      const plain = parseGatewayConfig(input, ENV, { deferUnset: defer });
      // What the plain parse takes, contain takes the same, setting nothing aside.
      if (plain.ok) {
        ok(contained.ok);
        const { invalid: none, ...same } = contained.value;
        deepEqual(none, []);
        equal(said({ ok: true, value: same }), said(plain));
        return;
      }
      if (!contained.ok) return;
      const { invalid = [], ...rest } = contained.value;
      ok(invalid.length > 0);
      setAside++;
      const taken = parseGatewayConfig(
        setAsideTaken(input as Record<string, unknown>, invalid),
        ENV,
        { deferUnset: defer },
      );
      ok(taken.ok, taken.ok ? "" : taken.error.message);
      equal(JSON.stringify(rest), JSON.stringify(taken.value));
    }),
    runs(0.5),
  );
  ok(setAside > 0);
});
