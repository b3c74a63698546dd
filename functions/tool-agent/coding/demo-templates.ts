// The tools the offline demo coding model can build: each a module, its tests and its schemas,
// chosen by words of the task's description (English or Chinese). Data, so a test can run every
// template's module against its own tests.

export interface DemoTemplate {
  tool_id: string;
  name: string;
  category: string;
  description: string;
  /** Lower-case words or phrases; any one in the description picks the template. */
  keywords: readonly string[];
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  module: string;
  tests: { name: string; input: Record<string, unknown>; expect: unknown }[];
}

const text = { type: "string", minLength: 1, maxLength: 100_000 };

export const DEMO_TEMPLATES: readonly DemoTemplate[] = [
  {
    tool_id: "text_summarize",
    name: "Text summarizer 文本摘要",
    category: "text",
    description: "Summarises a text (Chinese or English) by keeping its first sentences up to max_chars characters.",
    keywords: ["summar", "摘要", "概括", "总结"],
    input_schema: {
      type: "object",
      properties: { text, max_chars: { type: "integer", minimum: 10, maximum: 5_000, default: 500 } },
      required: ["text"],
      additionalProperties: false,
    },
    output_schema: {
      type: "object",
      properties: { summary: { type: "string" }, sentences_kept: { type: "integer" }, original_chars: { type: "integer" } },
      required: ["summary", "sentences_kept", "original_chars"],
    },
    module: `export default {
  async fetch(request) {
    const { text, max_chars = 500 } = await request.json();
    const sentences = text.match(/[^.!?。！？]+[.!?。！？]*/g) ?? [];
    let summary = "";
    let kept = 0;
    for (const sentence of sentences) {
      const piece = sentence.trim();
      const joined = summary === "" ? piece : /[\\u3000-\\u9fff\\uff00-\\uffef]$/.test(summary) ? summary + piece : summary + " " + piece;
      if ([...joined].length > max_chars) break;
      summary = joined;
      kept += 1;
    }
    if (kept === 0) summary = [...text.trim()].slice(0, max_chars).join("");
    return Response.json({ summary, sentences_kept: kept, original_chars: [...text].length });
  },
};
`,
    tests: [
      {
        name: "English, two sentences fit",
        input: { text: "First sentence. Second one is here. Third.", max_chars: 40 },
        expect: { summary: "First sentence. Second one is here.", sentences_kept: 2 },
      },
      {
        name: "Chinese, two sentences fit",
        input: { text: "今天天气很好。我们去公园散步。然后回家吃饭。", max_chars: 15 },
        expect: { summary: "今天天气很好。我们去公园散步。", sentences_kept: 2, original_chars: 22 },
      },
      { name: "one long sentence is cut", input: { text: "abcdefghijklmnopqrstuvwxyz", max_chars: 10 }, expect: { summary: "abcdefghij" } },
    ],
  },
  {
    tool_id: "reverse_text",
    name: "Text reverser 文本反转",
    category: "text",
    description: "Reverses a text character by character (Unicode-aware).",
    keywords: ["revers", "反转", "倒序", "颠倒"],
    input_schema: { type: "object", properties: { text }, required: ["text"], additionalProperties: false },
    output_schema: { type: "object", properties: { reversed: { type: "string" } }, required: ["reversed"] },
    module: `export default {
  async fetch(request) {
    const { text } = await request.json();
    return Response.json({ reversed: [...text].reverse().join("") });
  },
};
`,
    tests: [
      { name: "ascii", input: { text: "hello" }, expect: { reversed: "olleh" } },
      { name: "chinese", input: { text: "你好世界" }, expect: { reversed: "界世好你" } },
    ],
  },
  {
    tool_id: "number_stats",
    name: "Number statistics 数字统计",
    category: "math",
    description: "Count, sum, mean, median, minimum and maximum of a list of numbers.",
    keywords: ["average", "mean", "median", "sum of", "statistic", "平均", "求和", "中位数", "统计"],
    input_schema: {
      type: "object",
      properties: { numbers: { type: "array", items: { type: "number" }, minItems: 1, maxItems: 100_000 } },
      required: ["numbers"],
      additionalProperties: false,
    },
    output_schema: {
      type: "object",
      properties: {
        count: { type: "integer" },
        sum: { type: "number" },
        mean: { type: "number" },
        median: { type: "number" },
        min: { type: "number" },
        max: { type: "number" },
      },
      required: ["count", "sum", "mean", "median", "min", "max"],
    },
    module: `export default {
  async fetch(request) {
    const { numbers } = await request.json();
    const sorted = [...numbers].sort((a, b) => a - b);
    const sum = numbers.reduce((total, n) => total + n, 0);
    const middle = Math.floor(sorted.length / 2);
    const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    return Response.json({ count: numbers.length, sum, mean: sum / numbers.length, median, min: sorted[0], max: sorted[sorted.length - 1] });
  },
};
`,
    tests: [
      { name: "odd count", input: { numbers: [3, 1, 2] }, expect: { count: 3, sum: 6, mean: 2, median: 2, min: 1, max: 3 } },
      { name: "even count", input: { numbers: [4, 1, 3, 2] }, expect: { median: 2.5, mean: 2.5 } },
      { name: "decimals", input: { numbers: [0.1, 0.2] }, expect: { sum: 0.3 } },
    ],
  },
  {
    tool_id: "slugify",
    name: "Slug maker 网址别名",
    category: "text",
    description: "Turns a title into a URL slug: lower case ASCII words joined by hyphens.",
    keywords: ["slug", "url-friendly", "url friendly", "网址"],
    input_schema: {
      type: "object",
      properties: { text, separator: { type: "string", enum: ["-", "_"] } },
      required: ["text"],
      additionalProperties: false,
    },
    output_schema: { type: "object", properties: { slug: { type: "string" } }, required: ["slug"] },
    module: `export default {
  async fetch(request) {
    const { text, separator = "-" } = await request.json();
    const words = text.normalize("NFKD").replace(/[\\u0300-\\u036f]/g, "").toLowerCase().match(/[a-z0-9]+/g) ?? [];
    return Response.json({ slug: words.join(separator) });
  },
};
`,
    tests: [
      { name: "title", input: { text: "Hello, World: A Tale!" }, expect: { slug: "hello-world-a-tale" } },
      { name: "accents", input: { text: "Crème Brûlée", separator: "_" }, expect: { slug: "creme_brulee" } },
    ],
  },
  {
    tool_id: "case_convert",
    name: "Case converter 大小写转换",
    category: "text",
    description: "Converts a text to upper case, lower case or title case.",
    keywords: ["upper case", "uppercase", "lower case", "lowercase", "title case", "大写", "小写"],
    input_schema: {
      type: "object",
      properties: { text, to: { type: "string", enum: ["upper", "lower", "title"] } },
      required: ["text", "to"],
      additionalProperties: false,
    },
    output_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    module: `export default {
  async fetch(request) {
    const { text, to } = await request.json();
    const converted =
      to === "upper" ? text.toUpperCase() : to === "lower" ? text.toLowerCase() : text.toLowerCase().replace(/(^|\\s)(\\p{L})/gu, (_, space, letter) => space + letter.toUpperCase());
    return Response.json({ text: converted });
  },
};
`,
    tests: [
      { name: "upper", input: { text: "Hello", to: "upper" }, expect: { text: "HELLO" } },
      { name: "title", input: { text: "the quick fox", to: "title" }, expect: { text: "The Quick Fox" } },
    ],
  },
];

/** The template whose keyword appears in `description`, if any. */
export function templateFor(description: string): DemoTemplate | undefined {
  const said = description.toLowerCase();
  return DEMO_TEMPLATES.find((template) => template.keywords.some((keyword) => said.includes(keyword)));
}
