import { CanonicalJsonError, canonicalJson } from "@little-stack/canonical";
import { InvalidWorldOptionsError, requireRunId, type JsonObject, type JsonValue, type RunSubmission, type RunSubmissionInput } from "@little-stack/local-world";

export type SubmissionRow = {
  run_id: string;
  submission: string;
  tools: string[] | null;
  models: string[] | null;
  queue_state: "queued" | "running" | "finished";
  outcome: "completed" | "failed" | null;
  failure: string | null;
  claims: number;
  holder: string | null;
  submitted_at: string;
  lease_expires_at: string | null;
};

/** A submission checked field by field (names sorted and unique), ready to store. */
export function checkSubmissionInput(input: RunSubmissionInput): Required<RunSubmissionInput> {
  if (typeof input !== "object" || input === null) throw new InvalidWorldOptionsError("submission", "must be an object { runId, workflowVersion, input, tools, models }");
  const runId = requireRunId(input.runId);
  const version = input.workflowVersion as Partial<{ id: unknown; hash: unknown; lwir: unknown }> | undefined;
  if (typeof version !== "object" || version === null || typeof version.id !== "string" || typeof version.hash !== "string" || typeof version.lwir !== "object") {
    throw new InvalidWorldOptionsError("workflowVersion", "must be a locked workflow version { id, hash, lwir, … }");
  }
  const names = (field: "tools" | "models"): string[] => {
    const list = input[field] ?? [];
    if (!Array.isArray(list) || !list.every((name) => typeof name === "string" && name.length > 0)) {
      throw new InvalidWorldOptionsError(field, "must be a list of non-empty names");
    }
    return [...new Set(list)].sort();
  };
  const options = input.options ?? {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new InvalidWorldOptionsError("options", "must be a JSON object");
  try {
    canonicalJson({ workflowVersion: version, input: input.input ?? null, options });
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw new InvalidWorldOptionsError(`submission${error.path.slice(1)}`, `is not plain JSON (${error.message})`);
    throw error;
  }
  return { runId, workflowVersion: input.workflowVersion, input: (input.input ?? null) as JsonValue, tools: names("tools"), models: names("models"), options: options as JsonObject };
}

export function submissionOf(row: SubmissionRow): RunSubmission {
  const stored = JSON.parse(row.submission) as { workflowVersion: JsonObject; input: JsonValue; options: JsonObject };
  return {
    runId: row.run_id,
    workflowVersion: stored.workflowVersion,
    input: stored.input,
    options: stored.options,
    tools: row.tools ?? [],
    models: row.models ?? [],
    submittedAt: row.submitted_at,
    state: row.queue_state,
    claims: row.claims,
    ...(row.outcome === null ? {} : { outcome: row.outcome }),
    ...(row.failure === null ? {} : { failure: JSON.parse(row.failure) as RunSubmission["failure"] & object }),
    ...(row.holder === null ? {} : { holder: row.holder }),
    ...(row.lease_expires_at === null ? {} : { leaseExpiresAt: row.lease_expires_at }),
  };
}
