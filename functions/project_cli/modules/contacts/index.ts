// The contacts module: the user's address book, for finding people and their phone or email.
import type { z } from "zod";
import type { CliContext } from "../../context.ts";
import { unwrap } from "../../database-errors.ts";
import { type CliModule, defineMethod } from "../../method.ts";
import { ContactsReadResult } from "./results.ts";
import { ContactsReadInput } from "./schemas.ts";

const COLUMNS = "id, display_name, phone, email, linked_user_id, notes";

/** `%` and `_` are wildcards in ILIKE; a name is matched literally. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

async function contactsRead(input: z.output<typeof ContactsReadInput>, ctx: CliContext) {
  let query = ctx.db
    .from("contacts")
    .select(COLUMNS)
    .order("display_name")
    .limit(input.limit + 1);
  if (input.name) query = query.ilike("display_name", `%${escapeLike(input.name)}%`);
  if (input.phone) query = query.eq("phone", input.phone);
  if (input.email) query = query.ilike("email", escapeLike(input.email));
  const rows = unwrap(await query);
  const contacts = rows.slice(0, input.limit);
  return { contacts, count: contacts.length, truncated: rows.length > input.limit };
}

export const contacts: CliModule = {
  summary: "the user's address book",
  methods: {
    read: defineMethod({
      summary: "find contacts by name, phone or email, or list them",
      input: ContactsReadInput,
      example: { name: "Bob" },
      result: ContactsReadResult,
      handler: contactsRead,
    }),
  },
  methodCorrections: { search: "read", find: "read", list: "read", get: "read", lookup: "read" },
};
