// Composite tools as registry data (migration 20261124001000): what an admin registers, and the
// reads /agent/chat makes. Steps may only name the composite's own base tools.
import { z } from "zod";
import type { Json } from "../../lib/database.types.ts";
import { storedObject } from "../../lib/stored-json.ts";
import type { ToolDatabase } from "../database.ts";
import { StoreError } from "./tool-store.ts";

const ToolId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: "is not a tool id" });

export const CompositeRequest = z
  .strictObject({
    composite_id: ToolId,
    name: z.string().trim().min(1).max(200),
    description: z.string().max(4_000).default(""),
    keywords: z
      .array(z.string().trim().min(1).max(100))
      .min(1)
      .max(50)
      .describe("words or phrases, any language, that mean a request is about it"),
    base_tools: z.array(ToolId).min(1).max(20),
    steps: z
      .array(
        z.strictObject({
          step: z.number().int().min(1),
          action: z.string().min(1).max(500),
          tool: ToolId,
          params: z.record(z.string(), z.unknown()).default({}),
          returns: z.string().max(500).optional(),
        }),
      )
      .min(1)
      .max(50),
    example: z.record(z.string(), z.unknown()).default({}),
  })
  .refine((c) => c.steps.every((s) => c.base_tools.includes(s.tool)), {
    error: "every step's tool must be one of base_tools",
    path: ["steps"],
  });
export type CompositeRequest = z.infer<typeof CompositeRequest>;

/** A composite as /agent/chat reads it. */
export interface CompositeRow {
  composite_id: string;
  name: string;
  description: string;
  base_tools: string[];
  steps: unknown[];
  example: Record<string, unknown>;
}

const fail = (what: string): never => {
  throw new StoreError("UPSTREAM_UNAVAILABLE", `${what} failed: the data plane did not answer`);
};

export async function saveComposite(db: ToolDatabase, composite: CompositeRequest): Promise<void> {
  const { error } = await db.from("composites").upsert({
    ...composite,
    keywords: composite.keywords.map((k) => k.toLowerCase()),
    // JSON from a validated request body: plain JSON values all the way down.
    steps: composite.steps as Json,
    example: composite.example as Json,
  });
  if (error) fail("saving the composite");
}

export async function deleteComposite(db: ToolDatabase, compositeId: string): Promise<boolean> {
  const { data, error } = await db.from("composites").delete().eq("composite_id", compositeId).select("composite_id");
  if (error) fail("deleting the composite");
  return (data ?? []).length > 0;
}

/** The composites whose keywords the message contains, most keywords first. */
export async function compositesFor(db: ToolDatabase, message: string): Promise<CompositeRow[]> {
  const { data, error } = await db.from("composites").select("*").order("composite_id").limit(200);
  if (error) fail("reading composites");
  const text = message.toLowerCase();
  return (data ?? [])
    .map((row) => ({ row, hits: row.keywords.filter((keyword) => text.includes(keyword)).length }))
    .filter(({ hits }) => hits > 0)
    .sort((a, b) => b.hits - a.hits)
    .map(({ row }) => ({
      composite_id: row.composite_id,
      name: row.name,
      description: row.description,
      base_tools: row.base_tools,
      steps: Array.isArray(row.steps) ? row.steps : [],
      example: storedObject(row.example),
    }));
}
