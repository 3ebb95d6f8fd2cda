import { sha256DigestOfBytes } from "@little-stack/canonical";

const objectOutput = { mode: "object", schema: { type: "object" } } as const;

const scoreSource = `
export async function run({ input, tools }) {
  const first = await tools.lookup({ id: input.id + "-a" });
  const second = await tools.lookup({ id: input.id + "-bb" });
  return { tag: input.id + "-" + (first.bonus + second.bonus) };
}
`;

/**
 * The damage fault suite's workflow: tool calls before and after a step whose output is large
 * enough to be stored as an artifact (read back by the next step), and a code.run step that
 * calls a tool twice from the sandbox — six tool executions in all.
 */
export function faultWorkflow() {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "cli.damage-fault-suite", version: "0.1.0" },
    input: { schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    output: { schema: { type: "object" } },
    permissions: { models: [], tools: ["lookup", "bigger"], secrets: [], network: [] },
    steps: [
      { id: "fetch", uses: "tool.call", with: { tool: "lookup", args: { id: "{{ input.id }}" } }, output: objectOutput },
      { id: "grow", uses: "tool.call", needs: ["fetch"], with: { tool: "bigger", args: { id: "{{ steps.fetch.output.id }}" } }, output: objectOutput },
      {
        id: "score",
        uses: "code.run",
        needs: ["grow"],
        input: { id: "{{ steps.grow.output.id }}" },
        with: { entrypoint: "score.js", files: { "score.js": { content: scoreSource, sha256: sha256DigestOfBytes(scoreSource) } }, sandbox: { network: "deny", env: "deny", fs: "deny" } },
        output: objectOutput,
      },
      { id: "again", uses: "tool.call", needs: ["score"], with: { tool: "lookup", args: { id: "{{ steps.score.output.tag }}" } }, output: objectOutput },
      { id: "last", uses: "tool.call", needs: ["again"], with: { tool: "lookup", args: { id: "{{ steps.again.output.id }}-z" } }, output: objectOutput },
    ],
  };
}
