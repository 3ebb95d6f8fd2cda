import { sha256Digest } from "@little-stack/canonical";
import type { EventEnvelope } from "@little-stack/local-world";
import type { CompileAppends } from "./compile-appends.js";
import type { PlannerRevisionFindings } from "../errors/compile-errors.js";
import type { ValidationSource, WorkflowValidationFailedPayload } from "./compile-event-types.js";

type Finding = { readonly code: string; readonly path: string; readonly message: string };

function isValidationEvent(event: EventEnvelope): boolean {
  return event.type === "WorkflowValidationFailed" || event.type === "WorkflowValidationSucceeded";
}

function hashOrNull(value: unknown): string | null {
  try {
    return sha256Digest(value);
  } catch {
    return null;
  }
}

function compactFindings(findings: readonly Finding[]): Finding[] {
  return findings.map((finding) => ({ code: String(finding.code), path: String(finding.path), message: String(finding.message) }));
}

/**
 * Writes the run-level validation verdicts. Each verdict has a key (a `submit_workflow` tool call
 * id, or a planner session id) and is written once: re-running after a crash appends only the
 * verdicts not in the log yet, numbered after the ones already there. A failed verdict is
 * committed at once (the planner is told its findings next); a plan found valid is held for the
 * compile's next event, its registration (see CompileAppends).
 */
export class ValidationLog {
  private constructor(
    private readonly world: CompileAppends,
    private readonly runId: string,
    private readonly keys: Set<string>,
    private readonly failed: PlannerRevisionFindings[],
    private readonly succeeded: Set<string>,
    private revisions: number,
  ) {}

  /** The verdicts in `logged` (the run's events as the compile read them, under its lock). */
  static of(world: CompileAppends, runId: string, logged: readonly EventEnvelope[]): ValidationLog {
    const events = logged.filter(isValidationEvent);
    const keys = new Set(events.map((event) => String((event.payload as { key?: unknown }).key)));
    const failed = events
      .filter((event) => event.type === "WorkflowValidationFailed")
      .map((event) => {
        const payload = event.payload as unknown as WorkflowValidationFailedPayload;
        return { revision: payload.revision, findings: payload.findings };
      });
    const succeeded = new Set(
      events.filter((event) => event.type === "WorkflowValidationSucceeded").map((event) => String((event.payload as { lwirHash?: unknown }).lwirHash)),
    );
    return new ValidationLog(world, runId, keys, failed, succeeded, events.length);
  }

  /** Revisions recorded so far (failed and succeeded). */
  get revisionCount(): number {
    return this.revisions;
  }

  /** Every failed revision's findings, in order. */
  get failedRevisions(): readonly PlannerRevisionFindings[] {
    return [...this.failed];
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** True when a submission of exactly this LWIR was already accepted. */
  accepted(lwir: unknown): boolean {
    const hash = hashOrNull(lwir);
    return hash !== null && this.succeeded.has(hash);
  }

  async record(verdict: { readonly key: string; readonly source: ValidationSource; readonly lwir: unknown; readonly findings: readonly Finding[] }): Promise<void> {
    if (this.keys.has(verdict.key)) return;
    const revision = this.revisions + 1;
    const lwirHash = hashOrNull(verdict.lwir);
    if (verdict.findings.length === 0 && lwirHash !== null) {
      this.world.hold([{ type: "WorkflowValidationSucceeded", payload: { revision, source: verdict.source, key: verdict.key, lwirHash } }]);
      this.succeeded.add(lwirHash);
    } else {
      const findings = compactFindings(verdict.findings);
      await this.world.appendEvents(this.runId, [{ type: "WorkflowValidationFailed", payload: { revision, source: verdict.source, key: verdict.key, lwirHash, findings } }]);
      this.failed.push({ revision, findings });
    }
    this.keys.add(verdict.key);
    this.revisions = revision;
  }

  /**
   * Records the verdict of every `submit_workflow` call in the run's log that has none yet.
   * `complete` turns the submitted argument into the document that was validated (the harness
   * completes submissions before checking them), so verdicts name the hash of that document.
   */
  async recordSubmissions(complete: (submitted: unknown) => unknown = (submitted) => submitted): Promise<void> {
    const calls = await this.world.listEvents(this.runId, { typePrefix: "harness.tool_call.succeeded" });
    for (const event of calls) {
      const payload = event.payload as { callId?: unknown; toolName?: unknown; args?: unknown; result?: unknown };
      if (payload.toolName !== "submit_workflow" || typeof payload.callId !== "string") continue;
      const result = payload.result as { accepted?: unknown; findings?: unknown } | null;
      const findings = Array.isArray(result?.findings) ? (result.findings as Finding[]) : [];
      const lwir = complete((payload.args as { lwir?: unknown } | null)?.lwir ?? null);
      const accepted = result?.accepted === true;
      await this.record({
        key: payload.callId,
        source: "submit_workflow",
        lwir,
        findings: accepted ? [] : findings.length > 0 ? findings : [{ code: "plan.rejected", path: "$", message: "The submission was not accepted." }],
      });
    }
  }
}
