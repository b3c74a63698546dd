// GET /api/v1/me: who the bearer token says the caller is. Lets the app check a session.
import { Hono } from "hono/tiny";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { API_ERRORS, BEARER, jsonContent } from "../openapi.ts";

export const Me = z.object({ user_id: z.uuid(), role: z.literal("authenticated"), email: z.string().nullable() });

export const me = new Hono<AppEnv>().get(
  "/api/v1/me",
  describeRoute({
    summary: "Who the bearer token says the caller is",
    security: BEARER,
    responses: {
      200: { description: "the verified caller", content: jsonContent(Me) },
      ...API_ERRORS,
    },
  }),
  (c) => {
    const { userId, role, email } = c.var.user;
    const me: z.output<typeof Me> = { user_id: userId, role, email: email ?? null };
    return c.json(me, 200);
  },
);
