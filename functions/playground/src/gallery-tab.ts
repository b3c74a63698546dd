// Every card kind, drawn from the ui_schema examples of docs/tool-cards.md (which the unit tests
// hold to the card compiler) and copied next to the page at build time as cards.json.
import { renderCard } from "./cards.ts";
import { byId, h } from "./dom.ts";
import { requestJson } from "./http.ts";

export async function showGallery(): Promise<void> {
  const gallery = byId("gallery");
  if (gallery.dataset.loaded === "true") return;
  const answer = await requestJson<unknown>("./cards.json");
  if (!answer.ok || !Array.isArray(answer.body)) {
    gallery.replaceChildren(h("p", { text: "cards.json could not be loaded" }));
    return;
  }
  gallery.replaceChildren(
    ...answer.body.map((schema) => renderCard(schema) ?? h("p", { class: "block-unknown", text: "a card this page cannot draw" })),
  );
  gallery.dataset.loaded = "true";
}
