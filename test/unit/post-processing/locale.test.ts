// Two languages: how a request's locale is chosen, and that cards and summaries exist in both,
// built by the same rules (the same hints give the same blocks; only words differ).
import { describe, expect, test } from "vitest";
import { CARD_WORDS } from "../../../functions/agent/post-processing/card-words.ts";
import {
  buildToolAgentOutput,
  buildToolContentSummary,
  compileCard,
  resolveLocale,
} from "../../../functions/agent/post-processing/index.ts";
import type { CliResult } from "../../../functions/project_cli/result.ts";

const CJK = /[\u4e00-\u9fff]/;

describe("resolveLocale", () => {
  test.each([
    [{ locale: "zh-CN" }, undefined, "zh"],
    [{ locale: "zh_Hant_TW" }, "en", "zh"],
    [{ locale: "en-GB" }, "zh-CN", "en"],
    [{ locale: "fr" }, "zh-CN,zh;q=0.9", "zh"],
    [{}, "fr-FR, en;q=0.5, zh;q=0.8", "zh"],
    [{}, "zh;q=0, en-US", "en"],
    [null, "de, fr", "en"],
    [{ locale: 42 }, undefined, "en"],
    [{ locale: "zh".padEnd(100, "x") }, undefined, "en"],
  ])("forwardedProps %j, Accept-Language %s -> %s", (forwarded, header, expected) => {
    expect(resolveLocale(forwarded, header)).toBe(expected);
  });
});

describe("cards in Chinese", () => {
  test("every word table has the same entries", () => {
    for (const key of ["changedFields", "permission", "invitation", "memoryTitle", "matchedBy", "failedTitle", "failure"] as const)
      expect(Object.keys(CARD_WORDS.zh[key]).sort(), key).toEqual(Object.keys(CARD_WORDS.en[key]).sort());
    for (const text of [...Object.values(CARD_WORDS.zh.failedTitle), ...Object.values(CARD_WORDS.zh.failure)]) expect(text).toMatch(CJK);
  });

  test("the same hints give the same blocks in both languages, with Chinese words", () => {
    const hints = {
      kind: "event_list" as const,
      period: { mode: "day" as const, date: "2026-04-23", timezone: "Asia/Shanghai" },
      count: 0,
      truncated: true,
      events: [],
    };
    const en = compileCard(hints, "en");
    const zh = compileCard(hints, "zh");
    expect(zh.blocks.map((block) => block.type)).toEqual(en.blocks.map((block) => block.type));
    expect(zh.title).toBe("2026-04-23：没有日程");
    expect(zh.blocks).toEqual([
      { type: "notice", tone: "info", text: "没有安排。" },
      { type: "notice", tone: "warning", text: "仅显示前 0 个日程，缩小时间范围可查看其余日程。" },
    ]);
    expect(compileCard(hints, "zh")).toEqual(zh);
  });
});

describe("summaries in Chinese", () => {
  const summary = (output: CliResult, locale: "en" | "zh") =>
    buildToolContentSummary(buildToolAgentOutput({ toolName: "project_cli", toolCallId: "c", args: {}, output }), locale);

  test("the same rule picks the template; the words are Chinese", () => {
    const read: CliResult = {
      ok: true,
      module: "calendar",
      method: "read",
      data: { mode: "day", date: "2026-04-23", items: [{}, {}], count: 2, truncated: true },
    };
    expect(summary(read, "en")).toBe("Found 2 events on 2026-04-23 (more not shown)");
    expect(summary(read, "zh")).toBe("2026-04-23 有 2 个日程（还有更多未显示）");
    const failed: CliResult = {
      ok: false,
      module: "calendar",
      method: "update",
      error: { code: "NOT_FOUND", message: "no event x", retryable: false, details: {} },
    };
    expect(summary(failed, "zh")).toBe("calendar.update 失败：no event x");
    const unknown: CliResult = { ok: true, module: "calendar", method: "brand_new", data: {} };
    expect(summary(unknown, "zh")).toBe("calendar.brand_new 已完成");
  });
});
