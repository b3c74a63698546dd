// What the memory methods answer, declared once (see calendar/results.ts for who reads it).
import { z } from "zod";
import { MEMORY_KINDS } from "./schemas.ts";

const MemoryKind = z.enum(MEMORY_KINDS);
const StoredDocument = z.object({ content: z.record(z.string(), z.unknown()), version: z.int(), updated_at: z.string() });

/** One entry per kind asked for; null where nothing is stored yet. */
export const MemoryReadResult = z.object({
  user_memory: StoredDocument.nullable().optional(),
  work_profile: StoredDocument.nullable().optional(),
});

export const MemoryUpdateResult = z.object({
  kind: MemoryKind,
  content: z.record(z.string(), z.unknown()),
  version: z.int(),
  updated_fields: z.array(z.string()),
  mode: z.enum(["merge", "replace"]),
});
