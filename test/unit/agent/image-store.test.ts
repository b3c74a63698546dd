// Where inline images live and how they are served: keys only under the verified owner, one
// segment per run id whatever it holds; only image types a browser renders inertly are served
// as themselves; history adds the route to inline attachments only.
import { describe, expect, test } from "vitest";
import { imagePath, servedContentType, withImageUrls } from "../../../functions/agent/persistence/image-store.ts";

const OWNER = "11111111-1111-4111-8111-111111111111";

describe("imagePath", () => {
  test("the owner's prefix, the run id as one encoded segment, the index", () => {
    expect(imagePath(OWNER, "run-1", 0)).toBe(`user-images/${OWNER}/run-1/0`);
    expect(imagePath(OWNER, "../other/x", 2)).toBe(`user-images/${OWNER}/..%2Fother%2Fx/2`);
  });

  test.each([
    ["an owner that is not a user id", "not-a-uuid", "r", 0],
    ["an empty run id", OWNER, "", 0],
    ["a negative index", OWNER, "r", -1],
    ["a fractional index", OWNER, "r", 0.5],
    ["a lone surrogate", OWNER, "\uD800", 0],
  ])("no key for %s", (_what, owner, run, index) => expect(imagePath(owner, run, index)).toBeUndefined());
});

test("servedContentType: raster images as themselves, anything else as bytes", () => {
  expect(servedContentType("image/PNG")).toBe("image/png");
  for (const risky of ["image/svg+xml", "text/html", undefined]) expect(servedContentType(risky)).toBe("application/octet-stream");
});

test("withImageUrls: the route on inline images only; anything else as recorded", () => {
  const recorded = [{ type: "image", mimeType: "image/png", inlineBytes: 10 }, { type: "image", url: "https://example.com/a.png" }, "junk"];
  expect(withImageUrls(recorded, "run 1")).toEqual([
    { type: "image", mimeType: "image/png", inlineBytes: 10, url: "/api/v1/agent/runs/run%201/images/0" },
    { type: "image", url: "https://example.com/a.png" },
    "junk",
  ]);
  expect(withImageUrls({ not: "a list" }, "r")).toEqual({ not: "a list" });
  expect(withImageUrls(undefined, "r")).toEqual([]);
});
