import { describe, expect, test } from "vitest";
import { compositeAnswer, exactAnswer, fuzzyAnswer, noMatchAnswer } from "../../../functions/tool-agent/router/chat-answer.ts";
import { asksForNewTool, chatTerms, contentTerms, idCandidates, replyLanguage } from "../../../functions/tool-agent/router/chat-terms.ts";
import { usageExample } from "../../../functions/tool-agent/router/usage-example.ts";
import type { ToolRow } from "../../../functions/tool-agent/tool-types.ts";

const tool = (tool_id: string, input_schema: object = {}): ToolRow =>
  ({ tool_id, name: `${tool_id} name`, description: "d", input_schema }) as ToolRow;

describe("what a request is made of", () => {
  test("English words without filler; Chinese as two-character pieces without filler", () => {
    expect(chatTerms("I need a tool to compress images, please")).toEqual(["compress", "images"]);
    expect(chatTerms("我需要处理图片的工具")).toEqual(["要处", "处理", "理图", "图片", "片的", "的工"]);
    expect(chatTerms("合并 PDF 文件")).toEqual(["pdf", "合并", "文件"]);
    expect(chatTerms("?? !!")).toEqual([]);
    expect(chatTerms("x ".repeat(100) + "word ".repeat(3))).toEqual(["word"]);
  });

  test("the answer's language follows the request's", () => {
    expect(replyLanguage("compress my photos")).toBe("en");
    expect(replyLanguage("帮我压缩 photos")).toBe("zh");
  });

  test("a request to make a tool, and what the tool should do without the asking", () => {
    expect(asksForNewTool("create a tool that reverses text")).toBe(true);
    expect(asksForNewTool("Can you build me a new tool?")).toBe(true);
    expect(asksForNewTool("帮我创建一个文本摘要工具")).toBe(true);
    expect(asksForNewTool("I need a tool to compress images")).toBe(false);
    expect(asksForNewTool("我需要处理图片的工具")).toBe(false);
    expect(contentTerms("create a tool that reverses text")).toEqual(["reverses", "text"]);
    expect(contentTerms("帮我创建一个文本摘要工具")).toEqual(["个文", "文本", "本摘", "摘要", "要工"]);
  });

  test("tokens that could be tool ids", () => {
    expect(idCandidates("How do I use unit_convert? 42")).toEqual(["how", "do", "i", "use", "unit_convert"]);
  });
});

describe("usage examples from an input schema", () => {
  test("examples, defaults, enums and types, required first", () => {
    const schema = {
      type: "object",
      properties: {
        quality: { type: "integer", minimum: 1, maximum: 100 },
        image_path: { type: "string" },
        format: { enum: ["png", "jpeg"] },
        keep: { type: "boolean", default: false },
        note: { type: ["string", "null"], examples: ["hello"] },
      },
      required: ["image_path"],
    };
    const { params } = usageExample(schema);
    expect(Object.keys(params)[0]).toBe("image_path");
    expect(params).toEqual({ image_path: "<image_path>", quality: 1, format: "png", keep: false, note: "hello" });
    expect(usageExample({ properties: "nonsense" })).toEqual({ params: {} });
  });
});

describe("answers", () => {
  test("each branch has the contract's fields, in both languages", () => {
    for (const lang of ["en", "zh"] as const) {
      for (const answer of [
        exactAnswer(tool("a"), lang),
        fuzzyAnswer(
          [
            { tool: tool("a"), matched: ["x"] },
            { tool: tool("b"), matched: ["y"] },
          ],
          lang,
        ),
        compositeAnswer(
          { composite_id: "c", name: "C", description: "", base_tools: ["a"], steps: [{ step: 1 }], example: {} },
          [tool("a")],
          lang,
        ),
        noMatchAnswer(lang),
      ]) {
        expect(Object.keys(answer).sort()).toEqual(["match", "next_steps", "reply", "solution", "task_id", "tools"]);
        expect(answer.reply.length).toBeGreaterThan(0);
        expect(answer.next_steps.length).toBeGreaterThan(0);
      }
    }
    expect(fuzzyAnswer([{ tool: tool("a"), matched: ["图片", "压缩"] }], "zh").tools[0]!.reason).toBe("匹配「图片」「压缩」");
    expect(fuzzyAnswer([{ tool: tool("a"), matched: ["compress"] }], "en").reply).toBe("Found 1 tool that may fit; a name matches best.");
  });
});
