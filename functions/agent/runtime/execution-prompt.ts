// The worker's instructions: role and rules, the ENV section (USER_CONTEXT_JSON), the enabled
// skills as name + description only, the intent stage's output, and optionally one action card the
// intent stage pointed at (so the worker can skip a view_skill_file step).
import type { SkillSummary } from "../skills/skill-library.ts";
import type { IntentOutput } from "./intent.ts";
import type { UserContext } from "./user-context.ts";

export interface PreloadedCard {
  path: string;
  content: string;
}

export function buildExecutionInstructions(options: {
  userContext: UserContext;
  skills: readonly SkillSummary[];
  intent: IntentOutput;
  preloaded?: PreloadedCard;
}): string {
  const skills = options.skills.map((skill) => `- ${skill.name} (${skill.name}/SKILL.md): ${skill.description}`).join("\n");
  const sections = [
    `You are a calendar, contacts and memory assistant. You act through one tool, project_cli, and learn how to call it from skill files (view_skill_file).
Rules:
- Read the skill index (and, if needed, one action card) before the first project_cli call of a kind. Use field names exactly as the skill files give them.
- Resolve dates and times yourself from USER_CONTEXT_JSON below; never ask the user for today's date.
- When a call fails, read error.details (missing_fields, invalid_fields, alias_corrections, suggestion, example_input) and send a corrected call. Never repeat a call unchanged.
- Use only ids that appear in tool results or in the request. Never invent data.
- When you have what you need, answer the user briefly, without JSON, in the language USER_CONTEXT_JSON.locale names (zh: Simplified Chinese; en: English).`,
    `# ENV\nUSER_CONTEXT_JSON = ${JSON.stringify(options.userContext)}`,
    `# Skills\n${skills || "(none enabled)"}`,
    `# Request, as understood by the intent stage\nINTENT_OUTPUT_JSON = ${JSON.stringify(options.intent)}`,
  ];
  if (options.preloaded) sections.push(`# Action card (already read for you: ${options.preloaded.path})\n${options.preloaded.content}`);
  return sections.join("\n\n");
}

/** The card the intent stage pointed at, if it names an enabled skill and an existing card. */
export function preloadPath(intent: IntentOutput, has: (path: string) => boolean): string | undefined {
  const skill = intent.selected_skill?.trim();
  const action = intent.intended_action?.trim();
  if (!skill || !action || !/^[a-z_]+$/.test(skill) || !/^[a-z_]+$/.test(action)) return undefined;
  const path = `${skill}/actions/${action}.md`;
  return has(path) ? path : undefined;
}
