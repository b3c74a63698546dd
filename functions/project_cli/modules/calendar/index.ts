// The calendar module: the user's events and the sharing of them.
import { type CliModule, defineMethod } from "../../method.ts";
import { calendarInvitations } from "./invitations.ts";
import { calendarRead } from "./read.ts";
import {
  CalendarAnswerResult,
  CalendarCreateResult,
  CalendarDeleteResult,
  CalendarInvitationsResult,
  CalendarReadResult,
  CalendarShareResult,
  CalendarUpdateResult,
} from "./results.ts";
import {
  CalendarCreateInput,
  CalendarDeleteInput,
  CalendarEventRef,
  CalendarInvitationsInput,
  CalendarReadInput,
  CalendarShareInput,
  CalendarUpdateInput,
} from "./schemas.ts";
import { calendarAcceptInvite, calendarRejectInvite, calendarShare } from "./share.ts";
import { suggestRead, suggestShare, suggestUpdate } from "./suggestions.ts";
import { calendarCreate, calendarDelete, calendarUpdate } from "./write.ts";

const EXAMPLE_EVENT = "a0000000-0000-4000-8000-000000000001";

export const calendar: CliModule = {
  summary: "the user's events and sharing them",
  methods: {
    read: defineMethod({
      summary: 'list a day ("mode":"day"), a range ("mode":"range") or read one event by id ("mode":"event")',
      input: CalendarReadInput,
      example: { mode: "day", date: "2026-04-23", timezone: "Asia/Shanghai" },
      result: CalendarReadResult,
      handler: calendarRead,
      suggest: suggestRead,
    }),
    create: defineMethod({
      summary: "create an event",
      input: CalendarCreateInput,
      example: {
        title: "Project sync",
        start_at: "2026-04-23T16:00:00+08:00",
        end_at: "2026-04-23T17:00:00+08:00",
        timezone: "Asia/Shanghai",
      },
      result: CalendarCreateResult,
      handler: calendarCreate,
    }),
    update: defineMethod({
      summary: 'change an event\'s fields (archive with patch.status = "archived")',
      input: CalendarUpdateInput,
      example: { event_id: EXAMPLE_EVENT, patch: { start_at: "2026-04-23T18:00:00+08:00", end_at: "2026-04-23T19:00:00+08:00" } },
      result: CalendarUpdateResult,
      handler: calendarUpdate,
      suggest: suggestUpdate,
    }),
    delete: defineMethod({
      summary: "delete an event you own, or one occurrence of a repeating event (occurrence_start)",
      input: CalendarDeleteInput,
      example: { event_id: EXAMPLE_EVENT },
      result: CalendarDeleteResult,
      handler: calendarDelete,
    }),
    share: defineMethod({
      summary: "invite someone (by phone, email or user_id) to an event",
      input: CalendarShareInput,
      example: { event_id: EXAMPLE_EVENT, invitee: { phone: "+8613812345678" }, permissions: { view: true, edit: false, invite: false } },
      result: CalendarShareResult,
      handler: calendarShare,
      suggest: suggestShare,
    }),
    invitations: defineMethod({
      summary: "list the invitations you have not answered yet: who invited you, to what, when (with the event_id to answer)",
      input: CalendarInvitationsInput,
      example: { limit: 20 },
      result: CalendarInvitationsResult,
      handler: calendarInvitations,
    }),
    accept_invite: defineMethod({
      summary: "accept an invitation to an event",
      input: CalendarEventRef,
      example: { event_id: EXAMPLE_EVENT },
      result: CalendarAnswerResult,
      handler: calendarAcceptInvite,
    }),
    reject_invite: defineMethod({
      summary: "decline an invitation, or leave an event shared with you",
      input: CalendarEventRef,
      example: { event_id: EXAMPLE_EVENT },
      result: CalendarAnswerResult,
      handler: calendarRejectInvite,
    }),
  },
  methodCorrections: {
    get: 'read with {"mode": "event", "event_id": ...}',
    get_event: 'read with {"mode": "event", "event_id": ...}',
    list: 'read with {"mode": "day"} or {"mode": "range"}',
    list_day: 'read with {"mode": "day", "date": ..., "timezone": ...}',
    list_range: 'read with {"mode": "range", "start_at": ..., "end_at": ...}',
    list_events: 'read with {"mode": "day"} or {"mode": "range"}',
    create_event: "create",
    add: "create",
    update_event: "update",
    edit: "update",
    archive: 'update with {"patch": {"status": "archived"}}',
    delete_event: "delete",
    remove: "delete",
    invite: "share",
    invite_subscriber: "share",
    list_invitations: "invitations",
    pending_invitations: "invitations",
    invites: "invitations",
    accept: "accept_invite",
    reject: "reject_invite",
    decline: "reject_invite",
  },
};
