// What expanding repeating events costs a read at its bounds: 200 daily series (the most one
// read expands) over a 92-day range (the longest a range may be), up to 101 occurrences each,
// in a zone without and with DST. Prints CPU milliseconds (Node, one core).
// Run: npm run bench:recurrence
import { expand, parseRecurrence } from "../../functions/project_cli/recurrence.ts";

const parsed = parseRecurrence("FREQ=DAILY");
if (!parsed.ok) throw new Error(parsed.problem);
const from = new Date("2026-03-01T00:00:00Z");
const to = new Date("2026-06-01T00:00:00Z");
console.log("\nExpanding 200 daily series over 92 days (worst case of one calendar.read), best of 5");
for (const zone of ["UTC", "Europe/Berlin", "America/Santiago"]) {
  let best = Number.POSITIVE_INFINITY;
  let occurrences = 0;
  for (let round = 0; round < 5; round++) {
    const began = performance.now();
    occurrences = 0;
    for (let s = 0; s < 200; s++) {
      const start = new Date(Date.UTC(2020, 0, 1, 9, s % 60));
      occurrences += expand(parsed.rule, { start, durationMs: 3_600_000, timeZone: zone }, { from, to, limit: 101 }).length;
    }
    best = Math.min(best, performance.now() - began);
  }
  console.log(`  ${zone.padEnd(18)} ${occurrences} occurrences in ${best.toFixed(0)} ms`);
}
