/**
 * Where a Worker bundle's bytes come from: each npm package (or `src/` folder) of the bundle, by
 * its source map, with the gzip size of its own bytes. Parts gzipped apart add up to a little more
 * than the whole; the last column scales them to the whole's gzip size.
 *
 * Run: `deno task deploy --dry-run --outdir DIR --config wrangler.gateway.toml`, then
 * `deno run --allow-read scripts/bundle_sizes.ts DIR/gateway_entry.js [--files] [--copies]`
 * (`--files`: per source file; `--copies`: name the installed copy a package's file came from, as
 * when two SDK packages inline the same sources).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { gzipSize } from "../test/_gzip.ts";

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** One part of a bundle: its name, raw bytes and gzip bytes. */
export interface BundlePart {
  /** The package or source folder. */
  name: string;
  /** Its bytes in the bundle. */
  raw: number;
  /** Those bytes gzipped on their own. */
  gzip: number;
}

function vlq(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/**
 * The part a source file belongs to.
 *
 * @param source A source map's source path.
 * @param options `files`: one part per file; `copies`: tell installed copies apart.
 * @returns The part's name.
 *
 * @example Usage
 * ```ts
 * import { partOf } from "./bundle_sizes.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(partOf("../node_modules/.deno/zod@4.6.7/node_modules/zod/v4/core/api.js", {}), "zod");
 * equal(partOf("../src/ranking/terms.ts", {}), "src/ranking");
 * ```
 */
export function partOf(source: string, options: { files?: boolean; copies?: boolean }): string {
  const npm = source.match(
    /node_modules\/\.deno\/([^/]+)\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)/,
  );
  if (npm !== null) {
    const name = (options.copies ? `${npm[1]}:` : "") + npm[2];
    return options.files ? `${name}/${npm[3]}` : name;
  }
  const own = source.replace(/^.*?\bsrc\//, "src/");
  if (options.files || !own.startsWith("src/")) return own;
  const folder = own.split("/");
  return folder.length > 2 ? `${folder[0]}/${folder[1]}` : own;
}

/**
 * Splits a bundle by its source map and gzips each part.
 *
 * @param code The bundle's text.
 * @param map The source map (version 3).
 * @param options As {@linkcode partOf}.
 * @returns The parts, largest gzip first.
 *
 * @example Usage
 * ```ts
 * import { bundleParts } from "./bundle_sizes.ts";
 * import { equal } from "node:assert/strict";
 *
 * const parts = await bundleParts("ab", { sources: ["../src/a.ts"], mappings: "AAAA" }, {});
 * equal(parts[0]?.name, "src/a.ts");
 * equal(parts[0]?.raw, 2);
 * ```
 */
export async function bundleParts(
  code: string,
  map: { sources: string[]; mappings: string },
  options: { files?: boolean; copies?: boolean },
): Promise<BundlePart[]> {
  const texts = new Map<string, string[]>();
  const add = (name: string, text: string) => {
    const list = texts.get(name) ?? [];
    list.push(text);
    texts.set(name, list);
  };
  const lines = code.split("\n");
  const mappings = map.mappings.split(";");
  let source = 0;
  for (const [index, line] of lines.entries()) {
    let column = 0;
    const cuts: [number, string][] = [];
    for (const segment of (mappings[index] ?? "").split(",").filter(Boolean)) {
      const fields = vlq(segment);
      column += fields[0] ?? 0;
      if (fields.length > 1) {
        source += fields[1] ?? 0;
        cuts.push([column, partOf(map.sources[source] ?? "(unknown)", options)]);
      } else cuts.push([column, "(unmapped)"]);
    }
    add("(unmapped)", line.slice(0, cuts[0]?.[0] ?? line.length));
    for (const [k, [start, name]] of cuts.entries()) {
      add(name, line.slice(start, cuts[k + 1]?.[0] ?? line.length));
    }
  }
  const parts: BundlePart[] = [];
  for (const [name, list] of texts) {
    const text = list.join("");
    if (text.length > 0) parts.push({ name, raw: text.length, gzip: await gzipSize(text) });
  }
  return parts.sort((a, b) => b.gzip - a.gzip);
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { files: { type: "boolean" }, copies: { type: "boolean" } },
  });
  const path = positionals[0];
  if (path === undefined) throw new Error("Usage: bundle_sizes.ts BUNDLE.js [--files] [--copies]");
  const code = await Deno.readTextFile(path);
  const parts = await bundleParts(code, JSON.parse(await Deno.readTextFile(`${path}.map`)), values);
  const whole = await gzipSize(code);
  const sum = parts.reduce((total, part) => total + part.gzip, 0);
  const kib = (bytes: number) => (bytes / 1024).toFixed(2).padStart(8);
  const rows = parts.map((part) =>
    `${part.name.padEnd(72)} ${String(part.raw).padStart(8)} ${kib(part.gzip)} ${
      kib(part.gzip / sum * whole)
    }`
  );
  // deno-lint-ignore no-console
  console.log([`${path}: ${code.length} bytes, ${kib(whole).trim()} KiB gzip`, ...rows].join("\n"));
}
