// What the Node benchmarks that drive the real runtime need: bundled skills, a throwaway local
// data plane, Worker settings pointing at it, and the skill library.

import { parseSettings, type Settings } from "../../../functions/agent/settings.ts";
import { bundleSkills } from "../../../functions/agent/skills/bundle-skills.ts";
import type { SkillLibrary } from "../../../functions/agent/skills/skill-library.ts";
import { type DataPlane, startDataPlane } from "../../../supabase/local/data-plane.ts";
import { generateLocalKeys } from "../../../supabase/local/keys.ts";

export interface RuntimeStack {
  plane: DataPlane;
  settings: Settings;
  skills: SkillLibrary;
}

export async function startRuntimeStack(): Promise<RuntimeStack> {
  bundleSkills();
  // Imported after bundling: the library reads the generated module.
  const { SkillLibrary: Library } = await import("../../../functions/agent/skills/skill-library.ts");
  const { SKILL_FILES } = await import("../../../functions/agent/skills/bundle.generated.ts");
  const keys = await generateLocalKeys();
  const plane = await startDataPlane({ keys });
  const parsed = parseSettings({
    SUPABASE_URL: plane.url,
    SUPABASE_ANON_KEY: plane.anonKey,
    CREDENTIAL_SIGNING_JWK: JSON.stringify(keys.credentialPrivateJwk),
  });
  if (!parsed.ok) {
    await plane.stop();
    throw new Error("benchmark settings are invalid");
  }
  return { plane, settings: parsed.settings, skills: new Library(SKILL_FILES) };
}
