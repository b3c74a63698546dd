// What contacts.read answers, declared once (see calendar/results.ts for who reads it).
import { z } from "zod";

export const ContactView = z.object({
  id: z.string(),
  display_name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  linked_user_id: z.string().nullable(),
  notes: z.string().nullable(),
});

export const ContactsReadResult = z.object({ contacts: z.array(ContactView), count: z.int().min(0), truncated: z.boolean() });
