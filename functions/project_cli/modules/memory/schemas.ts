// memory.read / memory.update and the two documents they manage. Field by field docs are in
// skills/memory/SKILL.md; a test keeps the two in step.
import { z } from "zod";
import { ianaTimezone, storableString, text } from "../../fields.ts";

const shortList = (maxItems: number, maxLength: number) => z.array(text(maxLength)).max(maxItems, { error: `at most ${maxItems} entries` });
const clock = storableString().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, { error: "expected a 24-hour time HH:MM" });

/** What the assistant remembers about the person. */
export const UserMemoryContent = z.strictObject({
  preferred_name: text(100).optional(),
  language: storableString()
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, { error: "expected a BCP 47 language tag, e.g. en or zh-CN" })
    .optional(),
  timezone: ianaTimezone.optional(),
  preferences: shortList(50, 300).optional(),
  facts: shortList(100, 300).optional(),
  important_people: z
    .array(z.strictObject({ name: text(100), relation: text(100).optional(), notes: text(300).optional() }))
    .max(50, { error: "at most 50 entries" })
    .optional(),
});

const Weekday = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);

/** How the person works: used to place meetings and phrase answers. */
export const WorkProfileContent = z.strictObject({
  role: text(100).optional(),
  team: text(100).optional(),
  company: text(100).optional(),
  location: text(100).optional(),
  working_hours: z.strictObject({ start: clock, end: clock }).optional(),
  working_days: z
    .array(Weekday)
    .max(7)
    .refine((days) => new Set(days).size === days.length, { error: "each day at most once" })
    .optional(),
  meeting_preferences: shortList(20, 300).optional(),
  focus_areas: shortList(20, 200).optional(),
});

export const MEMORY_KINDS = ["user_memory", "work_profile"] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
export const CONTENT_MODELS = { user_memory: UserMemoryContent, work_profile: WorkProfileContent } as const;

export const MemoryReadInput = z.strictObject({ kind: z.enum([...MEMORY_KINDS, "all"]).default("all") });

/**
 * merge (default): the given top-level fields replace the stored ones, others stay.
 * replace: the document becomes exactly `content` (the way to remove fields).
 */
const mode = z.enum(["merge", "replace"]).default("merge");

export const MemoryUpdateInput = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("user_memory"), content: UserMemoryContent, mode }),
    z.strictObject({ kind: z.literal("work_profile"), content: WorkProfileContent, mode }),
  ],
  { error: 'kind must be "user_memory" or "work_profile"' },
);
