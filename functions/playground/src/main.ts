// The playground page: signs in, then shows the chat, the Tool Agent and the card gallery as
// tabs. It reads what it needs to know about the deployment from GET /playground/config.
import { ChatTab } from "./chat-tab.ts";
import { byId, h } from "./dom.ts";
import { showGallery } from "./gallery-tab.ts";
import { requestJson } from "./http.ts";
import { keepSession, type Session, sessionOf, signIn, storedSession } from "./session.ts";
import { ToolAgentTab } from "./tool-agent-tab.ts";
import { isRecord } from "./values.ts";

// The local stack's seeded users and their password (supabase/seed.sql, supabase/local/
// password-sign-in.ts): offered only when /playground/config says the data plane is local. The
// playground test signs in with these buttons, so the two cannot drift apart unnoticed.
const SEEDED = [
  { name: "Alice", email: "alice@example.com" },
  { name: "Bob", email: "bob@example.com" },
];
const LOCAL_PASSWORD = "password";

let session = storedSession();

function showSession(): void {
  const who = byId("who");
  who.textContent = session
    ? `${session.email ?? session.subject}${session.expiresAt ? ` · until ${new Date(session.expiresAt * 1000).toLocaleTimeString()}` : ""}`
    : "not signed in";
  document.body.dataset.signedIn = String(session !== undefined);
}

function showTab(name: string): void {
  for (const tab of document.querySelectorAll<HTMLElement>("[data-tab]")) tab.hidden = tab.dataset.tab !== name;
  for (const button of document.querySelectorAll<HTMLElement>("[data-show]")) button.dataset.active = String(button.dataset.show === name);
  if (name === "cards") void showGallery();
}

async function main(): Promise<void> {
  const answer = await requestJson<unknown>("/playground/config");
  const config = answer.ok && isRecord(answer.body) ? answer.body : {};
  const signInUrl = typeof config.sign_in_url === "string" ? config.sign_in_url : null;
  const chat = new ChatTab(() => session);
  new ToolAgentTab(typeof config.tool_agent_url === "string" ? config.tool_agent_url : null);
  const notice = byId("sign-in-notice");

  const become = async (next: Session | undefined) => {
    session = next;
    keepSession(next);
    showSession();
    if (next) await chat.start();
    else chat.clear();
  };

  if (signInUrl) {
    byId("local-sign-in").replaceChildren(
      ...SEEDED.map((user) =>
        h("button", {
          attrs: { type: "button" },
          data: { signIn: user.email },
          text: `Sign in as ${user.name}`,
          on: {
            click: async () => {
              const result = await signIn(signInUrl, user.email, LOCAL_PASSWORD);
              notice.textContent = result.ok ? "" : `${result.code}: ${result.message}`;
              if (result.ok) await become(result.body);
            },
          },
        }),
      ),
    );
  }
  byId("paste-token").addEventListener("submit", (event) => {
    event.preventDefault();
    const pasted = sessionOf(byId<HTMLInputElement>("token").value);
    notice.textContent = pasted ? "" : "that is not a bearer token (a JWT with a subject)";
    if (pasted) void become(pasted);
  });
  byId("sign-out").addEventListener("click", () => void become(undefined));
  for (const button of document.querySelectorAll<HTMLElement>("[data-show]"))
    button.addEventListener("click", () => showTab(button.dataset.show ?? "chat"));

  showTab("chat");
  showSession();
  if (session) await chat.start();
  document.body.dataset.ready = "true";
}

void main();
