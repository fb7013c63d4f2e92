import { equal } from "node:assert/strict";
import fc from "fast-check";
import { deserializeMessage } from "@modelcontextprotocol/server";
import { asMessage } from "../../src/gateway/_jsonrpc.ts";

// The SDK's verdict: whether its stdio reader takes the line as a message.
function sdkTakes(value: unknown): boolean {
  try {
    deserializeMessage(JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

const json = fc.jsonValue({ maxDepth: 2 });
// Mostly well formed, sometimes absent, now and then any JSON: both verdicts come up often.
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(
    { arbitrary: arb, weight: 6 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: json, weight: 1 },
  );
const id = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer(),
  fc.constantFrom(0, -0, 1.5, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER, 1e300),
);
const meta = fc.record({
  progressToken: maybe(id),
  "io.modelcontextprotocol/related-task": maybe(fc.record({ taskId: maybe(fc.string()) })),
  other: maybe(json),
}, { requiredKeys: [] });
const params = maybe(fc.record({ _meta: maybe(meta), name: maybe(fc.string()) }, {
  requiredKeys: [],
}));
const version = fc.constantFrom("2.0", "2.0", "2.0", "2.0", "1.0", 2);
const stray = fc.constantFrom(undefined, undefined, undefined, undefined, undefined, 1);
const method = maybe(fc.constantFrom("ping", "tools/call", "notifications/initialized"));
const message = fc.oneof(
  fc.record({ jsonrpc: version, id: maybe(id), method, params, extra: stray }),
  fc.record({ jsonrpc: version, method, params, extra: stray }),
  fc.record({
    jsonrpc: version,
    id: maybe(id),
    result: maybe(fc.record({ _meta: maybe(fc.dictionary(fc.string(), json)) }, {
      requiredKeys: [],
    })),
    extra: stray,
  }),
  fc.record({
    jsonrpc: version,
    id: maybe(id),
    error: maybe(
      fc.record({ code: maybe(id), message: maybe(fc.string()), data: maybe(json) }, {
        requiredKeys: [],
      }),
    ),
    extra: stray,
  }),
);

Deno.test("asMessage takes what the SDK's stdio reader takes, on generated messages", () => {
  fc.assert(
    fc.property(fc.oneof(message, json), (value) => {
      // Through JSON, as the wire sees it (undefined members dropped, -0 as 0).
      const parsed = JSON.parse(JSON.stringify(value) ?? "null");
      equal(asMessage(parsed) !== undefined, sdkTakes(parsed), JSON.stringify(parsed));
    }),
    { numRuns: 5_000 },
  );
});

Deno.test("asMessage takes what the SDK's stdio reader takes, on hostile messages", () => {
  for (
    const text of [
      '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}',
      '{"jsonrpc":"2.0","error":{"code":1,"message":"x"}}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}',
      '{"jsonrpc":"2.0","id":1,"result":[]}',
      '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}',
      '{"jsonrpc":"2.0","method":"x","params":null}',
      '{"jsonrpc":"2.0","method":"x","params":[]}',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":1.5}}}',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":null}}}',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":[]}}',
      '{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{}}',
      '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"_meta":5}}}',
      "[]",
      '"2.0"',
      "null",
    ]
  ) {
    const parsed = JSON.parse(text);
    equal(asMessage(parsed) !== undefined, sdkTakes(parsed), text);
  }
});
