import { LittleWorkflowError } from "@little-stack/canonical";

/** `sampleFromSchema` found no value for a schema (it admits none, or none the sampler can build). */
export class SchemaSampleError extends LittleWorkflowError {
  constructor(options: { readonly path: string; readonly problem: string; readonly schema: unknown }) {
    super(
      "testing.schema_sample_failed",
      `sampleFromSchema: no value found at ${options.path}: ${options.problem}. The schema admits no value (false, an empty enum, contradictory bounds or types), or only values this sampler does not build.`,
      { details: { path: options.path, problem: options.problem, schema: options.schema } },
    );
  }
}
