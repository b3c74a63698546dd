// Structured logs: one JSON object per line. Secrets never reach a log line: fields whose
// names say they hold a secret are dropped, and anything shaped like a JWT is masked, so a
// token pasted into a message by mistake is caught too.
const SECRET_FIELD = /authorization|token|credential|secret|password|jwk|apikey|cookie/i;
const JWT_LIKE = /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g;

export type LogFields = Record<string, unknown>;

function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.replace(JWT_LIKE, "[redacted-jwt]");
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_FIELD.test(key))
      .map(([key, item]) => [key, redact(item, depth + 1)]),
  );
}

export function formatLogLine(level: "info" | "warn" | "error", event: string, fields: LogFields = {}): string {
  return JSON.stringify({ level, event, time: new Date().toISOString(), ...(redact(fields) as LogFields) });
}

export const log = {
  info: (event: string, fields?: LogFields) => console.log(formatLogLine("info", event, fields)),
  warn: (event: string, fields?: LogFields) => console.warn(formatLogLine("warn", event, fields)),
  error: (event: string, fields?: LogFields) => console.error(formatLogLine("error", event, fields)),
};
