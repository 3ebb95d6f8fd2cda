import { sha256DigestOfBytes } from "@little-stack/canonical";

const codeFile = (content: string) => ({ content, sha256: sha256DigestOfBytes(content) });

const objectOutput = { mode: "object", schema: { type: "object" } } as const;

function document(options: { name: string; steps: unknown[]; tools: string[]; models?: string[] }) {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: options.name, version: "0.1.0" },
    input: { schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    output: { schema: { type: "object" } },
    permissions: { models: options.models ?? [], tools: options.tools, secrets: [], network: [] },
    steps: options.steps,
  };
}

const scoreSource = `
export async function run({ input, tools }) {
  const first = await tools.lookup({ id: input.id + "-a" });
  const second = await tools.lookup({ id: input.id + "-bb" });
  return { total: first.bonus + second.bonus };
}
`;

/** A tool.call step (caller model) then a code.run step calling the same tool twice (caller code). */
export function toolsWorkflow() {
  return document({
    name: "cli.lookup-and-score",
    tools: ["lookup"],
    steps: [
      { id: "fetch", uses: "tool.call", with: { tool: "lookup", args: { id: "{{ input.id }}" } }, output: objectOutput },
      {
        id: "score",
        uses: "code.run",
        needs: ["fetch"],
        input: { id: "{{ steps.fetch.output.id }}" },
        with: { entrypoint: "score.js", files: { "score.js": codeFile(scoreSource) }, sandbox: { network: "deny", env: "deny", fs: "deny" } },
        output: objectOutput,
      },
    ],
  });
}

/** A code.run step that throws, with no fixer: the run fails. */
export function failingWorkflow() {
  return document({
    name: "cli.always-fails",
    tools: [],
    steps: [
      {
        id: "explode",
        uses: "code.run",
        with: { entrypoint: "main.js", files: { "main.js": codeFile('export async function run() { throw new Error("boom"); }\n') }, sandbox: { network: "deny" } },
        output: objectOutput,
      },
    ],
  });
}
