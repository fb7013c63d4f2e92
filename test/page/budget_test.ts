import { deepEqual, equal, match, ok } from "node:assert/strict";
import { PAGE_FILES, pageHandler, parseHeaders } from "../../src/http/page.ts";
import { gzipSize } from "../_gzip.ts";
import { DEFINITION_FIELDS } from "../../src/gateway/trust/lock.ts";

const PAGE = new URL("../../src/page/", import.meta.url);
const read = (file: string) => Deno.readTextFile(new URL(file, PAGE));
// The page's own code and looks: what a visit costs before any data.
const CODE = [...new Set(Object.values(PAGE_FILES).map((f) => f.file))]
  .filter((file) => file !== "sample.json");
const BUDGET_GZIP_BYTES = 40 * 1024;

Deno.test("the page (HTML, script and style) is at most 40 KiB gzipped", async () => {
  const bytes = new TextEncoder().encode((await Promise.all(CODE.map(read))).join(""));
  const gzip = await gzipSize(bytes);
  ok(gzip <= BUDGET_GZIP_BYTES, `${gzip} bytes gzipped`);
});

Deno.test("the page's Content-Security-Policy is strict: only its own origin, nothing inline", async () => {
  const headers = new Map(
    parseHeaders(await read("_headers")).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const csp = headers.get("content-security-policy")!;
  const directives = new Map(
    csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]),
  );
  deepEqual(directives.get("default-src"), ["'self'"]);
  deepEqual(directives.get("script-src"), ["'self'"]);
  deepEqual(directives.get("style-src"), ["'self'"]);
  deepEqual(directives.get("connect-src"), ["'self'"]);
  deepEqual(directives.get("frame-ancestors"), ["'none'"]);
  deepEqual(directives.get("object-src"), ["'none'"]);
  ok(!/unsafe-|\*|https?:/.test(csp), csp);
  equal(headers.get("x-content-type-options"), "nosniff");
});

Deno.test("the page has no inline script or style and names no other origin", async () => {
  const html = await read("index.html");
  for (const tag of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    equal(tag[0], '<script type="module" src="page.js"></script>');
    equal(tag[1], "");
  }
  ok(!/<style\b|\sstyle=|\son[a-z]+=/i.test(html), "no <style>, style= or on…= in the HTML");
  for (const file of CODE) {
    const text = await read(file);
    // The SVG namespace is a name, never fetched.
    const urls = [...text.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/gi)].map((m) => m[0])
      .filter((url) => url !== "http://www.w3.org");
    deepEqual(urls, [], file);
  }
  for (const file of CODE.filter((f) => f.endsWith(".js"))) {
    const text = await read(file);
    ok(!/\binnerHTML\b|\bouterHTML\b|insertAdjacentHTML|document\.write|\beval\(/.test(text), file);
    // Every module a script imports is one the Deno servers serve (the Workers serve the folder).
    for (const [, imported] of text.matchAll(/^import .* from "\.\/([\w-]+\.js)";$/gm)) {
      ok(CODE.includes(imported!), `${file} imports ${imported}, which PAGE_FILES lacks`);
    }
  }
});

Deno.test("the page's sample is the real-server test data, byte for byte", async () => {
  const sample = await Deno.readFile(new URL("sample.json", PAGE));
  const data = await Deno.readFile(
    new URL("../../testdata/real-servers/tools.json", import.meta.url),
  );
  ok(sample.length === data.length && sample.every((byte, i) => byte === data[i]));
});

Deno.test("the Deno servers' page handler serves each file with the _headers and nothing else", async () => {
  const page = pageHandler();
  for (const [path, { type }] of Object.entries(PAGE_FILES)) {
    const response = (await page(new Request(`http://127.0.0.1${path}`)))!;
    equal(response.status, 200, path);
    equal(response.headers.get("content-type"), type);
    match(response.headers.get("content-security-policy")!, /^default-src 'self';/);
    await response.body?.cancel();
  }
  for (const path of ["/_headers", "/../deno.json", "/page.ts", "/mcp"]) {
    equal(await page(new Request(`http://127.0.0.1${path}`)), undefined, path);
  }
  equal(await page(new Request("http://127.0.0.1/", { method: "POST" })), undefined);
  const missing = pageHandler(new URL("file:///no/such/folder/"));
  equal((await missing(new Request("http://127.0.0.1/")))!.status, 404);
});

Deno.test("the page counts a definition by the fields the trust lock approves", async () => {
  // page.js is a static asset and cannot import the lock's module: its copy is held to it here.
  const script = await read("page.js");
  const literal = /const DEFINITION_FIELDS = (\[[^\]]*\]);/.exec(script)?.[1];
  ok(literal !== undefined, "page.js declares DEFINITION_FIELDS");
  deepEqual(JSON.parse(literal.replace(/,\s*\]$/, "]")), [...DEFINITION_FIELDS]);
});
