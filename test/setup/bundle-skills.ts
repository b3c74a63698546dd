// Vitest global setup for every run: the agent imports skills/ as a generated module.
import { bundleSkills } from "../../functions/agent/skills/bundle-skills.ts";

export default function setup() {
  bundleSkills();
}
