// Draws one run as its AG-UI events arrive: the stages as steps, each tool call with its
// arguments, result summary and card, the answer as it streams, and how the run ended (with the
// error's code). Events are applied in order; the same events replayed after a reload draw the
// same thing.
import { type BaseEvent, EventType } from "@ag-ui/client";
import { renderCard } from "./cards.ts";
import { h } from "./dom.ts";
import { isRecord, prettyJson } from "./values.ts";

type Fields = Record<string, unknown>;
const str = (value: unknown) => (typeof value === "string" ? value : "");

export class RunView {
  readonly element: HTMLElement;
  private readonly status: HTMLElement;
  private readonly steps: HTMLElement;
  private readonly body: HTMLElement;
  private readonly calls = new Map<string, { element: HTMLElement; args: HTMLElement; argsText: string }>();
  private readonly texts = new Map<string, HTMLElement>();

  constructor(runId: string) {
    this.status = h("span", { class: "run-status", text: "running" });
    this.steps = h("ol", { class: "steps" });
    this.body = h("div", { class: "run-body" });
    this.element = h(
      "article",
      { class: "run", data: { runId, status: "running" } },
      h("header", { class: "run-header" }, h("code", { text: runId }), this.status),
      this.steps,
      this.body,
    );
  }

  apply(event: BaseEvent): void {
    const e = event as BaseEvent & Fields;
    switch (event.type) {
      case EventType.RUN_STARTED: {
        const metadata = isRecord(e.metadata) ? e.metadata : {};
        if (metadata.demo_model === true) this.status.after(h("span", { class: "badge", text: "offline demo model" }));
        return;
      }
      case EventType.STEP_STARTED:
        this.steps.append(h("li", { data: { step: str(e.stepName), state: "open" }, text: str(e.stepName) }));
        return;
      case EventType.STEP_FINISHED:
        for (const step of this.steps.querySelectorAll<HTMLElement>(`li[data-state="open"]`))
          if (step.dataset.step === str(e.stepName)) step.dataset.state = "done";
        return;
      case EventType.CUSTOM:
        this.custom(str(e.name), e.value);
        return;
      case EventType.TOOL_CALL_START:
        this.toolCallStart(str(e.toolCallId), str(e.toolCallName));
        return;
      case EventType.TOOL_CALL_ARGS: {
        const call = this.calls.get(str(e.toolCallId));
        if (call) call.argsText += str(e.delta);
        if (call) call.args.textContent = call.argsText;
        return;
      }
      case EventType.TOOL_CALL_END: {
        const call = this.calls.get(str(e.toolCallId));
        if (call) call.args.textContent = prettyJson(call.argsText);
        return;
      }
      case EventType.TOOL_CALL_RESULT:
        this.toolCallResult(str(e.toolCallId), str(e.content), isRecord(e.metadata) ? e.metadata : {});
        return;
      case EventType.TEXT_MESSAGE_START: {
        const text = h("div", { class: "assistant-text", data: { messageId: str(e.messageId), streaming: "true" } });
        this.texts.set(str(e.messageId), text);
        this.body.append(text);
        return;
      }
      case EventType.TEXT_MESSAGE_CONTENT: {
        const text = this.texts.get(str(e.messageId));
        if (text) text.textContent += str(e.delta);
        return;
      }
      case EventType.TEXT_MESSAGE_END: {
        const text = this.texts.get(str(e.messageId));
        if (text) text.dataset.streaming = "false";
        return;
      }
      case EventType.RUN_FINISHED: {
        const outcome = isRecord(e.outcome) && typeof e.outcome.type === "string" ? e.outcome.type : "success";
        this.end(outcome === "cancelled" ? "cancelled" : "finished", outcome === "cancelled" ? "cancelled" : "finished");
        return;
      }
      case EventType.RUN_ERROR:
        this.fail(str(e.code) || "RUN_ERROR", str(e.message));
        return;
    }
  }

  /** Drawn from a thread's history: the records keep the calls and the answer, not the stream's ending. */
  markHistory(): void {
    this.end("history", "from history");
  }

  /** The run ended with an error the page saw (a refusal before the stream, a dropped stream). */
  fail(code: string, message: string): void {
    this.body.append(h("div", { class: "run-error", data: { code } }, h("strong", { text: code }), message && ` ${message}`));
    this.end("error", `error ${code}`);
  }

  private end(status: string, label: string): void {
    this.element.dataset.status = status;
    this.status.textContent = label;
  }

  private custom(name: string, value: unknown): void {
    if (name === "intent" && isRecord(value)) {
      this.body.append(
        h(
          "p",
          { class: "intent" },
          h("span", { class: "label", text: "intent" }),
          ` ${str(value.objective)}`,
          value.selected_skill ? ` → ${str(value.selected_skill)}` : "",
        ),
      );
    } else if (name === "tool_card" && isRecord(value)) {
      const card = renderCard(value.ui_schema);
      if (card) (this.calls.get(str(value.tool_call_id))?.element ?? this.body).append(card);
    }
  }

  private toolCallStart(id: string, name: string): void {
    const args = h("pre", { class: "tool-args" });
    const element = h(
      "details",
      { class: "tool-call", data: { toolCallId: id, tool: name }, attrs: { open: "" } },
      h("summary", {}, h("code", { text: name }), h("span", { class: "tool-summary", text: " …" })),
      args,
    );
    this.calls.set(id, { element, args, argsText: "" });
    this.body.append(element);
  }

  private toolCallResult(id: string, content: string, metadata: Fields): void {
    const call = this.calls.get(id);
    if (!call) return;
    call.element.dataset.status = str(metadata.status);
    const summary = call.element.querySelector(".tool-summary");
    if (summary) summary.textContent = ` ${str(metadata.summary) || str(metadata.status)}`;
    call.element.append(h("details", { class: "tool-result" }, h("summary", { text: "result" }), h("pre", { text: prettyJson(content) })));
    const card = renderCard(metadata.ui_schema);
    if (card) call.element.append(card);
  }
}
