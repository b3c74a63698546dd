// Vitest global setup for every run, before any Worker starts: the agent imports skills/ as a
// generated module, and the playground's script must match its sources. Each is written only
// when it changed, so a `wrangler dev` that tests start never sees a file change under it.
import { bundleSkills } from "../../functions/agent/skills/bundle-skills.ts";
import { buildPlaygroundIfStale } from "../../functions/playground/build.ts";

export default async function setup() {
  bundleSkills();
  await buildPlaygroundIfStale();
}
