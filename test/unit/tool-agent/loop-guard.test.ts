import { describe, expect, test } from "vitest";
import { guardLoops, ToolCodeError } from "../../../functions/tool-agent/sources/loop-guard.ts";
import { checkToolModule, sandboxModules } from "../../../functions/tool-agent/sources/sandbox-modules.ts";

/** Runs guarded code with a counting step function; answers what it returned and the steps taken. */
function run(source: string, limit = 1_000): { value?: unknown; error?: string; steps: number } {
  let steps = 0;
  const step = () => {
    if (++steps > limit) throw new RangeError("step limit");
  };
  const body = guardLoops(source, "__step").replace(/^export default /m, "return ");
  try {
    return { value: new Function("__step", body)(step), steps };
  } catch (error) {
    return { error: (error as Error).message, steps };
  }
}

describe("guardLoops", () => {
  test("every kind of loop and function body counts steps, and the code still means the same", () => {
    const source = `export default (() => {
      let total = 0;
      for (let i = 0; i < 3; i++) total += i;
      for (const x of [1, 2]) { total += x; }
      for (const k in { a: 1 }) total += k.length;
      let n = 0; while (n < 2) n++;
      do { n--; } while (n > 0);
      const double = (x) => x * 2;
      const obj = () => ({ a: 1 });
      function named() { return 10; }
      class C { m() { return 1; } get g() { return 2; } }
      const c = new C();
      return total + double(2) + obj().a + named() + c.m() + c.g + n;
    })()`;
    const { value, steps } = run(source);
    expect(value).toBe(0 + 1 + 2 + 1 + 2 + 1 + 4 + 1 + 10 + 1 + 2 + 0);
    // 3 + 2 + 1 + 2 + 2 loop iterations, and the IIFE, double, obj, named, m, g calls.
    expect(steps).toBe(10 + 6);
  });

  test("an endless loop is stopped, and catching the stop does not restart it", () => {
    expect(run("export default (() => { while (true) {} })()").error).toBe("step limit");
    expect(run("export default (() => { for (;;) { try { while (true) {} } catch (e) {} } })()").error).toBe("step limit");
    expect(run("export default (() => { const f = () => { try { for (;;); } catch { return f(); } }; return f(); })()").error).toBe(
      "step limit",
    );
  });

  test("endless recursion is stopped by the function-entry step", () => {
    expect(run("export default (() => { function f(n) { return n + f(n + 1); } return f(0); })()", 500).error).toBe("step limit");
  });

  test("nested single-statement bodies and arrow chains stay valid", () => {
    expect(
      run("export default (() => { let s = 0; for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) s++; return s; })()").value,
    ).toBe(4);
    expect(run("export default ((a) => (b) => a + b)(1)(2)").value).toBe(3);
    expect(run("export default (() => { let x = 0; if (true) while (x < 3) x++; return x; })()").value).toBe(3);
  });

  test("a syntax error names its line and column", () => {
    try {
      guardLoops("export default {\n  fetch() { return 1 +; }\n};", "__s");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolCodeError);
      expect((error as ToolCodeError).line).toBe(2);
      expect((error as ToolCodeError).column).toBeGreaterThan(0);
    }
  });
});

describe("sandboxModules", () => {
  test("the entry resets the counter per call; names come from the nonce; the author's lines stay put", () => {
    const built = sandboxModules("export default {\n  async fetch() { return new Response('x'); }\n};", {
      stepLimit: 5000,
      nonce: "abcdef1234",
    });
    expect(built.mainModule).toBe("entry.js");
    expect(Object.keys(built.modules).sort()).toEqual(["entry.js", "guard_abcdef1234.js", "tool.js"]);
    expect(built.modules["entry.js"]).toContain("reset();");
    expect(built.modules["tool.js"]!.split("\n")[1]).toContain("async fetch() {__step_abcdef1234();");
    expect(built.modules["guard_abcdef1234.js"]).toContain("> 5000");
    expect(() => sandboxModules("export default {}", { stepLimit: 1, nonce: "../x" })).toThrow(/nonce/);
  });

  test("a module must parse and have a default export", () => {
    expect(() => checkToolModule("export default { async fetch() {} }")).not.toThrow();
    expect(() => checkToolModule("export const x = 1;")).toThrow(/export default/);
    expect(() => checkToolModule("export default {")).toThrow(ToolCodeError);
  });
});
