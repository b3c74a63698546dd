// What a test plans the scripted provider to answer, one entry per model call, and the error
// body OpenAI sends with a refused request.

export interface PlannedToolCall {
  name: string;
  /** Sent as the JSON text of the call's arguments, split across several stream chunks. */
  arguments: unknown;
}

export type PlannedReply =
  /** An assistant message (for structured output: the JSON text of the answer). */
  | { text: string; after?: Promise<unknown> }
  /** `after`: the reply waits for it, so a test can act while the model "thinks". */
  | { toolCalls: PlannedToolCall[]; after?: Promise<unknown> }
  /** An HTTP error with OpenAI's error body; `message` may carry a marker the test looks for. */
  | { status: number; message?: string; code?: string | null };

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function errorBody(status: number, message: string, options: { param?: string | null; code?: string | null } = {}): OpenAIErrorBody {
  const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type, param: options.param ?? null, code: options.code ?? null } };
}

/** Splits a string into a few pieces, so argument and text deltas arrive across chunks. */
export function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [""];
}

export const USAGE = { input: 11, output: 7 };
