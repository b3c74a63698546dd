// Relays each request to the Tool Agent over the service binding, as the agent Worker will,
// naming the user from the test's x-acting-user header. GET /health answers for readiness.
interface Env {
  TOOL_AGENT: Fetcher;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    return env.TOOL_AGENT.fetch(new Request(`http://tool-agent${url.pathname}${url.search}`, request));
  },
};
