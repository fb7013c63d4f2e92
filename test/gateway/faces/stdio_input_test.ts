import { deepEqual, equal } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";

// A process whose stdin the face's transport reads as the gateway does (`hostStdin()`): it says
// which kind of input it chose, then answers each ping, until its input ends.
const ECHO = `
import { hostStdin, HostStdioTransport } from ${
  JSON.stringify(new URL("../../../src/gateway/faces/stdio.ts", import.meta.url).href)
};
const input = hostStdin();
console.error(input === Deno.stdin ? "Deno.stdin" : "pipe handle");
const transport = new HostStdioTransport({ input, output: Deno.stdout });
transport.onmessage = (message) => void transport.send({ jsonrpc: "2.0", id: message.id, result: { seen: message.method } });
await transport.start();
await transport.ended;
console.error("ended");
`;

function run(): ReturnType<typeof spawn> {
  return spawn(Deno.execPath(), ["eval", "--quiet", ECHO], { stdio: ["pipe", "pipe", "pipe"] });
}

async function drained(
  child: ReturnType<typeof spawn>,
  answered: (out: string) => void = () => {},
): Promise<{ out: string; err: string }> {
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => answered(out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => err += chunk.toString());
  await new Promise((resolve) => child.on("close", resolve));
  return { out, err };
}

Deno.test("the gateway reads a piped stdin on the event loop: lines split across writes come whole, and its end ends the connection", async () => {
  const child = run();
  const first = Promise.withResolvers<void>();
  const done = drained(child, (out) => out.includes('"id":1') && first.resolve());
  const line =
    '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n';
  // The second line is cut across two writes, the second made once the first has been read (its
  // whole line answered).
  await new Promise<void>((resolve) => child.stdin!.write(line.slice(0, 50), () => resolve()));
  await first.promise;
  await new Promise<void>((resolve) => child.stdin!.write(line.slice(50), () => resolve()));
  child.stdin!.end();
  const { out, err } = await done;
  deepEqual(out.trim().split("\n").map((text) => JSON.parse(text)), [
    { jsonrpc: "2.0", id: 1, result: { seen: "ping" } },
    { jsonrpc: "2.0", id: 2, result: { seen: "tools/list" } },
  ]);
  equal(err, "pipe handle\nended\n");
});

Deno.test("the gateway reads a stdin that is a file through Deno.stdin", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, '{"jsonrpc":"2.0","id":"a","method":"ping"}\n');
    const { stdout, stderr } = await new Deno.Command("sh", {
      args: ["-c", 'exec "$0" eval --quiet "$1" < "$2"', Deno.execPath(), ECHO, path],
      stdin: "null",
    }).output();
    const decoder = new TextDecoder();
    deepEqual(JSON.parse(decoder.decode(stdout)), {
      jsonrpc: "2.0",
      id: "a",
      result: { seen: "ping" },
    });
    equal(decoder.decode(stderr), "Deno.stdin\nended\n");
  } finally {
    await Deno.remove(path);
  }
});
