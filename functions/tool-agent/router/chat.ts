// POST /agent/chat: a request in words, matched against the registry in this order (the
// Tool Agent design's, with composites before word matches because their keywords are specific):
//   1. exact: the request names an active tool's id, or is exactly its name;
//   2. composite: it names a composite's keyword and every base tool is active;
//   3. fuzzy: tools containing its words (two-character pieces, for Chinese), most first;
//   4. none.
// A request that asks for a tool to be made ("create a tool that...") is matched on what the
// tool should do, and a candidate must cover more than half of that to count: otherwise the
// answer is none, and the route may start a creation task.
// Deterministic: the same registry and request give the same answer.
import type { ToolDatabase } from "../database.ts";
import { compositesFor } from "../registry/composite-store.ts";
import { getTools, StoreError } from "../registry/tool-store.ts";
import type { ToolRow } from "../tool-types.ts";
import { type ChatAnswer, compositeAnswer, exactAnswer, fuzzyAnswer, noMatchAnswer } from "./chat-answer.ts";
import { asksForNewTool, chatTerms, contentTerms, idCandidates, replyLanguage } from "./chat-terms.ts";

const FUZZY_CANDIDATES = 5;
/** With a new tool asked for, the share of its terms the best candidate must match. */
const CREATE_UNLESS_COVERED = 0.5;

const active = (tools: readonly { tool: ToolRow }[]) => tools.map(({ tool }) => tool).filter((tool) => tool.status === "active");

export async function answerChat(db: ToolDatabase, message: string): Promise<ChatAnswer> {
  const lang = replyLanguage(message);
  const said = message.trim().toLowerCase();

  const named = active(await getTools(db, idCandidates(message)));
  if (named.length > 0) return exactAnswer(named[0]!, lang);

  for (const composite of await compositesFor(db, message)) {
    const base = active(await getTools(db, composite.base_tools));
    if (base.length === composite.base_tools.length) return compositeAnswer(composite, base, lang);
  }

  const creating = asksForNewTool(message);
  const terms = creating ? contentTerms(message) : chatTerms(message);
  if (terms.length === 0) return noMatchAnswer(lang);
  const { data, error } = await db.rpc("match_terms", { terms, max_results: FUZZY_CANDIDATES });
  if (error) throw new StoreError("UPSTREAM_UNAVAILABLE", "matching the request failed: the data plane did not answer");
  const hits = (data ?? []).filter((hit): hit is { tool_id: string; matched: string[] } => hit.tool_id !== null && hit.matched !== null);
  const tools = new Map(
    active(
      await getTools(
        db,
        hits.map((hit) => hit.tool_id),
      ),
    ).map((tool) => [tool.tool_id, tool]),
  );
  const ranked = hits.flatMap((hit) => {
    const tool = tools.get(hit.tool_id);
    return tool ? [{ tool, matched: hit.matched }] : [];
  });
  const byName = ranked.find(({ tool }) => tool.name.toLowerCase() === said);
  if (byName) return exactAnswer(byName.tool, lang);
  const covered = ranked.length > 0 && (!creating || ranked[0]!.matched.length / terms.length > CREATE_UNLESS_COVERED);
  return covered ? fuzzyAnswer(ranked, lang) : noMatchAnswer(lang);
}
