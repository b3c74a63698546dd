// The hub's last duty to a run: the runs row must not say `running` after the run ended. When
// the run itself could not record its end (the database was unreachable then, or the Worker
// vanished), the hub does it later, as the run's user, through the same recording function.
import { EventType, type RunErrorEvent, type RunFinishedEvent } from "@ag-ui/core";
import { createUserDatabase } from "../../lib/user-database.ts";
import { loadSettings } from "../settings.ts";

export interface RunOwner {
  userId: string;
  runId: string;
}

export interface RecordedEnd {
  status: "failed" | "cancelled" | "succeeded";
  errorCode: string | null;
}

/** What the runs row should say, from the terminal event the run's followers saw. */
export function recordedEnd(event: RunFinishedEvent | RunErrorEvent): RecordedEnd {
  if (event.type === EventType.RUN_ERROR) return { status: "failed", errorCode: event.code?.slice(0, 64) ?? "INTERNAL" };
  return event.outcome?.type === "cancelled" ? { status: "cancelled", errorCode: null } : { status: "succeeded", errorCode: null };
}

/**
 * Finishes the row if it is still `running`. True when nothing is left to do (finished now,
 * already finished, or never recorded); false when the database could not be reached.
 */
export async function closeRunRecord(env: object, owner: RunOwner, end: RecordedEnd): Promise<boolean> {
  const loaded = loadSettings(env);
  if (!loaded.ok) return false;
  const db = await createUserDatabase(loaded.settings, owner.userId);
  const row = await db.from("runs").select("status").eq("id", owner.runId).maybeSingle();
  if (row.error) return false;
  if (row.data?.status !== "running") return true;
  const { error } = await db.rpc("record_run_finish", {
    p_run_id: owner.runId,
    p_status: end.status,
    p_error_code: end.errorCode,
    p_step_count: 0,
    p_usage: {},
    p_stage_timings: {},
    p_messages: [],
  });
  return !error;
}
