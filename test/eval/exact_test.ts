import { deepEqual, equal } from "node:assert/strict";
import { exactRate, readServerMap } from "../../bench/eval/exact.ts";
import { DATA_DIR, tool } from "../_data.ts";

Deno.test("exactRate() counts id lookups for every tool and name lookups for unique names", () => {
  const tools = [tool("a", "x"), tool("b", "x"), tool("a", "read_file", "Read a file")];
  deepEqual(exactRate(tools), { ids: { hits: 3, total: 3 }, names: { hits: 1, total: 1 } });
});

Deno.test("readServerMap() flattens a server map and answers undefined for a missing file", () => {
  const tools = readServerMap(`${DATA_DIR}/real-servers/tools.json`)!;
  equal(tools.length, 228);
  equal(
    tools.every((t) => typeof t.server === "string" && typeof t.description === "string"),
    true,
  );
  equal(readServerMap(`${DATA_DIR}/no/such/file.json`), undefined);
});
