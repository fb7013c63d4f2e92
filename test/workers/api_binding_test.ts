import { equal, ok } from "node:assert/strict";
import { forwardToApi } from "../../src/workers/api_binding.ts";

const request = () => new Request("http://127.0.0.1/v1/sessions/s");

Deno.test("forwardToApi: a binding that throws is 503 api_unavailable with why", async () => {
  const api = { fetch: () => Promise.reject(new Error("script not found")) };
  const response = await forwardToApi({ API: api })(request());
  equal(response.status, 503);
  const body = await response.json();
  equal(body.code, "api_unavailable");
  ok(body.detail.includes("script not found") && body.detail.includes('as "API"'), body.detail);
});

Deno.test("forwardToApi: the API Worker's own 503 problem passes through unchanged", async () => {
  const own = new Response('{"code":"session_store_unavailable"}', {
    status: 503,
    headers: { "content-type": "application/problem+json", "retry-after": "1" },
  });
  const response = await forwardToApi({ API: { fetch: () => Promise.resolve(own) } })(request());
  equal(response, own);
});

Deno.test("forwardToApi: a binding that is not a service is 503 api_unavailable", async () => {
  const response = await forwardToApi({ API: "unfold" })(request());
  equal(response.status, 503);
  ok((await response.json()).detail.includes("no API binding"));
});
