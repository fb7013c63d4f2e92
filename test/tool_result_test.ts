import { deepEqual, equal, throws } from "node:assert/strict";
import { type CallToolResultLike, mapContent, McpError } from "../src/mcp/mod.ts";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function failure(result: CallToolResultLike): McpError {
  try {
    mapContent(result);
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error("mapContent() did not throw");
}

Deno.test("mapContent() maps exactly one text block to its string", () => {
  equal(mapContent({ content: [{ type: "text", text: "Echo: hi" }] }), "Echo: hi");
  equal(mapContent({ content: [{ type: "text", text: "" }] }), "");
});

Deno.test("mapContent() maps several text blocks to an array of text blocks, in order", () => {
  deepEqual(
    mapContent({ content: [{ type: "text", text: "one" }, { type: "text", text: "two" }] }),
    [{ type: "text", text: "one" }, { type: "text", text: "two" }],
  );
});

Deno.test("mapContent() maps an image, even alone, to an image block", () => {
  deepEqual(mapContent({ content: [{ type: "image", mimeType: "image/png", data: PNG }] }), [
    { type: "image", mimeType: "image/png", data: PNG },
  ]);
});

Deno.test("mapContent() keeps text and images together in their order", () => {
  deepEqual(
    mapContent({
      content: [
        { type: "text", text: "Here's the image you requested:" },
        { type: "image", mimeType: "image/png", data: PNG },
        { type: "text", text: "The image above is the MCP logo." },
      ],
    }),
    [
      { type: "text", text: "Here's the image you requested:" },
      { type: "image", mimeType: "image/png", data: PNG },
      { type: "text", text: "The image above is the MCP logo." },
    ],
  );
});

Deno.test("mapContent() maps embedded text and blob resources to resource blocks", () => {
  deepEqual(
    mapContent({
      content: [
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "A" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAEC" } },
      ],
    }),
    [
      { type: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: "A" },
      { type: "resource", uri: "file:///b.bin", blob: "AAEC" },
    ],
  );
});

Deno.test("mapContent() maps a resource link to a resource block with its name and description", () => {
  deepEqual(
    mapContent({
      content: [{
        type: "resource_link",
        uri: "demo://resource/1",
        name: "Resource 1",
        description: "A plaintext resource",
        mimeType: "text/plain",
        title: "dropped",
      }],
    }),
    [{
      type: "resource",
      uri: "demo://resource/1",
      mimeType: "text/plain",
      name: "Resource 1",
      description: "A plaintext resource",
    }],
  );
});

Deno.test("mapContent() drops annotations and _meta from blocks and results", () => {
  equal(
    mapContent({
      content: [{ type: "text", text: "hi", annotations: { audience: ["user"] }, _meta: { x: 1 } }],
      _meta: { progressToken: 1 },
    }),
    "hi",
  );
});

Deno.test("mapContent() maps a result without content blocks to an empty array", () => {
  deepEqual(mapContent({ content: [] }), []);
  deepEqual(mapContent({}), []);
});

Deno.test("mapContent() keeps structuredContent alongside the mapped content", () => {
  const weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
  deepEqual(
    mapContent({
      content: [{ type: "text", text: JSON.stringify(weather) }],
      structuredContent: weather,
    }),
    { content: JSON.stringify(weather), structuredContent: weather },
  );
  deepEqual(mapContent({ content: [], structuredContent: { ok: true } }), {
    content: [],
    structuredContent: { ok: true },
  });
});

Deno.test("mapContent() throws a tool_error whose message joins the text blocks of an error result", () => {
  const error = failure({
    content: [
      { type: "text", text: "ENOENT: no such file" },
      { type: "image", mimeType: "image/png", data: PNG },
      { type: "text", text: "path: /tmp/x" },
    ],
    isError: true,
  });
  equal(error.code, "tool_error");
  equal(error.message, "ENOENT: no such file\npath: /tmp/x");
});

Deno.test("mapContent() gives an error result without text a message that says so", () => {
  const error = failure({ content: [], isError: true });
  equal(error.code, "tool_error");
  equal(error.message, "The tool reported an error without a message");
});

Deno.test("mapContent() reports an error result as tool_error even when it holds audio", () => {
  equal(
    failure({
      content: [{ type: "text", text: "bad" }, {
        type: "audio",
        mimeType: "audio/wav",
        data: "UklG",
      }],
      isError: true,
    }).code,
    "tool_error",
  );
});

Deno.test("mapContent() throws unsupported_content for audio, naming the block and its type", () => {
  const error = failure({
    content: [{ type: "text", text: "Listen:" }, {
      type: "audio",
      mimeType: "audio/wav",
      data: "UklG",
    }],
  });
  equal(error.code, "unsupported_content");
  equal(
    error.message,
    'Cannot map the result: block 2 is audio ("audio/wav"), which cannot be handed on',
  );
});

Deno.test("mapContent() throws unsupported_content for unknown and malformed blocks", () => {
  const cases: Array<[unknown[], string]> = [
    [[{ type: "video", uri: "x" }], 'block 1 has the unknown type "video"'],
    [["text"], "block 1 has no type"],
    [[{ text: "no type" }], "block 1 has no type"],
    [[{ type: "text" }], "block 1 is a text block without text"],
    [[{ type: "image", data: PNG }], "block 1 is an image without data or mimeType"],
    [[{ type: "resource", resource: { text: "no uri" } }], "block 1 is a resource without a uri"],
    [
      [{ type: "resource", resource: { uri: "a:b" } }],
      "block 1 is a resource without text or blob",
    ],
    [[{ type: "resource_link", uri: "a:b" }], "block 1 is a resource link without a uri or name"],
  ];
  for (const [content, why] of cases) {
    const error = failure({ content });
    equal(error.code, "unsupported_content", why);
    equal(error.message, `Cannot map the result: ${why}`);
  }
});

Deno.test("mapContent() throws unsupported_content when content or structuredContent has the wrong shape", () => {
  equal(failure({ content: "text" as unknown as unknown[] }).code, "unsupported_content");
  equal(
    failure({ content: [], structuredContent: [1] as unknown as Record<string, unknown> }).code,
    "unsupported_content",
  );
});

Deno.test("mapContent() throws a TypeError for a result that is not an object", () => {
  for (const result of [null, "text", 1, [{ type: "text", text: "x" }]]) {
    throws(() => mapContent(result as unknown as CallToolResultLike), TypeError);
  }
});
