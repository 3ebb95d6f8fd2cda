import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CorpusDefinition, CorpusEntry } from "../corpus-entry.js";
import { corpusTools } from "../corpus-tools.js";

// The repository's own LWIR files, read where they live, each bound to a definition written for
// it (schemas taken from the file). apps/quickstart/invalid.lwir.json is deliberately invalid and
// belongs to the negative checks, not here.

const repoRoot = fileURLToPath(new URL("../../../../../../", import.meta.url));

function readJson(relative: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${repoRoot}${relative}`, "utf8")) as Record<string, unknown>;
}

type Fixture = {
  readonly file: string;
  readonly models: CorpusDefinition["models"];
  readonly tools?: CorpusDefinition["tools"];
  /** The run input, or a JSON file beside the plan that holds it. */
  readonly input: unknown;
};

const gpt4oMini = { id: "gpt-4o-mini" };
const codeFixerPlan = readJson("apps/code-fixer/workflow.lwir.json") as { steps: { with: { entrypoint: string; files: Record<string, { content: string }> } }[] };
const codeFixerStep = codeFixerPlan.steps[0]!.with;
// What a fixer model answers: the one-line repair (the app's own demo scripts the same).
const codeFixerRepair = codeFixerStep.files[codeFixerStep.entrypoint]!.content.replace("line.pricing.amount", "line.price");

const fixtures: readonly Fixture[] = [
  { file: "packages/lwir/src/__fixtures__/compute-score.lwir.json", models: [gpt4oMini], input: { signals: ["crash", "login", "android"] } },
  {
    file: "packages/lwir/src/__fixtures__/review-candidates.lwir.json",
    models: [gpt4oMini],
    tools: corpusTools("search", "publish"),
    input: { topic: "vector databases", candidates: [{ id: "c1", text: "pgvector" }, { id: "c2", text: "a bespoke index" }] },
  },
  { file: "packages/lwir/src/__fixtures__/support-summarize-ticket.lwir.json", models: [gpt4oMini], input: { ticketId: "T-1", transcript: "Checkout times out." } },
  { file: "apps/quickstart/support-ticket.lwir.json", models: [gpt4oMini], input: readJson("apps/quickstart/ticket.json") },
  {
    file: "apps/code-fixer/workflow.lwir.json",
    models: [{ id: "fixer", script: [{ toolCalls: [{ toolName: "try_fix", args: { files: { [codeFixerStep.entrypoint]: codeFixerRepair } } }] }, { text: "Fixed." }] }],
    input: readJson("apps/code-fixer/input.json"),
  },
  { file: "apps/kill-resume/workflow.lwir.json", models: [{ id: "writer" }], tools: corpusTools("record", "bump"), input: readJson("apps/kill-resume/input.json") },
];

export const repoFixtureEntries: readonly CorpusEntry[] = fixtures.map((fixture) => {
  const plan = readJson(fixture.file) as { metadata: { name: string }; input: { schema: unknown }; output: { schema: unknown } };
  return {
    name: `fixture ${fixture.file}`,
    origin: "repo-fixture",
    covers: `the repository's LWIR file ${fixture.file}`,
    source: fixture.file,
    definition: { id: plan.metadata.name, input: plan.input.schema, output: plan.output.schema, models: fixture.models, ...(fixture.tools === undefined ? {} : { tools: fixture.tools }) },
    plan: plan as unknown as Record<string, unknown>,
    input: fixture.input,
  } satisfies CorpusEntry;
});
