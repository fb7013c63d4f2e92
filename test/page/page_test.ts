/// <reference lib="dom" />
// Functions passed to page.waitForFunction and $eval run in the browser: they need DOM types.
import { equal, match, ok } from "node:assert/strict";
import { McpCatalog } from "../../src/catalog.ts";
import { definitionOf } from "../../src/gateway/presentation.ts";
import { Injector } from "../../src/injector.ts";
import { estimateTokens } from "../../src/tokens.ts";
import type { McpTool } from "../../src/tool.ts";
import { startDenoServer } from "../e2e/_processes.ts";
import { ON_CHANGE, openPage, screenshot } from "./_browser.ts";

const SAMPLE = new URL("../../testdata/real-servers/", import.meta.url);

async function sample(): Promise<McpTool[]> {
  const byServer = JSON.parse(await Deno.readTextFile(new URL("tools.json", SAMPLE))) as Record<
    string,
    Omit<McpTool, "server">[]
  >;
  return Object.entries(byServer).flatMap(([server, tools]) =>
    tools.map((tool) => ({ ...tool, server }))
  );
}

// A query of the test data whose expected tool the ranker puts first.
async function everydayQuery(catalog: McpCatalog): Promise<{ query: string; id: string }> {
  const lines = (await Deno.readTextFile(new URL("everyday.jsonl", SAMPLE))).trim().split("\n");
  for (const line of lines) {
    const task = JSON.parse(line) as { query: string; gold_groups: string[][] };
    const top = catalog.search(task.query, 1)[0]?.id;
    if (top !== undefined && task.gold_groups.flat().includes(top)) {
      return { query: task.query, id: top };
    }
  }
  throw new Error("no query of everyday.jsonl ranks its tool first");
}

Deno.test("the page on the Deno API shows the model's view, the cost chart and why a search found a tool", async (t) => {
  const tools = await sample();
  const catalog = new McpCatalog(tools);
  const levelAt = (context: number) =>
    new Injector(catalog, { availableContextTokens: context }).inject()!.mode;
  const server = await startDenoServer();
  try {
    await using browser = await openPage();
    const { page, errors, requests } = browser;
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${server.url}/`, { waitUntil: "load" });
    const levelShown = () => page.$eval("#level", (el) => el.textContent);

    await t.step("the sample catalogue loads and the level for 128k is shown", async () => {
      await page.waitForFunction(
        () => document.querySelector("#level")?.textContent !== "–",
        ON_CHANGE,
      );
      equal(await levelShown(), levelAt(128_000));
      const prompt = await page.$eval("#prompt", (el) => el.textContent ?? "");
      ok(prompt.length > 100, prompt);
      // The page counts every definition's tokens itself: the same count as the gateway's.
      const definitions = catalog.tools.reduce(
        (sum, tool) => sum + estimateTokens(JSON.stringify(definitionOf(tool))),
        0,
      );
      equal(
        await page.$eval("#all-cost", (el) => el.textContent),
        `${definitions.toLocaleString("en-US")} tokens`,
      );
    });

    await t.step('changing "Context tokens" changes the level shown', async () => {
      ok(levelAt(8_000) !== levelAt(1_000_000));
      for (const context of [8_000, 1_000_000]) {
        await page.$eval("#context", (el, value) => {
          (el as HTMLInputElement).value = String(value);
          el.dispatchEvent(new Event("change"));
        }, context);
        await page.waitForFunction(
          (want) => document.querySelector("#level")?.textContent === want,
          ON_CHANGE,
          levelAt(context),
        );
      }
      const label = await page.$eval('label[for="context"]', (el) => el.textContent);
      equal(label, "Context tokens");
    });

    await t.step("the cost chart and its table cover 8k to 1M tokens", async () => {
      await page.waitForFunction(
        () => document.querySelectorAll("#cost-table tbody tr").length === 9,
        ON_CHANGE,
      );
      const first = await page.$eval("#cost-table tbody tr", (tr) => tr.textContent ?? "");
      ok(first.startsWith("8,000" + levelAt(8_000)), first);
      ok((await page.$$("#chart path")).length === 2);
    });

    await t.step('"Search tools" shows the expected id first, with its matched words', async () => {
      const { query, id } = await everydayQuery(catalog);
      const label = await page.$eval('label[for="query"]', (el) => el.textContent);
      equal(label, "Search tools");
      await page.focus("#query");
      await page.keyboard.type(query);
      await page.keyboard.press("Enter");
      await page.waitForSelector("#results li .id");
      equal(await page.$eval("#results li .id", (el) => el.textContent), id);
      const chips = await page.$$eval("#results li:first-child .chips li", (li) => li.length);
      ok(chips > 0);
    });

    await t.step("screenshots at desktop and phone widths", async () => {
      await screenshot(page, "page-api-desktop", 1280);
      await screenshot(page, "page-api-phone", 390);
      // 200 % zoom of a 1280-pixel window is a 640-pixel layout.
      await screenshot(page, "page-api-zoom200", 640);
      await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
      await screenshot(page, "page-api-dark", 1280);
    });

    await t.step("no console error, and no request outside the page's origin", () => {
      equal(errors.length, 0, errors.join("\n"));
      ok(requests.length > 0);
      const outside = requests.filter((url) => new URL(url).origin !== server.url);
      equal(outside.length, 0, outside.join("\n"));
    });

    await t.step(
      "a catalogue the server refuses shows the error, no summary and no figure",
      async () => {
        await page.click("#catalog-inputs summary");
        await page.$eval("#catalog-text", (el) => {
          (el as HTMLTextAreaElement).value = JSON.stringify([
            { server: "a", name: "", description: "x", inputSchema: { type: "object" } },
          ]);
        });
        await page.click("#use-text");
        await page.waitForFunction(
          () => /non-empty/.test(document.querySelector("#message")!.textContent!),
          ON_CHANGE,
        );
        const summary = await page.$eval("#catalog-summary", (el) => el.textContent ?? "");
        ok(!/\d+ tools/.test(summary) && /refused/.test(summary), summary);
        // Nothing of the sample's figures stays beside the error.
        for (const id of ["#level", "#cost", "#all-cost", "#budget"]) {
          equal(await page.$eval(id, (el) => el.textContent), "–", id);
        }
        equal(await page.$eval("#prompt", (el) => el.textContent), "");
        equal(await page.$$eval("#cost-table tbody tr", (trs) => trs.length), 0);
        equal(await page.$$eval("#chart path", (paths) => paths.length), 0);
        ok(errors.every((e) => /422/.test(e)), errors.join("\n"));
        errors.length = 0;
      },
    );

    await t.step(
      "a catalogue smaller than unfold's own text shows no negative saving",
      async () => {
        await page.$eval("#catalog-text", (el) => {
          (el as HTMLTextAreaElement).value = JSON.stringify({
            notes: [{ name: "add", description: "Add a note", inputSchema: { type: "object" } }],
          });
        });
        await page.click("#use-text");
        await page.waitForFunction(
          () => document.querySelectorAll("#cost-table tbody tr").length === 9,
          ON_CHANGE,
        );
        const saved = await page.$$eval(
          "#cost-table tbody tr",
          (trs) => trs.map((tr) => tr.lastElementChild?.textContent ?? ""),
        );
        ok(saved.every((cell) => /^none \([\d,]+ more\)$/.test(cell)), saved.join(" | "));
        ok(await page.$eval("#saving-note", (el) => !(el as HTMLElement).hidden));
        equal(await page.$eval("#message", (el) => (el as HTMLElement).hidden), true);
        match(
          await page.$eval("#catalog-summary", (el) => el.textContent ?? ""),
          /1 tool from 1 server\./,
        );
        equal(errors.length, 0, errors.join("\n"));
      },
    );

    await t.step("a search the server refuses leaves no result of the one before", async () => {
      await page.$eval("#query", (el) => (el as HTMLInputElement).value = "add a note");
      await page.click("#search button[type=submit]");
      await page.waitForSelector("#results li .id");
      equal(await page.$eval("#results li .id", (el) => el.textContent), "notes/add");
      await page.$eval("#expected", (el) => (el as HTMLInputElement).value = "x/y");
      await page.click("#search button[type=submit]");
      await page.waitForFunction(
        () => /not in this catalogue/.test(document.querySelector("#message")?.textContent ?? ""),
        ON_CHANGE,
      );
      equal(await page.$$eval("#results li", (li) => li.length), 0);
      equal(await page.$eval("#search-words", (el) => el.textContent), "");
      ok(errors.every((e) => /400/.test(e)), errors.join("\n"));
    });
  } finally {
    await server.close();
  }
});
