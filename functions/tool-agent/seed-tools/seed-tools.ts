// The tools a fresh `npm run dev` registers, so a new user has something to find and run: their
// ToolMeta here, their code in the .js files beside this one (real modules, run in the sandbox).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RegisterToolRequest } from "../registry/tool-request.ts";

type SeedTool = Omit<
  RegisterToolRequest,
  "sources" | "category" | "description" | "output_schema" | "stream_support" | "status" | "cost_per_call_usd"
> &
  Partial<RegisterToolRequest>;

const META: SeedTool[] = [
  {
    tool_id: "text_stats",
    name: "Text statistics 文本统计",
    category: "text",
    description:
      "Counts characters, words, lines, sentences and CJK characters in a text, and lists its most frequent words. 统计字数、词数、行数。",
    input_schema: {
      type: "object",
      properties: { text: { type: "string", description: "the text to measure", maxLength: 200000 } },
      required: ["text"],
      additionalProperties: false,
    },
    output_schema: {
      type: "object",
      properties: {
        characters: { type: "integer" },
        words: { type: "integer" },
        lines: { type: "integer" },
        sentences: { type: "integer" },
        cjk_characters: { type: "integer" },
        top_words: { type: "array" },
      },
      required: ["characters", "words"],
    },
  },
  {
    tool_id: "json_transform",
    name: "JSON transformer JSON 转换",
    category: "data",
    description: "Picks and renames fields of JSON records by dotted paths (a.b.0.c). 按路径提取并重命名 JSON 字段。",
    input_schema: {
      type: "object",
      properties: {
        data: { description: "one record (object) or a list of records" },
        fields: { type: "object", description: "output name -> dotted path in each record", additionalProperties: { type: "string" } },
      },
      required: ["data", "fields"],
      additionalProperties: false,
    },
    output_schema: {
      type: "object",
      properties: { records: { type: "array" }, count: { type: "integer" } },
      required: ["records", "count"],
    },
  },
  {
    tool_id: "unit_convert",
    name: "Unit converter 单位换算",
    category: "math",
    description:
      "Converts a value between units of length, mass, temperature and data size (km to mi, C to F, GiB to GB). 长度、重量、温度、数据大小换算。",
    input_schema: {
      type: "object",
      properties: {
        value: { type: "number", description: "the amount to convert" },
        from: { type: "string", description: "unit of value, e.g. km, lb, C, MiB" },
        to: { type: "string", description: "unit wanted" },
      },
      required: ["value", "from", "to"],
      additionalProperties: false,
    },
    output_schema: {
      type: "object",
      properties: { value: { type: "number" }, unit: { type: "string" }, kind: { type: "string" } },
      required: ["value", "unit"],
    },
  },
];

/** The registration requests (JSON bodies of POST /tools) of the seeded tools. */
export function seedToolRequests(): Record<string, unknown>[] {
  return META.map((meta) => ({
    ...meta,
    sources: [
      {
        type: "local",
        module: readFileSync(join(import.meta.dirname, `${meta.tool_id}.js`), "utf8"),
        endpoint_path: "/",
        http_method: "POST",
      },
    ],
  }));
}
