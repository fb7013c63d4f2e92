// Host files read and edited as setup does, below the command: bytes back as they were whatever
// they are, a JSON(C) edit that changes the servers and no other byte, Codex's TOML by whole
// tables (a layout that cannot be edited so is refused), and `__proto__` a server name like any.
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { decodeLossless, encodeLossless } from "../../../src/cli/hosts/text_bytes.ts";
import { editPlace, placeServers } from "../../../src/cli/hosts/edit.ts";
import { jsonData } from "../../../src/cli/hosts/json_doc.ts";
import { headerPath } from "../../../src/cli/hosts/toml_doc.ts";
import { planConfig, undoConfig } from "../../../src/cli/hosts/unfold_edit.ts";
import type { Step } from "../../../src/cli/hosts/records.ts";

Deno.test("any bytes decode to text that encodes back to the same bytes", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      deepEqual(encodeLossless(decodeLossless(bytes)), bytes);
    }),
    { numRuns: 2000 },
  );
  const text = decodeLossless(new TextEncoder().encode("\ufeffcafé 😀"));
  deepEqual(text, { text: "café 😀", bom: true });
});

Deno.test("a JSONC edit changes the servers and not one byte around them", () => {
  const before =
    '// mine\n{\n\t"a": [1, 2,], /* kept */\n\t"mcpServers": {\n\t\t"fs": {"command": "x"}, // fs\n\t},\n\t"z": true,\n}\n';
  const edited = editPlace(before, "mcp.json", ["mcpServers"], {
    remove: ["fs"],
    add: [{ name: "unfold", value: { command: "u" } }],
  });
  ok(edited.ok);
  ok(
    edited.value.startsWith('// mine\n{\n\t"a": [1, 2,], /* kept */\n\t"mcpServers": {'),
    edited.value,
  );
  ok(edited.value.endsWith('\t},\n\t"z": true,\n}\n'), edited.value);
  ok(edited.value.includes('\n\t\t"unfold": {\n\t\t\t"command": "u"\n\t\t}'), edited.value);
  // Put back from its text: its comment and layout come back with it.
  const servers = placeServers(before, "mcp.json", ["mcpServers"]);
  ok(servers.ok);
  const fs = servers.value!.get("fs")!;
  const back = editPlace(edited.value, "mcp.json", ["mcpServers"], {
    remove: ["unfold"],
    add: [{ name: "fs", value: fs.value, raw: fs.raw }],
  });
  ok(back.ok && back.value.includes('"fs": {"command": "x"}'), back.ok ? back.value : back.error);
});

Deno.test("__proto__ is a server name like any other in a host file and in unfold's config", () => {
  const text = '{"mcpServers": {"__proto__": {"command": "p"}, "constructor": {"command": "c"}}}';
  const read = placeServers(text, "mcp.json", ["mcpServers"]);
  ok(read.ok);
  deepEqual([...read.value!.keys()], ["__proto__", "constructor"]);
  const moves = [...read.value!].map(([name, { value }]) => ({
    name,
    entry: value as Record<string, unknown>,
  }));
  const plan = planConfig("", "cursor", moves);
  ok(plan.ok, plan.ok ? "" : plan.error);
  deepEqual(plan.value.ids, ["__proto__", "constructor"]);
  const data = jsonData(plan.value.text);
  ok(data.ok);
  const servers = (data.value as { mcpServers: object }).mcpServers;
  deepEqual(Object.keys(servers), ["__proto__", "constructor"]);
  equal(Object.getPrototypeOf(servers), Object.prototype);
  // And taken out again by the inverse edit alone.
  const step = {
    run: 1,
    config: { profile: plan.value.profile, servers: plan.value.servers },
    places: [{ removed: plan.value.ids.map((id) => ({ id })) }],
  } as unknown as Step;
  const undone = undoConfig(
    plan.value.text,
    "mcp.json",
    plan.value.ids.map((id) => ({ step, id, keep: false })),
    [],
  );
  ok(undone.ok);
  deepEqual(undone.value.servers, ["__proto__", "constructor"]);
  deepEqual(jsonData(undone.value.text), { ok: true, value: { mcpServers: {} } });
});

Deno.test("Codex's TOML: whole tables out and in, comments kept; a layout setup cannot edit is refused", () => {
  const text = '# mine\nmodel = "o3"\n\n# the fs server\n[mcp_servers.fs]\ncommand = "x"\n\n' +
    '[mcp_servers.fs.env]\nA = "1"\n\n[mcp_servers."with space"]\ncommand = "y"\n\n[profiles.fast]\nmodel = "o4"\n';
  const read = placeServers(text, "config.toml", ["mcp_servers"]);
  ok(read.ok);
  deepEqual([...read.value!.keys()], ["fs", "with space"]);
  equal(
    read.value!.get("fs")!.raw,
    '# the fs server\n[mcp_servers.fs]\ncommand = "x"\n\n[mcp_servers.fs.env]\nA = "1"\n\n',
  );
  const edited = editPlace(text, "config.toml", ["mcp_servers"], {
    remove: ["fs"],
    add: [{ name: "unfold", value: { command: "u" } }],
  });
  ok(edited.ok);
  equal(
    edited.value,
    '# mine\nmodel = "o3"\n\n[mcp_servers."with space"]\ncommand = "y"\n\n[profiles.fast]\nmodel = "o4"\n\n' +
      '[mcp_servers.unfold]\ncommand = "u"\n',
  );
  const dotted = 'mcp_servers.fs.command = "x"\n';
  const refused = editPlace(dotted, "config.toml", ["mcp_servers"], { remove: ["fs"], add: [] });
  deepEqual(refused, {
    ok: false,
    error:
      "cannot be edited safely: write its mcp_servers as [mcp_servers.NAME] tables, or move them by hand",
  });
  deepEqual(headerPath(`[ mcp_servers . "a.b" . 'c' ] # x`), ["mcp_servers", "a.b", "c"]);
  equal(headerPath('model = "[not a header]"'), undefined);
});
