import { Command, Option } from "clipanion";
import type { CliContext } from "../cli-context.js";
import { exitCodes } from "../exit-codes.js";
import { formatFindingsJson, formatFindingsText } from "../format-findings.js";
import { readJsonInput } from "../read-json-input.js";
import { dataDirOption, jsonOption } from "../shared-options.js";

/** `little validate <file> [--json]`: checks an LWIR document without running anything. */
export class ValidateCommand extends Command<CliContext> {
  static override paths = [["validate"]];

  static override usage = Command.Usage({
    description: "Check an LWIR document against every rule of LWIR v0.1",
    details: `
      Reads the JSON file (\`-\` for standard input) and prints one line per finding
      (\`path  code  message\`) and a summary. Nothing is run or written.

      Exit code 0 when the document is valid, 1 when it has findings, 2 when the file cannot be
      read or is not JSON.
    `,
    examples: [
      ["Validate a document", "little validate apps/quickstart/support-ticket.lwir.json"],
      ["Get the findings as JSON", "little validate plan.lwir.json --json"],
    ],
  });

  file = Option.String({ name: "file" });
  json = jsonOption();
  // Accepted like on every command; validation reads no world.
  dataDir = dataDirOption();

  override async execute(): Promise<number> {
    const input = await readJsonInput({ path: this.file, cwd: this.context.cwd, stdin: this.context.stdin });
    const { validateLwir } = await import("@little-stack/lwir");
    const result = validateLwir(input.value);
    this.context.stdout.write(
      this.json
        ? formatFindingsJson({ valid: result.valid, findings: result.findings })
        : formatFindingsText({ displayName: input.displayName, findings: result.findings }),
    );
    return result.valid ? exitCodes.success : exitCodes.failure;
  }
}
