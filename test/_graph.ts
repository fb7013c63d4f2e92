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

/** What a module reaches by static imports of code: npm package names and file URLs. */
export interface StaticReach {
  /** The npm packages, by name without version or subpath. */
  npm: Set<string>;
  /** The files, as URLs. */
  files: Set<string>;
}

/**
 * What a module loads when it is imported: its static imports of code, followed through
 * `deno info --json` (dynamic imports and type-only ones aside, as neither loads at import).
 *
 * @param module The module, relative to the repository.
 * @returns The npm packages and files it reaches.
 */
export async function staticReach(module: string): Promise<StaticReach> {
  const out = await runDeno(["info", "--json", "--node-modules-dir=auto", module]);
  if (out.code !== 0) throw new Error(out.stderr);
  const graph = JSON.parse(out.stdout) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
    redirects?: Record<string, string>;
  };
  const modules = new Map(graph.modules.map((m) => [m.specifier, m]));
  const resolve = (specifier: string) => graph.redirects?.[specifier] ?? specifier;
  const reach: StaticReach = { npm: new Set(), files: new Set() };
  const queue = graph.roots.map(resolve);
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    // `npm:@scope/name@1.2.3/sub` or, redirected, `npm:/@scope/name@1.2.3/sub`.
    const npm = /^npm:\/?((?:@[^/]+\/)?[^@/]+)/.exec(specifier)?.[1];
    if (npm !== undefined) {
      reach.npm.add(npm);
      continue;
    }
    if (reach.files.has(specifier)) continue;
    reach.files.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.isDynamic !== true && dependency.code !== undefined) {
        queue.push(resolve(dependency.code.specifier));
      }
    }
  }
  return reach;
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
