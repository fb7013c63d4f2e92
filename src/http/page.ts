/**
 * Serves the page (`src/page/`: `GET /` and its script, style and sample catalogue) from the Deno
 * servers, with the headers of its `_headers` file: the same file Cloudflare's static assets read
 * on the Workers, so the Content-Security-Policy is written once. The Workers never load this
 * module: their page is static assets, outside the script bundle.
 *
 * @module
 */

/** The page's files by path, with their content types. */
export const PAGE_FILES: Readonly<Record<string, { file: string; type: string }>> = Object.freeze({
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
  "/page.js": { file: "page.js", type: "text/javascript; charset=utf-8" },
  "/page-core.js": { file: "page-core.js", type: "text/javascript; charset=utf-8" },
  "/page-chart.js": { file: "page-chart.js", type: "text/javascript; charset=utf-8" },
  "/page-status.js": { file: "page-status.js", type: "text/javascript; charset=utf-8" },
  "/page-explain.js": { file: "page-explain.js", type: "text/javascript; charset=utf-8" },
  "/page.css": { file: "page.css", type: "text/css; charset=utf-8" },
  "/sample.json": { file: "sample.json", type: "application/json" },
});

/** Where the page's files are: the folder next to this module's. */
export const PAGE_FOLDER: URL = new URL("../page/", import.meta.url);

/**
 * Makes the page's handler: a `GET` or `HEAD` of one of {@linkcode PAGE_FILES} gets the file;
 * any other request gets `undefined`, for the caller's other routes. Files are read once.
 *
 * @param folder Where the files are (a `file:` or `https:` URL ending in `/`).
 * @returns The handler.
 *
 * @example Usage
 * ```ts
 * import { pageHandler } from "./page.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * const page = pageHandler();
 * const response = await page(new Request("http://127.0.0.1:8787/"));
 * equal(response?.status, 200);
 * match(response!.headers.get("content-security-policy")!, /default-src 'self'/);
 * equal(await page(new Request("http://127.0.0.1:8787/v1/inject")), undefined);
 * ```
 */
export function pageHandler(
  folder: URL = PAGE_FOLDER,
): (request: Request) => Promise<Response | undefined> {
  const files = new Map<string, Promise<Uint8Array | undefined>>();
  const read = (file: string) => {
    let bytes = files.get(file);
    if (bytes === undefined) {
      bytes = fetch(new URL(file, folder))
        .then(async (r) => r.ok ? new Uint8Array(await r.arrayBuffer()) : undefined)
        .catch(() => undefined);
      files.set(file, bytes);
    }
    return bytes;
  };
  let headers: Promise<[string, string][]> | undefined;
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    const entry = PAGE_FILES[new URL(request.url).pathname];
    if (entry === undefined) return undefined;
    headers ??= read("_headers").then((bytes) => parseHeaders(new TextDecoder().decode(bytes)));
    const bytes = await read(entry.file);
    if (bytes === undefined) {
      files.delete(entry.file); // a later request tries again
      return new Response(
        `The page's file ${entry.file} cannot be read: run the server with --allow-read on src/page\n`,
        { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } },
      );
    }
    return new Response(request.method === "HEAD" ? null : bytes as Uint8Array<ArrayBuffer>, {
      headers: [...await headers, ["content-type", entry.type]],
    });
  };
}

/**
 * The headers a `_headers` file gives every path (its `/*` block).
 *
 * @param text The file.
 * @returns The headers, in order.
 *
 * @example Usage
 * ```ts
 * import { parseHeaders } from "./page.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(parseHeaders("# c\n/*\n  X-A: 1\n  X-B: two: 2\n"), [["X-A", "1"], ["X-B", "two: 2"]]);
 * ```
 */
export function parseHeaders(text: string): [string, string][] {
  const out: [string, string][] = [];
  let inBlock = false;
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      inBlock = line.trim() === "/*";
      continue;
    }
    const colon = line.indexOf(":");
    if (inBlock && colon > 0) out.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return out;
}
