// The browser playground in a real headless Chromium, driving the page that the agent Worker
// serves on `wrangler dev`, next to a Tool Agent on `wrangler dev`, one data plane, and the
// scripted OpenAI-compatible server as the model. Each step looks at what the page shows (not
// at the page's internals) and saves a screenshot under test-results/playground/.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, ElementHandle, HTTPRequest, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { UiHints } from "../../functions/agent/post-processing/ui-hints.ts";
import { cardExamples } from "../../functions/playground/build.ts";
import { freePort } from "../../supabase/local/processes.ts";
import { registerSeedTools } from "../../supabase/local/tool-agent-dev.ts";
import { repoRoot } from "../../supabase/local/wrangler-dev-args.ts";
import { countOf, dataOf, fieldValue, inPage, launchBrowser, screenshot, setValue, textOf, textsOf } from "../support/browser.ts";
import { type ScriptedOpenAI, startScriptedOpenAI } from "../support/openai-server/server.ts";
import { startToolAgentDev, type ToolAgentDev } from "../support/tool-agent-dev.ts";
import { startWranglerDev, type WranglerDev } from "../support/wrangler-dev.ts";

const registry = mkdtempSync(join(tmpdir(), "playground-registry-"));
const files = mkdtempSync(join(tmpdir(), "playground-files-"));
const shots: string[] = [];
let toolAgent: ToolAgentDev;
let agent: WranglerDev;
let model: ScriptedOpenAI;
let browser: Browser;
let page: Page;
const requests: HTTPRequest[] = [];

const intent = (objective: string, skill: string | null = "calendar") =>
  JSON.stringify({
    objective,
    requires_tool: skill !== null,
    selected_skill: skill,
    intended_action: skill ? "read" : null,
    known_entities: null,
    known_time_range: null,
    missing_fields: null,
    context_summary: null,
  });
const readDay = {
  toolCalls: [
    { name: "project_cli", arguments: { module: "calendar", method: "read", input: { mode: "day", date: "2026-11-22", timezone: "UTC" } } },
  ],
};

/** A promise the scripted model waits for, and the function that lets it go. */
function gate(): { wait: Promise<void>; open(): void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

async function shot(name: string) {
  shots.push(await screenshot(page, "playground", name));
}

const text = (selector: string) => textOf(page, selector);
const lastRunStatus = () => dataOf(page, ".run:last-of-type", "status");

/** What the page shows, for a failure message: the notices and the end of the conversation. */
async function pageState() {
  return inPage<string>(
    page,
    `JSON.stringify({ chat: document.getElementById("chat-notice")?.textContent, signIn: document.getElementById("sign-in-notice")?.textContent, signedIn: document.body.dataset.signedIn, runs: [...document.querySelectorAll(".run")].slice(-2).map((run) => run.dataset.status + ": " + run.textContent.slice(0, 300)) })`,
  );
}

async function send(message: string) {
  await page.type("#message", message);
  await page.click("#send");
}

// A wait that fails says what the page showed instead.
const wait = async (selector: string) => {
  try {
    await page.waitForSelector(selector, { timeout: 20_000 });
  } catch (error) {
    throw new Error(`${selector} did not appear; the page shows ${await pageState()}`, { cause: error });
  }
};
const until = async (expression: string) => {
  try {
    await page.waitForFunction(expression, { timeout: 20_000 });
  } catch (error) {
    throw new Error(`${expression} did not become true; the page shows ${await pageState()}`, { cause: error });
  }
};

beforeAll(async () => {
  model = await startScriptedOpenAI();
  const agentPort = await freePort();
  toolAgent = await startToolAgentDev({ TOOL_AGENT_CORS_ORIGINS: `http://127.0.0.1:${agentPort}` }, { registry });
  await registerSeedTools(toolAgent.url, toolAgent.keys.admin);
  agent = await startWranglerDev({
    port: agentPort,
    registry,
    plane: { plane: toolAgent.dev.plane, keys: toolAgent.dev.keys },
    vars: { AGENT_MODEL_API_KEY: model.apiKey, AGENT_MODEL_BASE_URL: model.baseUrl, PLAYGROUND_TOOL_AGENT_URL: toolAgent.url },
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on("request", (request) => requests.push(request));
  // Failures of the page's own code would show here (the refusals the tests provoke show too).
  page.on("pageerror", (error) => console.log(`[page error] ${error}`));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  await toolAgent?.dev.stop();
  await model?.close();
  rmSync(registry, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
  if (shots.length > 0) console.log(`playground screenshots:\n  ${shots.join("\n  ")}`);
});

describe.sequential("the playground in headless Chromium", () => {
  test("signs in as a seeded user on the local stack", async () => {
    await page.goto(`${agent.url}/playground`);
    await wait("body[data-ready='true']");
    await page.click("[data-sign-in='alice@example.com']");
    await until(`document.body.dataset.signedIn === "true"`);
    expect(await text("#who")).toContain("alice@example.com");
    await shot("01-signed-in");
  }, 60_000);

  test("a run shows its steps, the tool call with its arguments, the card and the streamed answer; a reload mid-run resumes with Last-Event-ID", async () => {
    const answer = gate();
    model.planStructured({ text: intent("what is on the calendar on 2026-11-22") });
    model.planTurns(readDay, { text: "You have nothing on 2026-11-22.", after: answer.wait });
    await send("What is on my calendar on 2026-11-22?");

    // The model holds its answer: the run is between the tool call and the answer.
    await wait(".run [data-card='event_list']");
    expect(await lastRunStatus()).toBe("running");
    expect(await text(".tool-call[data-tool='project_cli'] .tool-args")).toContain('"method": "read"');
    expect(await text(".steps")).toContain("intent");
    await shot("02-card-while-running");

    await page.reload();
    await wait(".run[data-resumed]");
    const resumedAfter = Number(await dataOf(page, ".run[data-resumed]", "resumed"));
    expect(resumedAfter).toBeGreaterThan(5);
    // Drawn again from what the page had seen, before any new event arrived.
    expect(await countOf(page, ".run [data-card='event_list']")).toBe(1);
    answer.open();

    await wait(".run[data-status='finished']");
    expect(await text(".run[data-status='finished'] .assistant-text")).toBe("You have nothing on 2026-11-22.");
    // The resumed stream started after the last event seen: nothing was drawn twice.
    expect(await countOf(page, ".run [data-card='event_list']")).toBe(1);
    expect(await countOf(page, ".run .tool-call")).toBe(1);
    const resume = requests.find((request) => request.url().includes("/events") && request.method() === "GET");
    expect(resume?.headers()["last-event-id"]).toBe(String(resumedAfter));
    await shot("03-resumed-and-finished");
  }, 60_000);

  test("a run waiting on its model is cancelled, before the model answers", async () => {
    const thinking = gate();
    model.planStructured({ text: intent("a long question"), after: thinking.wait });
    await send("Take your time with this one");

    await until(`!document.getElementById("cancel").disabled`);
    await page.click("#cancel");
    await wait(".run[data-status='cancelled']");
    thinking.open();
    expect(await text(".run[data-status='cancelled'] .run-status")).toBe("cancelled");
    await shot("04-cancelled");
  }, 60_000);

  test("an attached image reaches the model and shows in the message", async () => {
    const png = join(files, "dot.png");
    writeFileSync(
      png,
      Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64"),
    );
    model.reset();
    model.planStructured({ text: intent("describe the picture", null) });
    model.planTurns({ text: "A single dot." });
    const input = (await page.$("#attach")) as ElementHandle<never>;
    await input.uploadFile(png);
    await wait("#attachments img");
    await send("What is in this picture?");
    await until(`document.querySelectorAll(".run[data-status='finished']").length >= 2`);
    expect(
      await inPage<string[]>(page, `[...document.querySelectorAll(".user-message img")].map((image) => image.src.slice(0, 22))`),
    ).toContain("data:image/png;base64,");
    const execution = model.requests.find((request) => JSON.stringify(request.body).includes("data:image/png;base64"));
    expect(execution, "the model received the image as an image part").toBeDefined();
    await shot("05-image-attached");
  }, 60_000);

  test("threads are listed and a thread's history replays its cards, answers and images", async () => {
    await page.reload();
    await wait("#threads li button");
    await page.click("#threads li button");
    await wait(".run[data-status='history'] [data-card='event_list']");
    expect(await text(".run[data-status='history'] .run-status")).toBe("from history");
    const answers = await textsOf(page, ".run[data-status='history'] .assistant-text");
    expect(answers).toEqual(expect.arrayContaining(["You have nothing on 2026-11-22.", "A single dot."]));
    await until(
      `[...document.querySelectorAll(".user-message img")].some((image) => image.src.startsWith("blob:") && image.complete && image.naturalWidth === 1)`,
    );
    await shot("06-history");
  }, 60_000);

  test("errors are shown with their codes", async () => {
    model.planStructured({ text: intent("anything") });
    model.planTurns({ status: 401, message: "scripted key refusal" });
    await send("This one fails");
    await wait(".run-error[data-code='MODEL_REQUEST_REJECTED']");
    expect(await lastRunStatus()).toBe("error");
    await shot("07-run-error");

    // A token the Worker does not accept is refused before any stream, with its code.
    await page.click("#sign-out");
    const foreign = `${btoa(JSON.stringify({ alg: "HS256" }))}.${btoa(JSON.stringify({ sub: "someone", exp: 4_000_000_000 }))}.c2ln`;
    await page.type("#token", foreign);
    await page.click("#paste-token button");
    // The thread list is refused first; its notice lands just above the composer, and a click
    // aimed at "send" while that line appears would miss the moving button.
    await wait("#chat-notice[data-tone='error']");
    await send("Hello?");
    await wait(".run-error[data-code='UNAUTHENTICATED']");
    expect(await fieldValue(page, "#message"), "a refused message goes back in the box").toBe("Hello?");
    await shot("08-refused-token");
    await setValue(page, "#message", "");
    await page.click("#sign-out");
    await page.click("[data-sign-in='alice@example.com']");
    await until(`document.body.dataset.signedIn === "true"`);
  }, 60_000);

  test("the card gallery draws every card kind the compiler knows, as docs/tool-cards.md shows them", async () => {
    await page.click("[data-show='cards']");
    await wait("#gallery[data-loaded='true']");
    const drawn = await inPage<Array<{ kind: string; title: string; blocks: number }>>(
      page,
      `[...document.querySelectorAll("#gallery .card")].map((card) => ({ kind: card.dataset.card, title: card.querySelector("h3")?.textContent, blocks: card.querySelectorAll(".block").length }))`,
    );
    const kinds = UiHints.options.map((option) => option.shape.kind.value);
    expect(new Set(drawn.map((card) => card.kind))).toEqual(new Set(kinds));
    // Each card drawn as its example in the docs says: same kind, title and number of blocks.
    const examples = cardExamples(readFileSync(join(repoRoot, "docs", "tool-cards.md"), "utf8")) as Array<{
      card: string;
      title: string;
      blocks: unknown[];
    }>;
    expect(drawn).toEqual(examples.map((example) => ({ kind: example.card, title: example.title, blocks: example.blocks.length })));
    expect(await countOf(page, "#gallery .block-unknown")).toBe(0);
    await shot("09-card-gallery");
  }, 60_000);

  test("the Tool Agent tab finds a tool, runs it, and builds a new one while showing its task", async () => {
    await page.click("[data-show='tools']");
    expect(await inPage(page, `getComputedStyle(document.querySelector("[data-tab='chat']")).display`)).toBe("none");
    expect(await fieldValue(page, "#tool-agent-url")).toBe(toolAgent.url);
    await page.type("#tool-key", await toolAgent.issueKey(["search", "invoke", "create"]));
    await page.type("#tool-keyword", "单位");
    await page.click("#tool-search button");
    await wait("#tool-results li[data-tool-id='unit_convert'] button");
    await page.click("#tool-results li[data-tool-id='unit_convert'] button");
    expect(await fieldValue(page, "#tool-id")).toBe("unit_convert");
    await setValue(page, "#tool-params", JSON.stringify({ value: 10, from: "km", to: "mi" }));
    await page.click("#tool-run button");
    await wait("#tool-run-output .tool-answer");
    expect(await text("#tool-run-output .tool-answer")).toContain("6.21");

    await page.type("#tool-description", "帮我创建一个文本摘要工具");
    await page.click("#tool-create button");
    await page.waitForSelector(".task[data-status='completed']", { timeout: 60_000 });
    expect(await text(".task")).toContain("text_summarize");
    expect(await countOf(page, ".task-log li")).toBeGreaterThan(3);
    await shot("10-tool-agent");
  }, 90_000);
});
