// Argument validation under hostile input: patterns and formats on a linear-time engine (a
// backtracking one hangs on crafted strings), failing closed on what cannot be checked, depth
// limits, and broken schemas as the catalogue's fault rather than the model's.
import { equal, match, ok } from "node:assert/strict";
import { Injector, InvalidCatalogError, McpCatalog } from "../../mod.ts";
import type { ErrorAction } from "../../src/bridge/action.ts";
import { MAX_FORMAT_CHARS, MAX_JSON_DEPTH } from "../../src/limits.ts";

function injectorFor(inputSchema: Record<string, unknown>): Injector {
  return new Injector(
    new McpCatalog([{ server: "s", name: "t", description: "", inputSchema }]),
  );
}

function execute(injector: Injector, args: unknown): ReturnType<Injector["route"]> {
  return injector.route({ action: "execute", name: "s/t", arguments: args });
}

function refused(action: ReturnType<Injector["route"]>): ErrorAction {
  equal(action.action, "error", JSON.stringify(action).slice(0, 300));
  equal((action as ErrorAction).code, "invalid_arguments");
  return action as ErrorAction;
}

function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

Deno.test("a catastrophic pattern is matched in linear time (^(a+)+$ against 5,000 a's and a '!')", () => {
  const injector = injectorFor({
    type: "object",
    properties: { c: { type: "string", pattern: "^(a+)+$" } },
  });
  const action = refused(execute(injector, { c: "a".repeat(5_000) + "!" }));
  equal(action.problems?.[0]?.pointer, "/c");
  equal(execute(injector, { c: "a".repeat(5_000) }).action, "execute");
});

Deno.test("a catastrophic patternProperties key is matched in linear time", () => {
  const injector = injectorFor({
    type: "object",
    patternProperties: { "^(a|aa)+$": { type: "integer" } },
  });
  equal(execute(injector, { ["a".repeat(5_000) + "!"]: "x" }).action, "execute");
  refused(execute(injector, { ["a".repeat(5_000)]: "x" }));
});

Deno.test("format checks run in linear time (url, hostname and email with long inputs)", () => {
  const injector = injectorFor({
    type: "object",
    properties: {
      u: { type: "string", format: "url" },
      h: { type: "string", format: "hostname" },
      e: { type: "string", format: "email" },
    },
  });
  refused(execute(injector, { u: "http://" + "1".repeat(5_000) + "!" }));
  refused(execute(injector, { h: "a".repeat(300) }));
  refused(execute(injector, { e: "a@" + "a-".repeat(5_000) + "!" }));
  equal(
    execute(injector, { u: "https://example.com/x", h: "example.com", e: "a@b.io" }).action,
    "execute",
  );
  refused(execute(injector, { u: "http://192.168.1.1/" })); // upstream's private-range rule kept
});

Deno.test("an invalid regular expression is refused when the catalogue is built", () => {
  const error = catalogError({
    type: "object",
    properties: { c: { type: "string", pattern: "a(?=b" } },
  });
  equal(error.keyword, "pattern");
  equal(error.pointer, "/catalog/0/inputSchema/properties/c/pattern");
  match(error.message, /not a valid regular expression/);
});

Deno.test("a lone-surrogate key cannot bypass validation (a key the validator and the server read differently)", () => {
  const injector = injectorFor({
    type: "object",
    properties: { path: { type: "string", pattern: "^/safe/" }, mode: { enum: ["read"] } },
    required: ["path", "mode"],
    additionalProperties: false,
  });
  const args = { path: "/etc/shadow", mode: "write", "\ud800": 1 };
  const action = refused(execute(injector, args));
  ok(action.problems?.some((p) => p.pointer === "/path"));
  ok(action.problems?.some((p) => p.pointer === "" && p.message.includes("additional properties")));
  refused(execute(injector, JSON.stringify(args)));
  refused(injector.route(JSON.stringify({ action: "execute", name: "s/t", arguments: args })));
});

Deno.test("a property named __proto__ is checked like any other (a server reads it as a member)", () => {
  const injector = injectorFor({
    type: "object",
    properties: { ["__proto__"]: { type: "number" } },
  });
  // The model's JSON text makes "__proto__" an own member, as a JSON parser upstream reads it.
  const action = refused(execute(injector, '{"__proto__": "not a number"}'));
  ok(action.problems?.some((p) => p.pointer === "/__proto__"), JSON.stringify(action.problems));
  equal(execute(injector, '{"__proto__": 1}').action, "execute");
});

Deno.test("validation fails closed when the work limit is reached", () => {
  // Each of 20 nested anyOf levels tries both branches: 2^20 visits without a limit.
  const defs: Record<string, unknown> = { l20: { type: "string" } };
  for (let i = 0; i < 20; i++) {
    defs[`l${i}`] = {
      anyOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }],
      not: { const: 0 },
    };
  }
  const injector = injectorFor({
    type: "object",
    $defs: defs,
    properties: { x: { $ref: "#/$defs/l0" } },
  });
  const action = refused(execute(injector, { x: 1 }));
  match(action.message, /MAX_VALIDATION_STEPS/);
});

Deno.test("a pattern's engine work counts toward the work limit, not only the characters it reads", () => {
  // A 2,000-instruction program keeps some 2,000 threads alive on every character of 20,000 a's:
  // 40 million steps (seconds of CPU) when only the 20,000 characters were charged.
  const injector = injectorFor({
    type: "object",
    properties: { c: { type: "string", pattern: "[a-y]{0,1000}z" } },
    patternProperties: { "[a-y]{0,999}z": { type: "integer" } },
  });
  match(refused(execute(injector, { c: "a".repeat(20_000) })).message, /MAX_VALIDATION_STEPS/);
  match(
    refused(execute(injector, { ["a".repeat(20_000)]: 1 })).message,
    /MAX_VALIDATION_STEPS/,
  );
  // The same pattern on a short string is checked as before.
  equal(execute(injector, { c: "abz" }).action, "execute");
  equal(refused(execute(injector, { c: "ab" })).problems?.[0]?.pointer, "/c");
});

Deno.test("a schema that refers to itself without end is refused, not allowed", () => {
  const injector = injectorFor({ type: "object", properties: { x: { $ref: "#/properties/x" } } });
  const action = refused(execute(injector, { x: 1 }));
  match(action.message, /MAX_VALIDATION_DEPTH/);
});

Deno.test("arguments nested deeper than MAX_JSON_DEPTH are refused with the place", () => {
  const injector = injectorFor({ type: "object" });
  equal(execute(injector, nested(MAX_JSON_DEPTH - 1)).action, "execute");
  const action = refused(execute(injector, nested(100_000)));
  match(action.message, /MAX_JSON_DEPTH/);
  ok(action.problems?.[0]?.pointer.startsWith("/a/a/a"));
  refused(execute(injector, `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`));
});

Deno.test("a tool field nested deeper than MAX_JSON_DEPTH is the catalogue's error, naming tool and field", () => {
  for (const field of ["inputSchema", "_meta", "annotations", "x-extra"]) {
    const deep = field === "inputSchema"
      ? { type: "object", properties: nested(8_000) }
      : { a: nested(8_000) };
    const error = catalogErrorOf(() =>
      new McpCatalog([{
        server: "s",
        name: "t",
        description: "",
        inputSchema: { type: "object" },
        [field]: deep,
      }])
    );
    equal(error.field, field);
    equal(error.id, "s/t");
    match(error.message, /MAX_JSON_DEPTH/);
    ok(error.pointer.startsWith(`/catalog/0/${field}/`));
  }
});

Deno.test("a cyclic input schema is the catalogue's error, found once (the schema check does not measure it again)", () => {
  const properties: Record<string, unknown> = {};
  properties.self = { type: "object", properties };
  const error = catalogErrorOf(() =>
    new McpCatalog([{
      server: "s",
      name: "t",
      description: "",
      inputSchema: { type: "object", properties },
    }])
  );
  equal(error.field, "inputSchema");
  match(error.message, /MAX_JSON_DEPTH/);
  equal(error.pointer, "/catalog/0/inputSchema/properties/self/properties");
});

Deno.test("an input schema that is not valid JSON Schema is the catalogue's error, found when it is built", () => {
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ type: "object", properties: { q: { type: 42 } } }, "type", "/properties/q/type"],
    [
      { type: "object", properties: { q: { $ref: "#/$defs/missing" } } },
      "$ref",
      "/properties/q/$ref",
    ],
    [{ type: "object", properties: { q: { pattern: "[" } } }, "pattern", "/properties/q/pattern"],
    [{ type: "object", required: "q" }, "required", "/required"],
    [{ type: "object", anyOf: [] }, "anyOf", "/anyOf"],
    [{ type: "object", properties: { q: 5 } }, "(schema)", "/properties/q"],
    [{ type: "object", minLength: -1 }, "minLength", "/minLength"],
    [{ type: "object", $ref: "https://example.com/remote.json" }, "$ref", "/$ref"],
  ];
  for (const [inputSchema, keyword, pointer] of cases) {
    const error = catalogError(inputSchema);
    equal(error.keyword, keyword, JSON.stringify(inputSchema));
    equal(error.pointer, `/catalog/0/inputSchema${pointer}`);
    equal(error.field, "inputSchema");
    match(
      error.message,
      /^Invalid catalog\[0\] \("s\/t"\): "inputSchema" is not a valid JSON Schema/,
    );
  }
});

Deno.test("valid schemas of every draft still compile: refs, anchors, recursion, booleans", () => {
  const schemas = [
    {
      type: "object",
      definitions: { n: { type: "integer" } },
      properties: { a: { $ref: "#/definitions/n" } },
      $schema: "http://json-schema.org/draft-07/schema#",
    },
    {
      type: "object",
      $defs: { n: { $anchor: "num", type: "number" } },
      properties: { a: { $ref: "#num" } },
    },
    {
      type: "object",
      $id: "https://x.test/s",
      properties: { a: { $ref: "https://x.test/s#/properties/b" }, b: true },
    },
    {
      type: "object",
      properties: { tree: { $ref: "#/$defs/node" } },
      $defs: {
        node: {
          type: "object",
          properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } },
        },
      },
    },
    { type: "object", properties: { a: false }, additionalProperties: { type: "string" } },
  ];
  for (const schema of schemas) {
    equal(execute(injectorFor(schema), {}).action, "execute", JSON.stringify(schema));
  }
  const tree = injectorFor(schemas[3]!);
  equal(execute(tree, { tree: { kids: [{ kids: [] }] } }).action, "execute");
  refused(execute(tree, { tree: { kids: [{ kids: 1 }] } }));
});

function catalogError(inputSchema: Record<string, unknown>): InvalidCatalogError {
  return catalogErrorOf(() =>
    new McpCatalog([{ server: "s", name: "t", description: "", inputSchema }])
  );
}

function catalogErrorOf(build: () => unknown): InvalidCatalogError {
  try {
    build();
  } catch (e) {
    ok(e instanceof InvalidCatalogError, String(e));
    return e;
  }
  throw new Error("the catalogue was accepted");
}

Deno.test("a property name with a lone surrogate compiles (a finding of the fuzz suite)", () => {
  const injector = injectorFor({
    type: "object",
    properties: { "\ud800": { type: "string", maxLength: 1 } },
  });
  equal(execute(injector, { "\ud800": "a" }).action, "execute");
  refused(execute(injector, { "\ud800": "ab" }));
});

Deno.test("a format check sees at most MAX_FORMAT_CHARS characters: longer strings are refused", () => {
  const injector = injectorFor({
    type: "object",
    properties: { u: { type: "string", format: "uri" } },
  });
  const ok4096 = "https://example.com/" + "a".repeat(MAX_FORMAT_CHARS - 20);
  equal(execute(injector, { u: ok4096 }).action, "execute");
  const action = refused(execute(injector, { u: ok4096 + "a" }));
  match(action.message, /MAX_FORMAT_CHARS/);
});

Deno.test("a schema key named like an Object.prototype member is an unknown keyword a $ref can reach", () => {
  for (const key of ["constructor", "toString", "hasOwnProperty", "valueOf"]) {
    const injector = injectorFor({
      type: "object",
      properties: { a: { $ref: `#/${key}` }, b: { $ref: `#/${key}/items/0` } },
      [key]: { type: "string", items: [{ type: "integer" }] },
    });
    equal(execute(injector, { a: "x" }).action, "execute", key);
    equal(refused(execute(injector, { a: 1 })).problems?.[0]?.pointer, "/a", key);
    equal(execute(injector, { b: 2 }).action, "execute", key);
    equal(refused(execute(injector, { b: "y" })).problems?.[0]?.pointer, "/b", key);
  }
});
