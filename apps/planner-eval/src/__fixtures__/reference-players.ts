import { codeFile, referencePlayer, sandbox, strictObject, type Definitions } from "./reference-plan-parts.js";
import { jsonAnswer, plannerUsage, workerUsage, type DefinitionPlayer, type PlayerRequest } from "./scripted-model-player.js";

/**
 * Known-good plans and worker answers for a few definitions — what a capable model would do —
 * so the eval's own machinery (planning, running, counting, checking, the report) is tested
 * end to end without a model. Plans are complete documents (schemas, hashes, permissions).
 */

export function ticketTriagePlayer(definitions: Definitions): DefinitionPlayer {
  const id = "support.triage";
  return referencePlayer(definitions, {
    workflowId: id,
    models: ["triage"],
    tools: [],
    steps: (workflow) => {
      return [
        {
          id: "route",
          uses: "ai.generate",
          needs: [],
          with: { model: "triage", prompt: "Route this support ticket to exactly one queue.\nSubject: {{ input.subject }}\n\n{{ input.body }}" },
          output: { mode: "choice", values: ["billing", "bug", "account_access", "feature_request"] },
        },
      ];
    },
    answer: (request) => (request.userText.includes("Route this support ticket") ? jsonAnswer(request, "billing") : undefined),
  });
}

const basketCode = `export async function run({ input, tools }) {
  const { rate } = await tools.getExchangeRate({ from: "USD", to: input.currency });
  const lines = [];
  for (const item of input.items) {
    const { priceUsdCents } = await tools.getPrice({ sku: item.sku });
    lines.push({ sku: item.sku, quantity: item.quantity, amountMinor: Math.round(priceUsdCents * item.quantity * rate) });
  }
  return { currency: input.currency, lines, totalMinor: lines.reduce((sum, line) => sum + line.amountMinor, 0) };
}
`;

export function basketInCurrencyPlayer(definitions: Definitions): DefinitionPlayer {
  const id = "shop.basket-in-currency";
  return referencePlayer(definitions, {
    workflowId: id,
    models: [],
    tools: ["getExchangeRate", "getPrice"],
    steps: (workflow) => {
      return [
        {
          id: "price",
          uses: "code.run",
          needs: [],
          with: { entrypoint: "price.js", files: { "price.js": codeFile(basketCode) }, sandbox },
          output: { mode: "object", schema: workflow.outputSchema },
        },
      ];
    },
  });
}

const letterSchema = strictObject({ letter: { type: "string" } });
const reviewSchema = strictObject({ approved: { type: "boolean" }, notes: { type: "string" } });

/** The first draft forgets the company; the reviewer says so; the second draft is approved. */
export const firstDraft = "Dear hiring team, I am applying for the Senior Data Analyst role. I cut monthly reporting time from five days to one by automating the finance close dashboards, and I led a forecasting model for warehouse staffing that reduced overtime by 18%. I have six years of SQL and Python and mentor two junior analysts. I would welcome a conversation. Kind regards, Priya Raman";
export const secondDraft = firstDraft.replace("Dear hiring team,", "Dear Northwind Logistics hiring team,");

export function coverLetterReviewPlayer(definitions: Definitions): DefinitionPlayer {
  const id = "careers.cover-letter";
  return referencePlayer(definitions, {
    workflowId: id,
    models: ["writer", "reviewer"],
    tools: [],
    steps: (workflow) => {
      return [
        {
          id: "draft",
          uses: "ai.generate",
          needs: [],
          maxVisits: 3,
          with: {
            model: "writer",
            prompt:
              "Write a cover letter of at most {{ input.maxWords }} words for {{ input.candidateName }}, applying to {{ input.company }} for the role {{ input.role }}. Use these facts: {{ input.highlights }}. Reviewer notes on the previous draft: {{ coalesce(steps.review.lastOutput.notes, 'none yet') }}",
          },
          output: { mode: "object", schema: letterSchema },
        },
        {
          id: "review",
          uses: "ai.generate",
          needs: ["draft"],
          maxVisits: 3,
          with: {
            model: "reviewer",
            prompt: "Review this cover letter for {{ input.company }} ({{ input.role }}): names the company and the role, at most {{ input.maxWords }} words, one concrete achievement, no clichés, signed {{ input.candidateName }}.\n\n{{ steps.draft.lastOutput.letter }}",
          },
          output: { mode: "object", schema: reviewSchema },
        },
        { id: "decide", uses: "decision", needs: ["review"], maxVisits: 3, with: { cases: [{ when: "{{ steps.review.lastOutput.approved }}", to: "finish" }, { when: "{{ len(steps.draft.allVisits) >= 3 }}", to: "finish" }], default: "draft" } },
        {
          id: "finish",
          uses: "code.run",
          // review too: the compiler's output-candidate rule would otherwise take review (followed only by a decision) for a possible run output.
          needs: ["draft", "review"],
          input: "{{ steps.draft.lastOutput }}",
          with: { entrypoint: "finish.js", files: { "finish.js": codeFile("export async function run({ input }) {\n  return { letter: input.letter };\n}\n") }, sandbox },
          output: { mode: "object", schema: letterSchema },
        },
      ];
    },
    answer: (request: PlayerRequest) => {
      if (request.userText.includes("Write a cover letter")) return jsonAnswer(request, { letter: request.userText.includes("none yet") ? firstDraft : secondDraft });
      if (request.userText.includes("Review this cover letter")) {
        const approved = request.userText.includes("Dear Northwind Logistics");
        return jsonAnswer(request, { approved, notes: approved ? "Good." : "Name the company (Northwind Logistics) in the greeting." });
      }
      return undefined;
    },
  });
}

const assembleCode = `export async function run({ input }) {
  const { address, official } = input;
  return { street: address.street, houseNumber: address.houseNumber, postalCode: official.postalCode, city: official.city, country: address.country };
}
`;

const extracted: Record<string, { street: string; houseNumber: string; postalCode: string; country: string }> = {
  "Hauptstr. 12, 10115 berlin": { street: "Hauptstraße", houseNumber: "12", postalCode: "10115", country: "DE" },
  "Am Markt 3 80331 München": { street: "Am Markt", houseNumber: "3", postalCode: "80331", country: "DE" },
  "Schillerstrasse 45a, 60313 Frankfurt": { street: "Schillerstraße", houseNumber: "45a", postalCode: "60313", country: "DE" },
  "Königsallee 1, 40212 duesseldorf": { street: "Königsallee", houseNumber: "1", postalCode: "40212", country: "DE" },
};

/** address.normalize (extract → lookupPostalCode → assemble), planned once and run on every address by a scripted orchestrator. */
export function addressBatchPlayer(definitions: Definitions): DefinitionPlayer {
  const id = "address.normalize";
  return referencePlayer(definitions, {
    workflowId: id,
    models: ["extractor"],
    tools: ["lookupPostalCode"],
    steps: (workflow) => {
      return [
        {
          id: "extract",
          uses: "ai.generate",
          needs: [],
          with: { model: "extractor", prompt: "Extract street, house number, postal code and ISO country code from this German address: {{ input.raw }}" },
          output: { mode: "object", schema: strictObject({ street: { type: "string" }, houseNumber: { type: "string" }, postalCode: { type: "string" }, country: { type: "string" } }) },
        },
        {
          id: "lookup",
          uses: "tool.call",
          needs: ["extract"],
          with: { tool: "lookupPostalCode", args: { postalCode: "{{ steps.extract.output.postalCode }}" } },
          output: { mode: "object", schema: strictObject({ postalCode: { type: "string" }, city: { type: "string" }, region: { type: "string" } }) },
        },
        {
          id: "assemble",
          uses: "code.run",
          needs: ["extract", "lookup"],
          input: { address: "{{ steps.extract.output }}", official: "{{ steps.lookup.output }}" },
          with: { entrypoint: "assemble.js", files: { "assemble.js": codeFile(assembleCode) }, sandbox },
          output: { mode: "object", schema: workflow.outputSchema },
        },
      ];
    },
    answer: (request) => {
      const raw = Object.keys(extracted).find((address) => request.userText.includes(address));
      return raw === undefined || !request.userText.includes("Extract street") ? undefined : jsonAnswer(request, extracted[raw]);
    },
    orchestrate: (request) => {
      const addresses = Object.keys(extracted);
      const planned = request.toolResults.find((result) => result.toolName === "plan_workflow")?.value as { workflowVersionId: string } | undefined;
      if (planned === undefined) return { toolCalls: [{ toolName: "plan_workflow", args: { workflowId: id, input: { raw: addresses[0] } } }], usage: plannerUsage };
      const runs = request.toolResults.filter((result) => result.toolName === "run_workflow").map((result) => result.value as { outputSummary: string });
      if (runs.length === 0) return { toolCalls: addresses.map((raw) => ({ toolName: "run_workflow", args: { workflowVersionId: planned.workflowVersionId, input: { raw } } })), usage: plannerUsage };
      return { text: JSON.stringify(runs.map((run) => JSON.parse(run.outputSummary) as unknown)), usage: workerUsage };
    },
  });
}
