import { LittleWorkflowError } from "@little-stack/canonical";
import type { LwirFindingCode } from "./findings.js";
import type { LwirFinding } from "./types.js";

const shownFindings = 5;
const maxLineLength = 400;

/** An LWIR document failed validation; `findings` lists every broken rule. */
export class LwirValidationError extends LittleWorkflowError {
  readonly findings: readonly LwirFinding<LwirFindingCode>[];

  constructor(findings: readonly LwirFinding<LwirFindingCode>[]) {
    const lines = findings.slice(0, shownFindings).map((finding) => {
      const line = `  ${finding.path}  ${finding.code}  ${finding.message}`;
      return line.length > maxLineLength ? `${line.slice(0, maxLineLength - 1)}…` : line;
    });
    const more = findings.length > shownFindings ? `\n  … and ${findings.length - shownFindings} more` : "";
    super(
      "lwir.invalid",
      `The LWIR document is invalid (${findings.length} finding${findings.length === 1 ? "" : "s"}); fix these and validate again:\n${lines.join("\n")}${more}`,
      { details: { findings } },
    );
    this.findings = findings;
  }
}
