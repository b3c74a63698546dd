// Renders a card from its ui_schema (docs/tool-cards.md): a title, an optional subtitle and
// blocks of four types. The schema arrives from the stream or from history, which a user can
// write to, so nothing is assumed: a value of the wrong type is left out, an unknown block is
// shown as such, and a card of another schema_version is not drawn (the summary stands in).
import { h } from "./dom.ts";
import { isRecord } from "./values.ts";

export const UI_SCHEMA_VERSION = 2;

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function timeRange(block: Record<string, unknown>): string {
  const start = text(block.start_at) ?? "";
  const end = text(block.end_at);
  return end ? `${start} – ${end}` : start;
}

function eventBlock(block: Record<string, unknown>): HTMLElement {
  const facts = [
    text(block.timezone),
    text(block.location),
    text(block.access) && `access: ${text(block.access)}`,
    block.repeats === true && "repeats",
  ].filter((fact): fact is string => typeof fact === "string" && fact.length > 0);
  return h(
    "div",
    { class: "block block-event", data: { status: text(block.status) ?? "" } },
    h("div", { class: "block-title", text: text(block.title) ?? "(untitled)" }),
    h("div", { class: "block-time", text: timeRange(block) }),
    facts.length > 0 && h("div", { class: "block-facts", text: facts.join(" · ") }),
  );
}

function contactBlock(block: Record<string, unknown>): HTMLElement {
  const reach = [text(block.phone), text(block.email)].filter(Boolean).join(" · ");
  return h(
    "div",
    { class: "block block-contact" },
    h("div", { class: "block-title", text: text(block.name) ?? "(no name)" }),
    reach && h("div", { class: "block-facts", text: reach }),
  );
}

function fieldsBlock(block: Record<string, unknown>): HTMLElement {
  const items = Array.isArray(block.items) ? block.items.filter(isRecord) : [];
  return h(
    "dl",
    { class: "block block-fields" },
    ...items.flatMap((item) => [h("dt", { text: text(item.label) ?? "" }), h("dd", { text: text(item.value) ?? "" })]),
  );
}

function noticeBlock(block: Record<string, unknown>): HTMLElement {
  return h("p", { class: "block block-notice", data: { tone: text(block.tone) ?? "info" }, text: text(block.text) ?? "" });
}

const BLOCKS: Record<string, (block: Record<string, unknown>) => HTMLElement> = {
  event: eventBlock,
  contact: contactBlock,
  fields: fieldsBlock,
  notice: noticeBlock,
};

/** The card, or undefined when `uiSchema` is not a card this page can draw. */
export function renderCard(uiSchema: unknown): HTMLElement | undefined {
  if (!isRecord(uiSchema) || uiSchema.schema_version !== UI_SCHEMA_VERSION || typeof uiSchema.title !== "string") return undefined;
  const blocks = Array.isArray(uiSchema.blocks) ? uiSchema.blocks : [];
  return h(
    "section",
    { class: "card", data: { card: text(uiSchema.card) ?? "unknown" } },
    h(
      "header",
      {},
      h("h3", { text: uiSchema.title }),
      text(uiSchema.subtitle) && h("p", { class: "card-subtitle", text: text(uiSchema.subtitle) }),
    ),
    ...blocks.map((block) => {
      const draw = isRecord(block) && typeof block.type === "string" ? BLOCKS[block.type] : undefined;
      return draw && isRecord(block) ? draw(block) : h("p", { class: "block block-unknown", text: "(a block this page does not know)" });
    }),
  );
}
