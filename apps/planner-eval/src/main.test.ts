import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTypeScriptFile, withoutProviderVariables } from "@little-stack/testing";
import type { WorkflowDefinition } from "@little-stack/workflow";
import { afterAll, describe, expect, it } from "vitest";
import { basketInCurrencyPlayer, ticketTriagePlayer } from "./__fixtures__/reference-players.js";
import { scriptedModelPlayer } from "./__fixtures__/scripted-model-player.js";
import { allDefinitions } from "./all-definitions.js";
import { evalModels } from "./eval-endpoint.js";
import type { EvaluationReport } from "./evaluation-report.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const mainFile = fileURLToPath(new URL("./main.ts", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "planner-eval-main-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function workflowsById(): Map<string, WorkflowDefinition<any, any>> {
  const models = evalModels({ kind: "file", baseURL: "http://127.0.0.1:1/v1", apiKey: "unused", modelId: "m", providerName: "file-backed", structuredOutputs: true });
  const byId = new Map<string, WorkflowDefinition<any, any>>();
  for (const definition of allDefinitions) {
    const built = definition.build(models);
    for (const workflow of built.kind === "workflow" ? [built.workflow] : built.workflows) byId.set(workflow.id, workflow);
  }
  return byId;
}

/**
 * Plays the model through the files, as a person or an LLM would: each pending request's JSON is
 * answered by the scripted player, written without usage (the server estimates it) to a temporary
 * name and renamed.
 */
async function answerFiles(dir: string, done: () => boolean): Promise<number> {
  const workflows = workflowsById();
  const respond = scriptedModelPlayer([ticketTriagePlayer(workflows), basketInCurrencyPlayer(workflows)]);
  let answered = 0;
  while (!done()) {
    const pending = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".request.md") && !existsSync(join(dir, name.replace(".request.md", ".response.json")))) : [];
    for (const name of pending) {
      const body = JSON.parse(readFileSync(join(dir, name.replace(".request.md", ".request.json")), "utf8")) as Record<string, unknown>;
      const turn = await respond({ path: "/v1/chat/completions", body, stream: body.stream === true }, answered);
      if (turn === undefined) throw new Error(`the scripted player has no answer for ${name}`);
      const { usage: _usage, ...withoutUsage } = turn;
      const target = join(dir, name.replace(".request.md", ".response.json"));
      writeFileSync(`${target}.partial`, JSON.stringify(withoutUsage));
      renameSync(`${target}.partial`, target);
      answered += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return answered;
}

describe("pnpm --filter @little-stack-apps/planner-eval run eval", () => {
  it("runs the chosen definitions against the file-backed endpoint, prints the table and writes the report", async () => {
    const requests = join(scratch, "requests");
    const dataDir = join(scratch, "data");
    let exited = false;
    const child = runTypeScriptFile(mainFile, ["--only", "ticket-triage,basket-in-currency", "--endpoint", `file:${requests}`, "--data-dir", dataDir], {
      cwd: repoRoot,
      env: { ...withoutProviderVariables(), PLANNER_EVAL_MODEL: "gpt-4o-mini", PLANNER_EVAL_PRICE_AS: "openai" },
    }).finally(() => (exited = true));
    const [result, answered] = await Promise.all([child, answerFiles(requests, () => exited)]);
    expect(result.stderr).not.toContain("planner-eval failed");
    expect(result.exitCode).toBe(0);
    // Triage: planner + worker; basket: planner only.
    expect(answered).toBe(3);
    expect(result.stderr).toContain(`request 0001: read ${join(requests, "0001.request.md")}, write ${join(requests, "0001.response.json")}`);
    expect(result.stdout).toMatch(/\n2\s+ticket-triage\s+1\s+1\/1\s+0\s+0\s+0\s+completed\s+yes\s+2 \(1\+1\)\s+\d+\s+\d+\s+\$0\.\d+/);
    expect(result.stdout).toMatch(/\n6\s+basket-in-currency\s+1\s+1\/1\s+0\s+0\s+0\s+completed\s+yes\s+1 \(1\+0\)/);
    expect(result.stdout).toContain(`report: ${join(dataDir, "report.json")}`);

    const report = JSON.parse(readFileSync(join(dataDir, "report.json"), "utf8")) as EvaluationReport;
    expect(report.endpoint).toMatchObject({ kind: "file", modelId: "gpt-4o-mini", providerName: "openai", dir: requests });
    expect(report.endpoint).not.toHaveProperty("apiKey");
    expect(report.totals).toMatchObject({ definitions: 2, submissions: 2, acceptedFirstTry: 2, completed: 2, correct: 2, modelCalls: 3 });
    // No response gave usage: the tokens are the server's estimate (characters / 4), never 0.
    const planner = JSON.parse(readFileSync(join(requests, "0001.request.json"), "utf8")) as { messages: unknown; tools: unknown };
    expect(report.results[0]!.metrics.usage.inputTokens).toBeGreaterThan(JSON.stringify(planner.messages).length / 4);
    expect(report.results.map((entry) => entry.output)).toEqual(["billing", expect.objectContaining({ totalMinor: 29_999 })]);
  }, 180_000);

  it("lists the definitions, and refuses an unknown one with exit code 2", async () => {
    const listed = await runTypeScriptFile(mainFile, ["--list"], { cwd: repoRoot, env: withoutProviderVariables() });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout.trim().split("\n").map((line) => line.trim().split(/\s+/)[1])).toEqual(allDefinitions.map((definition) => definition.name));
    const refused = await runTypeScriptFile(mainFile, ["--only", "nope"], { cwd: repoRoot, env: withoutProviderVariables() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^planner-eval: --only: unknown definition nope \(known: release-notes-summary, /);
  }, 60_000);
});
