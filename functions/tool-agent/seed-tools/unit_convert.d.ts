// The seeded unit converter's contract, for the benchmark that serves it directly
// (test/bench/tool-direct): every local tool's module has this shape.
declare const tool: { fetch(request: Request): Promise<Response> };
export default tool;
