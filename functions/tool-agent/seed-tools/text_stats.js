// Seed tool: counts in a text (characters, words, lines, sentences, CJK characters).
export default {
  async fetch(request) {
    const { text } = await request.json();
    const words = text.match(/[\p{L}\p{N}'-]+/gu) ?? [];
    const cjk = text.match(/[\u3400-\u9fff\uf900-\ufaff]/g) ?? [];
    const sentences = text.split(/[.!?。！？]+/).filter((s) => s.trim() !== "");
    const frequency = new Map();
    for (const word of words) frequency.set(word.toLowerCase(), (frequency.get(word.toLowerCase()) ?? 0) + 1);
    const top_words = [...frequency.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 5)
      .map(([word, count]) => ({ word, count }));
    return Response.json({
      characters: [...text].length,
      words: words.length,
      lines: text === "" ? 0 : text.split("\n").length,
      sentences: sentences.length,
      cjk_characters: cjk.length,
      top_words,
    });
  },
};
