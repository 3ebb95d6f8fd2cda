import type { LwirDocument } from "@little-stack/lwir";
import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { CliInputError, CliInvalidWorkflowError, CliUsageError } from "../cli-errors.js";
import { exitCodes } from "../exit-codes.js";
import { openFleetWorld, schemaOption, worldOption } from "../fleet/world-option.js";
import { readJsonInput } from "../read-json-input.js";
import { jsonOption } from "../shared-options.js";

/** `little submit <workflow.json> --world postgres://… --input <file|->`: enqueues a run for the workers. */
export class SubmitCommand extends Command<CliContext> {
  static override paths = [["submit"]];
  static override usage = Command.Usage({
    description: "Enqueue a run of an LWIR document for the workers of a PostgreSQL world",
    details: `
      Locks the LWIR as a workflow version and stores the run (version, input, the tools and model
      slots it needs) in the world's queue; a \`little worker\` with those tools and models claims
      it. Prints \`{ runId, workflowVersionId, state }\` as JSON. With \`--wait\`, waits until the run
      ended and prints \`{ runId, status, output | error }\` (exit 1 when it failed).

      Submitting the same run id with the same document and input again changes nothing.
    `,
    examples: [
      ["Submit a run", "little submit plan.lwir.json --input input.json --world postgres://postgres@127.0.0.1:5432/postgres"],
      ["Submit and wait for the result", "little submit plan.lwir.json --input input.json --world postgres://… --wait"],
    ],
  });

  workflow = Option.String({ name: "workflow.json" });
  input = Option.String("--input", { description: "JSON input file (`-` for standard input); required" });
  runId = Option.String("--run-id", { description: "Run id (default: a new run_… id)" });
  wait = Option.Boolean("--wait", false, { description: "Wait until the run ended and print its outcome" });
  world = worldOption();
  schema = schemaOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    const { cwd, stdin, stdout } = this.context;
    if (this.input === undefined) throw new CliUsageError("little submit needs --input <file|-> (the workflow input as JSON)");
    const world = await openFleetWorld({ command: "submit", world: this.world, schema: this.schema });
    try {
      const workflow = await readJsonInput({ path: this.workflow, cwd, stdin });
      const { createSchemaValidator, registerWorkflowVersion, validateLwir } = await import("@little-stack/lwir");
      const validation = validateLwir(workflow.value);
      if (!validation.valid) {
        const first = validation.findings[0]!;
        throw new CliInvalidWorkflowError(`${workflow.displayName} is not valid LWIR (first: ${first.path} ${first.code}) — run "little validate ${this.workflow}" to see every finding`);
      }
      const lwir = workflow.value as LwirDocument;
      const input = await readJsonInput({ path: this.input, cwd, stdin });
      const inputCheck = createSchemaValidator(lwir.input.schema)(input.value);
      if (!inputCheck.valid) {
        throw new CliInputError(`${input.displayName} does not match the workflow's input.schema: ${inputCheck.errors.slice(0, 3).map((error) => `${error.path} ${error.message}`).join("; ")}`);
      }
      const version = registerWorkflowVersion(lwir);
      const { awaitRun, submitWorkflow } = await import("@little-stack/worker");
      const submission = await submitWorkflow({
        world,
        workflowVersion: { id: version.id, hash: version.hash, lwir: version.lwir as LwirDocument },
        input: input.value,
        ...(this.runId === undefined ? {} : { runId: this.runId }),
      });
      if (!this.wait) {
        stdout.write(`${JSON.stringify({ runId: submission.runId, workflowVersionId: version.id, state: submission.state, submittedAt: submission.submittedAt })}\n`);
        return exitCodes.success;
      }
      const outcome = await awaitRun(world, submission.runId);
      stdout.write(
        `${JSON.stringify({ runId: outcome.runId, workflowVersionId: version.id, status: outcome.status, ...(outcome.status === "completed" ? { output: outcome.output } : { error: outcome.error }) })}\n`,
      );
      return outcome.status === "completed" ? exitCodes.success : exitCodes.failure;
    } finally {
      await world.close();
    }
  }
}
