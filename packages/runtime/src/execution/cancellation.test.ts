import { describe, expect, it } from "vitest";
import { Cancellation } from "./cancellation.js";

describe("Cancellation's AbortSignal, made when first asked for", () => {
  it("aborts a signal read before the node is cancelled", () => {
    const node = new Cancellation();
    const signal = node.signal;
    let heard = 0;
    signal.addEventListener("abort", () => (heard += 1));
    expect(signal.aborted).toBe(false);
    node.cancel({ kind: "run", cause: "cancelled" });
    expect(signal.aborted).toBe(true);
    expect(heard).toBe(1);
    expect(node.signal).toBe(signal);
  });

  it("hands out an aborted signal when first read after the node was cancelled", () => {
    const node = new Cancellation();
    node.cancel({ kind: "run", cause: "timeout" });
    expect(node.signal.aborted).toBe(true);
  });

  it("hands out an aborted signal for a child cancelled through its parent before anyone read it", () => {
    const parent = new Cancellation();
    const child = parent.child();
    parent.cancel({ kind: "halt" });
    expect(child.reason).toEqual({ kind: "halt" });
    expect(child.signal.aborted).toBe(true);
  });

  it("leaves a disposed child's signal alone when the parent is cancelled later", () => {
    const parent = new Cancellation();
    const child = parent.child();
    const signal = child.signal;
    child.dispose();
    parent.cancel({ kind: "run", cause: "cancelled" });
    expect(signal.aborted).toBe(false);
    expect(child.signal.aborted).toBe(false);
  });
});
