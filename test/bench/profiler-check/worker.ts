// A known amount of JavaScript per request: `bursts` bursts of `iterations` steps of a fixed
// loop, each burst followed by a wait that releases the isolate. The wait is a 1 ms timer, or a
// fetch of `io` (a local server) when given: the agent's runs wait on I/O.
let sink = 0;

function spin(iterations: number): void {
  let x = 0;
  for (let i = 0; i < iterations; i++) x = (x * 31 + i) % 1_000_003;
  sink += x;
}

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const bursts = Number(url.searchParams.get("bursts") ?? 0);
    const iterations = Number(url.searchParams.get("iterations") ?? 0);
    const io = url.searchParams.get("io");
    for (let b = 0; b < bursts; b++) {
      spin(iterations);
      if (io) await (await fetch(io, { signal: AbortSignal.timeout(10_000) })).text();
      else await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return new Response(String(sink));
  },
};
