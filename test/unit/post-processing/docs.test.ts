// docs/tool-cards.md cannot drift from the code: every ui_hints kind and block type is
// documented with an example, every example validates, each card example is exactly what the
// codec compiles from the hints above it, and each record's summary is what the rules write.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import {
  Block,
  buildToolContentSummary,
  compileCard,
  SUMMARY_VERSION,
  ToolAgentOutput,
  UI_SCHEMA_VERSION,
  UiHints,
  UiSchema,
} from "../../../functions/agent/post-processing/index.ts";

const doc = readFileSync(resolve(import.meta.dirname, "../../../docs/tool-cards.md"), "utf8");

interface Example {
  value: Record<string, unknown>;
  /** Prose between this block and the next one. */
  after: string;
}

const matches = [...doc.matchAll(/```json\n([\s\S]*?)```/g)];
const examples: Example[] = matches.map((match, index) => {
  const end = match.index + match[0].length;
  return { value: JSON.parse(match[1]!) as Record<string, unknown>, after: doc.slice(end, matches[index + 1]?.index ?? doc.length) };
});

const hintKinds = UiHints.options.map((option) => option.shape.kind.value);
const blockTypes = Block.options.map((option) => option.shape.type.value);
const hintExamples = examples.filter((example) => "kind" in example.value);
const schemaExamples = examples.filter((example) => "schema_version" in example.value);
const recordExamples = examples.filter((example) => "tool_name" in example.value);
const blockExamples = examples.filter((example) => "type" in example.value);

describe("docs/tool-cards.md", () => {
  test("has JSON examples, each of a known sort", () => {
    expect(examples.length).toBeGreaterThan(20);
    expect(hintExamples.length + schemaExamples.length + recordExamples.length + blockExamples.length).toBe(examples.length);
  });

  test("documents every ui_hints kind under its own heading, with an example", () => {
    for (const kind of hintKinds) expect(doc, `heading for ${kind}`).toContain(`### ${kind}\n`);
    expect(new Set(hintExamples.map((example) => example.value.kind))).toEqual(new Set(hintKinds));
  });

  test("documents every block type in the table, with a standalone example", () => {
    for (const type of blockTypes) expect(doc, `table row for ${type}`).toMatch(new RegExp(`^\\| \`${type}\` \\|`, "m"));
    expect(new Set(blockExamples.map((example) => example.value.type))).toEqual(new Set(blockTypes));
  });

  test("every card kind is in the card table and every block type appears in a compiled card", () => {
    for (const kind of hintKinds) expect(doc, `card row for ${kind}`).toMatch(new RegExp(`^\\| \`${kind}\` \\|`, "m"));
    const used = new Set(schemaExamples.flatMap((example) => (example.value.blocks as Array<{ type: string }>).map((block) => block.type)));
    expect(used).toEqual(new Set(blockTypes));
  });

  test.each(hintExamples.map((example) => [example.value.kind as string, example] as const))(
    "%s: the hints validate and the next example is exactly their card",
    (_kind, example) => {
      const hints = UiHints.parse(example.value);
      const next = examples[examples.indexOf(example) + 1];
      expect(next && "schema_version" in next.value).toBe(true);
      expect(next!.value).toEqual(compileCard(hints));
    },
  );

  test.each(schemaExamples.map((example) => [example.value.card as string, example] as const))(
    "card %s validates against UiSchema",
    (_card, example) => {
      expect(UiSchema.parse(example.value)).toEqual(example.value);
    },
  );

  test.each(blockExamples.map((example) => [example.value.type as string, example] as const))("block %s validates", (_type, example) => {
    expect(Block.parse(example.value)).toEqual(example.value);
  });

  test.each(recordExamples.map((example, index) => [index, example] as const))(
    "record %i validates, with no undocumented keys, and its summary is the rules' output",
    (_index, example) => {
      const record = ToolAgentOutput.parse(example.value);
      expect(record).toEqual(example.value);
      const summary = /Summary: `([^`]*)`/.exec(example.after)?.[1];
      expect(summary).toBe(buildToolContentSummary(record));
      if (record.ui_hints) expect(() => compileCard(record.ui_hints!)).not.toThrow();
    },
  );

  test("states the current versions", () => {
    expect(doc).toContain(`## ui_schema (version ${UI_SCHEMA_VERSION})`);
    expect(doc).toContain(`\`SUMMARY_VERSION\` (now **${SUMMARY_VERSION}**)`);
  });
});
