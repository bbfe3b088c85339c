/** Rows as a Markdown table, ready to paste into bench/RESULTS.md. */
export function markdownTable(rows: Record<string, string | number | boolean>[]): string {
  if (rows.length === 0) return '(no rows)';
  const cols = Object.keys(rows[0]!);
  const line = (cells: unknown[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(cols), line(cols.map(() => '---')), ...rows.map((r) => line(cols.map((c) => r[c])))].join('\n');
}
