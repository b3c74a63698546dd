// GET /api/v1/agent/runs/{runId}/images/{index}: an image the user sent inline with a run's
// message, as stored (persistence/image-store.ts). The key is derived from the verified caller,
// so another user's run id reaches nothing. Types a browser could execute are served as plain
// bytes, and nothing is sniffed or scripted.
import { Hono } from "hono/tiny";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { errorBody } from "../../lib/errors.ts";
import type { AppEnv } from "../app-env.ts";
import { API_ERRORS, BEARER, errorResponses, validated } from "../openapi.ts";
import { imagePath, r2ImageStore } from "../persistence/image-store.ts";
import { recordId } from "./record-id.ts";

const ImageParams = z.object({
  runId: recordId("the run whose user message carried the image"),
  index: z.coerce.number().int().min(0).max(99).describe("the image's place among the message's attachments, from 0"),
});

const imageDoc = describeRoute({
  summary: "An image the user sent inline with a run's message",
  description: "History lists these as the `url` of the message's inline attachments.",
  security: BEARER,
  responses: {
    200: { description: "the image bytes (image/png, image/jpeg, ...; other types as application/octet-stream)" },
    ...errorResponses({
      400: "INVALID_REQUEST: a runId or index no image can have",
      404: "NOT_FOUND: no such image (or not the caller's, or it could not be stored)",
    }),
    ...API_ERRORS,
  },
});

export const imageRoutes = new Hono<AppEnv>().get(
  "/api/v1/agent/runs/:runId/images/:index",
  imageDoc,
  validated("param", ImageParams),
  async (c) => {
    const { runId, index } = c.req.valid("param");
    const path = imagePath(c.var.user.userId, runId, index);
    const bucket = c.env.PAYLOADS;
    const image = path && bucket ? await r2ImageStore(bucket, { timeoutMs: c.var.settings.dataPlane.timeoutMs }).get(path) : undefined;
    if (!image) return c.json(errorBody("NOT_FOUND", "no such image"), 404);
    return new Response(image.bytes, {
      headers: {
        "content-type": image.contentType,
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, max-age=3600",
        ...(image.contentType === "application/octet-stream" ? { "content-disposition": "attachment" } : {}),
      },
    });
  },
);
