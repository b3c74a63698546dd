// The chat: threads on the side, the conversation (history, then live runs) in the middle, and
// a composer that sends text and images, cancels the run in flight, and after a reload resumes
// it from the last event the page saw.
import { type BaseEvent, EventType, type Message } from "@ag-ui/client";
import { type ActiveRun, lastEventId, loadActiveRun, saveActiveRun } from "./active-run.ts";
import { byId, h } from "./dom.ts";
import { historyTurns } from "./history-events.ts";
import { REQUEST_TIMEOUT_MS, requestJson } from "./http.ts";
import { resumeRun, startRun } from "./run-stream.ts";
import { RunView } from "./run-view.ts";
import type { Session } from "./session.ts";
import { isRecord } from "./values.ts";

const MAX_IMAGES = 4;
const MAX_IMAGE_BYTES = 6 * 1024 * 1024;
const TERMINAL = new Set<string>([EventType.RUN_FINISHED, EventType.RUN_ERROR]);

interface Attached {
  name: string;
  mimeType: string;
  base64: string;
  dataUrl: string;
}

function readImage(file: File): Promise<Attached> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const dataUrl = String(reader.result);
      resolve({ name: file.name, mimeType: file.type, base64: dataUrl.slice(dataUrl.indexOf(",") + 1), dataUrl });
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export class ChatTab {
  private threadId = `thread-${crypto.randomUUID()}`;
  private attached: Attached[] = [];
  private running: ActiveRun | undefined;
  private readonly conversation = byId("conversation");
  private readonly threads = byId("threads");
  private readonly input = byId<HTMLTextAreaElement>("message");
  private readonly send = byId<HTMLButtonElement>("send");
  private readonly cancel = byId<HTMLButtonElement>("cancel");
  private readonly attach = byId<HTMLInputElement>("attach");
  private readonly attachments = byId("attachments");
  private readonly notice = byId("chat-notice");

  private readonly session: () => Session | undefined;

  constructor(session: () => Session | undefined) {
    this.session = session;
    byId("composer").addEventListener("submit", (event) => {
      event.preventDefault();
      void this.sendMessage();
    });
    this.cancel.addEventListener("click", () => void this.cancelRun());
    this.attach.addEventListener("change", () => void this.addImages());
    byId("new-thread").addEventListener("click", () => this.openThread(`thread-${crypto.randomUUID()}`, false));
    this.setRunning(undefined);
  }

  /** After sign-in or a reload: the thread list, and the run that was in flight, if any. */
  async start(): Promise<void> {
    this.say("");
    await this.refreshThreads();
    const active = loadActiveRun();
    if (active) await this.resume(active);
  }

  /** Signed out: nothing of the last person's conversation stays on the page. */
  clear(): void {
    saveActiveRun(undefined);
    this.setRunning(undefined);
    this.threadId = `thread-${crypto.randomUUID()}`;
    this.conversation.replaceChildren();
    this.threads.replaceChildren();
    this.say("");
  }

  private say(text: string, tone: "info" | "error" = "info"): void {
    this.notice.textContent = text;
    this.notice.dataset.tone = tone;
  }

  private async addImages(): Promise<void> {
    for (const file of Array.from(this.attach.files ?? [])) {
      if (this.attached.length >= MAX_IMAGES) return this.say(`at most ${MAX_IMAGES} images per message`, "error");
      if (!file.type.startsWith("image/")) return this.say(`${file.name} is not an image`, "error");
      if (file.size > MAX_IMAGE_BYTES) return this.say(`${file.name} is larger than 6 MB`, "error");
      this.attached.push(await readImage(file));
    }
    this.attach.value = "";
    this.attachments.replaceChildren(
      ...this.attached.map((image) => h("img", { class: "thumb", attrs: { src: image.dataUrl, alt: image.name } })),
    );
  }

  /** A run can be cancelled once the server has started it (RUN_STARTED); before that its id is unknown there (404). */
  private setRunning(run: ActiveRun | undefined): void {
    this.running = run;
    this.send.disabled = run !== undefined;
    this.cancel.disabled = run === undefined || run.events.length === 0;
  }

  private userBubble(text: string, images: HTMLElement[]): HTMLElement {
    return h("div", { class: "user-message" }, h("p", { text }), images.length > 0 && h("div", { class: "images" }, ...images));
  }

  private async sendMessage(): Promise<void> {
    const session = this.session();
    const text = this.input.value.trim();
    if (!session) return this.say("sign in first", "error");
    if (!text && this.attached.length === 0) return;
    const images = this.attached;
    const message: Message = {
      id: crypto.randomUUID(),
      role: "user",
      content:
        images.length === 0
          ? text
          : [
              ...(text ? [{ type: "text" as const, text }] : []),
              ...images.map((image) => ({
                type: "image" as const,
                source: { type: "data" as const, value: image.base64, mimeType: image.mimeType },
              })),
            ],
    };
    const run: ActiveRun = { threadId: this.threadId, runId: `run-${crypto.randomUUID()}`, text, imageCount: images.length, events: [] };
    this.input.value = "";
    this.attached = [];
    this.attachments.replaceChildren();
    this.say("");
    const bubble = this.userBubble(
      text,
      images.map((image) => h("img", { class: "thumb", attrs: { src: image.dataUrl, alt: image.name } })),
    );
    const view = new RunView(run.runId);
    this.conversation.append(bubble, view.element);
    this.setRunning(run);
    saveActiveRun(run);
    const forwardedProps = { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, locale: navigator.language };
    await startRun({ token: session.token, threadId: run.threadId, runId: run.runId, message, forwardedProps }, this.handlers(run, view));
    this.finish(run);
  }

  private handlers(run: ActiveRun, view: RunView) {
    return {
      onEvent: (event: BaseEvent, id: number) => {
        view.apply(event);
        run.events.push({ id, event });
        saveActiveRun(TERMINAL.has(event.type) ? undefined : run);
        // The terminal event ends the run, whenever the connection itself closes.
        if (TERMINAL.has(event.type)) this.finish(run);
        else if (this.running === run) this.cancel.disabled = false;
        view.element.scrollIntoView({ block: "end" });
      },
      onFailure: (code: string, message: string) => {
        view.fail(code, message);
        // Refused before it started: the text goes back in the box, so nothing typed is lost.
        if (run.events.length === 0 && !this.input.value) this.input.value = run.text;
        saveActiveRun(undefined);
        this.finish(run);
      },
    };
  }

  private finish(run: ActiveRun): void {
    if (this.running !== run) return;
    this.setRunning(undefined);
    void this.refreshThreads();
  }

  /** Draws what the page saw before the reload, then follows the run from the event after it. */
  private async resume(run: ActiveRun): Promise<void> {
    const session = this.session();
    if (!session) return;
    this.setRunning(run); // first, so the thread's history leaves this run to the live view
    await this.openThread(run.threadId, true);
    const view = new RunView(run.runId);
    for (const { event } of run.events) view.apply(event);
    this.conversation.append(
      this.userBubble(run.text, run.imageCount > 0 ? [h("span", { class: "badge", text: `${run.imageCount} image(s)` })] : []),
      view.element,
    );
    view.element.dataset.resumed = String(lastEventId(run));
    await resumeRun(session.token, run.runId, lastEventId(run), this.handlers(run, view));
    this.finish(run);
  }

  private async cancelRun(): Promise<void> {
    const session = this.session();
    const run = this.running;
    if (!session || !run) return;
    const answer = await requestJson(`/api/v1/agent/runs/${encodeURIComponent(run.runId)}/cancel`, {
      method: "POST",
      token: session.token,
    });
    if (!answer.ok) this.say(`cancel refused: ${answer.code} ${answer.message}`, "error");
  }

  async refreshThreads(): Promise<void> {
    const session = this.session();
    if (!session) return this.threads.replaceChildren();
    const answer = await requestJson<unknown>("/api/v1/agent/threads?limit=50", { token: session.token });
    if (!answer.ok) return this.say(`threads: ${answer.code} ${answer.message}`, "error");
    const threads = isRecord(answer.body) && Array.isArray(answer.body.threads) ? answer.body.threads.filter(isRecord) : [];
    this.threads.replaceChildren(
      ...threads.map((thread) => {
        const id = String(thread.id);
        return h(
          "li",
          { data: { threadId: id, current: String(id === this.threadId) } },
          h("button", {
            attrs: { type: "button" },
            text: typeof thread.title === "string" && thread.title ? thread.title : id,
            on: { click: () => void this.openThread(id, true) },
          }),
        );
      }),
    );
  }

  /** Shows a thread's history (or an empty new thread) and makes it the one messages go to. */
  async openThread(threadId: string, load: boolean): Promise<void> {
    this.threadId = threadId;
    this.conversation.replaceChildren();
    for (const item of this.threads.querySelectorAll<HTMLElement>("li")) item.dataset.current = String(item.dataset.threadId === threadId);
    const session = this.session();
    if (!load || !session) return;
    const answer = await requestJson<unknown>(`/api/v1/agent/threads/${encodeURIComponent(threadId)}/history?limit=100`, {
      token: session.token,
    });
    if (!answer.ok) {
      if (answer.code !== "NOT_FOUND") this.say(`history: ${answer.code} ${answer.message}`, "error");
      return;
    }
    for (const turn of historyTurns(isRecord(answer.body) ? answer.body.messages : [])) {
      if (this.running?.runId === turn.runId) continue; // drawn live instead
      const view = new RunView(turn.runId);
      for (const event of turn.events) view.apply(event);
      view.markHistory();
      const images = (turn.user?.imageUrls ?? []).map((url) => this.storedImage(url, session.token));
      this.conversation.append(this.userBubble(turn.user?.text ?? "", images), view.element);
    }
  }

  /** An image from history: its route needs the bearer token, so it is fetched, not linked. */
  private storedImage(url: string, token: string): HTMLElement {
    const image = h("img", { class: "thumb", attrs: { alt: "attached image" } });
    void fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
      .then((response) => (response.ok ? response.blob() : Promise.reject(new Error(String(response.status)))))
      .then((blob) => image.setAttribute("src", URL.createObjectURL(blob)))
      .catch(() => image.setAttribute("alt", "image not available"));
    return image;
  }
}
