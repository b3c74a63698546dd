// The memory module: what the assistant keeps about the user (user_memory) and how they work
// (work_profile), one validated JSON document each.
import type { z } from "zod";
import { storedObject } from "../../../lib/stored-json.ts";
import type { CliContext } from "../../context.ts";
import { unwrap } from "../../database-errors.ts";
import { type CliModule, defineMethod } from "../../method.ts";
import { CliProblem } from "../../result.ts";
import { detailsFromIssues } from "../../validation.ts";
import { MemoryReadResult, MemoryUpdateResult } from "./results.ts";
import { CONTENT_MODELS, MEMORY_KINDS, type MemoryKind, MemoryReadInput, MemoryUpdateInput } from "./schemas.ts";

/** The stored documents of these kinds; a document is the user's own writing, so its content is parsed, not trusted. */
async function readDocuments(ctx: CliContext, kinds: readonly MemoryKind[]) {
  const rows = unwrap(
    await ctx.db
      .from("user_memory")
      .select("kind, content, version, updated_at")
      .in("kind", [...kinds]),
  );
  return rows.map((row) => ({ ...row, content: storedObject(row.content) }));
}

async function memoryRead(input: z.output<typeof MemoryReadInput>, ctx: CliContext) {
  const kinds = input.kind === "all" ? MEMORY_KINDS : [input.kind];
  const rows = await readDocuments(ctx, kinds);
  return Object.fromEntries(
    kinds.map((kind) => {
      const row = rows.find((candidate) => candidate.kind === kind);
      return [kind, row ? { content: row.content, version: row.version, updated_at: row.updated_at } : null];
    }),
  );
}

async function memoryUpdate(input: z.output<typeof MemoryUpdateInput>, ctx: CliContext) {
  const [current] = input.mode === "merge" ? await readDocuments(ctx, [input.kind]) : [];
  const merged = { ...(current?.content ?? {}), ...input.content };
  // The stored document may predate a field change; the result must satisfy today's model.
  const checked = CONTENT_MODELS[input.kind].safeParse(merged, { reportInput: true });
  if (!checked.success) {
    throw new CliProblem(
      "INVALID_ACTION_INPUT",
      `the merged ${input.kind} document does not satisfy its model; send mode "replace" with a full document`,
      detailsFromIssues(checked.error.issues, "input.content"),
    );
  }
  const row = unwrap(
    await ctx.db
      .from("user_memory")
      .upsert({ owner_id: ctx.userId, kind: input.kind, content: checked.data }, { onConflict: "owner_id,kind" })
      .select("content, version")
      .single(),
  );
  return {
    kind: input.kind,
    content: storedObject(row.content),
    version: row.version,
    updated_fields: Object.keys(input.content),
    mode: input.mode,
  };
}

export const memory: CliModule = {
  summary: "what the assistant remembers about the user and their work profile",
  methods: {
    read: defineMethod({
      summary: 'read the stored documents ("kind": "user_memory", "work_profile" or "all")',
      input: MemoryReadInput,
      example: { kind: "all" },
      result: MemoryReadResult,
      handler: memoryRead,
    }),
    update: defineMethod({
      summary: "merge fields into (or replace) one memory document",
      input: MemoryUpdateInput,
      example: { kind: "user_memory", content: { preferences: ["Prefers morning meetings"] } },
      result: MemoryUpdateResult,
      handler: memoryUpdate,
    }),
  },
  methodCorrections: { get: "read", save: "update", write: "update", remember: "update", set: "update" },
};
