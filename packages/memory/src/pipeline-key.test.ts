import { sha256Digest, sha256Hex } from "@little-stack/canonical";
import { describe, expect, it } from "vitest";
import { MemoryLayoutError } from "./memory-layout-error.js";
import { pipelineKey } from "./pipeline-key.js";

const first = sha256Digest({ id: "a" });
const second = sha256Digest({ id: "b" });

describe("pipelineKey", () => {
  it("is the sha256 hex of the sorted hash list, independent of order and duplicates", () => {
    const key = pipelineKey([second, first]);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toBe(pipelineKey([first, second]));
    expect(key).toBe(pipelineKey([first, second, first]));
    expect(key).toBe(sha256Hex(JSON.stringify([first, second].sort())));
  });

  it("changes when the composition changes", () => {
    expect(pipelineKey([first])).not.toBe(pipelineKey([first, second]));
  });

  it("refuses an empty list and values that are not WorkflowDefinitionHashes", () => {
    expect(() => pipelineKey([])).toThrow(MemoryLayoutError);
    expect(() => pipelineKey([first, "abc"])).toThrow(/hashes\[1\].*"abc"/);
  });
});
