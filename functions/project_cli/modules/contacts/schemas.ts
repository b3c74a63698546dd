// contacts.read: look someone up by name, phone or e-mail, or list the address book.
import { z } from "zod";
import { email, phone, text } from "../../fields.ts";

export const ContactsReadInput = z
  .strictObject({
    name: text(100).optional(),
    phone: phone.optional(),
    email: email.optional(),
    limit: z.int().min(1).max(50).default(20),
  })
  .refine((input) => [input.name, input.phone, input.email].filter(Boolean).length <= 1, {
    error: "search by one of name, phone or email (or none to list)",
  });
