// jsonb columns that hold a JSON object (their CHECK constraints say so) but whose content a
// user shaped: any user may write their own rows through PostgREST. The generated types can only
// say `Json`, so a reader parses instead of casting: an object comes through with its keys (each
// value still unknown to whoever reads it), anything else reads as an empty object.
import { z } from "zod";
import type { Json } from "./database.types.ts";

const StoredObject = z.record(z.string(), z.unknown()).catch(() => ({}));

export function storedObject(value: Json): Record<string, unknown> {
  return StoredObject.parse(value);
}
