// What a RunAgentInput becomes for a run, and what is refused before any stream starts.
import { describe, expect, test } from "vitest";
import { preloadPath } from "../../../functions/agent/runtime/execution-prompt.ts";
import { parseRunRequest } from "../../../functions/agent/runtime/run-request.ts";
import { buildUserContext, resolveTimezone } from "../../../functions/agent/runtime/user-context.ts";

const base = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  threadId: "t",
  runId: "r",
  messages,
  state: {},
  tools: [],
  context: [],
  ...extra,
});

describe("parseRunRequest", () => {
  test("keeps the last user message for the worker and a bounded text conversation for the intent stage", () => {
    const messages = [
      ...Array.from({ length: 30 }, (_, i) => ({ id: `h${i}`, role: i % 2 ? "assistant" : "user", content: `turn ${i}` })),
      { id: "tool", role: "tool", toolCallId: "c", content: "{}" },
      { id: "last", role: "user", content: "What's on today?" },
    ];
    const parsed = parseRunRequest(base(messages));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.request.userContent).toBe("What's on today?");
    expect(parsed.request.conversation).toHaveLength(20);
    expect(parsed.request.conversation.at(-1)).toEqual({ role: "user", text: "What's on today?" });
    expect(parsed.request.conversation.some((turn) => turn.text === "{}")).toBe(false); // tool messages stay out
  });

  test("images become model image parts and attachment metadata (never the data)", () => {
    const data = btoa("fake-png-bytes");
    const parsed = parseRunRequest(
      base([
        {
          id: "m",
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", source: { type: "data", value: data, mimeType: "image/png" } },
            { type: "image", source: { type: "url", value: "https://example.com/a.jpg" } },
          ],
        },
      ]),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.request.userContent).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image", image: data, mediaType: "image/png" },
      { type: "image", image: new URL("https://example.com/a.jpg") },
    ]);
    expect(parsed.request.attachments).toEqual([
      { type: "image", mimeType: "image/png", inlineBytes: 14 },
      { type: "image", url: "https://example.com/a.jpg" },
    ]);
    expect(parsed.request.conversation.at(-1)?.text).toBe("What is this? [2 images attached]");
  });

  test.each([
    ["an empty message", [{ id: "m", role: "user", content: "   " }]],
    [
      "five images",
      [
        {
          id: "m",
          role: "user",
          content: Array.from({ length: 5 }, () => ({ type: "image", source: { type: "url", value: "https://e.com/a.png" } })),
        },
      ],
    ],
    [
      "a non-image data part",
      [{ id: "m", role: "user", content: [{ type: "image", source: { type: "data", value: "AA", mimeType: "application/pdf" } }] }],
    ],
  ])("refuses %s", (_label, messages) => {
    expect(parseRunRequest(base(messages)).ok).toBe(false);
  });

  test("ids are bounded", () => {
    expect(parseRunRequest({ ...base([{ id: "m", role: "user", content: "hi" }]), threadId: "x".repeat(129) }).ok).toBe(false);
  });
});

describe("time zone and ENV", () => {
  test("forwardedProps wins, then a context entry, and anything invalid is UTC", () => {
    expect(resolveTimezone({ timezone: "Asia/Shanghai" }, [{ description: "timezone", value: "Europe/Berlin" }])).toBe("Asia/Shanghai");
    expect(resolveTimezone({}, [{ description: "Timezone", value: "Europe/Berlin" }])).toBe("Europe/Berlin");
    expect(resolveTimezone({ timezone: "Mars/Base" }, [])).toBe("UTC");
    expect(resolveTimezone(null, [{ description: "timezone", value: "../../etc" }])).toBe("UTC");
  });

  test("USER_CONTEXT_JSON gives local time with offset and the weekday in that zone", () => {
    expect(buildUserContext(new Date("2026-04-23T20:30:00Z"), "Asia/Shanghai")).toEqual({
      system_time_local: "2026-04-24T04:30:00+08:00",
      timezone_effective: "Asia/Shanghai",
      weekday: "Friday",
      locale: "en",
    });
  });
});

describe("preloadPath", () => {
  const has = (path: string) => path === "calendar/actions/get_event.md";
  test("only a card that exists, named by plain identifiers", () => {
    expect(preloadPath({ objective: "x", requires_tool: true, selected_skill: "calendar", intended_action: "get_event" }, has)).toBe(
      "calendar/actions/get_event.md",
    );
    expect(
      preloadPath({ objective: "x", requires_tool: true, selected_skill: "calendar", intended_action: "../SKILL" }, has),
    ).toBeUndefined();
    expect(preloadPath({ objective: "x", requires_tool: true, selected_skill: "calendar", intended_action: "nope" }, has)).toBeUndefined();
    expect(preloadPath({ objective: "x", requires_tool: true }, has)).toBeUndefined();
  });
});

describe("strings the database cannot store", () => {
  test("a key anywhere in the body is checked too, and the field is named", () => {
    const parsed = parseRunRequest(base([{ id: "m", role: "user", content: "hi" }], { state: { nested: { "k\u0000": 1 } } }));
    expect(parsed).toMatchObject({ ok: false, field: "state.nested.k\uFFFD" });
  });

  test("a deeply nested body is walked without exhausting the stack", () => {
    let state: unknown = "\u0000";
    for (let depth = 0; depth < 200_000; depth++) state = [state];
    expect(parseRunRequest(base([{ id: "m", role: "user", content: "hi" }], { state }))).toMatchObject({ ok: false });
  });

  test("text cut at the turn limit never ends in half a surrogate pair", () => {
    const parsed = parseRunRequest(base([{ id: "m", role: "user", content: `${"a".repeat(3_999)}😀` }]));
    expect(parsed.ok && parsed.request.userContent).toBe("a".repeat(3_999));
  });
});
