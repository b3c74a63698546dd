// The coding agent with a real provider path: the scripted OpenAI-compatible server (Chat
// Completions over HTTP) plays the model, one planned turn per step. A model that writes a
// broken tool sees its failing tests and repairs it; a model that registers a failing tool
// leaves it staging with the reason; a model that fails leaves a failed task and no tool.
import { afterAll, beforeAll, expect, test } from "vitest";
import { type ScriptedOpenAI, startScriptedOpenAI } from "../../support/openai-server/server.ts";
import { startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";
import { waitForTask } from "../../support/tool-tasks.ts";

let agent: ToolAgentDev;
let model: ScriptedOpenAI;
let creator: string;

beforeAll(async () => {
  model = await startScriptedOpenAI();
  agent = await startToolAgentDev({
    TOOL_AGENT_MODEL_API_KEY: model.apiKey,
    TOOL_AGENT_MODEL_BASE_URL: model.baseUrl,
    TOOL_AGENT_CODING_MODEL: "coder-test-model",
    // Prices that make the scripted usage (11 in, 7 out per call) show in the cost.
    TOOL_AGENT_CODING_USD_PER_MTOK_INPUT: "1000",
    TOOL_AGENT_CODING_USD_PER_MTOK_OUTPUT: "2000",
  });
  creator = await agent.issueKey(["create", "invoke"]);
}, 90_000);
afterAll(async () => {
  await agent?.dev.stop();
  await model?.close();
});

const tests = JSON.stringify([
  { name: "doubles", input: { n: 2 }, expect: { doubled: 4 } },
  { name: "negative", input: { n: -3 }, expect: { doubled: -6 } },
]);
const broken = "export default { async fetch(request) { const { n } = await request.json(); return Response.json({ doubled: n + 2 }); } };";
const fixed = "export default { async fetch(request) { const { n } = await request.json(); return Response.json({ doubled: n * 2 }); } };";
const registration = (toolId: string) => ({
  tool_id: toolId,
  name: "Doubler",
  description: "Doubles a number.",
  input_schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  output_schema: { type: "object", properties: { doubled: { type: "number" } }, required: ["doubled"] },
});
const call = (name: string, args: unknown) => ({ toolCalls: [{ name, arguments: args }] });

async function submit(description: string): Promise<string> {
  const response = await agent.call("/create_tool", { body: { description }, key: creator });
  expect(response.status).toBe(202);
  return (await response.json()).task_id;
}

test("a model that writes a broken tool reads the failing tests, repairs it, and registers it", async () => {
  model.reset();
  model.planTurns(
    call("write_file", { path: "tool.js", content: broken }),
    call("write_file", { path: "tests.json", content: tests }),
    call("run_tests", {}),
    call("write_file", { path: "tool.js", content: fixed }),
    call("run_tests", {}),
    call("register_tool", registration("doubler")),
  );
  const started = Date.now();
  const task = await waitForTask(agent, creator, await submit("a tool that doubles a number"));
  console.log(`[tasks] scripted model, broken then fixed: ${Date.now() - started} ms from request to completed, ${task.steps} model steps`);
  expect(task).toMatchObject({ status: "completed", tool_id: "doubler", model: "coder-test-model", steps: 6 });
  // Six calls at 11 input and 7 output tokens, at $1000 and $2000 per million.
  expect(task.cost_usd).toBeCloseTo((6 * (11 * 1000 + 7 * 2000)) / 1e6, 6);
  expect(task.log.find((e: any) => e.kind === "COST")).toMatchObject({ input_tokens: 66, output_tokens: 42 });

  expect(model.requests.length).toBe(6); // the loop stopped once the tool was active
  expect(model.requests[0]!.body.model).toBe("coder-test-model");
  // What the model was shown after its first test run: the failure, case by case.
  const shown = JSON.stringify(model.requests[3]!.body.messages);
  expect(shown).toContain('\\"status\\":\\"failed\\"');
  expect(shown).toContain('{\\"name\\":\\"doubles\\",\\"ok\\":true'); // 2 + 2 happens to be right...
  expect(shown).toContain("result.doubled: expected -6, got -1"); // ...-3 + 2 is not
  const testRuns = task.log.filter((e: any) => e.kind === "TOOL_RESULT" && e.tool === "run_tests").map((e: any) => e.output.status);
  expect(testRuns).toEqual(["failed", "passed"]);

  const run = await agent.call("/select_tool", { body: { tool_id: "doubler", params: { n: 21 } }, key: creator });
  expect((await run.json()).result).toEqual({ doubled: 42 });
}, 90_000);

test("a model that registers a tool whose tests fail leaves it staging, with the reason, and not callable", async () => {
  model.reset();
  model.planTurns(
    call("write_file", { path: "tool.js", content: broken }),
    call("write_file", { path: "tests.json", content: tests }),
    call("register_tool", registration("doubler_draft")),
    { text: "I could not make it pass." },
  );
  const task = await waitForTask(agent, creator, await submit("another doubler"));
  expect(task).toMatchObject({ status: "failed", tool_id: "doubler_draft" });
  expect(task.error).toMatch(/The last registration: staging: 1 of 2 tests failed: negative: result.doubled: expected -6, got -1/);
  const [stored] = await agent.sql(
    "select t.status, r.last_error from tool_agent.tools t join tool_agent.tool_routes r using (tool_id) where tool_id = 'doubler_draft'",
  );
  expect(stored).toMatchObject({ status: "staging", last_error: expect.stringMatching(/^not activated: 1 of 2 tests failed/) });
  const run = await agent.call("/select_tool", { body: { tool_id: "doubler_draft", params: { n: 1 } }, key: creator });
  expect((await run.json()).error.code).toBe("TOOL_INACTIVE");
}, 90_000);

test("a candidate whose tests do not fit its input schema, or a taken tool_id, is refused and told why", async () => {
  model.reset();
  model.planTurns(
    call("write_file", { path: "tool.js", content: fixed }),
    call("write_file", { path: "tests.json", content: JSON.stringify([{ input: { number: 2 }, expect: { doubled: 4 } }]) }),
    call("register_tool", registration("doubler")), // taken by the first test's tool
    call("register_tool", registration("doubler_two")), // its test's input lacks n
    call("write_file", { path: "../escape.js", content: "x" }),
    { text: "giving up" },
  );
  const task = await waitForTask(agent, creator, await submit("yet another doubler"));
  expect(task.status).toBe("failed");
  const results = task.log.filter((e: any) => e.kind === "TOOL_RESULT").map((e: any) => e.output);
  expect(results[2]).toMatchObject({ status: "error", message: "doubler is already a registered tool; choose another tool_id" });
  expect(results[3]).toMatchObject({
    status: "staging",
    message: expect.stringMatching(/its input does not match input_schema: missing n/),
  });
  expect(results[4]).toMatchObject({ status: "error", message: expect.stringMatching(/^a workspace path is/) });
  // The first tool is untouched.
  expect((await agent.sql("select version from tool_agent.tools where tool_id = 'doubler'"))[0]).toEqual({ version: 1 });
}, 90_000);

test("a model that keeps failing fails the task, with no tool and no secret in the error", async () => {
  model.reset();
  model.planTurns(
    { status: 500, message: "upstream exploded" },
    { status: 500, message: "upstream exploded" },
    { status: 500, message: "upstream exploded" },
  );
  const task = await waitForTask(agent, creator, await submit("a tool that triples a number"));
  expect(task).toMatchObject({ status: "failed", tool_id: null, steps: 0 });
  expect(task.error).toMatch(/^the coding model failed/);
  expect(JSON.stringify(task)).not.toContain(model.apiKey);
  expect(model.requests.length).toBe(3); // the first try and two retries
}, 90_000);
