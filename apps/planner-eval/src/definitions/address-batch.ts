import { createToolRegistry, defineWorkflow, model } from "@little-stack/workflow";
import { tool } from "ai";
import { z } from "zod";
import { expectEqual, isRecord, mentions } from "../check-helpers.js";
import { verdict, type EvalDefinition, type OrchestrationOutcome } from "../eval-definition.js";

const postalCodes: Record<string, { postalCode: string; city: string; region: string }> = {
  "10115": { postalCode: "10115", city: "Berlin", region: "Berlin" },
  "80331": { postalCode: "80331", city: "München", region: "Bayern" },
  "60313": { postalCode: "60313", city: "Frankfurt am Main", region: "Hessen" },
  "40212": { postalCode: "40212", city: "Düsseldorf", region: "Nordrhein-Westfalen" },
};

export function addressTools() {
  return createToolRegistry({
    lookupPostalCode: tool({
      description: "The official city and region of a German postal code (Deutsche Post register).",
      inputSchema: z.object({ postalCode: z.string().describe("Five digits.") }),
      outputSchema: z.object({ postalCode: z.string(), city: z.string(), region: z.string() }),
      execute: async ({ postalCode }) => {
        const entry = postalCodes[postalCode.trim()];
        if (entry === undefined) throw new Error(`unknown postal code ${postalCode}`);
        return entry;
      },
    }),
  });
}

/** What each raw address must normalize to (street loosely: the house number exactly). */
const expected = [
  { raw: "Hauptstr. 12, 10115 berlin", street: "haupt", houseNumber: "12", postalCode: "10115", city: "Berlin" },
  { raw: "Am Markt 3 80331 München", street: "markt", houseNumber: "3", postalCode: "80331", city: "München" },
  { raw: "Schillerstrasse 45a, 60313 Frankfurt", street: "schiller", houseNumber: "45a", postalCode: "60313", city: "Frankfurt am Main" },
  { raw: "Königsallee 1, 40212 duesseldorf", street: "königsallee", houseNumber: "1", postalCode: "40212", city: "Düsseldorf" },
];

/** Level 12: plan a workflow once, then run the locked version on several inputs (an orchestration). */
export const addressBatch: EvalDefinition = {
  name: "address-batch",
  level: 12,
  covers: "plan once, run many (runOrchestration: plan_workflow + run_workflow)",
  build: (models) => ({
    kind: "orchestration",
    workflows: [
      defineWorkflow({
        id: "address.normalize",
        description: "Normalize one German postal address typed by a customer into street, house number, postal code, official city name and country code.",
        input: z.object({ raw: z.string() }),
        output: z.object({ street: z.string(), houseNumber: z.string(), postalCode: z.string(), city: z.string(), country: z.string().describe("ISO 3166 alpha-2") }),
        models: [model(models("extractor"), { id: "extractor", description: "Fast model for extracting fields from short text." })],
        tools: addressTools(),
        planner: {
          model: models("planner"),
          system: "You design address workflows. The official city name comes from lookupPostalCode, never from the customer's spelling; the rest is extracted from the text.",
        },
      }),
    ],
    orchestratorSystem:
      "Normalize every address in the input. Plan address.normalize once (on the first address), then run that planned version on each address — do not plan again per address. Answer with the normalized addresses as a JSON array, in input order.",
    input: { addresses: expected.map((entry) => entry.raw) },
  }),
  check: (output) => {
    if (!isRecord(output) || !Array.isArray(output.subRuns)) return verdict([`expected an orchestration outcome, got ${JSON.stringify(output)}`]);
    const outcome = output as OrchestrationOutcome;
    const problems: (string | undefined)[] = [
      outcome.plannedVersions !== 1 ? `planned ${outcome.plannedVersions} versions, expected exactly 1` : undefined,
      outcome.subRuns.length !== expected.length ? `ran ${outcome.subRuns.length} sub-runs, expected ${expected.length}` : undefined,
    ];
    for (const entry of expected) {
      const run = outcome.subRuns.find((subRun) => isRecord(subRun.input) && subRun.input.raw === entry.raw);
      if (run === undefined || run.status !== "completed" || !isRecord(run.output)) {
        problems.push(`no completed run for ${JSON.stringify(entry.raw)}`);
        continue;
      }
      const got = run.output;
      problems.push(
        expectEqual(`${entry.raw}: postalCode`, got.postalCode, entry.postalCode),
        expectEqual(`${entry.raw}: city`, got.city, entry.city),
        expectEqual(`${entry.raw}: houseNumber`, typeof got.houseNumber === "string" ? got.houseNumber.toLowerCase() : got.houseNumber, entry.houseNumber),
        expectEqual(`${entry.raw}: country`, got.country, "DE"),
        typeof got.street === "string" && mentions(got.street, entry.street) ? undefined : `${entry.raw}: street ${JSON.stringify(got.street)} should contain ${JSON.stringify(entry.street)}`,
      );
    }
    return verdict(problems);
  },
};
