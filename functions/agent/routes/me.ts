// GET /api/v1/me: who the bearer token says the caller is. Lets the app check a session.
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { BEARER, errorResponses, jsonContent } from "../openapi.ts";

const Me = z.object({ user_id: z.uuid(), role: z.literal("authenticated"), email: z.string().nullable() });

export const me = new Hono<AppEnv>().get(
  "/api/v1/me",
  describeRoute({
    summary: "Who the bearer token says the caller is",
    security: BEARER,
    responses: {
      200: { description: "the verified caller", content: jsonContent(Me) },
      ...errorResponses({ 401: "UNAUTHENTICATED", 500: "CONFIG_INVALID", 503: "UPSTREAM_UNAVAILABLE: the key set could not be fetched" }),
    },
  }),
  (c) => {
    const { userId, role, email } = c.var.user;
    return c.json({ user_id: userId, role, email: email ?? null });
  },
);
