// view_skill_file's boundary: only files of enabled skills, never a path outside skills/.
import { describe, expect, test } from "vitest";
import { SkillLibrary } from "../../../functions/agent/skills/skill-library.ts";

const files = {
  "calendar/SKILL.md": "---\nname: calendar\ndescription: Calendar things, long enough to be a description.\n---\n# Calendar\n",
  "calendar/actions/get_event.md": "# get_event\n",
  "memory/SKILL.md": "---\nname: memory\ndescription: Memory things, long enough to be a description.\n---\n# Memory\n",
};

describe("SkillLibrary", () => {
  const all = new SkillLibrary(files);
  const calendarOnly = new SkillLibrary(files, ["calendar"]);

  test("lists enabled skills by name and description only", () => {
    expect(all.skills.map((skill) => skill.name)).toEqual(["calendar", "memory"]);
    expect(calendarOnly.skills).toEqual([{ name: "calendar", description: "Calendar things, long enough to be a description." }]);
  });

  test("reads a file, with or without a leading skills/ or slash", () => {
    for (const path of ["calendar/actions/get_event.md", "/calendar/actions/get_event.md", "skills/calendar/actions/get_event.md"]) {
      expect(all.read(path)).toEqual({ ok: true, path: "calendar/actions/get_event.md", content: "# get_event\n" });
    }
  });

  test.each([
    ["../package.json", "INVALID_PATH"],
    ["calendar/../../wrangler.toml", "INVALID_PATH"],
    ["calendar/./SKILL.md", "INVALID_PATH"],
    ["calendar\\SKILL.md", "INVALID_PATH"],
    ["", "INVALID_PATH"],
    [42, "INVALID_PATH"],
    ["calendar/actions/nope.md", "SKILL_FILE_NOT_FOUND"],
    ["/etc/passwd", "SKILL_FILE_NOT_FOUND"],
  ])("refuses %j with %s and lists what exists", (path, code) => {
    const result = all.read(path);
    expect(result).toMatchObject({ ok: false, error: { code } });
    if (!result.ok) expect(result.error.available_files).toContain("calendar/SKILL.md");
  });

  test("a skill that is not enabled is refused as such, and not listed", () => {
    expect(calendarOnly.read("memory/SKILL.md")).toMatchObject({ ok: false, error: { code: "SKILL_NOT_ENABLED" } });
    expect(calendarOnly.paths()).not.toContain("memory/SKILL.md");
  });
});
