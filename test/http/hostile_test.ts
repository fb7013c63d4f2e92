// Hostile bodies over the HTTP API (in-process): deep nesting is a 422 naming the tool and field,
// a lone-surrogate key (read differently by the validator and the server) is refused with and
// without a session, and a broken input schema is the catalogue's 422.
import { equal, match, ok } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { client } from "./_client.ts";

function setup() {
  const errors: unknown[] = [];
  const app = createApp({
    store: new MemorySessionStore(),
    onUnexpectedError: (e) => errors.push(e),
  });
  return { errors, api: client((path, init) => Promise.resolve(app.request(path, init))) };
}

// Text of JSON nested `depth` levels deep, built as text: no serialiser has to recurse.
function deepText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

const TOOL = '{"server":"s","name":"t","description":""';

Deno.test("POST /v1/inject with a tool field nested 8,000 levels deep is a 422 naming tool and field", async () => {
  const { api, errors } = setup();
  for (const field of ["inputSchema", "_meta", "annotations", "extra"]) {
    const schema = field === "inputSchema"
      ? `{"type":"object","properties":${deepText(8_000)}}`
      : '{"type":"object"}';
    const more = field === "inputSchema" ? "" : `,"${field}":${deepText(8_000)}`;
    for (const path of ["/v1/inject", "/v1/route"]) {
      const args = path === "/v1/route" ? ',"arguments":{"action":"search","query":"x"}' : "";
      const response = await api.post(
        path,
        `{"catalog":[${TOOL},"inputSchema":${schema}${more}}]${args}}`,
      );
      equal(response.status, 422, JSON.stringify(response.body).slice(0, 300));
      equal(response.body.code, "invalid_catalog");
      match(response.body.detail, new RegExp(`"s/t"\\): "${field}" nests deeper than 64`));
      ok(response.body.errors[0].pointer.startsWith(`/catalog/0/${field}/`));
    }
  }
  equal(errors.length, 0);
});

Deno.test("POST /v1/route with arguments nested 100,000 levels deep is invalid_arguments", async () => {
  const { api, errors } = setup();
  const response = await api.post(
    "/v1/route",
    `{"catalog":[${TOOL},"inputSchema":{"type":"object"}}],"arguments":{"action":"execute","name":"s/t","arguments":${
      deepText(100_000)
    }}}`,
  );
  equal(response.status, 200);
  equal(response.body.error.code, "invalid_arguments");
  match(response.body.error.message, /MAX_JSON_DEPTH/);
  equal(errors.length, 0);
});

Deno.test("the lone-surrogate bypass is refused over HTTP, with and without a session", async () => {
  const { api } = setup();
  const catalog =
    `[${TOOL},"inputSchema":{"type":"object","properties":{"path":{"type":"string","pattern":"^/safe/"},"mode":{"enum":["read"]}},"required":["path","mode"],"additionalProperties":false}}]`;
  const args = '{"path":"/etc/shadow","mode":"write","\\ud800":1}';
  const options = '"options":{"describeFirst":"off"}';
  for (const session of ["", '"session":"s1",']) {
    for (const raw of [args, JSON.stringify(args)]) {
      const response = await api.post(
        "/v1/route",
        `{${session}${options},"catalog":${catalog},"arguments":{"action":"execute","name":"s/t","arguments":${raw}}}`,
      );
      equal(response.status, 200);
      equal(response.body.action, "error", JSON.stringify(response.body));
      equal(response.body.error.code, "invalid_arguments");
    }
  }
});

Deno.test("an input schema that is not valid JSON Schema is a 422 invalid_catalog naming keyword and pointer", async () => {
  const { api } = setup();
  const response = await api.post("/v1/inject", {
    catalog: [{
      server: "s",
      name: "t",
      inputSchema: { type: "object", properties: { q: { type: 42 } } },
    }],
  });
  equal(response.status, 422);
  equal(response.body.code, "invalid_catalog");
  match(response.body.detail, /"s\/t"\): "inputSchema" is not a valid JSON Schema: "type" at/);
  equal(response.body.errors[0].pointer, "/catalog/0/inputSchema/properties/q/type");
});

Deno.test("POST /v1/inject accepts valid patterns it cannot check and names them in warnings", async () => {
  const { api, errors } = setup();
  const catalog = [
    { server: "s", name: "a", inputSchema: { type: "object" } },
    {
      server: "s",
      name: "t",
      inputSchema: {
        type: "object",
        properties: {
          x: { type: "string", pattern: "^[a-z]{1,1001}$" },
          y: { type: "string", pattern: "^.{0,4096}$" },
          z: { type: "string", pattern: "^\\p{Script=Greek}+$" },
          w: { type: "string", pattern: "^(?=\\d)" },
        },
      },
    },
  ];
  const response = await api.post("/v1/inject", { catalog });
  equal(response.status, 200, JSON.stringify(response.body).slice(0, 300));
  equal(response.body.warnings.length, 3);
  equal(response.body.warnings[0].tool, "s/t");
  equal(response.body.warnings[0].keyword, "pattern");
  equal(response.body.warnings[0].pointer, "/properties/w/pattern");
  match(response.body.warnings[0].reason, /lookaround/);
  equal(response.body.warnings[1].pointer, "/properties/x/pattern");
  match(response.body.warnings[2].reason, /1,000/);
  const route = await api.post("/v1/route", {
    catalog,
    arguments: { action: "execute", name: "s/t", arguments: { x: "!", w: "a" } },
  });
  equal(route.body.action, "execute");
  const plain = await api.post("/v1/inject", { catalog: [catalog[0]] });
  equal(plain.body.warnings, undefined);
  equal(errors.length, 0);
});
