import { printable } from "./printable-text.js";

/** The shape of one validation finding as the CLI prints it (lwir.md §8). */
export type PrintableFinding = {
  readonly severity: string;
  readonly code: string;
  readonly path: string;
  readonly message: string;
};

/**
 * Text report of a validation: one line per finding, `path  code  message` (two spaces apart,
 * so paths with single spaces stay readable), then a summary naming the input.
 */
export function formatFindingsText(options: { displayName: string; findings: readonly PrintableFinding[] }): string {
  const { displayName, findings } = options;
  // Paths and messages quote the document (step ids, strings): escaped so they cannot drive the terminal.
  const lines = findings.map((finding) => printable(`${finding.path}  ${finding.code}  ${finding.message.replace(/\s*\n\s*/g, " ")}`));
  const count = `${findings.length} finding${findings.length === 1 ? "" : "s"}`;
  lines.push(findings.length === 0 ? `${displayName}: valid LWIR (0 findings)` : `${displayName}: invalid LWIR (${count})`);
  return `${lines.join("\n")}\n`;
}

/** The `--json` document: exactly `{ valid, findings }`. */
export function formatFindingsJson(options: { valid: boolean; findings: readonly PrintableFinding[] }): string {
  const findings = options.findings.map(({ severity, code, path, message }) => ({ severity, code, path, message }));
  return `${JSON.stringify({ valid: options.valid, findings }, null, 2)}\n`;
}
