import { describe, expect, it } from "vitest";
import { fakeModel } from "./__fixtures__/fake-models.js";
import { defineWorkflow } from "./define-workflow.js";
import { WorkflowDefinitionError } from "./errors/workflow-definition-error.js";

describe("defineWorkflow({ bash })", () => {
  it("keeps capabilities the shell honours", () => {
    const bash = { network: { allow: ["https://api.example.com/"], methods: ["GET", "HEAD"], denyPrivateRanges: true }, maxCommands: 50, timeoutMs: 5_000 };
    expect(defineWorkflow({ id: "net.ok", planner: { model: fakeModel("gpt-5") }, bash }).bash).toEqual(bash);
  });

  it("refuses an option the shell cannot honour, naming the field, instead of hashing and ignoring it", () => {
    const define = (bash: unknown) => () => defineWorkflow({ id: "net.bad", planner: { model: fakeModel("gpt-5") }, bash: bash as never });
    expect(define({ network: { allow: ["https://api.example.com/"], proxy: "http://proxy" } })).toThrow(WorkflowDefinitionError);
    expect(define({ network: { allow: ["https://api.example.com/"], proxy: "http://proxy" } })).toThrow(/defineWorkflow\("net\.bad"\): bash\.network\.proxy is not a network option the shell can honour/);
    expect(define({ network: { allow: ["file:///etc/"] } })).toThrow(/bash\.network\.allow\[0\] is "file:\/\/\/etc\/": only http and https URLs can be allowed/);
    expect(define({ maxCommands: -1 })).toThrow(/bash\.maxCommands must be a positive integer, got -1/);
  });
});
