import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { LineSplitter } from "../../src/utils/line_splitter.ts";
import { runs } from "../fuzz/_runs.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function split(chunks: readonly string[], max: number, edge = 4): string[] {
  const seen: string[] = [];
  const splitter = new LineSplitter(max, {
    line: (bytes) => void seen.push(decoder.decode(bytes)),
    oversized: (bytes, head, tail) =>
      void seen.push(`<${bytes}:${decoder.decode(head)}…${decoder.decode(tail)}>`),
  }, edge);
  for (const chunk of chunks) splitter.push(encoder.encode(chunk));
  return seen;
}

Deno.test("LineSplitter gives the same lines however the stream is cut", () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: fc.constantFrom("a", "b", "\n"), maxLength: 12 }), {
        maxLength: 8,
      }),
      (chunks) => {
        const text = chunks.join("");
        const whole = text.split("\n").slice(0, -1).filter((line) => line !== "");
        deepEqual(split(chunks, 1_000), whole);
        deepEqual(split([text], 1_000), whole);
      },
    ),
    runs(),
  );
});

Deno.test("LineSplitter skips a line over the limit, keeping its first and last bytes", () => {
  deepEqual(split(["ok\n0123", "456789", "\nafter\n"], 5), [
    "ok",
    "<10:0123…6789>",
    "after",
  ]);
  deepEqual(split(["0123456789\n"], 5), ["<10:0123…6789>"]);
  // A line of exactly the limit is kept.
  deepEqual(split(["01234\n"], 5), ["01234"]);
});
