// Reading the tables of our docs, so tests can hold the docs to the code.

/** The rows of the markdown table whose header row is exactly `header`, cells trimmed and unquoted. */
export function markdownTable(markdown: string, header: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(header);
  if (start < 0) throw new Error(`no table with header ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim().replace(/^`(.*)`$/, "$1")),
    );
  }
  return rows;
}
