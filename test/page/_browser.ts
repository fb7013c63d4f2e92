/// <reference lib="dom" />
/**
 * A real headless Chromium (Debian's `chromium`; `.ci/run` installs it) driven with
 * `puppeteer-core`, with a fresh profile, recording every console error, page error and request
 * so a test can say the page stayed clean and within its origin.
 *
 * @module
 */

import puppeteer, { type Browser, type Page } from "puppeteer-core";

/**
 * The options of a `page.waitForFunction` that checks again at each change of the page's DOM
 * (a `MutationObserver`), not at every animation frame: the wait ends on the change it waits for.
 * Its default 30 s timeout is an upper bound only.
 */
export const ON_CHANGE = { polling: "mutation" } as const;

/** Where screenshots go (git-ignored). */
export const OUTPUT = new URL("../output/", import.meta.url);

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A page in a fresh browser, with what it logged and requested. */
export interface OpenPage extends AsyncDisposable {
  /** The page. */
  page: Page;
  /** Console errors, page errors and failed requests, as text. */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
}

/** The Chromium binary: `CHROMIUM` when set, else `chromium` on the PATH (Debian's package). */
export function chromiumPath(): string {
  const named = Deno.env.get("CHROMIUM");
  if (named) return named;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(`${dir}/chromium`).isFile) return `${dir}/chromium`;
    } catch { /* not here */ }
  }
  throw new Error(
    "Chromium is not installed: apt-get install chromium (.ci/run does), or set CHROMIUM",
  );
}

/**
 * Launches Chromium and opens a page on a URL (not yet loaded: call `page.goto`).
 *
 * @returns The page; disposing it closes the browser and removes its profile.
 */
export async function openPage(): Promise<OpenPage> {
  const profile = await Deno.makeTempDir({ prefix: "unfold-chromium-" });
  const browser: Browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...FLAGS, `--user-data-dir=${profile}`],
  });
  const page = await browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`page: ${String(error)}`));
  page.on("requestfailed", (request) => errors.push(`request failed: ${request.url()}`));
  page.on("request", (request) => requests.push(request.url()));
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`${response.status()}: ${response.url()}`);
  });
  return {
    page,
    errors,
    requests,
    async [Symbol.asyncDispose]() {
      await browser.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Writes a full-page screenshot at a width, under {@linkcode OUTPUT}.
 *
 * @param page The page.
 * @param name The file name, without `.png`.
 * @param width The viewport width in CSS pixels (the height follows the page).
 * @returns The file's path.
 */
export async function screenshot(page: Page, name: string, width: number): Promise<string> {
  await Deno.mkdir(OUTPUT, { recursive: true });
  await page.setViewport({ width, height: 900 });
  // Two frames: layout at the new width, and what the page redraws for it.
  await page.evaluate(() =>
    new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
  );
  const path = new URL(`${name}.png`, OUTPUT).pathname;
  await page.screenshot({ path: path as `${string}.png`, fullPage: true });
  return path;
}
