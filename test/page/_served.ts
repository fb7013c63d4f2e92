/**
 * What every face must serve for the page: `GET /` with the Content-Security-Policy of
 * `src/page/_headers`, and the script, style and sample it loads.
 *
 * @module
 */

import { equal, match, ok } from "node:assert/strict";

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
  ok((await index.text()).includes('<script src="page.js" defer></script>'));
  for (const [file, type] of [["page.js", /javascript/], ["page.css", /^text\/css/]] as const) {
    const response = await fetch(`${base}/${file}`);
    equal(response.status, 200, file);
    match(response.headers.get("content-type") ?? "", type);
    await response.body?.cancel();
  }
  const sample = await fetch(`${base}/sample.json`);
  equal(sample.status, 200);
  ok(Object.keys(await sample.json()).includes("filesystem"));
}
