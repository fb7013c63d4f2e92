/// <reference lib="dom" />
// Functions passed to page.waitForFunction and $eval run in the browser: they need DOM types.
import { equal, match, ok } from "node:assert/strict";
import type { ElementHandle } from "puppeteer-core";
import { spawnLogged, stopper } from "../_deno.ts";
import { denoEnv, memoryServer } from "../mcp/_servers.ts";
import { cliCommand, httpClient, startHttpGateway, writeConfig } from "../gateway/_gateway.ts";
import { ON_CHANGE, openPage, screenshot } from "./_browser.ts";

const TOKEN = "page-test-token";
const PROFILE_TOKEN = "page-test-files-token";
// Not one of the page's preset sizes: the page must start where the config says.
const CONTEXT = 48_000;
const UNFOLD = {
  availableContextTokens: CONTEXT,
  profiles: { files: { servers: ["filesystem"], tokens: [PROFILE_TOKEN] } },
};

Deno.test("the page on the gateway's HTTP face shows each upstream's state, live counters and the live model view", async (t) => {
  const { path, dir } = await writeConfig({ broken: true, unfold: UNFOLD });
  await using gateway = await startHttpGateway(path, { UNFOLD_API_TOKEN: TOKEN });
  const base = gateway.url.replace(/\/mcp$/, "");
  try {
    await using browser = await openPage();
    const { page, errors, requests } = browser;
    await page.setViewport({ width: 1280, height: 900 });

    await t.step("the page asks for the token first, and shows nothing else", async () => {
      await page.goto(`${base}/`, { waitUntil: "load" });
      await page.waitForSelector("#token", { visible: true });
      // The 401 that asked for the token is expected (the browser logs it too): nothing else.
      ok(errors.length > 0 && errors.every((e) => e.includes("401")), errors.join("\n"));
      errors.length = 0;
      match(await page.$eval("#message", (el) => el.textContent ?? ""), /needs a token/);
      for (const id of ["#main", "#use-sample", "#catalog-text", "#openapi"]) {
        equal(await visible(await page.$(id)), false, id);
      }
    });

    await t.step("with the token: the gateway's panels only, at the config's size", async () => {
      await page.type("#token", TOKEN);
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        () => document.querySelector("#face")?.textContent === "gateway",
        ON_CHANGE,
      );
      equal(await page.evaluate(() => sessionStorage.getItem("unfold.token")), TOKEN);
      await page.waitForFunction(
        () => document.querySelector("#level")?.textContent !== "–",
        ON_CHANGE,
      );
      equal(await page.$eval("#context", (el) => (el as HTMLInputElement).value), String(CONTEXT));
      const views = requests.filter((url) => new URL(url).pathname === "/view");
      equal(new URL(views[0]!).searchParams.get("context"), String(CONTEXT));
      for (const id of ["#use-sample", "#catalog-file", "#catalog-text", "#openapi"]) {
        equal(await visible(await page.$(id)), false, id);
      }
      equal(await visible(await page.$("#status-section")), true);
      const message = await page.$eval("#message", (el) => el.textContent ?? "");
      ok(!/404/.test(message), message);
      const profiles = await page.$$eval(
        "#profiles-table tbody tr",
        (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? "")),
      );
      equal(profiles.length, 1);
      equal(profiles[0]![0], "files");
      equal(profiles[0]![1], "/mcp/files");
    });

    await t.step(
      "the status panel lists each upstream with its state, the dead one failed",
      async () => {
        // Four rows, none still starting (the page reads /status again every few seconds).
        await page.waitForFunction(
          () => {
            const rows = [...document.querySelectorAll("#status-table tbody tr")];
            return rows.length === 4 &&
              rows.every((row) => row.children[1]?.textContent !== "starting");
          },
          { ...ON_CHANGE, timeout: 60_000 },
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
        ok(rows.every((row) => row[3] === "none pending"), "each one's trust state");
        ok(rows.every((row) => /^\d/.test(row[5]!)), "definition tokens for each upstream");
      },
    );

    await t.step('changing "Context tokens" changes the level of the live catalogue', async () => {
      const levels: string[] = [];
      for (const context of [8_000, 1_000_000]) {
        // The overview is in the bridge's description by default (overviewIn): what the host gets
        // is the instructions and the tools together.
        const shown = () =>
          page.evaluate(() =>
            `${document.querySelector("#prompt")?.textContent}\n${
              document.querySelector("#bridge")?.textContent
            }`
          );
        const before = await shown();
        await page.$eval("#context", (el, value) => {
          (el as HTMLInputElement).value = String(value);
          el.dispatchEvent(new Event("change"));
        }, context);
        await page.waitForFunction(
          (was) =>
            `${document.querySelector("#prompt")?.textContent}\n${
              document.querySelector("#bridge")?.textContent
            }` !== was,
          ON_CHANGE,
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
        const cell = (name: string) =>
          cells.find((div) => div.querySelector("dt")?.textContent === name);
        const count = (name: string) =>
          Number(cell(name)?.querySelector("dd")?.textContent?.replaceAll(",", ""));
        // The search's answer is counted in the tokens returned (none was cut or asked more of).
        return count("Searches") >= 1 && count("Tokens returned") >= 1 &&
          count("Results cut") === 0 && count("More calls") === 0;
      }, { ...ON_CHANGE, timeout: 20_000 });
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

    await t.step("a profile's token shows that profile alone", async () => {
      await using other = await openPage();
      const profilePage = other.page;
      await profilePage.goto(`${base}/`, { waitUntil: "load" });
      await profilePage.waitForSelector("#token", { visible: true });
      await profilePage.type("#token", PROFILE_TOKEN);
      await profilePage.keyboard.press("Enter");
      await profilePage.waitForFunction(
        () => document.querySelector("#face")?.textContent === "gateway · profile files",
        ON_CHANGE,
      );
      const servers = await profilePage.$$eval(
        "#status-table tbody tr td:first-child",
        (tds) => tds.map((td) => td.textContent),
      );
      equal(servers.join(), "filesystem");
      match(await profilePage.$eval("#profile-note", (el) => el.textContent ?? ""), /files alone/);
      equal(await visible(await profilePage.$("#profiles-table")), false);
      equal(await visible(await profilePage.$("#counters-section")), false);
      await profilePage.waitForFunction(
        () => document.querySelector("#level")?.textContent !== "–",
        ON_CHANGE,
      );
      equal(
        await profilePage.$eval("#context", (el) => (el as HTMLInputElement).value),
        String(CONTEXT),
      );
    });

    await t.step("a gateway that stops answering leaves its error and no old figure", async () => {
      await gateway.stop();
      await page.waitForFunction(
        () => /Cannot reach the server/.test(document.querySelector("#message")?.textContent ?? ""),
        { ...ON_CHANGE, timeout: 20_000 },
      );
      equal(await page.$$eval("#status-table tbody tr", (trs) => trs.length), 0);
      equal(await page.$$eval("#counters div", (divs) => divs.length), 0);
      equal(await page.$$eval("#cost-table tbody tr", (trs) => trs.length), 0);
      for (const id of ["#level", "#cost", "#all-cost", "#budget"]) {
        equal(await page.$eval(id, (el) => el.textContent), "–", id);
      }
      match(await page.$eval("#catalog-summary", (el) => el.textContent ?? ""), /unknown/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Whether an element is shown (it and every ancestor laid out).
async function visible(element: ElementHandle<Element> | null): Promise<boolean> {
  if (element === null) return false;
  return await element.evaluate((el) => (el as HTMLElement).checkVisibility());
}

Deno.test("unfold gateway --http with a token prints the page's URL and that it needs the token", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-page-" });
  try {
    const path = `${dir}/mcp.json`;
    // One upstream that never starts: the startup lines do not wait for upstreams.
    await Deno.writeTextFile(
      path,
      JSON.stringify({ mcpServers: { broken: { command: "/no/such/mcp-server" } } }),
    );
    const { command, args } = cliCommand("gateway", "--config", path, "--http", "--port", "0");
    const { child, lines } = spawnLogged(command, args, { ...denoEnv(), UNFOLD_API_TOKEN: TOKEN });
    let seen = "";
    let page: RegExpExecArray | null = null;
    let cutOff: ReturnType<typeof setTimeout> | undefined;
    while (page === null) {
      const { value, done } = await lines.read();
      if (done) break;
      seen += value;
      page = /the page: (http:\/\/\S+\/)(.*)\n/.exec(seen);
      // Once it listens, its page line follows at once: a gateway that never says it is stopped
      // (an upper bound on the wait for that line, not a delay).
      if (cutOff === undefined && /tools at/.test(seen)) {
        cutOff = setTimeout(() => child.kill("SIGTERM"), 10_000);
      }
    }
    clearTimeout(cutOff);
    await stopper(child, lines)();
    ok(page !== null, seen);
    const mcp = /tools at (http:\/\/\S+)\/mcp/.exec(seen)?.[1];
    equal(page[1], `${mcp}/`);
    match(page[2]!, /asks for a token: UNFOLD_API_TOKEN/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the gateway's page shows tools awaiting approval, with their live definitions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-page-" });
  try {
    const path = `${dir}/mcp.json`;
    // trust "pin" and no lock file: every tool of the real server is new and held.
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        mcpServers: {
          memory: memoryServer(dir),
        },
        unfold: { trust: "pin", startupTimeoutMs: 30_000 },
      }),
    );
    await using gateway = await startHttpGateway(path);
    await using browser = await openPage();
    const { page, errors } = browser;
    await page.goto(gateway.url.replace(/\/mcp$/, "/"), { waitUntil: "load" });
    await page.waitForFunction(() =>
      /awaiting approval: .*read_graph/.test(
        document.querySelector("#status-table tbody tr td:nth-child(4)")?.textContent ?? "",
      ), ON_CHANGE);
    await page.click("#status-table tbody tr td:nth-child(4) summary");
    const shown = await page.$eval(
      "#status-table tbody tr td:nth-child(4) pre",
      (el) => el.textContent ?? "",
    );
    match(shown, /read_graph \(new\)/);
    match(shown, /approved: \(absent\)/);
    match(shown, /live: +"/);
    equal(errors.length, 0, errors.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
