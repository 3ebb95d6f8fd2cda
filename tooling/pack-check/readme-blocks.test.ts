import { describe, expect, it } from "vitest";
import { checkedReadmeBlocks } from "./readme-blocks.js";

const readme = [
  "# x", // 1
  "```ts", // 2
  'import { validateLwir } from "@little-stack/lwir";', // 3
  "validateLwir({});", // 4
  "```", // 5
  "```ts", // 6
  "const result = await workflowHarness.run(task, ctx); // a fragment: no import", // 7
  "```", // 8
  "```ts fragment", // 9
  'import type { Harness } from "@little-stack/harness";', // 10
  "```", // 11
  "```sh", // 12
  'echo \'from "@little-stack/cli"\'', // 13
  "```", // 14
  "```typescript", // 15
  "import { z } from 'zod';", // 16
  "import { defineWorkflow } from '@little-stack/workflow';", // 17
  "```", // 18
].join("\n");

describe("checkedReadmeBlocks", () => {
  it("picks the TypeScript blocks that import one of our packages and are not marked fragment", () => {
    expect(checkedReadmeBlocks("packages/x/README.md", readme)).toEqual([
      { readme: "packages/x/README.md", line: 3, code: 'import { validateLwir } from "@little-stack/lwir";\nvalidateLwir({});' },
      { readme: "packages/x/README.md", line: 16, code: "import { z } from 'zod';\nimport { defineWorkflow } from '@little-stack/workflow';" },
    ]);
  });
});
