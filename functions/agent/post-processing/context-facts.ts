// What a later turn needs to know of a tool call: its summary, then the ids and key facts of
// what it touched ("event_id …  "Project sync" 2026-04-23T16:00:00+08:00–…"). A follow-up
// such as "move it to 5pm" or "share that with Bob" then names the event without searching
// again: the thread's earlier tool turns, which the intent stage reads, carry these lines
// instead of the bare summary (messages.metadata.context; record_run_start returns it).
// Pure, and reads the result defensively, as the summary does.
import { cleanText, str } from "./content-summary.ts";
import { asRecord, type ToolAgentOutput } from "./tool-agent-output.ts";

export const CONTEXT_MAX_LENGTH = 600;
/** Enough entities for "the second one"; a longer list is cut, and the line says so. */
const MAX_ENTITIES = 8;

type Fields = Record<string, unknown>;
const list = (value: unknown): Fields[] => (Array.isArray(value) ? value.map(asRecord) : []);

function eventFact(event: Fields): string | undefined {
  const id = str(event.id);
  if (!id) return undefined;
  const times = [str(event.start_at), str(event.end_at)].filter(Boolean).join("–");
  const rule = str(event.recurrence_rule);
  return [`event_id ${id}`, str(event.title) && `"${str(event.title)}"`, times, rule && `repeats ${rule}`].filter(Boolean).join(" ");
}

function contactFact(contact: Fields): string | undefined {
  const name = str(contact.display_name);
  if (!name) return undefined;
  const user = str(contact.linked_user_id);
  return [`contact "${name}"`, str(contact.phone), str(contact.email), user && `user_id ${user}`].filter(Boolean).join(" ");
}

function invitationFact(invitation: Fields): string | undefined {
  const event = eventFact(asRecord(invitation.event));
  const inviter = asRecord(invitation.inviter);
  const from = str(inviter.name) ?? str(inviter.email) ?? str(inviter.phone);
  return event && (from ? `${event} from ${from}` : event);
}

/** The entities of one successful project_cli call, as short facts. */
function entities(action: string, data: Fields): Array<string | undefined> {
  switch (action) {
    case "calendar.read":
      return data.mode === "event" ? [eventFact(asRecord(data.event))] : list(data.items).map(eventFact);
    case "calendar.create":
    case "calendar.update":
      return [eventFact(asRecord(data.event))];
    case "calendar.delete": {
      const deleted = asRecord(data.deleted);
      const occurrence = str(deleted.occurrence_start);
      return [str(deleted.id) && `event_id ${str(deleted.id)} ${occurrence ? `occurrence ${occurrence} removed` : "deleted"}`];
    }
    case "calendar.share": {
      const invitee = str(asRecord(data.invitation).invitee_user_id);
      const event = eventFact(asRecord(data.event));
      return [event && invitee ? `${event} shared with user_id ${invitee}` : event];
    }
    case "calendar.invitations":
      return list(data.invitations).map(invitationFact);
    case "calendar.accept_invite":
    case "calendar.reject_invite":
      return [
        eventFact(asRecord(data.event)) ??
          (str(asRecord(data.invitation).event_id) && `event_id ${str(asRecord(data.invitation).event_id)}`),
      ];
    case "contacts.read":
      return list(data.contacts).map(contactFact);
    default:
      return [];
  }
}

export function buildContextFacts(output: ToolAgentOutput, summary: string): string {
  if (output.tool_name !== "project_cli" || output.status === "failure") return summary;
  const { module, method, data } = output.result;
  const facts = entities(`${module}.${method}`, asRecord(data)).filter((fact): fact is string => fact !== undefined);
  if (facts.length === 0) return summary;
  // Whole facts only, as many as fit with room for saying how many were left out.
  const flat = facts.map((fact) => cleanText(fact, CONTEXT_MAX_LENGTH));
  let line = summary;
  let shown = 0;
  for (const fact of flat.slice(0, MAX_ENTITIES)) {
    const next = `${line}${shown === 0 ? ": " : "; "}${fact}`;
    if (next.length > CONTEXT_MAX_LENGTH - 20) break;
    line = next;
    shown++;
  }
  const left = flat.length - shown;
  return cleanText(left > 0 ? `${line}${shown === 0 ? ":" : ";"} and ${left} more` : line, CONTEXT_MAX_LENGTH);
}
