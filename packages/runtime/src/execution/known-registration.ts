import { canonicalJson, CanonicalJsonError } from "@little-stack/canonical";
import { eventIdFor } from "@little-stack/local-world";
import type { EventRecord } from "../events/runtime-event-types.js";
import type { WorkflowVersionLike } from "./workflow-version.js";

/**
 * The payload to fold a stored `WorkflowVersionRegistered` from instead of parsing its text back:
 * the one the compiler wrote for this version (`workflowVersion.registration`), when the stored
 * event's id proves its text is that payload's canonical JSON and the payload names this version
 * (its id, its hash, its very LWIR object). The plan's text is the bulk of a run's start (30 KB
 * for 200 steps, a quarter of a millisecond to parse); hashing it again costs a fifth of that,
 * as the plan's canonical text is kept with its snapshot. Anything else: undefined (parse it).
 */
export function knownRegistration(event: EventRecord, version: WorkflowVersionLike & { readonly hash: string }): object | undefined {
  if (event.type !== "WorkflowVersionRegistered") return undefined;
  const registration = version.registration as { workflowVersionId?: unknown; hash?: unknown; lwir?: unknown } | undefined;
  if (typeof registration !== "object" || registration === null) return undefined;
  if (registration.workflowVersionId !== version.id || registration.hash !== version.hash || registration.lwir !== version.lwir) return undefined;
  let payloadJson: string;
  try {
    payloadJson = canonicalJson(registration);
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined;
    throw error;
  }
  return eventIdFor({ runId: event.runId, sequence: event.sequence, type: event.type, payloadJson }) === event.eventId ? registration : undefined;
}
