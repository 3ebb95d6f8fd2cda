import { describe, expectTypeOf, it } from "vitest";
import type { Harness, HarnessContext } from "../contract/harness.js";
import type { HarnessManifest } from "../contract/manifests.js";
import { workflowHarness } from "./workflow-harness.js";
import type { WorkflowHarnessContext } from "./workflow-harness-context.js";

describe("WorkflowHarnessContext", () => {
  it("accepts a plain HarnessContext and the runtime's extended context", () => {
    expectTypeOf<HarnessContext>().toExtend<WorkflowHarnessContext>();
    type RuntimeShaped = HarnessContext & { readonly manifest: HarnessManifest; readonly sessionKey: string; readonly stepPath: string; readonly visitIndex: number };
    expectTypeOf<RuntimeShaped>().toExtend<WorkflowHarnessContext>();
    expectTypeOf(workflowHarness).toExtend<Harness>();
  });
});
