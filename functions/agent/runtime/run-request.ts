// POST /api/v1/agent/runs takes an AG-UI RunAgentInput. This turns it into what a run needs:
// ids, a bounded text view of the conversation for the intent stage, the last user message
// (text and images) for the worker, and the user's time zone.

import type { ContentPart, Message } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { FilePart, ImagePart, TextPart } from "ai";
import { isStorableText, STORABLE_TEXT_PROBLEM, toStorableText, truncateText } from "../../project_cli/fields.ts";
import { type Locale, resolveLocale } from "../post-processing/locale.ts";
import type { IntentTurn } from "./intent.ts";
import { resolveTimezone } from "./user-context.ts";

export const LIMITS = { turns: 20, turnChars: 4_000, images: 4, imageDataChars: 8_000_000 } as const;

// A type alias rather than an interface, so an attachment is a JSON object to the records.
export type Attachment = {
  type: "image";
  mimeType?: string;
  url?: string;
  /** Bytes of inline data (never the data itself in records). */
  inlineBytes?: number;
};

export interface RunRequest {
  threadId: string;
  runId: string;
  /** The AG-UI id of the user's message, kept so history replays the same id. */
  userMessageId: string;
  conversation: IntentTurn[];
  userContent: string | Array<TextPart | ImagePart | FilePart>;
  attachments: Attachment[];
  timezone: string;
  /** What summaries, cards and answers are written in (forwardedProps.locale, else Accept-Language). */
  locale: Locale;
}

/** The inline images of this run's message, with their place among its attachments. */
export function inlineImages(request: Pick<RunRequest, "userContent">): Array<{ index: number; base64: string; mimeType: string }> {
  if (typeof request.userContent === "string") return [];
  return request.userContent
    .filter((part): part is ImagePart => part.type === "image")
    .flatMap((part, index) =>
      typeof part.image === "string" && part.mediaType ? [{ index, base64: part.image, mimeType: part.mediaType }] : [],
    );
}

/** How the intent stage learns that images came with a message (it never sees them). */
export const imageNote = (count: number) => (count === 0 ? "" : ` [${count} image${count === 1 ? "" : "s"} attached]`);

/** This run's message as the intent stage reads it: the words, and a note of any images. */
export function userTurnText(request: Pick<RunRequest, "userContent" | "attachments">): string {
  return `${userText(request)}${imageNote(request.attachments.length)}`.trim();
}

/** The user's words in this run's message, images left out (run titles, the thread's turns, records). */
export function userText(request: Pick<RunRequest, "userContent">): string {
  if (typeof request.userContent === "string") return request.userContent;
  return request.userContent.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

const textOf = (content: Message["content"]): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join(" ");
};

/** Decoded size of base64 data, without decoding it. */
const base64Bytes = (value: string) => Math.floor((value.length * 3) / 4) - (value.endsWith("==") ? 2 : value.endsWith("=") ? 1 : 0);

/** Why a request is refused, and the field (a dotted path into the body) it is about. */
export interface RunRequestProblem {
  ok: false;
  problem: string;
  field: string;
}

const refuse = (field: string, problem: string): RunRequestProblem => ({ ok: false, field, problem });

function userParts(
  content: ContentPart[],
  at: string,
): { parts: Array<TextPart | ImagePart>; attachments: Attachment[] } | RunRequestProblem {
  const parts: Array<TextPart | ImagePart> = [];
  const attachments: Attachment[] = [];
  for (const [index, part] of content.entries()) {
    const field = `${at}.${index}`;
    if (part.type === "text") parts.push({ type: "text", text: part.text });
    else if (part.type === "image") {
      if (attachments.length >= LIMITS.images) return refuse(field, `at most ${LIMITS.images} images per message`);
      const source = part.source;
      if (source.type === "url") {
        // "https://" alone, or a host with spaces, passes a prefix test but is no URL.
        if (!/^https:\/\//.test(source.value) || !URL.canParse(source.value))
          return refuse(`${field}.source.value`, "image URLs must be absolute https URLs");
        parts.push({ type: "image", image: new URL(source.value), ...(source.mimeType ? { mediaType: source.mimeType } : {}) });
        attachments.push({ type: "image", url: source.value, ...(source.mimeType ? { mimeType: source.mimeType } : {}) });
      } else if (source.type === "data") {
        if (!source.mimeType.startsWith("image/")) return refuse(`${field}.source.mimeType`, "inline images need an image/* mimeType");
        if (source.value.length > LIMITS.imageDataChars)
          return refuse(`${field}.source.value`, "an inline image is too large (max about 6 MB)");
        parts.push({ type: "image", image: source.value, mediaType: source.mimeType });
        attachments.push({ type: "image", mimeType: source.mimeType, inlineBytes: base64Bytes(source.value) });
      } else return refuse(`${field}.source.type`, "image sources must be url or data");
    } else return refuse(`${field}.type`, `message parts of type ${part.type} are not supported`);
  }
  return { parts, attachments };
}

/**
 * The first string (value or key) anywhere in the body that Postgres could not store. Ids,
 * message text and forwarded props end up in records; refusing them here names the field,
 * where the database would have failed the run as if it were down. Iterative, so a deeply
 * nested body cannot exhaust the stack.
 */
export function unstorableField(body: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[body, ""]];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (typeof value === "string") {
      if (!isStorableText(value)) return path || "(body)";
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        pending.push([item, path ? `${path}.${index}` : String(index)]);
      });
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        const field = path ? `${path}.${toStorableText(key)}` : toStorableText(key);
        if (!isStorableText(key)) return field;
        pending.push([item, field]);
      }
    }
  }
  return undefined;
}

/** Why `id` cannot name a thread or run (in a body or a path), or undefined. */
export function idProblem(id: string): string | undefined {
  if (id.length === 0 || id.length > 128) return "must be 1 to 128 characters";
  if (!isStorableText(id)) return STORABLE_TEXT_PROBLEM;
  return undefined;
}

export function parseRunRequest(
  body: unknown,
  headers: { acceptLanguage?: string | null } = {},
): { ok: true; request: RunRequest } | RunRequestProblem {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue ? issue.path.map((part) => toStorableText(String(part))).join(".") || "(body)" : "(body)";
    return refuse(field, `not an AG-UI RunAgentInput: ${issue ? `${field} ${issue.message}` : "invalid"}`);
  }
  const unstorable = unstorableField(body);
  if (unstorable) return refuse(unstorable, `${unstorable} ${STORABLE_TEXT_PROBLEM}`);
  const input = parsed.data;
  for (const field of ["threadId", "runId"] as const) {
    const problem = idProblem(input[field]);
    if (problem) return refuse(field, `${field} ${problem}`);
  }
  const last = input.messages.at(-1);
  const lastField = `messages.${input.messages.length - 1}`;
  if (last?.role !== "user")
    return refuse(input.messages.length === 0 ? "messages" : `${lastField}.role`, "the last message must be the user's request");
  if (idProblem(last.id)) return refuse(`${lastField}.id`, `the message id ${idProblem(last.id)}`);

  let userContent: RunRequest["userContent"];
  let attachments: Attachment[] = [];
  if (typeof last.content === "string") {
    if (last.content.trim() === "") return refuse(`${lastField}.content`, "the user message is empty");
    userContent = truncateText(last.content, LIMITS.turnChars);
  } else {
    const converted = userParts(last.content, `${lastField}.content`);
    if ("ok" in converted) return converted;
    if (converted.parts.length === 0) return refuse(`${lastField}.content`, "the user message is empty");
    userContent = converted.parts;
    attachments = converted.attachments;
  }

  const conversation = input.messages
    .filter((message) => message.role === "user" || message.role === "assistant")
    .map((message) => {
      const images = Array.isArray(message.content) ? message.content.filter((part) => part.type === "image").length : 0;
      return {
        role: message.role as "user" | "assistant",
        text: `${truncateText(textOf(message.content), LIMITS.turnChars)}${imageNote(images)}`.trim(),
      };
    })
    .filter((turn) => turn.text.trim() !== "")
    .slice(-LIMITS.turns);

  return {
    ok: true,
    request: {
      threadId: input.threadId,
      runId: input.runId,
      userMessageId: last.id,
      conversation,
      userContent,
      attachments,
      timezone: resolveTimezone(input.forwardedProps, input.context ?? []),
      locale: resolveLocale(input.forwardedProps, headers.acceptLanguage),
    },
  };
}
