/**
 * `Result<T, E>` (`src/result.ts`) is the one spelling of an expected failure's shape: `src/`
 * writes `{ ok: true; value: … } | { ok: false; error: … }` out only where `E` cannot be a
 * `Result`'s failure (it has no `message`), each such place named here with why.
 *
 * @module
 */

import { deepEqual } from "node:assert/strict";
import { ROOT } from "./_deno.ts";

// Where the shape is still written out, and why (a file whose union becomes a Result may leave).
const WRITTEN_OUT: Record<string, string> = {
  "src/schema/check.ts": "SchemaError says its rule, not a message",
  "src/http/guard.ts": "the failure is the Response to send",
  "src/code_mode/values.ts": "the script's own shape: the message as error, the code beside it",
  "src/cli/args.ts": "the failure carries the usage beside its message",
  "src/cli/trust.ts": "to be moved to Result (it was being edited when the rest were)",
};

const SHAPE = /\{ ok: true; value: [^\n]*\}\s*\|\s*\{\s*ok: false;\s*error: /;

function sources(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts") ? [path] : [];
  });
}

Deno.test("src/ writes Result's shape out by hand only where its failure has no message", () => {
  const found = sources(`${ROOT}src`)
    .filter((file) => !file.endsWith("/src/result.ts"))
    .filter((file) => SHAPE.test(Deno.readTextFileSync(file)))
    .map((file) => file.slice(ROOT.length));
  deepEqual(found.filter((file) => Object.hasOwn(WRITTEN_OUT, file)).length > 0, true);
  deepEqual(found.filter((file) => !Object.hasOwn(WRITTEN_OUT, file)), []);
});
