// What a natural-language request is made of, for matching it against tools: the words that
// carry meaning (English words of three letters or more that are not filler) and, for Chinese,
// every two-character piece (Chinese has no spaces, and most words are two characters), minus
// pieces that only say "I need a tool". Also which language to answer in. Pure.

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;

const ENGLISH_FILLER = new Set(
  "the and for with that this what which how can could would should does did doing done use using used need needs want wants help please tool tools some any from into about have has had are was were will your you our they them their there here then than just like make".split(
    " ",
  ),
);
const CHINESE_FILLER = new Set([
  "工具",
  "需要",
  "我需",
  "帮我",
  "一个",
  "我的",
  "如何",
  "怎么",
  "使用",
  "可以",
  "请问",
  "什么",
  "有没",
  "没有",
  "能不",
  "不能",
  "我要",
  "我想",
  "想要",
]);

export type ReplyLanguage = "en" | "zh";

export const replyLanguage = (message: string): ReplyLanguage => (CJK.test(message) ? "zh" : "en");

/** The request's meaningful terms, lower-cased, each once, at most 24. */
export function chatTerms(message: string): string[] {
  const terms = new Set<string>();
  for (const word of message.toLowerCase().match(/[a-z0-9][a-z0-9_-]{2,63}/g) ?? []) {
    if (!ENGLISH_FILLER.has(word)) terms.add(word);
  }
  for (const run of message.match(CJK_RUN) ?? []) {
    if (run.length === 1) continue;
    for (let i = 0; i + 2 <= run.length; i++) {
      const piece = run.slice(i, i + 2);
      if (!CHINESE_FILLER.has(piece)) terms.add(piece);
    }
  }
  return [...terms].slice(0, 24);
}

const CREATE_EN = /\b(create|build|make|write|develop|generate)\b.*\btools?\b|\bnew tool\b/i;
const CREATE_ZH = /(创建|新建|做一个|写一个|开发|生成|制作).{0,20}工具/;
/** Pieces that only say "make me one", not what it should do. */
const CREATION_TERMS = new Set([
  "create",
  "build",
  "write",
  "develop",
  "generate",
  "new",
  "我创",
  "创建",
  "建一",
  "新建",
  "做一",
  "写一",
  "开发",
  "生成",
  "制作",
]);

/** Whether the request asks for a tool to be made (not only found). */
export const asksForNewTool = (message: string) => CREATE_EN.test(message) || CREATE_ZH.test(message);

/** The terms of what the tool should do, without the words asking for one to be made. */
export const contentTerms = (message: string) => chatTerms(message).filter((term) => !CREATION_TERMS.has(term));

/** Tokens that could be a tool id ("unit_convert"), for the exact match. */
export function idCandidates(message: string): string[] {
  return [...new Set(message.toLowerCase().match(/[a-z0-9][a-z0-9_-]{0,63}/g) ?? [])].filter((token) => /[a-z]/.test(token)).slice(0, 24);
}
