import { ok } from "node:assert/strict";
import { runExample } from "./_run.ts";

Deno.test("examples/deno_host.ts connects three real servers, injects at two budgets and plays its turns", async () => {
  const out = await runExample(Deno.execPath(), ["run", "-A", "--quiet", "examples/deno_host.ts"]);
  ok(
    /^Connected 3 servers: everything \(\d+ tools\), filesystem \(14 tools\), memory \(9 tools\)$/m
      .test(out),
    out,
  );
  ok(out.includes('== Injection with 8,000 tokens of context: level "names"'), out);
  ok(out.includes('== Injection with 200,000 tokens of context: level "manifest"'), out);
  ok(out.includes('<tool-catalogue level="names" servers="3"'), out);
  for (const server of ["everything", "filesystem", "memory"]) {
    ok(out.includes(`== A model turn on ${server}`), out);
  }
  ok(out.includes("< [search] Top "), out);
  ok(out.includes('everything/get-sum: "Returns the sum of two numbers"'), out);
  ok(out.includes("< [describe] everything/get-sum:"), out);
  ok(out.includes("< [execute] The sum of 2 and 3 is 5."), out);
  ok(out.includes('< [execute] {"content":"Buy milk.\\nShip unfold.\\n"'), out);
  ok(out.includes('"structuredContent":{"entities":[{"name":"unfold"'), out);
  ok(!out.includes(", error]"), out);
});
