// POST /agent/chat (natural-language requests from external agents) and the composites it can
// offer: POST /composites and DELETE /composites/{id} for admin keys.
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import { openAiModels } from "../../lib/openai-models.ts";
import { jsonContent, validated } from "../../lib/openapi.ts";
import type { ToolAgentEnv } from "../app-env.ts";
import { hasScope } from "../auth/api-keys.ts";
import { requireScope } from "../auth/caller.ts";
import { toolDatabase } from "../database.ts";
import { API_KEY, AUTH_ERRORS } from "../openapi.ts";
import { CompositeRequest, deleteComposite, saveComposite } from "../registry/composite-store.ts";
import { answerChat } from "../router/chat.ts";
import { creationAnswer } from "../router/chat-answer.ts";
import { asksForNewTool, replyLanguage } from "../router/chat-terms.ts";
import { phraseReply } from "../router/phrase-reply.ts";
import { submitTask } from "../tasks/submit-task.ts";

const ChatRequest = z.strictObject({
  message: z.string().trim().min(1, { error: "say what you need" }).max(4_000),
  context: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("anything the caller knows; not used for matching, but passed to a creation task as its details"),
});

const ChatAnswer = z.object({
  match: z.enum(["exact", "fuzzy", "composite", "none"]),
  reply: z.string(),
  tools: z.array(z.record(z.string(), z.unknown())),
  solution: z.record(z.string(), z.unknown()).nullable(),
  task_id: z.string().nullable(),
  next_steps: z.array(z.string()),
  reply_source: z.enum(["rules", "model"]).describe("who phrased `reply`: the rules, or the configured model"),
});

const CompositeParam = z.object({ composite_id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: "is not a composite id" }) });

export const chatRoutes = new Hono<ToolAgentEnv>()
  .post(
    "/agent/chat",
    describeRoute({
      summary: "Ask for a tool in words",
      description:
        "Matches the request against the registry: a tool it names, a composite whose keyword it uses (all base tools active), tools containing its words, or nothing. When nothing matches and the request asks for a tool to be made, a key with the create scope starts a creation task and the answer carries its task_id. Answers in the request's language (English or Chinese), with a usage example per tool. With a model configured (TOOL_AGENT_MODEL_API_KEY) the reply sentence is phrased by it; the rules choose everything else. Needs the search scope.",
      security: API_KEY,
      responses: { 200: { description: "the answer; `match` says which branch", content: jsonContent(ChatAnswer) }, ...AUTH_ERRORS },
    }),
    requireScope("search"),
    validated("json", ChatRequest),
    async (c) => {
      const { message, context } = c.req.valid("json");
      const { settings, caller } = c.var;
      const db = await toolDatabase(settings);
      let answer = await answerChat(db, message);
      // Asked for a tool nobody has: with the create scope, the request becomes a task.
      if (answer.match === "none" && asksForNewTool(message) && hasScope(caller.scopes, "create")) {
        const details = Object.keys(context).length > 0 ? JSON.stringify(context).slice(0, 4_000) : undefined;
        const request = { description: message, ...(details ? { task_spec: details } : {}) };
        const task = await submitTask(db, c.env.TOOL_MESSAGES, request, caller, settings.coding.maxOpenTasks);
        answer = creationAnswer(task.task_id, replyLanguage(message));
      }
      const model =
        settings.model &&
        openAiModels({ api: settings.model.api, baseUrl: settings.model.baseUrl, apiKey: settings.model.apiKey })(settings.model.chatModel);
      return c.json(await phraseReply(answer, message, replyLanguage(message), model, settings.model?.timeoutMs ?? 0), 200);
    },
  )
  .post(
    "/composites",
    describeRoute({
      summary: "Register a composite tool, or replace one",
      description:
        "A need met by several registered tools in steps, offered by /agent/chat when a request uses one of its keywords. Needs the admin scope.",
      security: API_KEY,
      responses: { 201: { description: "saved", content: jsonContent(z.object({ composite_id: z.string() })) }, ...AUTH_ERRORS },
    }),
    requireScope("admin"),
    validated("json", CompositeRequest),
    async (c) => {
      const composite = c.req.valid("json");
      await saveComposite(await toolDatabase(c.var.settings), composite);
      return c.json({ composite_id: composite.composite_id }, 201);
    },
  )
  .delete(
    "/composites/:composite_id",
    describeRoute({
      summary: "Remove a composite tool",
      security: API_KEY,
      responses: {
        200: { description: "whether it existed", content: jsonContent(z.object({ composite_id: z.string(), removed: z.boolean() })) },
        ...AUTH_ERRORS,
      },
    }),
    requireScope("admin"),
    validated("param", CompositeParam),
    async (c) => {
      const { composite_id } = c.req.valid("param");
      return c.json({ composite_id, removed: await deleteComposite(await toolDatabase(c.var.settings), composite_id) }, 200);
    },
  );
