// How a schedule item looks in a tool result: times in the event's own zone with offset, and
// what the caller may do with it (owner, or the permission it was granted).
import type { QueryData } from "@supabase/supabase-js";
import { z } from "zod";
import { storedObject } from "../../../lib/stored-json.ts";
import type { DatabaseClient } from "../../../lib/supabase.ts";
import { zonedIso } from "../../time.ts";
import { EVENT_STATUSES, type EventView, InvitationStatus, Permission } from "./results.ts";

export type { EventView } from "./results.ts";

export const EVENT_COLUMNS =
  "id, owner_id, title, description, start_at, end_at, timezone, status, metadata, recurrence_rule, recurrence_exceptions, source_type, created_at, updated_at, schedule_subscriptions(subscriber_id, permission, status)";

/** Events as the caller may see them (RLS decides which), with the columns a view needs. */
export const selectEvents = (db: DatabaseClient) => db.from("schedule_items").select(EVENT_COLUMNS);

/** One row of EVENT_COLUMNS, as the typed client reads it (the select string is the one source). */
export type EventRow = QueryData<ReturnType<typeof selectEvents>>[number];

// The table's check constraints allow only the listed values; the generated types say `string`.
// A value outside them would be a schema change: it reads as the least it could mean.
const EventStatus = z.enum(EVENT_STATUSES).catch("active");
const StoredPermission = Permission.catch("view");
const StoredInvitationStatus = InvitationStatus.catch("pending");
export const permissionOf = (value: string) => StoredPermission.parse(value);
export const eventStatusOf = (value: string | null) => EventStatus.parse(value);
export const invitationStatusOf = (value: string) => StoredInvitationStatus.parse(value);

/** A stored instant written in the event's zone (see zonedIso). */
export function inZone(instant: string, timeZone: string): string {
  try {
    return zonedIso(new Date(instant), timeZone);
  } catch {
    return instant; // a zone this runtime does not know: keep the stored UTC form
  }
}

export function toEventView(row: EventRow, userId: string): EventView {
  const subscriptions = row.schedule_subscriptions;
  const isOwner = row.owner_id === userId;
  const mine = subscriptions.find((subscription) => subscription.subscriber_id === userId);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    start_at: inZone(row.start_at, row.timezone),
    end_at: row.end_at ? inZone(row.end_at, row.timezone) : null,
    timezone: row.timezone,
    status: eventStatusOf(row.status),
    metadata: storedObject(row.metadata),
    recurrence_rule: row.recurrence_rule,
    source_type: row.source_type,
    access: isOwner ? "owner" : permissionOf(mine?.permission ?? "view"),
    owner_id: row.owner_id,
    ...(isOwner
      ? {
          shared_with: subscriptions.map((s) => ({
            user_id: s.subscriber_id,
            permission: permissionOf(s.permission),
            status: invitationStatusOf(s.status),
          })),
        }
      : {}),
    updated_at: row.updated_at,
  };
}
