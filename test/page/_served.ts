/**
 * What every face must serve for the page: `GET /` with the Content-Security-Policy of
 * `src/page/_headers`, and the script, style and sample it loads.
 *
 * @module
 */

import { equal, match, ok } from "node:assert/strict";
import { PAGE_FILES } from "../../src/http/page.ts";

// The page's script modules: page.js and what it imports.
const SCRIPTS = Object.values(PAGE_FILES).map((f) => f.file).filter((f) => f.endsWith(".js"));

/**
 * Checks that a running face serves the page's files with its headers.
 *
 * @param base The face's base URL, without a trailing slash.
 */
export async function assertServesPage(base: string): Promise<void> {
  const index = await fetch(`${base}/`);
  equal(index.status, 200);
  match(index.headers.get("content-type") ?? "", /^text\/html/);
  const csp = index.headers.get("content-security-policy") ?? "";
  match(csp, /default-src 'self'/);
  match(csp, /script-src 'self'(;|$)/);
  match(csp, /connect-src 'self'/);
  equal(index.headers.get("x-content-type-options"), "nosniff");
  ok((await index.text()).includes('<script type="module" src="page.js"></script>'));
  const files: [string, RegExp][] = [
    ...SCRIPTS.map((script): [string, RegExp] => [script, /javascript/]),
    ["page.css", /^text\/css/],
  ];
  for (const [file, type] of files) {
    const response = await fetch(`${base}/${file}`);
    equal(response.status, 200, file);
    match(response.headers.get("content-type") ?? "", type);
    await response.body?.cancel();
  }
  const sample = await fetch(`${base}/sample.json`);
  equal(sample.status, 200);
  ok(Object.keys(await sample.json()).includes("filesystem"));
}
