import { deepEqual, equal, match } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/mod.ts";

import { runDeno } from "../_deno.ts";

// Runs `deno task start` to its exit; its stderr without the line `deno task` prints itself.
async function startFails(env: Record<string, string>) {
  const { code, stdout, stderr } = await runDeno(["task", "start"], {
    env: { NO_COLOR: "1", ...env },
  });
  const lines = stderr.split("\n").filter((line) => line !== "" && !line.startsWith("Task start "));
  return { code, stdout, lines };
}

Deno.test("deno task start with a bad setting prints one line and exits with 1", async () => {
  for (
    const [env, message] of [
      [
        { UNFOLD_MAX_TOOLS: "lots" },
        'unfold: Invalid UNFOLD_MAX_TOOLS: must be a positive integer, got "lots"',
      ],
      [{ PORT: "http" }, 'unfold: Invalid PORT: must be an integer from 0 to 65535, got "http"'],
    ] as const
  ) {
    const { code, stdout, lines } = await startFails(env);
    equal(code, 1);
    equal(stdout, "");
    equal(lines.join("\n"), message);
  }
});

Deno.test("deno task start on a port in use prints one line and exits with 1", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  const { code, lines } = await startFails({ PORT: String(port) });
  equal(code, 1);
  equal(
    lines.join("\n"),
    `unfold: Cannot listen on 127.0.0.1:${port}: the port is in use; set PORT to a free one (0 picks one)`,
  );
});

Deno.test("a malformed chunked body is a 400 unreadable_body problem, not a 500", async () => {
  const errors: unknown[] = [];
  const app = createApp({
    store: new MemorySessionStore(),
    onUnexpectedError: (e) => errors.push(e),
  });
  const arrived = Promise.withResolvers<void>();
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (r) => {
    arrived.resolve();
    return app.fetch(r);
  });
  using connection = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  const write = (text: string) => connection.write(new TextEncoder().encode(text));
  // The headers and a good first chunk reach the app; only then the malformed chunk size.
  await write(
    "POST /v1/inject HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
      'Transfer-Encoding: chunked\r\n\r\n5\r\n{"cat\r\n',
  );
  await arrived.promise;
  await write("zz\r\n");
  let answer = "";
  for await (const chunk of connection.readable) answer += new TextDecoder().decode(chunk);
  match(answer, /^HTTP\/1\.1 400 /);
  match(answer, /content-type: application\/problem\+json/i);
  equal(JSON.parse(answer.slice(answer.indexOf("{"))).code, "unreadable_body");
  deepEqual(errors, []);
});
