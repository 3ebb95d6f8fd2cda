import { describe, expect, it } from "vitest";
import * as harness from "@little-stack/harness";
import * as frontDoor from "./index.js";
import * as internals from "./internals.js";

describe("@little-stack/workflow/internals and the front door", () => {
  it("re-exports the harness contract's runtime values and the default workflowHarness, the same objects as @little-stack/harness", () => {
    for (const name of ["workflowHarness", "createWorkflowHarness", "openTaskSession", "openHarnessSession", "sessionKeyFor", "stepPathOf", "requireManifest", "recorderForContext", "executeRegisteredTool", "HarnessContextError"] as const) {
      expect(internals[name]).toBe(harness[name]);
    }
  });

  it("exports the validator and the boundary errors, whose is() narrows to their own class", () => {
    const result = frontDoor.validateLwir({});
    expect(result.valid).toBe(false);
    let caught: unknown;
    try {
      frontDoor.assertValidLwir({});
    } catch (error) {
      caught = error;
    }
    expect(frontDoor.LwirValidationError.is(caught)).toBe(true);
    expect(frontDoor.RunFailedError.is(caught)).toBe(false);
    expect(frontDoor.LittleWorkflowError.is(caught)).toBe(true);
  });
});
