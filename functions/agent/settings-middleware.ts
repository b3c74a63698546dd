// Loads the agent's validated settings for the request, or answers 500 CONFIG_INVALID naming
// each missing or invalid setting (by name only).
import { withSettingsOf } from "../lib/settings-middleware.ts";
import { loadSettings } from "./settings.ts";

export const withSettings = withSettingsOf(loadSettings);
