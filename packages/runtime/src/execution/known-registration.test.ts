import { idFromDigest, sha256Digest } from "@little-stack/canonical";
import { memoryWorld } from "@little-stack/local-world";
import type { LwirDocument } from "@little-stack/lwir";
import { describe, expect, it } from "vitest";
import type { EventRecord } from "../events/runtime-event-types.js";
import { RunStateFolder } from "../run-state/run-state-folder.js";
import { knownRegistration } from "./known-registration.js";
import { RunLog } from "./run-log.js";

// The runtime folds the compiler's WorkflowVersionRegistered from the payload object the compiler
// hands over, never from anything the stored event's id does not prove equal to its text.

const lwir = { apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "known" }, steps: [{ id: "a", uses: "tool.call", with: { tool: "noop" } }] } as unknown as LwirDocument;
const hash = sha256Digest(lwir);
const id = idFromDigest("wfver", hash);
const registration = { workflowVersionId: id, hash, lwir, workflowDefinitionHash: "sha256:" + "d".repeat(64), lock: { lwirHash: hash, tools: [{ name: "noop", digest: "sha256:" + "e".repeat(64) }] } };

async function registered(runId: string): Promise<EventRecord> {
  const world = memoryWorld();
  const [event] = await world.appendEvents(runId, [{ type: "OrchestrationRequested", payload: { input: {} } }, { type: "WorkflowVersionRegistered", payload: registration }]).then((events) => events.slice(1));
  return event as EventRecord;
}

describe("knownRegistration", () => {
  it("gives the compiler's payload for the stored event made from it", async () => {
    const stored = await registered("run-known");
    expect(knownRegistration(stored, { id, hash, lwir, registration })).toBe(registration);
  });

  it("refuses a payload whose text differs from the stored one, even naming the same version", async () => {
    const stored = await registered("run-other-lock");
    const otherLock = { ...registration, lock: { ...registration.lock, tools: [] } };
    expect(knownRegistration(stored, { id, hash, lwir, registration: otherLock })).toBeUndefined();
  });

  it("refuses a payload that does not name this version's own LWIR object, id and hash", async () => {
    const stored = await registered("run-copy");
    const copy = structuredClone(lwir);
    // Equal text, so the id matches: the object identity is what ties the fold to the version run.
    expect(knownRegistration(stored, { id, hash, lwir, registration: { ...registration, lwir: copy } })).toBeUndefined();
    expect(knownRegistration(stored, { id: "wfver_0000000000000000", hash, lwir, registration })).toBeUndefined();
  });

  it("ignores other events, a missing payload and one that is not JSON", async () => {
    const stored = await registered("run-ignored");
    expect(knownRegistration({ ...stored, type: "RunStarted" }, { id, hash, lwir, registration })).toBeUndefined();
    expect(knownRegistration(stored, { id, hash, lwir })).toBeUndefined();
    expect(knownRegistration(stored, { id, hash, lwir, registration: { ...registration, lock: () => undefined } })).toBeUndefined();
  });

  it("lets RunLog.open fold the stored event from the payload (its LWIR is the version's object)", async () => {
    const world = memoryWorld();
    await world.appendEvents("run-open", [{ type: "WorkflowVersionRegistered", payload: registration }]);
    const folded = new RunLog(world, "run-open", new RunStateFolder({ runId: "run-open" }));
    await folded.open((event) => knownRegistration(event, { id, hash, lwir, registration }));
    expect(folded.folder.snapshot().lwir).toBe(lwir);
    const parsed = new RunLog(world, "run-open", new RunStateFolder({ runId: "run-open" }));
    await parsed.open();
    expect(parsed.folder.snapshot().lwir).not.toBe(lwir);
    expect(parsed.folder.snapshot().lwir).toEqual(lwir);
  });
});
