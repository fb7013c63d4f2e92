/// <reference lib="dom" />
// Functions passed to page.waitForFunction and $eval run in the browser: they need DOM types.
import { equal, ok } from "node:assert/strict";
import { httpClient, startHttpGateway, writeConfig } from "../gateway/_gateway.ts";
import { openPage, screenshot } from "./_browser.ts";

const TOKEN = "page-test-token";

Deno.test("the page on the gateway's HTTP face shows each upstream's state, live counters and the live model view", async (t) => {
  const { path, dir } = await writeConfig({ broken: true });
  await using gateway = await startHttpGateway(path, { UNFOLD_API_TOKEN: TOKEN });
  const base = gateway.url.replace(/\/mcp$/, "");
  try {
    await using browser = await openPage();
    const { page, errors, requests } = browser;
    await page.setViewport({ width: 1280, height: 900 });

    await t.step("the page asks for the token, keeps it in the tab, then loads", async () => {
      await page.goto(`${base}/`, { waitUntil: "networkidle0" });
      await page.waitForSelector("#token", { visible: true });
      // The 401 that asked for the token is expected (the browser logs it too): nothing else.
      ok(errors.length > 0 && errors.every((e) => e.includes("401")), errors.join("\n"));
      errors.length = 0;
      await page.type("#token", TOKEN);
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelector("#face")?.textContent === "gateway");
      equal(await page.evaluate(() => sessionStorage.getItem("unfold.token")), TOKEN);
    });

    await t.step(
      "the status panel lists each upstream with its state, the dead one failed",
      async () => {
        await page.waitForFunction(() =>
          document.querySelectorAll("#status-table tbody tr").length === 4
        );
        const rows = await page.$$eval(
          "#status-table tbody tr",
          (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? "")),
        );
        const states = Object.fromEntries(rows.map(([server, state]) => [server, state]));
        equal(states.everything, "ready");
        equal(states.filesystem, "ready");
        equal(states.memory, "ready");
        equal(states.broken, "failed");
        const broken = rows.find(([server]) => server === "broken")!;
        ok(broken[2]!.length > 0, "the dead upstream's reason is shown");
        ok(rows.every((row) => /^\d/.test(row[4]!)), "definition tokens for each upstream");
      },
    );

    await t.step('changing "Context tokens" changes the level of the live catalogue', async () => {
      const levels: string[] = [];
      for (const context of [8_000, 1_000_000]) {
        const before = await page.$eval("#prompt", (el) => el.textContent);
        await page.$eval("#context", (el, value) => {
          (el as HTMLInputElement).value = String(value);
          el.dispatchEvent(new Event("change"));
        }, context);
        await page.waitForFunction(
          (was) => document.querySelector("#prompt")?.textContent !== was,
          {},
          before,
        );
        levels.push(await page.$eval("#level", (el) => el.textContent ?? ""));
      }
      ok(levels[0] !== levels[1], levels.join(" "));
    });

    await t.step('"Search tools" ranks the live catalogue', async () => {
      await page.focus("#query");
      await page.keyboard.type("last 20 lines of app.log");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#results li .id");
      const first = await page.$eval("#results li .id", (el) => el.textContent);
      ok(["filesystem/read_text_file", "filesystem/read_file"].includes(first!), first!);
    });

    await t.step("the session counters follow a host's calls without reloading", async () => {
      const client = await httpClient(gateway.url, { authorization: `Bearer ${TOKEN}` });
      try {
        await client.callTool({
          name: "mcp",
          arguments: { action: "search", query: "read a text file" },
        });
      } finally {
        await client.close();
      }
      await page.waitForFunction(() => {
        const cells = [...document.querySelectorAll("#counters div")];
        const searches = cells.find((div) => div.querySelector("dt")?.textContent === "Searches");
        return Number(searches?.querySelector("dd")?.textContent) >= 1;
      }, { timeout: 20_000 });
    });

    await t.step("screenshots at desktop and phone widths", async () => {
      await screenshot(page, "page-gateway-desktop", 1280);
      await screenshot(page, "page-gateway-phone", 390);
    });

    await t.step("no console error after the token, and no request outside the origin", () => {
      equal(errors.length, 0, errors.join("\n"));
      const outside = requests.filter((url) => new URL(url).origin !== base);
      equal(outside.length, 0, outside.join("\n"));
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
