import { printable } from "../printable-text.js";

/**
 * A plain text table: a header row, a rule, the rows; columns padded to their widest cell, numbers
 * (cells in `rightAligned` columns) right-aligned.
 */
export function formatTable(options: { header: readonly string[]; rows: readonly (readonly string[])[]; rightAligned?: ReadonlySet<number> }): string {
  const { header } = options;
  // Cells hold step paths and model names from the run: escaped, so they cannot drive the terminal.
  const rows = options.rows.map((row) => row.map(printable));
  const right = options.rightAligned ?? new Set<number>();
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (right.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n") + "\n";
}
