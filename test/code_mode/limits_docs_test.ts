import { deepEqual } from "node:assert/strict";
import { CODE_LIMIT_RANGES, DEFAULT_CODE_LIMITS } from "../../src/code_mode/limits.ts";

// The docs' table of a run's bounds says what src/code_mode/limits.ts declares.
Deno.test("docs/code_mode.md lists every bound of a run with its default and range", async () => {
  const text = await Deno.readTextFile(new URL("../../docs/code_mode.md", import.meta.url));
  const rows = [...text.matchAll(/^\| `(\w+)`\s*\|\s*(\d+)\s*\|\s*(\d+) – (\d+)\s*\|/gm)].map((
    m,
  ) => [
    m[1],
    Number(m[2]),
    [Number(m[3]), Number(m[4])],
  ]);
  deepEqual(
    rows,
    Object.entries(DEFAULT_CODE_LIMITS).map(([name, value]) => [
      name,
      value,
      [...CODE_LIMIT_RANGES[name as keyof typeof DEFAULT_CODE_LIMITS]],
    ]),
  );
});
