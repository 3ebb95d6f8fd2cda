// pnpm --filter @little-stack-apps/planner-eval run eval [--only <name>[,<name>…]] [--endpoint http | file:<dir>]
//   [--data-dir DIR] [--timeout 30m] [--report FILE] [--list]
// Exit codes: 0 every evaluated definition completed with a correct output, 1 some did not, 2 usage error.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { LittleWorkflowError } from "@little-stack/workflow";
import { allDefinitions } from "./all-definitions.js";
import { evalModels, openEndpoint } from "./eval-endpoint.js";
import { EvalUsageError } from "./eval-usage-error.js";
import { evaluationTotals, formatEvaluationTable, type EvaluationReport } from "./evaluation-report.js";
import { runEvaluation, type EvaluationResult } from "./run-evaluation.js";

const say = (text: string) => void process.stdout.write(`${text}\n`);
const note = (text: string) => void process.stderr.write(`${text}\n`);

function selectedDefinitions(only: readonly string[]) {
  if (only.length === 0) return allDefinitions;
  const names = only.flatMap((entry) => entry.split(",")).map((name) => name.trim()).filter((name) => name.length > 0);
  const unknown = names.filter((name) => !allDefinitions.some((definition) => definition.name === name));
  if (unknown.length > 0) throw new EvalUsageError(`--only: unknown definition ${unknown.join(", ")} (known: ${allDefinitions.map((definition) => definition.name).join(", ")})`);
  return allDefinitions.filter((definition) => names.includes(definition.name));
}

async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      only: { type: "string", multiple: true, default: [] },
      endpoint: { type: "string", default: "http" },
      "data-dir": { type: "string" },
      timeout: { type: "string" },
      report: { type: "string" },
      list: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.list) {
    for (const definition of allDefinitions) say(`${String(definition.level).padStart(2)}  ${definition.name.padEnd(24)} ${definition.covers}`);
    return 0;
  }
  const definitions = selectedDefinitions(values.only);
  const dataDir = resolve(values["data-dir"] ?? join(".planner-eval", new Date().toISOString().replace(/[:.]/g, "-")));
  const reportPath = resolve(values.report ?? join(dataDir, "report.json"));
  const opened = await openEndpoint({
    spec: values.endpoint,
    env: process.env,
    onFileRequest: (request) => note(`  request ${request.number}: read ${request.requestMarkdownPath}, write ${request.responsePath}`),
  });
  // A person or an LLM answering files is slow: give the file endpoint hours, not minutes.
  const timeout = values.timeout ?? (opened.endpoint.kind === "file" ? "12h" : "30m");
  const { apiKey: _apiKey, ...endpointShown } = opened.endpoint;
  note(`planner-eval: ${definitions.length} definition(s), endpoint ${opened.endpoint.kind} ${opened.endpoint.baseURL} model ${opened.endpoint.modelId}${opened.endpoint.dir === undefined ? "" : `, request files in ${opened.endpoint.dir}`}, data in ${dataDir}`);
  const startedAt = new Date().toISOString();
  const results: EvaluationResult[] = [];
  try {
    const models = evalModels(opened.endpoint);
    for (const [index, definition] of definitions.entries()) {
      note(`[${index + 1}/${definitions.length}] ${definition.name} (${definition.covers})`);
      const result = await runEvaluation(definition, { models, dataDir, timeout });
      note(`  → ${result.runStatus}${result.causeCode === undefined ? "" : ` ${result.causeCode}`}, correct: ${result.check.correct}${result.check.problems.length === 0 ? "" : ` (${result.check.problems.join("; ")})`}`);
      results.push(result);
    }
  } finally {
    await opened.close();
  }
  const report: EvaluationReport = { startedAt, finishedAt: new Date().toISOString(), endpoint: endpointShown, results, totals: evaluationTotals(results) };
  mkdirSync(dirname(reportPath), { recursive: true });
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);
  say(formatEvaluationTable(results));
  say(`\nreport: ${reportPath}`);
  return results.every((result) => result.check.correct) ? 0 : 1;
}

// pnpm forwards a literal "--" before the script's own flags.
const argv = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === "--"));
main(argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (LittleWorkflowError.is(error, "planner_eval.usage") || (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
      note(`planner-eval: ${(error as Error).message}`);
      process.exit(2);
    }
    note(`planner-eval failed: ${LittleWorkflowError.is(error) ? `${error.code}: ${error.message}` : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
