// calendar.invitations: what the caller has been invited to and not yet answered, through
// public.my_pending_invitations (a pending invitee cannot read the event itself, decision D5).
// Each invitation names the event by the id accept_invite and reject_invite take.
import type { z } from "zod";
import type { CliContext } from "../../context.ts";
import { unwrap } from "../../database-errors.ts";
import { eventStatusOf, inZone, permissionOf } from "./event-view.ts";
import type { CalendarInvitationsResult } from "./results.ts";
import type { CalendarInvitationsInput } from "./schemas.ts";

type Invitation = z.output<typeof CalendarInvitationsResult>["invitations"][number];

export async function calendarInvitations(
  input: z.output<typeof CalendarInvitationsInput>,
  ctx: CliContext,
): Promise<z.output<typeof CalendarInvitationsResult>> {
  // One more than asked for: its presence says the list was cut.
  const rows = unwrap(await ctx.db.rpc("my_pending_invitations", { p_limit: input.limit + 1 })) ?? [];
  const invitations = rows.flatMap((row): Invitation[] => {
    // The function's columns are declared nullable; a row without its keys is not an invitation.
    if (!row.event_id || !row.title || !row.start_at || !row.timezone || !row.inviter_id || !row.invited_at) return [];
    return [
      {
        event: {
          id: row.event_id,
          title: row.title,
          start_at: inZone(row.start_at, row.timezone),
          end_at: row.end_at ? inZone(row.end_at, row.timezone) : null,
          timezone: row.timezone,
          status: eventStatusOf(row.event_status),
          recurrence_rule: row.recurrence_rule,
        },
        permission: permissionOf(row.permission ?? "view"),
        invited_at: row.invited_at,
        inviter: { user_id: row.inviter_id, name: row.inviter_name, email: row.inviter_email, phone: row.inviter_phone },
      },
    ];
  });
  const shown = invitations.slice(0, input.limit);
  return { invitations: shown, count: shown.length, truncated: invitations.length > input.limit };
}
