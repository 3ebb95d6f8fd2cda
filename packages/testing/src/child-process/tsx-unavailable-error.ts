import { LittleWorkflowError } from "@little-stack/canonical";

/** runTypeScriptFile was called but `tsx` cannot be resolved from @little-stack/testing. */
export class TsxUnavailableError extends LittleWorkflowError {
  constructor(cause: unknown) {
    super(
      "testing.tsx_unavailable",
      "runTypeScriptFile runs .ts files with tsx, which is not installed: add it to your project (npm i -D tsx@4). It is an optional peer dependency of @little-stack/testing; nothing else in the package needs it.",
      { cause },
    );
  }
}
