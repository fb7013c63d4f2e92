/**
 * Tool results near the valid ones, for the test that holds the one check of an upstream result
 * to what the SDK's server sends (`test/gateway/result_check_test.ts`).
 *
 * @module
 */
import fc from "fast-check";

// Blocks near the valid ones: each member mostly right, sometimes missing, now and then any JSON,
// so that both verdicts come up often.
export const anyJson = fc.jsonValue({ maxDepth: 2 });
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(
    { arbitrary: arb, weight: 12 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: anyJson, weight: 1 },
  );
const optional = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: maybe(arb), weight: 1 });
const dictionary = fc.dictionary(fc.string({ maxLength: 3 }), anyJson, { maxKeys: 2 });
const annotations = fc.record({
  audience: optional(fc.array(fc.constantFrom("user", "assistant", "robot"), { maxLength: 2 })),
  priority: optional(fc.double({ min: -0.5, max: 1.5, noNaN: true })),
  lastModified: optional(
    fc.constantFrom(
      "2025-01-02T03:04:05Z",
      "2025-01-02T03:04:05.123+02:00",
      "2025-02-29T03:04:05Z",
      "2024-02-29T03:04:05Z",
      "2025-01-02T03:04Z",
      "2025-01-02T24:04:05Z",
      "2025-01-02",
    ),
  ),
}, { requiredKeys: [] });
const base64 = fc.constantFrom("aGVsbG8=", "", "aGVsbG8", "not base64!", "=====");
const common = { annotations: optional(annotations), _meta: optional(dictionary) };
const icon = fc.record({
  src: maybe(fc.string()),
  theme: optional(fc.constantFrom("light", "dark", "dim")),
  sizes: optional(fc.array(fc.string(), { maxLength: 2 })),
}, { requiredKeys: [] });
const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text: maybe(fc.string()), ...common }, {
    requiredKeys: ["type"],
  }),
  fc.record({
    type: fc.constantFrom("image", "audio"),
    data: maybe(base64),
    mimeType: maybe(fc.string()),
    ...common,
  }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("resource_link"),
    name: maybe(fc.string()),
    uri: maybe(fc.string()),
    title: optional(fc.string()),
    size: optional(fc.double()),
    icons: optional(fc.array(icon, { maxLength: 2 })),
    ...common,
  }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("resource"),
    resource: maybe(
      fc.record({
        uri: maybe(fc.string()),
        text: optional(fc.string()),
        blob: optional(base64),
        mimeType: optional(fc.string()),
        _meta: optional(dictionary),
      }, { requiredKeys: [] }),
    ),
    ...common,
  }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constantFrom("video", 3), text: fc.string() }),
);
/** A tool result, well formed or nearly. */
export const toolResult = fc.record({
  content: maybe(fc.array(block, { maxLength: 3 })),
  structuredContent: optional(anyJson),
  isError: optional(fc.boolean()),
  _meta: optional(fc.oneof(
    dictionary,
    fc.record({
      progressToken: optional(fc.oneof(fc.string(), fc.integer(), fc.double())),
      "io.modelcontextprotocol/related-task": optional(fc.record({ taskId: maybe(fc.string()) })),
      "io.modelcontextprotocol/serverInfo": optional(fc.record({
        name: maybe(fc.string()),
        version: maybe(fc.string()),
        extra: optional(fc.string()),
      }, { requiredKeys: [] })),
    }, { requiredKeys: [] }),
  )),
}, { requiredKeys: [] });
