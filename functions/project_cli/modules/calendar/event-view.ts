// How a schedule item looks in a tool result: times in the event's own zone with offset, and
// what the caller may do with it (owner, or the permission it was granted).
import { zonedIso } from "../../time.ts";
import { EVENT_STATUSES, type EventView } from "./results.ts";

export type { EventView } from "./results.ts";

export const EVENT_COLUMNS =
  "id, owner_id, title, description, start_at, end_at, timezone, status, metadata, recurrence_rule, source_type, created_at, updated_at, schedule_subscriptions(subscriber_id, permission, status)";

interface SubscriptionRow {
  subscriber_id: string;
  permission: "view" | "edit" | "invite";
  status: "pending" | "accepted" | "rejected";
}

export interface EventRow {
  id: string;
  owner_id: string;
  title: string;
  description: string | null;
  start_at: string;
  end_at: string | null;
  timezone: string;
  status: string;
  metadata: Record<string, unknown>;
  recurrence_rule: string | null;
  source_type: string;
  created_at: string;
  updated_at: string;
  schedule_subscriptions?: SubscriptionRow[];
}

/** The table's check constraint allows only these; anything else would be a schema change. */
const isEventStatus = (status: string): status is EventView["status"] => (EVENT_STATUSES as readonly string[]).includes(status);
const eventStatus = (status: string): EventView["status"] => (isEventStatus(status) ? status : "active");

function inZone(instant: string, timeZone: string): string {
  try {
    return zonedIso(new Date(instant), timeZone);
  } catch {
    return instant; // a zone this runtime does not know: keep the stored UTC form
  }
}

export function toEventView(row: EventRow, userId: string): EventView {
  const subscriptions = row.schedule_subscriptions ?? [];
  const isOwner = row.owner_id === userId;
  const mine = subscriptions.find((subscription) => subscription.subscriber_id === userId);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    start_at: inZone(row.start_at, row.timezone),
    end_at: row.end_at ? inZone(row.end_at, row.timezone) : null,
    timezone: row.timezone,
    status: eventStatus(row.status),
    metadata: row.metadata,
    recurrence_rule: row.recurrence_rule,
    source_type: row.source_type,
    access: isOwner ? "owner" : (mine?.permission ?? "view"),
    owner_id: row.owner_id,
    ...(isOwner
      ? { shared_with: subscriptions.map((s) => ({ user_id: s.subscriber_id, permission: s.permission, status: s.status })) }
      : {}),
    updated_at: row.updated_at,
  };
}
