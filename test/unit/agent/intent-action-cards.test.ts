// The intent stage names action cards for the execution stage to preload (decision D10). The
// names it offers must be the cards that exist, all of them, or a hint points nowhere and a new
// card is never preloaded.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { INTENT_INSTRUCTIONS } from "../../../functions/agent/runtime/intent.ts";

test("the intent instructions list exactly the calendar action cards in skills/", () => {
  const cards = readdirSync(join(import.meta.dirname, "../../../skills/calendar/actions"))
    .map((file) => file.replace(/\.md$/, ""))
    .sort();
  const offered = /the action card \(([^)]*)\)/.exec(INTENT_INSTRUCTIONS)?.[1]?.split(", ").sort();
  expect(offered).toEqual(cards);
});
