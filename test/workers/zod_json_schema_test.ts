import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { ROOT } from "../_deno.ts";
import * as stand_ins from "../../src/workers/_zod_json_schema.ts";

const FILES = ["to-json-schema.js", "json-schema-processors.js"];

// The installed zod's ESM files (the one zod 4 in node_modules).
async function zodDir(): Promise<string> {
  const installed: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}node_modules/.deno`)) {
    if (/^zod@4\./.test(entry.name)) installed.push(entry.name);
  }
  equal(installed.length, 1, `one zod 4 installed: ${installed.join(", ")}`);
  return `${ROOT}node_modules/.deno/${installed[0]}/node_modules/zod/v4/`;
}

function exportsOf(code: string): string[] {
  const names = [...code.matchAll(/^export (?:async )?(?:function|const|let|class) ([\w$]+)/gm)]
    .map((m) => m[1]!);
  for (const [, list] of code.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const part of list!.split(",").map((p) => p.trim()).filter(Boolean)) {
      names.push(part.split(/\s+as\s+/).at(-1)!);
    }
  }
  return names;
}

Deno.test("the gateway Worker's stand-ins export what zod's JSON Schema output modules export", async () => {
  const dir = await zodDir();
  const real = (await Promise.all(
    FILES.map(async (file) => exportsOf(await Deno.readTextFile(`${dir}core/${file}`))),
  )).flat();
  deepEqual(Object.keys(stand_ins).sort(), [...new Set(real)].sort());
});

Deno.test("every import of zod's JSON Schema output is aliased to the stand-ins in wrangler.gateway.toml", async () => {
  const dir = await zodDir();
  const toml = await Deno.readTextFile(`${ROOT}wrangler.gateway.toml`);
  const specifiers = new Set<string>();
  for (const folder of ["core", "classic", "mini"]) {
    for await (const entry of Deno.readDir(`${dir}${folder}`)) {
      if (!entry.name.endsWith(".js") || FILES.includes(entry.name)) continue;
      const code = await Deno.readTextFile(`${dir}${folder}/${entry.name}`);
      for (const [, specifier] of code.matchAll(/from "(\.{1,2}\/[^"]*)"/g)) {
        if (FILES.some((file) => specifier!.endsWith(`/${file}`))) specifiers.add(specifier!);
      }
    }
  }
  ok(specifiers.size >= 2, [...specifiers].join(", "));
  for (const specifier of specifiers) {
    ok(
      toml.includes(`\n"${specifier}" = "./src/workers/_zod_json_schema.ts"\n`),
      `wrangler.gateway.toml does not alias ${specifier}`,
    );
  }
});

Deno.test("a stand-in says why it cannot run; the method factories return methods", () => {
  const method = stand_ins.createStandardJSONSchemaMethod({}, "input");
  throws(() => method(), /not in the gateway Worker: \/mcp takes JSON Schema/);
  throws(() => stand_ins.toJSONSchema({}), /toJSONSchema/);
});
