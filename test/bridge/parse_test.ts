import { deepEqual, equal, match, ok } from "node:assert/strict";
import { parseBridgeCall } from "../../src/bridge/parse.ts";
import { bridgeParameters } from "../../src/bridge/tool.ts";

const limits = { maxSearchLimit: 20, searchDefaultLimit: 5 };

function refusal(args: unknown): string {
  const parsed = parseBridgeCall(args, limits);
  if (parsed.ok) throw new Error(`accepted ${JSON.stringify(args)}`);
  equal(parsed.error.code, "invalid_arguments");
  return parsed.error.message;
}

// A valid and an invalid value for each JSON Schema type the bridge tool announces.
const SAMPLES: Record<string, { valid: unknown; invalid: unknown }> = {
  string: { valid: "github/create_issue", invalid: 5 },
  integer: { valid: 3, invalid: 1.5 },
  object: { valid: { title: "x" }, invalid: [1] },
};

Deno.test("parseBridgeCall() accepts and checks every field the model is shown, and no other", () => {
  const schema = bridgeParameters(limits) as {
    properties: Record<string, { type?: string; enum?: string[] }>;
    required: string[];
  };
  deepEqual(schema.required, ["action"]);
  for (const [field, rule] of Object.entries(schema.properties)) {
    if (field === "action") continue;
    const sample = SAMPLES[rule.type ?? ""];
    ok(sample, `no sample for the type of "${field}"`);
    const parsed = parseBridgeCall({ action: "search", [field]: sample.valid }, limits);
    deepEqual(parsed, { ok: true, value: { action: "search", [field]: sample.valid } }, field);
    match(
      refusal({ action: "search", [field]: sample.invalid }),
      new RegExp(`^"${field}" must be`),
    );
  }
  for (const action of schema.properties.action!.enum!) {
    deepEqual(parseBridgeCall({ action }, limits), { ok: true, value: { action } });
  }
  match(
    refusal({ action: "run" }),
    /^"action" must be one of "search", "describe", "execute", "more"$/,
  );
  match(refusal({}), /^"action" is required: one of "search", "describe", "execute", "more"$/);
});

Deno.test("parseBridgeCall() quotes the field's description from the tool definition", () => {
  match(
    refusal({ action: "search", limit: 0 }),
    /"limit" must be a positive integer \(search: max results, default 5\)/,
  );
  match(
    refusal({ action: "describe", name: 1 }),
    /"name" must be a string \(describe, execute: the tool id server\/tool\)/,
  );
});

Deno.test("parseBridgeCall() forgives nulls, a numeric string limit and arguments as a JSON string", () => {
  deepEqual(parseBridgeCall({ action: "search", query: "x", limit: " 7 ", name: null }, limits), {
    ok: true,
    value: { action: "search", query: "x", limit: 7 },
  });
  deepEqual(
    parseBridgeCall({ action: "execute", name: "a/b", arguments: '{"q":1}' }, limits),
    { ok: true, value: { action: "execute", name: "a/b", arguments: { q: 1 } } },
  );
  match(
    refusal({ action: "execute", name: "a/b", arguments: "[1]" }),
    /"arguments" must be an object/,
  );
  match(refusal({ action: "search", limit: "7.5" }), /"limit" must be a positive integer/);
  // The announced maximum is a cap applied by the search, not a refusal.
  deepEqual(parseBridgeCall({ action: "search", limit: 99 }, limits), {
    ok: true,
    value: { action: "search", limit: 99 },
  });
});

Deno.test("parseBridgeCall() names an unknown field with the closest known field", () => {
  match(
    refusal({ action: "search", quer: "x" }),
    /unknown field "quer" \(did you mean "query"\?\)/,
  );
  match(refusal({ action: "search", Limit: 2 }), /"Limit" \(did you mean "limit"\?\)/);
  match(refusal({ action: "execute", args: {} }), /"args" \(did you mean "arguments"\?\)/);
  const address = refusal({ action: "execute", name: "a/b", address: "x" });
  match(
    address,
    /^unknown field "address": the bridge takes action, query, limit, name, arguments and ref; put the tool's own arguments inside "arguments"$/,
  );
});

Deno.test("parseBridgeCall() keeps a refusal short whatever the model sent", () => {
  const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`field${i}`, i]));
  const message = refusal({ action: "search", ...many, ["x".repeat(100_000)]: 1 });
  match(message, /unknown fields "field0", "field1", "field2", "field3", "field4", and 9996 more:/);
  ok(message.length < 400, `${message.length} characters`);
});

Deno.test("parseBridgeCall() answers what is not a JSON object with an example to send", () => {
  for (const args of [null, 42, [], "[1]", "true"]) {
    match(
      refusal(args),
      /must be a JSON object such as \{"action":"search","query":"what you need"\}/,
    );
  }
  const parsed = parseBridgeCall('{"action": ', limits);
  equal(parsed.ok === false && parsed.error.code, "invalid_json");
});
