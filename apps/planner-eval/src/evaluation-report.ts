import { sumUsageTotals, type UsageTotals } from "@little-stack/models";
import type { EvalEndpoint } from "./eval-endpoint.js";
import type { EvaluationResult } from "./run-evaluation.js";

export type EvaluationTotals = {
  readonly definitions: number;
  readonly submissions: number;
  readonly planningSessions: number;
  readonly acceptedFirstTry: number;
  readonly checks: number;
  readonly testCodeCalls: number;
  readonly findings: number;
  readonly completed: number;
  readonly correct: number;
  readonly modelCalls: number;
  readonly usage: UsageTotals;
};

/** The JSON report the eval command writes. */
export type EvaluationReport = {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly endpoint: Omit<EvalEndpoint, "apiKey">;
  readonly results: readonly EvaluationResult[];
  readonly totals: EvaluationTotals;
};

export function evaluationTotals(results: readonly EvaluationResult[]): EvaluationTotals {
  const sum = (pick: (result: EvaluationResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  return {
    definitions: results.length,
    submissions: sum((result) => result.metrics.submissions),
    planningSessions: sum((result) => result.metrics.planningSessions),
    acceptedFirstTry: sum((result) => result.metrics.acceptedFirstTry),
    checks: sum((result) => result.metrics.checks),
    testCodeCalls: sum((result) => result.metrics.testCodeCalls),
    findings: sum((result) => result.metrics.findings.count),
    completed: results.filter((result) => result.runStatus === "completed").length,
    correct: results.filter((result) => result.check.correct).length,
    modelCalls: sum((result) => result.metrics.modelCalls.total),
    usage: sumUsageTotals(results.map((result) => result.metrics.usage)),
  };
}

/** Dollars as `little report` prints them: n/a when unpriced (never 0). */
function dollars(usage: UsageTotals): string {
  if (usage.pricedCalls + usage.unpricedCalls === 0) return "-";
  if (usage.costUsd === null) return "n/a";
  const amount = `$${usage.costUsd < 0.01 ? usage.costUsd.toFixed(6) : usage.costUsd.toFixed(4)}`;
  return usage.unpricedCalls > 0 ? `${amount}+n/a` : amount;
}

function findingsCell(codes: Readonly<Record<string, number>>, count: number): string {
  if (count === 0) return "0";
  return `${count} (${Object.entries(codes)
    .map(([code, n]) => (n === 1 ? code : `${code}×${n}`))
    .join(", ")})`;
}

function statusCell(result: EvaluationResult): string {
  return result.runStatus === "completed" ? "completed" : `${result.runStatus} ${result.causeCode ?? ""}`.trim();
}

/** The table the command prints: one row per definition and a total row. */
export function formatEvaluationTable(results: readonly EvaluationResult[]): string {
  const header = ["#", "definition", "submits", "1st ok", "checks", "test_code", "findings", "run", "correct", "calls (plan+steps)", "tokens in", "out", "cost"];
  const rows = results.map((result) => {
    const { metrics } = result;
    return [
      String(result.level),
      result.name,
      String(metrics.submissions),
      `${metrics.acceptedFirstTry}/${metrics.planningSessions}`,
      String(metrics.checks),
      String(metrics.testCodeCalls),
      findingsCell(metrics.findings.codes, metrics.findings.count),
      statusCell(result),
      result.check.correct ? "yes" : "NO",
      `${metrics.modelCalls.total} (${metrics.modelCalls.planning}+${metrics.modelCalls.steps})`,
      String(metrics.usage.inputTokens),
      String(metrics.usage.outputTokens),
      dollars(metrics.usage),
    ];
  });
  const totals = evaluationTotals(results);
  rows.push([
    "",
    "total",
    String(totals.submissions),
    `${totals.acceptedFirstTry}/${totals.planningSessions}`,
    String(totals.checks),
    String(totals.testCodeCalls),
    String(totals.findings),
    `${totals.completed}/${totals.definitions} completed`,
    `${totals.correct}/${totals.definitions}`,
    String(totals.modelCalls),
    String(totals.usage.inputTokens),
    String(totals.usage.outputTokens),
    dollars(totals.usage),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.slice(0, -1).map(line), line(widths.map((width) => "-".repeat(width))), line(rows.at(-1)!)].join("\n");
}
