/**
 * The npm packages in a module's graph, as `deno info --json` reports them: `npm:` modules when
 * Deno resolves from its cache, files under `node_modules/.deno/<package>@<version>/` when it
 * resolves from node_modules (the project's `"nodeModulesDir": "manual"`).
 *
 * @module
 */

import { runDeno } from "./_deno.ts";

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
