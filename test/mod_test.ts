import { deepEqual, equal, ok } from "node:assert/strict";

Deno.test("mod.ts bundles for browsers and Workers without Node, Deno or the stdio adapter", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-bundle-" });
  try {
    const out = `${dir}/mod.js`;
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--platform", "browser", "--output", out, "mod.ts"],
      cwd: new URL("..", import.meta.url).pathname,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(bundled.code, 0, new TextDecoder().decode(bundled.stderr));
    const code = await Deno.readTextFile(out);
    deepEqual(code.match(/["']node:[a-z_/]+["']/g) ?? [], []);
    deepEqual(code.match(/\bDeno\.[a-zA-Z]+/g) ?? [], []);
    for (const stdio of ["StdioClientTransport", "cross-spawn", "child_process"]) {
      ok(!code.includes(stdio), `the bundle contains ${stdio}`);
    }
    ok(code.includes("StreamableHTTPClientTransport"), "the HTTP client is in the bundle");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the stdio adapter is its own export, not part of mod.ts", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  ) as { exports: Record<string, string> };
  deepEqual(config.exports, {
    ".": "./mod.ts",
    "./stdio": "./src/mcp/stdio.ts",
    "./gateway": "./src/gateway/mod.ts",
    "./cli": "./src/cli/main.ts",
  });
  const mod = await import("../mod.ts");
  equal("connectStdio" in mod, false);
  equal(typeof mod.connectHttp, "function");
});
