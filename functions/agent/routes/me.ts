// GET /api/v1/me: who the bearer token says the caller is. Lets the app check a session.
import { Hono } from "hono";
import type { AppEnv } from "../../lib/app-env.ts";

export const me = new Hono<AppEnv>().get("/api/v1/me", (c) => {
  const { userId, role, email } = c.var.user;
  return c.json({ user_id: userId, role, email: email ?? null });
});
