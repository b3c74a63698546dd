// Where a resumed stream starts: `?after=N` wins over `Last-Event-ID: N`; neither means from
// the beginning (-1). A cursor that is given but empty or blank is a client bug, refused
// rather than read as 0 (Number("") is 0, which would silently skip event 0).
export type ResumeCursor = { ok: true; after: number } | { ok: false; field: "after" | "Last-Event-ID" };

export function resumeCursor(query: string | undefined, header: string | undefined): ResumeCursor {
  const [raw, field] = query !== undefined ? [query, "after" as const] : [header, "Last-Event-ID" as const];
  if (raw === undefined) return { ok: true, after: -1 };
  // Digits only (and -1): Number() would also take " 7", "0x10", "1e3" and "".
  if (!/^(-1|0|[1-9][0-9]{0,15})$/.test(raw)) return { ok: false, field };
  const after = Number(raw);
  return Number.isSafeInteger(after) ? { ok: true, after } : { ok: false, field };
}
