import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CorpusDefinition, CorpusEntry } from "../corpus-entry.js";
import { corpusTools } from "../corpus-tools.js";

// The valid examples of the built-in lwir skill, read from the skill itself (so an example added
// or changed there is run here), each bound to a definition written for it.

const skillDirectory = fileURLToPath(new URL("../../../../../harness/skills/lwir/", import.meta.url));

type SkillDocument = { readonly metadata: { readonly name: string }; readonly input: { readonly schema: unknown }; readonly output: { readonly schema: unknown } };

/** Every ```json block preceded by `<!-- example: valid -->`, with where it is. */
function validExamples(): { readonly where: string; readonly plan: SkillDocument }[] {
  const found: { where: string; plan: SkillDocument }[] = [];
  for (const file of readdirSync(skillDirectory).filter((name) => name.endsWith(".md")).sort()) {
    const lines = readFileSync(join(skillDirectory, file), "utf8").split("\n");
    lines.forEach((line, index) => {
      if (line.trim() !== "<!-- example: valid -->" || lines[index + 1] !== "```json") return;
      const end = lines.indexOf("```", index + 2);
      found.push({ where: `packages/harness/skills/lwir/${file}:${index + 1}`, plan: JSON.parse(lines.slice(index + 2, end).join("\n")) as SkillDocument });
    });
  }
  return found;
}

const gpt4oMini = { id: "gpt-4o-mini", description: "Fast model for short structured outputs." };

/** What each example's workflow offers (its schemas are the example's own), with a run input. */
const definitions: Readonly<Record<string, { readonly models: CorpusDefinition["models"]; readonly tools?: CorpusDefinition["tools"]; readonly input: unknown }>> = {
  "support.summarize-ticket": { models: [gpt4oMini], input: { ticketId: "T-1042", transcript: "The Android app crashes at login for the whole team." } },
  "support.answer-plan-question": { models: [gpt4oMini], tools: corpusTools("lookupCustomer"), input: { customerId: "C-9", question: "Does my plan include SSO?" } },
  "billing.price-order": { models: [], tools: corpusTools("getPrice"), input: { lines: [{ sku: "KB-101", qty: 2 }, { sku: "CB-5", qty: 3 }] } },
  "mail.route-email": { models: [gpt4oMini], input: { subject: "Invoice twice", body: "I was charged twice this month." } },
  "docs.reviewed-report": { models: [gpt4oMini], input: { topic: "ocean tides" } },
  "billing.sum-orders": { models: [], tools: corpusTools("getOrder"), input: { orderIds: ["A-1", "missing-2", "B-22"] } },
  "billing.parse-invoice": { models: [{ id: "gpt-5", description: "Strong model for repairs." }], input: { csv: "sku,qty,unitPriceCents\nKB-101,2,7999\nCB-5, 3, 899\n" } },
  "support.triage": { models: [gpt4oMini], input: { report: "Saving a draft loses the attachments." } },
};

export const skillExampleEntries: readonly CorpusEntry[] = validExamples().map(({ where, plan }) => {
  const name = plan.metadata.name;
  const definition = definitions[name];
  if (definition === undefined) throw new Error(`${where}: the skill example "${name}" has no definition in the soundness corpus: add one to entries/skill-examples.ts`);
  return {
    name: `skill-example ${name}`,
    origin: "skill-example",
    covers: `the lwir skill's valid example ${where}`,
    source: where,
    definition: { id: name, input: plan.input.schema, output: plan.output.schema, models: definition.models, ...(definition.tools === undefined ? {} : { tools: definition.tools }) },
    plan: plan as unknown as Record<string, unknown>,
    input: definition.input,
  } satisfies CorpusEntry;
});
