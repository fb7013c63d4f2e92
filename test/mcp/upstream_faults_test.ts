/**
 * What a connection does with an upstream that misbehaves in ways a real server rarely does on
 * demand (the chaos suite's fake upstream), and with a real server's oversized answer: each fault
 * fails the one request it touches, with the server's own words or the limit it crossed, and the
 * connection keeps answering.
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { connectStdio, type StdioServerConfig } from "../../src/mcp/stdio.ts";
import { MAX_LIST_PAGES } from "../../src/mcp/tool_list.ts";
import { rejectsWith } from "../_contracts/everything_contract.ts";
import { denoEnv, npmServer } from "./_servers.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const FAKE = new URL("../gateway/chaos/_fake_upstream.ts", import.meta.url).pathname;

function fake(behaviour: string, ...more: string[]): StdioServerConfig {
  return {
    server: "fake",
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--config", CONFIG, FAKE, "--behaviour", behaviour, ...more],
    env: denoEnv(),
  };
}

Deno.test("a JSON-RPC error of the server reaches the caller as tool_error with its code and message, and the connection stays", async () => {
  const connection = await connectStdio(fake("error-code"));
  try {
    const error = await rejectsWith(connection.forward("fail"), "tool_error");
    equal(
      error.message,
      'Cannot call "fake/fail": The fake failed on purpose (JSON-RPC error -32000 from the server)',
    );
    equal(connection.closed, false);
    equal(await connection.call("echo", { text: "still here" }), "still here");
  } finally {
    await connection.close();
  }
});

Deno.test('a malformed result (isError: "yes") fails that call with tool_error naming the tool and what is wrong', async () => {
  const connection = await connectStdio(fake("malformed-result"));
  try {
    const error = await rejectsWith(connection.forward("odd"), "tool_error");
    equal(error.message, 'Cannot call "fake/odd": "isError" must be true or false, got "yes"');
    equal(await connection.call("echo", { text: "fine" }), "fine");
  } finally {
    await connection.close();
  }
});

Deno.test("a listing whose cursor never ends fails with list_tools after a bounded number of pages", async () => {
  const connection = await connectStdio(fake("endless-cursor"));
  try {
    const error = await rejectsWith(connection.tools(), "list_tools");
    equal(
      error.message,
      'Cannot list the tools of "fake": the listing does not end: the server sent a new cursor ' +
        `on each of ${MAX_LIST_PAGES} pages (MAX_LIST_PAGES)`,
    );
    equal(await connection.call("echo", { text: "usable" }), "usable");
  } finally {
    await connection.close();
  }
});

Deno.test("a flood of progress notifications reaches the listener coalesced, the last one before the result", async () => {
  // 20,000 notifications as fast as the server can send them: twenty times what may reach the listener.
  const connection = await connectStdio(fake("progress-flood", "--count", "20000"));
  try {
    const heard: number[] = [];
    const result = await connection.forward("flood", {}, {
      onProgress: ({ progress }) => heard.push(progress),
    });
    deepEqual(result.content, [{ type: "text", text: "flooded" }]);
    ok(heard.length < 1_000, `${heard.length} progress notifications handed on`);
    equal(heard[0], 0);
    equal(heard.at(-1), 19_999);
  } finally {
    await connection.close();
  }
});

Deno.test("an answer over the message limit (server-filesystem reading 12 MB) fails that call alone, with its size and the limit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-oversized-" });
  await Deno.writeTextFile(`${dir}/big.txt`, "b".repeat(12_000_000));
  await Deno.writeTextFile(`${dir}/small.txt`, "small");
  const connection = await connectStdio({
    server: "files",
    ...npmServer("@modelcontextprotocol/server-filesystem", dir),
    env: denoEnv(),
  });
  try {
    const error = await rejectsWith(
      connection.forward("read_text_file", { path: `${dir}/big.txt` }),
      "tool_error",
    );
    ok(error.message.startsWith('Cannot call "files/read_text_file": the server\'s answer is '));
    ok(/is \d{8} bytes, over the limit of 10485760 bytes/.test(error.message), error.message);
    equal(connection.closed, false);
    const small = await connection.forward("read_text_file", { path: `${dir}/small.txt` });
    deepEqual(small.content, [{ type: "text", text: "small" }]);
  } finally {
    await connection.close();
    await Deno.remove(dir, { recursive: true });
  }
});
