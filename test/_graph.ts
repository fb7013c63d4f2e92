/**
 * The npm packages in a module's graph, as `deno info --json` reports them: `npm:` modules when
 * Deno resolves from its cache, files under `node_modules/.deno/<package>@<version>/` when it
 * resolves from node_modules (the project's `"nodeModulesDir": "manual"`).
 *
 * @module
 */

import { ROOT, runDeno } from "./_deno.ts";

/**
 * Lists the npm packages a module reaches.
 *
 * @param module The module, relative to the repository.
 * @returns The package names, sorted, without versions.
 */
export async function npmPackagesOf(module: string): Promise<string[]> {
  const out = await runDeno(["info", "--json", module]);
  if (out.code !== 0) throw new Error(out.stderr);
  const modules = JSON.parse(out.stdout).modules as {
    specifier: string;
    npmPackage?: string;
  }[];
  const names = modules.flatMap((m) => {
    if (m.npmPackage !== undefined) return [m.npmPackage.replace(/@[^@]+$/, "")];
    const folder = /\/node_modules\/\.deno\/([^/]+)\/node_modules\//.exec(m.specifier)?.[1];
    return folder === undefined ? [] : [folder.replace(/@[^@]+$/, "").replace("+", "/")];
  });
  return [...new Set(names)].sort();
}

/** Each `src/` file and the `src/` files it imports (code and types), by repository path. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The import graph of every TypeScript file under `src/`, as `deno info --json` resolves it
 * (so `import type` counts: a type import still ties two files' type graphs together).
 *
 * @returns The graph, with every `src/` file as a key.
 */
export async function srcImportGraph(): Promise<ImportGraph> {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for await (const entry of Deno.readDir(`${ROOT}${folder}`)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (path.endsWith(".ts") && !path.endsWith(".d.ts")) files.push(path);
    }
  };
  await walk("src");
  const dir = await Deno.makeTempDir();
  try {
    const entry = `${dir}/all.ts`;
    await Deno.writeTextFile(entry, files.map((f) => `import "${ROOT}${f}";\n`).join(""));
    const out = await runDeno(["info", "--json", entry]);
    if (out.code !== 0) throw new Error(out.stderr);
    const prefix = `file://${ROOT}`;
    const modules = JSON.parse(out.stdout).modules as {
      specifier: string;
      dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
    }[];
    const graph = new Map<string, string[]>();
    for (const m of modules) {
      if (!m.specifier.startsWith(`${prefix}src/`)) continue;
      const targets = (m.dependencies ?? []).flatMap((d) => [d.code?.specifier, d.type?.specifier])
        .filter((s): s is string => s?.startsWith(`${prefix}src/`) === true)
        .map((s) => s.slice(prefix.length));
      graph.set(m.specifier.slice(prefix.length), [...new Set(targets)].sort());
    }
    return graph;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The import circles of a graph: its strongly connected parts of more than one file (or a file
 * that imports itself), each sorted.
 *
 * @param graph The graph.
 * @returns The circles, sorted.
 */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const part: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      part.push(top);
    } while (top !== file);
    if (part.length > 1 || graph.get(file)?.includes(file)) circles.push(part.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The imports that run from a lower layer up into a higher one.
 *
 * @param graph The graph.
 * @param layerOf A file's layer (a higher number sits above a lower one).
 * @returns Each offending import as `from -> to`, sorted.
 */
export function upwardImports(graph: ImportGraph, layerOf: (file: string) => number): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (layerOf(target) > layerOf(file)) found.push(`${file} -> ${target}`);
    }
  }
  return found.sort();
}
