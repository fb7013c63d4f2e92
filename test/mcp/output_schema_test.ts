/**
 * A call's structured content against the tool's output schema, on the bounded validator: a
 * proven mismatch fails that call; what cannot be checked is handed on as sent.
 */

import { deepEqual, equal } from "node:assert/strict";
import { rejectsWith } from "../_contracts/everything_contract.ts";
import { serveRaw } from "./_memory.ts";

const OUTPUT = {
  type: "object",
  properties: { total: { type: "number" }, items: { type: "array", items: { type: "number" } } },
};

function server(structuredContent: unknown) {
  return serveRaw(
    "stats",
    (method) =>
      method === "tools/list"
        ? { tools: [{ name: "sum", inputSchema: { type: "object" }, outputSchema: OUTPUT }] }
        : { content: [{ type: "text", text: "done" }], structuredContent },
  );
}

Deno.test("structured content that breaks the tool's output schema fails that call with tool_error saying where", async () => {
  const { connection } = await server({ total: "three" });
  await connection.tools();
  const error = await rejectsWith(connection.forward("sum"), "tool_error");
  equal(
    error.message,
    'Cannot call "stats/sum": its structured content does not match the tool\'s output schema: ' +
      '/total: Instance type "string" is invalid. Expected "number".',
  );
  await connection.close();
});

Deno.test("structured content that matches, or is too large to check, is handed on as sent", async () => {
  const matching = await server({ total: 3 });
  await matching.connection.tools();
  deepEqual((await matching.connection.forward("sum")).structuredContent, { total: 3 });
  await matching.connection.close();

  const items = Array.from({ length: 100_000 }, (_, i) => i);
  const large = await server({ items });
  await large.connection.tools();
  equal(
    ((await large.connection.forward("sum")).structuredContent as { items: number[] }).items
      .length,
    100_000,
  );
  await large.connection.close();
});
