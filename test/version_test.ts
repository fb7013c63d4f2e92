import { equal } from "node:assert/strict";
import { VERSION } from "../src/http/mod.ts";

Deno.test("VERSION matches deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  equal(VERSION, config.version);
});
