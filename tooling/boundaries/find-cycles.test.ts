import { describe, expect, it } from "vitest";
import { findCycles } from "./find-cycles.js";

const graph = (edges: Record<string, string[]>): Map<string, string[]> => new Map(Object.entries(edges));

describe("findCycles", () => {
  it("finds none in a layered graph", () => {
    expect(findCycles(graph({ a: [], b: ["a"], c: ["a", "b"] }))).toEqual([]);
  });

  it("finds a self loop, a two-cycle and a longer one, each closed on its smallest node", () => {
    expect(findCycles(graph({ a: ["a"], b: ["c"], c: ["b"], d: ["e"], e: ["f"], f: ["d"], g: ["d"] }))).toEqual([
      ["a", "a"],
      ["b", "c", "b"],
      ["d", "e", "f", "d"],
    ]);
  });

  it("gives the shortest way back when a component has several cycles", () => {
    expect(findCycles(graph({ a: ["b", "c"], b: ["c"], c: ["a"] }))).toEqual([["a", "c", "a"]]);
  });

  it("handles nodes that only appear as targets", () => {
    expect(findCycles(graph({ a: ["missing"] }))).toEqual([]);
  });
});
