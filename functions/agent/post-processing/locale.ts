// The languages summaries, cards and the demo model's answers are written in. A request's
// locale comes from the app (forwardedProps.locale, else Accept-Language); anything else is
// English. The rules that choose a summary or a card are the same in every language; only the
// words differ.
export const LOCALES = ["en", "zh"] as const;
export type Locale = (typeof LOCALES)[number];

/** "zh", "zh-CN", "zh-Hans-CN" -> zh; "en-GB" -> en; anything else -> undefined. */
function localeOf(tag: string): Locale | undefined {
  const language = tag.trim().toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(language ?? "") ? (language as Locale) : undefined;
}

/**
 * The request's locale: `forwardedProps.locale` when it names a supported language, else the
 * first supported language of Accept-Language by preference (q), else English.
 */
export function resolveLocale(forwardedProps: unknown, acceptLanguage: string | null | undefined): Locale {
  const forwarded = (forwardedProps as { locale?: unknown } | null | undefined)?.locale;
  if (typeof forwarded === "string" && forwarded.length <= 35) {
    const locale = localeOf(forwarded);
    if (locale) return locale;
  }
  const ranked = (acceptLanguage ?? "")
    .slice(0, 500)
    .split(",")
    .map((entry, order) => {
      const [tag = "", ...params] = entry.split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { locale: localeOf(tag), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry) => entry.locale && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked[0]?.locale ?? "en";
}
