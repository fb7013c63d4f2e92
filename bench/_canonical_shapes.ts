/**
 * Catalogues shaped to make canonical JSON (the catalogue hash) work hardest, each within the
 * documented limits (16 MiB bodies, 64 levels): what `bench/hostile.ts` times against
 * `JSON.stringify` of the same tools. Objects are parsed from text where that matters, as a
 * request body is: integer-like keys then sit where the engine lists them, not where the text did.
 *
 * @module
 */

import { McpCatalog, type McpTool } from "../mod.ts";

function oneTool(inputSchema: Record<string, unknown>, description = ""): McpCatalog {
  return new McpCatalog([{ server: "s", name: "t", description, inputSchema }]);
}
const enumOf = (values: unknown[]) =>
  oneTool({ type: "object", properties: { q: { enum: values } } });
const parsed = (value: unknown) => JSON.parse(JSON.stringify(value));

// Keys out of order: `${prefix}${n - 1}` first, down to `${prefix}0`; integer-like keys are
// multiples of 7 (so their text order differs from their numeric order).
function reversed(
  count: number,
  prefix: string,
  integers: boolean,
  member: (i: number) => unknown = (i) => i,
): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = count - 1; i >= 0; i--) {
    object[integers ? String(i * 7) : `${prefix}${i}`] = member(i);
  }
  return object;
}

// The same keys in an order shuffled by a fixed seed, so no run of them is sorted.
function shuffled(count: number, prefix: string): Record<string, unknown> {
  const keys = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  let seed = 1;
  for (let i = count - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = seed % (i + 1);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  return Object.fromEntries(keys.map((key) => [key, 1]));
}

const string = () => ({ type: "string" });

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = { b: level, a: value };
  return value;
}

/**
 * The shapes, each a label and its catalogue.
 *
 * @param realistic 10,000 real-looking tools.
 * @returns The labelled catalogues.
 */
export function canonicalShapes(realistic: readonly McpTool[]): Array<[string, McpCatalog]> {
  const escapes = '"\\\n\t\u0001é\u2028😀\ud800'.repeat(100_000);
  const escapedKeys: Record<string, unknown> = {};
  for (let i = 20_000; i > 0; i--) escapedKeys[`${i}"\\\n\u0001é`] = { description: '"\\\n' };
  return [
    [
      "one tool, a 40,000-object enum",
      enumOf(Array.from({ length: 40_000 }, (_, i) => ({ v: i, k: "x" }))),
    ],
    ["10,000 real tools", new McpCatalog(realistic)],
    [
      "40,000 objects with integer-like keys",
      enumOf(parsed(Array.from({ length: 40_000 }, (_, i) => ({ "10": i, "9": "x" })))),
    ],
    [
      "40,000 objects with a __proto__ member",
      enumOf(
        JSON.parse(
          `[${Array.from({ length: 40_000 }, (_, i) => `{"z":${i},"__proto__":"x"}`).join(",")}]`,
        ),
      ),
    ],
    ["1,000 values 58 levels deep", enumOf(Array.from({ length: 1_000 }, (_, i) => nested(58, i)))],
    [
      "100,000 properties in reverse order",
      oneTool({ type: "object", properties: parsed(reversed(100_000, "p", false, string)) }),
    ],
    [
      "100,000 integer-like properties",
      oneTool({ type: "object", properties: parsed(reversed(100_000, "", true, string)) }),
    ],
    ["100,000 shuffled keys sharing 100 characters", enumOf([shuffled(100_000, "p".repeat(100))])],
    [
      "3,000 objects of 40 keys out of order",
      enumOf(parsed(Array.from({ length: 3_000 }, () => reversed(40, "k", false)))),
    ],
    [
      "3,000 objects of 40 integer-like keys",
      enumOf(parsed(Array.from({ length: 3_000 }, () => reversed(40, "", true)))),
    ],
    [
      "3,000 objects of 40 keys in order, each holding one out of order",
      enumOf(parsed(Array.from({ length: 3_000 }, () => {
        const object = reversed(40, "k", false, (i) => i === 20 ? { b: 1, a: 2 } : i);
        return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a < b ? -1 : 1));
      }))),
    ],
    ["a 1,000,000-number enum", enumOf(Array.from({ length: 1_000_000 }, (_, i) => i))],
    ["a 1 MB description of escapes", oneTool({ type: "object" }, escapes)],
    ["20,000 keys with escapes", oneTool({ type: "object", properties: escapedKeys })],
  ];
}
