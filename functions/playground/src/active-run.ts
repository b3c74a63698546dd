// The run in flight, kept in sessionStorage as its events arrive, so a reload of the page can
// draw what was already seen and resume the stream after the last event id (Last-Event-ID).
import type { BaseEvent } from "@ag-ui/client";
import { isRecord } from "./values.ts";

const KEY = "playground.active-run";

export interface ActiveRun {
  threadId: string;
  runId: string;
  text: string;
  imageCount: number;
  events: Array<{ id: number; event: BaseEvent }>;
}

export const lastEventId = (run: ActiveRun): number => run.events.at(-1)?.id ?? -1;

export function loadActiveRun(): ActiveRun | undefined {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? "null");
    if (!isRecord(stored) || typeof stored.runId !== "string" || typeof stored.threadId !== "string" || !Array.isArray(stored.events))
      return undefined;
    const events = stored.events.filter(
      (entry): entry is ActiveRun["events"][number] =>
        isRecord(entry) && typeof entry.id === "number" && isRecord(entry.event) && typeof entry.event.type === "string",
    );
    return {
      threadId: stored.threadId,
      runId: stored.runId,
      text: typeof stored.text === "string" ? stored.text : "",
      imageCount: typeof stored.imageCount === "number" ? stored.imageCount : 0,
      events,
    };
  } catch {
    return undefined;
  }
}

export function saveActiveRun(run: ActiveRun | undefined): void {
  try {
    if (run) sessionStorage.setItem(KEY, JSON.stringify(run));
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage full or refused: a reload then starts the stream from its beginning instead
  }
}
