// Corrections for the calendar mistakes models actually make (the costliest: event_id
// sent to calendar.read without a mode, looping until the step budget ran out).
// Own keys only: the input is caller JSON, and "constructor" or "__proto__" must mean nothing.
const has = (input: Record<string, unknown>, ...keys: string[]) => keys.some((key) => Object.hasOwn(input, key));
const field = (input: Record<string, unknown>, key: string) => (Object.hasOwn(input, key) ? input[key] : undefined);

export function suggestRead(input: Record<string, unknown>): string | undefined {
  if (!has(input, "mode")) {
    if (has(input, "event_id", "id", "eventId")) return 'to read one event by id, send {"mode": "event", "event_id": "<uuid>"}';
    if (has(input, "date", "day")) return 'to list one day, send {"mode": "day", "date": "YYYY-MM-DD", "timezone": "<IANA zone>"}';
    if (has(input, "start_at", "end_at", "start_time", "end_time")) {
      return 'to list a period, send {"mode": "range", "start_at": "<datetime with offset>", "end_at": "<datetime with offset>"}';
    }
    return 'calendar.read needs "mode": "day" (one date), "range" (start_at..end_at) or "event" (one event_id)';
  }
  if (field(input, "mode") === "day" && has(input, "start_at", "end_at"))
    return 'start_at/end_at belong to {"mode": "range"}; "day" takes date + timezone';
  if (field(input, "mode") === "range" && has(input, "date")) return 'date belongs to {"mode": "day"}; "range" takes start_at + end_at';
  if (field(input, "mode") !== "event" && has(input, "event_id")) return 'event_id belongs to {"mode": "event"}';
  return undefined;
}

const PATCH_FIELDS = ["title", "description", "start_at", "end_at", "timezone", "metadata", "recurrence_rule", "status"];

export function suggestUpdate(input: Record<string, unknown>): string | undefined {
  const misplaced = PATCH_FIELDS.filter((name) => has(input, name));
  if (misplaced.length > 0) return `put the fields to change inside "patch": {"event_id": "<uuid>", "patch": {"${misplaced[0]}": ...}}`;
  if (field(input, "archive") === true || field(input, "archived") === true)
    return 'to archive, send {"event_id": "<uuid>", "patch": {"status": "archived"}}';
  return undefined;
}

export function suggestShare(input: Record<string, unknown>): string | undefined {
  if (has(input, "phone", "email", "user_id")) return 'put the person inside "invitee": {"invitee": {"phone": "+8613812345678"}}';
  if (typeof field(input, "permission") === "string" || typeof field(input, "permissions") === "string") {
    return 'send permissions as booleans: {"view": true, "edit": false, "invite": false}';
  }
  return undefined;
}
