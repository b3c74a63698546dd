// workerd's ICU writes the calendar formatter's text in the shape offsetSeconds reads directly
// (functions/project_cli/time.ts); another shape would still be read, field by field, slower.
import { expect, test } from "vitest";
import { FORMATTED_LOCAL_TIME, formatterFor, localFields } from "../../functions/project_cli/time.ts";

test("the formatter's text has the shape the fast path reads, and gives the fields formatToParts gives", () => {
  for (const zone of ["UTC", "Asia/Shanghai", "Europe/Berlin", "America/Santiago", "Asia/Kathmandu", "Africa/Monrovia"])
    for (const iso of ["0050-06-01T12:00:00Z", "1900-01-01T00:00:00Z", "2026-03-29T01:30:00Z", "2026-10-25T23:59:59Z"]) {
      const instant = new Date(iso);
      const formatter = formatterFor(zone);
      expect(formatter.format(instant), `${zone} ${iso}`).toMatch(FORMATTED_LOCAL_TIME);
      const parts = formatter.formatToParts(instant);
      const byName = ["year", "month", "day", "hour", "minute", "second"].map((type) =>
        Number(parts.find((part) => part.type === type)?.value),
      );
      expect(localFields(formatter, instant), `${zone} ${iso}`).toEqual(byName);
    }
});
