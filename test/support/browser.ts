// A real headless Chromium for tests, from npm (@sparticuz/chromium ships the browser inside the
// package; nothing is downloaded at run time), driven with puppeteer-core. Screenshots go under
// test-results/ (not committed) so a run leaves pictures of what the page showed.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import chromium from "@sparticuz/chromium";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { repoRoot } from "../../supabase/local/wrangler-dev-args.ts";

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    args: [...chromium.args, "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    executablePath: await chromium.executablePath(),
    headless: true,
    defaultViewport: { width: 1280, height: 900 },
  });
}

/** Saves a full-page screenshot as test-results/<folder>/<name>.png and answers its path. */
export async function screenshot(page: Page, folder: string, name: string): Promise<string> {
  const dir = join(repoRoot, "test-results", folder);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

// In-page reads, written as expressions: this project's TypeScript has the Workers' types, not
// the DOM's, so code that runs in the page is passed as text.
const q = (selector: string) => `document.querySelector(${JSON.stringify(selector)})`;
const qAll = (selector: string) => `[...document.querySelectorAll(${JSON.stringify(selector)})]`;

/** The text of the first element matching `selector` ("" when none). */
export const textOf = (page: Page, selector: string) => page.evaluate(`${q(selector)}?.textContent ?? ""`) as Promise<string>;
/** The texts of every element matching `selector`. */
export const textsOf = (page: Page, selector: string) => page.evaluate(`${qAll(selector)}.map((e) => e.textContent)`) as Promise<string[]>;
/** How many elements match `selector`. */
export const countOf = (page: Page, selector: string) => page.evaluate(`${qAll(selector)}.length`) as Promise<number>;
/** A data-* value of the first match. */
export const dataOf = (page: Page, selector: string, key: string) =>
  page.evaluate(`${q(selector)}?.dataset[${JSON.stringify(key)}]`) as Promise<string | undefined>;
/** A form field's value, or sets it. */
export const fieldValue = (page: Page, selector: string) => page.evaluate(`${q(selector)}.value`) as Promise<string>;
export const setValue = (page: Page, selector: string, value: string) => page.evaluate(`${q(selector)}.value = ${JSON.stringify(value)}`);
/** Evaluates an expression in the page. */
export const inPage = <T>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;
