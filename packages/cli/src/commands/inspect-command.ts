import { Command, Option } from "clipanion";
import { resolve } from "node:path";
import type { CliContext } from "../cli-context.js";
import { CliUsageError } from "../cli-errors.js";
import { exitCodes } from "../exit-codes.js";
import { dataDirOption, jsonOption } from "../shared-options.js";

/** `little inspect`: serves the web inspector of a data dir on 127.0.0.1 until interrupted. */
export class InspectCommand extends Command<CliContext> {
  static override paths = [["inspect"]];
  static override usage = Command.Usage({
    description: "Serve the web inspector of the data dir on 127.0.0.1 (read-only)",
    details: `
      Starts a local web server (127.0.0.1 only) over the data dir, opened read-only: the runs
      (filter by workflow and status), each run's plan as a graph beside the timeline of its step
      attempts — live while the run goes on — and each step's input, output, prompts, responses,
      tool calls, tokens and cost, and the fixer's source diff. Every page asset ships in the
      package; nothing is fetched from the network. Prints the URL on stdout (\`{ "url" }\` with
      --json) and runs until Ctrl-C.
    `,
    examples: [
      ["Inspect the default data dir", "little inspect"],
      ["Another port and data dir", "little inspect --port 8080 --data-dir ./runs"],
    ],
  });

  port = Option.String("--port", { description: "Port to listen on (default 4310; 0 picks a free one)" });
  json = jsonOption();
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    const port = this.port === undefined ? undefined : Number(this.port);
    if (port !== undefined && (!/^\d+$/.test(this.port!) || port > 65_535)) throw new CliUsageError(`--port must be a number from 0 to 65535, not "${this.port}"`);
    if (this.dataDir.trim() === "") throw new CliUsageError('--data-dir is empty — pass a folder (default .little-workflow), or "." for the current directory');
    // Loaded only here: the server and its views are not needed by any other command.
    const { InspectorError, startInspector } = await import("@little-stack/inspector");
    let inspector;
    try {
      inspector = await startInspector({ dataDir: resolve(this.context.cwd, this.dataDir), ...(port === undefined ? {} : { port }) });
    } catch (error) {
      if (InspectorError.is(error)) throw new CliUsageError(error.message.replace(/\.$/, ""));
      throw error;
    }
    this.context.stdout.write(this.json ? `${JSON.stringify({ url: inspector.url })}\n` : `${inspector.url}\n`);
    if (!this.json) this.context.stderr.write(`little inspect: serving ${this.dataDir} read-only at ${inspector.url} — Ctrl-C stops it\n`);
    await new Promise<void>((done) => {
      process.once("SIGINT", done);
      process.once("SIGTERM", done);
    });
    await inspector.close();
    return exitCodes.success;
  }
}
