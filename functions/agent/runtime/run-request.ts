// POST /api/v1/agent/runs takes an AG-UI RunAgentInput. This turns it into what a run needs:
// ids, a bounded text view of the conversation for the intent stage, the last user message
// (text and images) for the worker, and the user's time zone.
import type { ContentPart, Message, RunAgentInput } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { FilePart, ImagePart, TextPart } from "ai";
import type { IntentTurn } from "./intent.ts";
import { resolveTimezone } from "./user-context.ts";

export const LIMITS = { turns: 20, turnChars: 4_000, images: 4, imageDataChars: 8_000_000 } as const;

export interface Attachment {
  type: "image";
  mimeType?: string;
  url?: string;
  /** Bytes of inline data (never the data itself in records). */
  inlineBytes?: number;
}

export interface RunRequest {
  threadId: string;
  runId: string;
  /** The AG-UI id of the user's message, kept so history replays the same id. */
  userMessageId: string;
  conversation: IntentTurn[];
  userContent: string | Array<TextPart | ImagePart | FilePart>;
  attachments: Attachment[];
  timezone: string;
}

const textOf = (content: Message["content"]): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as ContentPart[]).map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join(" ");
};

/** Decoded size of base64 data, without decoding it. */
const base64Bytes = (value: string) => Math.floor((value.length * 3) / 4) - (value.endsWith("==") ? 2 : value.endsWith("=") ? 1 : 0);

function userParts(content: ContentPart[]): { parts: Array<TextPart | ImagePart>; attachments: Attachment[] } | string {
  const parts: Array<TextPart | ImagePart> = [];
  const attachments: Attachment[] = [];
  for (const part of content) {
    if (part.type === "text") parts.push({ type: "text", text: part.text });
    else if (part.type === "image") {
      if (attachments.length >= LIMITS.images) return `at most ${LIMITS.images} images per message`;
      const source = part.source;
      if (source.type === "url") {
        if (!/^https:\/\//.test(source.value)) return "image URLs must be https";
        parts.push({ type: "image", image: new URL(source.value), ...(source.mimeType ? { mediaType: source.mimeType } : {}) });
        attachments.push({ type: "image", url: source.value, ...(source.mimeType ? { mimeType: source.mimeType } : {}) });
      } else if (source.type === "data") {
        if (!source.mimeType.startsWith("image/")) return "inline images need an image/* mimeType";
        if (source.value.length > LIMITS.imageDataChars) return "an inline image is too large (max about 6 MB)";
        parts.push({ type: "image", image: source.value, mediaType: source.mimeType });
        attachments.push({ type: "image", mimeType: source.mimeType, inlineBytes: base64Bytes(source.value) });
      } else return "image sources must be url or data";
    } else return `message parts of type ${part.type} are not supported`;
  }
  return { parts, attachments };
}

export function parseRunRequest(body: unknown): { ok: true; request: RunRequest } | { ok: false; problem: string } {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `not an AG-UI RunAgentInput: ${issue ? `${issue.path.join(".") || "(body)"} ${issue.message}` : "invalid"}` };
  }
  const input = parsed.data as RunAgentInput;
  if (input.threadId.length === 0 || input.threadId.length > 128 || input.runId.length === 0 || input.runId.length > 128) {
    return { ok: false, problem: "threadId and runId must be 1 to 128 characters" };
  }
  const last = input.messages.at(-1);
  if (!last || last.role !== "user") return { ok: false, problem: "the last message must be the user's request" };

  let userContent: RunRequest["userContent"];
  let attachments: Attachment[] = [];
  if (typeof last.content === "string") {
    if (last.content.trim() === "") return { ok: false, problem: "the user message is empty" };
    userContent = last.content.slice(0, LIMITS.turnChars);
  } else {
    const converted = userParts(last.content);
    if (typeof converted === "string") return { ok: false, problem: converted };
    if (converted.parts.length === 0) return { ok: false, problem: "the user message is empty" };
    userContent = converted.parts;
    attachments = converted.attachments;
  }

  const conversation = input.messages
    .filter((message) => message.role === "user" || message.role === "assistant")
    .map((message) => ({ role: message.role as "user" | "assistant", text: textOf(message.content).slice(0, LIMITS.turnChars) }))
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
    },
  };
}
