import { sha256Digest } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { workerManifest } from "../__fixtures__/manifests.js";
import { validateHarnessEvent } from "../events/validate-harness-event.js";
import { ManifestHashMismatchError } from "../errors/harness-event-errors.js";
import { hashHarnessManifest } from "./hash-harness-manifest.js";
import type { WorkerManifest } from "./manifests.js";

describe("hashHarnessManifest", () => {
  it("is sha256 of the canonical manifest, frozen or not, and never serves a stale hash for a changed object", () => {
    const open: { -readonly [K in keyof WorkerManifest]: WorkerManifest[K] } = { ...workerManifest, memoryStoreIds: [...workerManifest.memoryStoreIds] };
    expect(hashHarnessManifest(open)).toBe(sha256Digest(open));
    open.stepPath = "changed";
    expect(hashHarnessManifest(open)).toBe(sha256Digest(open));
    // Shallowly frozen with a mutable list inside: not remembered either.
    const shallow = Object.freeze({ ...workerManifest, memoryStoreIds: ["org:ro"] });
    expect(hashHarnessManifest(shallow)).toBe(sha256Digest(shallow));
    (shallow.memoryStoreIds as string[]).push("workflow:w:ro");
    expect(hashHarnessManifest(shallow)).toBe(sha256Digest(shallow));
    const frozen = Object.freeze({ ...workerManifest, memoryStoreIds: Object.freeze([...workerManifest.memoryStoreIds]) });
    expect(hashHarnessManifest(frozen)).toBe(sha256Digest(frozen));
    expect(hashHarnessManifest(frozen)).toBe(sha256Digest(frozen));
  });

  it("a session.started whose manifestHash is not its frozen manifest's hash is still refused", () => {
    const frozen = Object.freeze({ ...workerManifest, memoryStoreIds: Object.freeze([...workerManifest.memoryStoreIds]) });
    const payload = { runId: "run_1", sessionId: "hses_1", role: "worker.tool-call", task: { kind: "execute_step" }, manifest: frozen };
    expect(validateHarnessEvent({ type: "harness.session.started", payload: { ...payload, manifestHash: hashHarnessManifest(frozen) } }).type).toBe("harness.session.started");
    expect(() => validateHarnessEvent({ type: "harness.session.started", payload: { ...payload, manifestHash: sha256Digest({ other: true }) } })).toThrow(ManifestHashMismatchError);
  });
});
