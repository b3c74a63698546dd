// A step budget for a local tool's JavaScript, for where the runtime enforces no CPU limit.
//
// Production sets `limits.cpuMs` on the sandbox (Dynamic Worker Loader) and Cloudflare stops a
// tool that spins. workerd, which runs the sandbox in `wrangler dev` and in tests, enforces no
// CPU limit at all, and one `while (true) {}` in a loaded isolate stops every request of the
// whole process. So the module is rewritten before it is loaded: every loop iteration and every
// function call first calls a step counter, which throws once the budget of one call is spent.
// The throw lands outside any try/catch of the loop it stops (the call sits at the top of the
// loop's body), and once spent every further step throws too, so a tool cannot catch its way
// back into a loop. What this cannot bound: one long built-in call (a huge regex backtrack, a
// giant string); production's CPU limit covers those (docs/tool-agent.md).
import { parse } from "acorn";

export class ToolCodeError extends Error {
  override readonly name = "ToolCodeError";
  readonly line?: number;
  readonly column?: number;
  constructor(message: string, line?: number, column?: number) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

interface AstNode {
  type: string;
  start: number;
  end: number;
  body?: AstNode | AstNode[];
  [key: string]: unknown;
}

interface Insertion {
  pos: number;
  text: string;
  opens: boolean;
  order: number;
}

const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);
const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

const isNode = (value: unknown): value is AstNode =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as AstNode).type === "string" &&
  typeof (value as AstNode).start === "number";

/** Parses an ES module, or throws ToolCodeError with the line and column of the syntax error. */
export function parseModule(source: string): AstNode {
  let program: unknown;
  try {
    program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  } catch (error) {
    const { loc } = error as { loc?: { line: number; column: number } };
    throw new ToolCodeError(`the tool's module does not parse: ${(error as Error).message}`, loc?.line, loc?.column);
  }
  if (!isNode(program)) throw new ToolCodeError("the tool's module did not parse into a program");
  return program;
}

/**
 * `source` with `${step}()` at the top of every loop body and function body. `step` must be a
 * name the source cannot know in advance (the caller picks it at random).
 */
export function guardLoops(source: string, step: string): string {
  const insertions: Insertion[] = [];
  const call = `${step}();`;
  const guardBody = (body: AstNode, expression: boolean) => {
    if (body.type === "BlockStatement") {
      insertions.push({ pos: body.start + 1, text: call, opens: true, order: insertions.length });
    } else if (expression) {
      // An arrow's expression body: `x => (step(), expr)`.
      insertions.push({ pos: body.start, text: `(${step}(), `, opens: true, order: insertions.length });
      insertions.push({ pos: body.end, text: ")", opens: false, order: insertions.length });
    } else {
      // A loop whose body is one statement: `for (;;) { step(); stmt }`.
      insertions.push({ pos: body.start, text: `{${call}`, opens: true, order: insertions.length });
      insertions.push({ pos: body.end, text: "}", opens: false, order: insertions.length });
    }
  };
  const visit = (node: AstNode) => {
    if (LOOPS.has(node.type) && isNode(node.body)) guardBody(node.body, false);
    else if (FUNCTIONS.has(node.type) && isNode(node.body)) guardBody(node.body, true);
    for (const value of Object.values(node)) {
      if (isNode(value)) visit(value);
      else if (Array.isArray(value)) for (const item of value) if (isNode(item)) visit(item);
    }
  };
  visit(parseModule(source));
  // Where a closing and an opening text meet, the closing one belongs to the earlier code; among
  // openings the outer node's comes first, among closings the inner node's.
  insertions.sort((a, b) => a.pos - b.pos || Number(a.opens) - Number(b.opens) || (a.opens ? a.order - b.order : b.order - a.order));
  let out = "";
  let from = 0;
  for (const { pos, text } of insertions) {
    out += source.slice(from, pos) + text;
    from = pos;
  }
  return out + source.slice(from);
}

/** The counter module the guarded code imports; `reset` is called by the entry at each call. */
export function stepCounterModule(limit: number): string {
  return `let steps = 0;
export function reset() { steps = 0; }
export function step() {
  if (++steps > ${limit}) throw new RangeError("the tool exceeded its step limit (${limit} loop iterations and calls per call); it may loop forever");
}
`;
}
