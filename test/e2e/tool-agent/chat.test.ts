// POST /agent/chat, each matching branch in English and Chinese: a tool named exactly, tools
// found by the request's words (with reasons and usage examples), the ComfyUI composite (data
// in the registry, offered only while its base tools are active), and no match.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerSeedTools } from "../../../supabase/local/tool-agent-dev.ts";
import { localTool, startToolAgentDev, type ToolAgentDev } from "../../support/tool-agent-dev.ts";

let agent: ToolAgentDev;
const ok = "export default { async fetch() { return Response.json({}); } };";
const COMFY = {
  composite_id: "comfyui",
  name: "ComfyUI workflow",
  description: "ComfyUI nodes (LoadImage, SaveImage, ...) run through the runcomfy tools",
  keywords: ["comfyui", "LoadImage", "SaveImage"],
  base_tools: ["runcomfy_launch_env", "runcomfy_run_only", "runcomfy_stop_env"],
  steps: [
    { step: 1, action: "launch the environment", tool: "runcomfy_launch_env", params: {}, returns: "container_id" },
    {
      step: 2,
      action: "run the workflow",
      tool: "runcomfy_run_only",
      params: { container_id: "", workflow: { nodes: [{ id: 1, type: "LoadImage" }] } },
    },
    { step: 3, action: "stop the environment", tool: "runcomfy_stop_env", params: { container_id: "" } },
  ],
  example: {
    nodes: [
      { id: 1, type: "LoadImage", inputs: { image: "input.png" } },
      { id: 2, type: "SaveImage", inputs: { images: ["1", 0] } },
    ],
  },
};

beforeAll(async () => {
  agent = await startToolAgentDev();
  await registerSeedTools(agent.url, agent.keys.admin);
  await agent.register(
    localTool("image_compress_api", ok, {
      name: "图片压缩 API",
      category: "cv",
      description: "Compresses images to a target quality. 基于质量参数压缩图片。",
      input_schema: {
        type: "object",
        properties: { image_path: { type: "string" }, quality: { type: "integer", minimum: 1, maximum: 100, default: 85 } },
        required: ["image_path"],
      },
    }),
  );
  await agent.register(
    localTool("image_resize", ok, { name: "Image resizer", category: "cv", description: "Resizes images. 调整图片尺寸。" }),
  );
  for (const id of COMFY.base_tools) await agent.register(localTool(id, ok, { description: `runcomfy base tool ${id}` }));
  const saved = await agent.call("/composites", { body: COMFY });
  expect(saved.status).toBe(201);
}, 90_000);
afterAll(() => agent?.dev.stop());

const chat = async (message: string) => {
  const response = await agent.call("/agent/chat", { body: { message, context: { task: "test" } }, key: agent.keys.search });
  expect(response.status).toBe(200);
  return response.json();
};

describe("exact", () => {
  test("a request that names a tool id gets that tool and how to call it", async () => {
    const answer = await chat("How do I call unit_convert?");
    expect(answer).toMatchObject({
      match: "exact",
      solution: null,
      task_id: null,
      tools: [{ tool_id: "unit_convert", usage_example: { params: { value: 1, from: "<from>", to: "<to>" } } }],
    });
    expect(answer.reply).toMatch(/select_tool/);
  });

  test("a request that is exactly a tool's name, in Chinese", async () => {
    const answer = await chat("图片压缩 API");
    expect(answer).toMatchObject({ match: "exact", tools: [{ tool_id: "image_compress_api" }] });
    expect(answer.reply).toContain("就是你指定的工具");
  });
});

describe("fuzzy", () => {
  test("Chinese: the design's own example finds the image tools, with reasons and usage", async () => {
    const answer = await chat("我需要处理图片的工具");
    expect(answer.match).toBe("fuzzy");
    expect(answer.tools.map((t: { tool_id: string }) => t.tool_id).sort()).toEqual(["image_compress_api", "image_resize"]);
    expect(answer.reply).toMatch(/^找到 2 个可能合适的工具/);
    const compress = answer.tools.find((t: { tool_id: string }) => t.tool_id === "image_compress_api");
    expect(compress.reason).toContain("图片");
    expect(compress.usage_example).toEqual({ params: { image_path: "<image_path>", quality: 85 } });
  });

  test("English: words find the tool, best first", async () => {
    const answer = await chat("I want to convert temperatures and units");
    expect(answer.match).toBe("fuzzy");
    expect(answer.tools[0].tool_id).toBe("unit_convert");
    expect(answer.tools[0].reason).toMatch(/^matches "/);
    expect(answer.next_steps[0]).toContain('"tool_id": "unit_convert"');
  });
});

describe("composite", () => {
  test("a ComfyUI request gets the base tools and the step plan, from registry data", async () => {
    for (const message of ["如何使用 ComfyUI 的 LoadImage 和 SaveImage 节点？", "How do I run a ComfyUI workflow?"]) {
      const answer = await chat(message);
      expect(answer.match).toBe("composite");
      expect(answer.solution).toMatchObject({
        type: "composite_workflow",
        base_tools: COMFY.base_tools,
        steps: COMFY.steps,
        example: COMFY.example,
      });
      expect(answer.tools.map((t: { tool_id: string }) => t.tool_id)).toEqual(COMFY.base_tools);
    }
    expect((await chat("如何使用 ComfyUI？")).reply).toMatch(/需要 3 个已注册的工具/);
  });

  test("while a base tool is missing the composite is not offered", async () => {
    await agent.call("/tools/runcomfy_stop_env", { method: "DELETE" });
    try {
      expect((await chat("How do I run a ComfyUI workflow?")).match).not.toBe("composite");
    } finally {
      await agent.register(localTool("runcomfy_stop_env", ok));
    }
    expect((await chat("How do I run a ComfyUI workflow?")).match).toBe("composite");
  });

  test("a step naming a tool outside base_tools is refused", async () => {
    const bad = { ...COMFY, composite_id: "bad", steps: [{ step: 1, action: "x", tool: "elsewhere" }] };
    const response = await agent.call("/composites", { body: bad });
    expect(response.status).toBe(400);
  });
});

describe("none", () => {
  test("nothing matches: say so, in the request's language, with what to do next", async () => {
    const en = await chat("Book me a flight to Lisbon");
    expect(en).toMatchObject({ match: "none", tools: [], solution: null, task_id: null });
    expect(en.next_steps.length).toBeGreaterThan(0);
    const zh = await chat("帮我订一张去里斯本的机票");
    expect(zh.match).toBe("none");
    expect(zh.reply).toBe("没有已注册的工具能满足这个请求。");
  });

  test("an empty request is refused; search scope is enough, no key is not", async () => {
    expect((await agent.call("/agent/chat", { body: { message: "  " } })).status).toBe(400);
    expect((await fetch(`${agent.url}/agent/chat`, { method: "POST", body: '{"message":"hi"}' })).status).toBe(401);
  });
});
