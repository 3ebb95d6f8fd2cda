import { codeFile, referencePlayer, sandbox, strictObject, type Definitions } from "./reference-plan-parts.js";
import { jsonAnswer, type DefinitionPlayer } from "./scripted-model-player.js";

/** The remaining definitions' known-good plans and answers (see reference-players.ts). */

export function releaseNotesSummaryPlayer(definitions: Definitions): DefinitionPlayer {
  const id = "release.announce";
  return referencePlayer(definitions, {
    workflowId: id,
    models: ["writer"],
    tools: [],
    steps: (workflow) => {
      return [
        {
          id: "announce",
          uses: "ai.generate",
          needs: [],
          with: { model: "writer", prompt: "Write a customer announcement (headline and summary) of {{ input.product }} {{ input.version }} from these engineering notes: {{ input.changes }}" },
          output: { mode: "object", schema: workflow.outputSchema },
        },
      ];
    },
    answer: (request) =>
      request.userText.includes("Write a customer announcement")
        ? jsonAnswer(request, {
            headline: "Ledgerly 4.2: CSV export and VAT numbers on invoices",
            summary: "Ledgerly 4.2.0 lets you export invoices as CSV and prints your customer's VAT number on invoice PDFs. The Android app no longer crashes on an empty ledger. iOS 14 is no longer supported.",
          })
        : undefined,
  });
}

export function orderStatusReplyPlayer(definitions: Definitions): DefinitionPlayer {
  const id = "shop.order-status-reply";
  return referencePlayer(definitions, {
    workflowId: id,
    models: ["writer"],
    tools: ["getOrder"],
    steps: (workflow) => {
      return [
        {
          id: "order",
          uses: "tool.call",
          needs: [],
          with: { tool: "getOrder", args: { orderId: "{{ input.orderId }}" } },
          output: { mode: "object", schema: { type: "object", required: ["orderId", "status"], properties: { orderId: { type: "string" }, status: { type: "string" } } } },
        },
        {
          id: "reply",
          uses: "ai.generate",
          needs: ["order"],
          with: {
            model: "writer",
            prompt: "Reply to {{ input.customerName }}, who wrote: {{ input.message }}\nUse only these order facts: {{ steps.order.output }}\nAnswer with orderId, status (copied from the facts) and the reply.",
          },
          output: { mode: "object", schema: workflow.outputSchema },
        },
      ];
    },
    answer: (request) =>
      request.userText.includes("Use only these order facts")
        ? jsonAnswer(request, { orderId: "ORD-20417", status: "shipped", reply: "Hi Amira, your standing desk is on its way with DHL (tracking JD014600003828) and should arrive by 14 March." })
        : undefined,
  });
}

function routeCode(tool: string, route: string, args: string, reference: string): string {
  return `export async function run({ input, tools }) {
  const { email, triage } = input;
  const created = await tools.${tool}(${args});
  return { route: "${route}", reference: created.${reference}, acknowledgement: triage.acknowledgement };
}
`;
}

export function emailRouterPlayer(definitions: Definitions): DefinitionPlayer {
  const id = "inbox.route-email";
  const routeOutput = () => ({ mode: "object", schema: definitions.get(id)!.outputSchema });
  const route = (step: string, file: string) => ({
    id: step,
    uses: "code.run",
    needs: ["classify"],
    input: { email: "{{ input }}", triage: "{{ steps.classify.output }}" },
    with: { entrypoint: `${step}.js`, files: { [`${step}.js`]: codeFile(file) }, sandbox },
    output: routeOutput(),
  });
  return referencePlayer(definitions, {
    workflowId: id,
    models: ["router"],
    tools: ["createSalesLead", "createSupportTicket", "openBillingCase"],
    steps: (workflow) => {
      return [
        {
          id: "classify",
          uses: "ai.generate",
          needs: [],
          with: { model: "router", prompt: "Classify this email for our inbox router and draft a one-sentence acknowledgement.\nFrom: {{ input.from }}\nSubject: {{ input.subject }}\n\n{{ input.body }}" },
          output: {
            mode: "object",
            schema: strictObject({ route: { type: "string", enum: ["sales", "support", "billing"] }, company: { type: "string" }, summary: { type: "string" }, acknowledgement: { type: "string" } }),
          },
        },
        {
          id: "dispatch",
          uses: "decision",
          needs: ["classify"],
          with: {
            cases: [
              { when: "{{ steps.classify.output.route === 'sales' }}", to: "sales" },
              { when: "{{ steps.classify.output.route === 'billing' }}", to: "billing" },
            ],
            default: "support",
          },
        },
        route("sales", routeCode("createSalesLead", "sales", "{ contactEmail: email.from, company: triage.company, interest: triage.summary }", "leadId")),
        route("support", routeCode("createSupportTicket", "support", "{ customerEmail: email.from, subject: email.subject, summary: triage.summary }", "ticketId")),
        route("billing", routeCode("openBillingCase", "billing", "{ customerEmail: email.from, issue: triage.summary }", "caseId")),
      ];
    },
    answer: (request) =>
      request.userText.includes("Classify this email for our inbox router")
        ? jsonAnswer(request, { route: "sales", company: "Northwind Logistics", summary: "Pricing for about 40 Business seats, annual invoicing.", acknowledgement: "Thanks, Jonas — our sales team will send Business pricing shortly." })
        : undefined,
  });
}

const invoiceCode = `export async function run({ input }) {
  const amounts = input.lines.map((line) => Math.round(line.quantity * line.unitPriceCents * (1 - (line.discountPercent ?? 0) / 100)));
  const subtotalCents = amounts.reduce((sum, amount) => sum + amount, 0);
  const taxCents = Math.round((subtotalCents * input.taxRatePercent) / 100);
  return { invoiceId: input.invoiceId, lineCount: input.lines.length, subtotalCents, taxCents, totalCents: subtotalCents + taxCents };
}
`;

export function invoiceTotalsPlayer(definitions: Definitions): DefinitionPlayer {
  return referencePlayer(definitions, {
    workflowId: "finance.invoice-totals",
    models: [],
    tools: [],
    steps: (workflow) => [
      { id: "totals", uses: "code.run", needs: [], with: { entrypoint: "totals.js", files: { "totals.js": codeFile(invoiceCode) }, sandbox }, output: { mode: "object", schema: workflow.outputSchema } },
    ],
  });
}

const stockReportCode = `export async function run({ input }) {
  const products = input.map((entry) => ({ sku: entry.output.sku, name: entry.output.name, stock: entry.output.stock }));
  return { products, outOfStock: products.filter((product) => product.stock === 0).map((product) => product.sku) };
}
`;

const product = { type: "object", required: ["sku", "name", "stock"], properties: { sku: { type: "string" }, name: { type: "string" }, category: { type: "string" }, stock: { type: "integer" }, warehouse: { type: "string" } } };

export function catalogueStockCheckPlayer(definitions: Definitions): DefinitionPlayer {
  return referencePlayer(definitions, {
    workflowId: "catalogue.stock-check",
    models: [],
    tools: ["lookupProduct"],
    steps: (workflow) => [
      {
        id: "lookups",
        uses: "parallel",
        needs: [],
        with: { items: "{{ input.skus }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 50, maxConcurrency: 3, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "lookup", uses: "tool.call", with: { tool: "lookupProduct", args: { sku: "{{ item }}" } }, output: { mode: "object", schema: product } }],
        output: {
          mode: "array",
          schema: { type: "array", items: { type: "object", required: ["itemKey", "status", "artifacts", "output"], properties: { itemKey: { type: "string" }, status: { type: "string" }, output: product, outputRef: { type: "string" }, artifacts: { type: "array" } } } },
        },
      },
      {
        id: "report",
        uses: "code.run",
        needs: ["lookups"],
        input: "{{ steps.lookups.output }}",
        with: { entrypoint: "report.js", files: { "report.js": codeFile(stockReportCode) }, sandbox },
        output: { mode: "object", schema: workflow.outputSchema },
      },
    ],
  });
}

const candidateAngles = { time: "time saved", calm: "peace of mind", money: "money" } as const;
const taglines: Record<string, string> = { "time saved": "Books done in minutes, not weekends", "peace of mind": "Tax season, minus the panic", money: "Keep more of what you invoice" };
const assembleContestCode = `export async function run({ input }) {
  const candidates = [input.time.tagline, input.calm.tagline, input.money.tagline];
  return { candidates, winner: candidates[input.judge.winnerIndex], reason: input.judge.reason };
}
`;

export function taglineContestPlayer(definitions: Definitions): DefinitionPlayer {
  const tagline = strictObject({ tagline: { type: "string" } });
  return referencePlayer(definitions, {
    workflowId: "marketing.tagline-contest",
    models: ["copywriter", "judge"],
    tools: [],
    steps: (workflow) => [
      ...Object.entries(candidateAngles).map(([stepId, angle]) => ({
        id: stepId,
        uses: "ai.generate",
        needs: [],
        with: { model: "copywriter", prompt: `Write one tagline of at most {{ input.maxWords }} words for {{ input.product }}, for {{ input.audience }}. Angle: ${angle}.` },
        output: { mode: "object", schema: tagline },
      })),
      {
        id: "judge",
        uses: "ai.generate",
        needs: ["time", "calm", "money"],
        with: { model: "judge", prompt: "Pick the best tagline for {{ input.product }} ({{ input.audience }}, at most {{ input.maxWords }} words). 0: {{ steps.time.output.tagline }}\n1: {{ steps.calm.output.tagline }}\n2: {{ steps.money.output.tagline }}" },
        output: { mode: "object", schema: strictObject({ winnerIndex: { type: "integer", minimum: 0, maximum: 2 }, reason: { type: "string" } }) },
      },
      {
        id: "result",
        uses: "code.run",
        needs: ["time", "calm", "money", "judge"],
        input: { time: "{{ steps.time.output }}", calm: "{{ steps.calm.output }}", money: "{{ steps.money.output }}", judge: "{{ steps.judge.output }}" },
        with: { entrypoint: "result.js", files: { "result.js": codeFile(assembleContestCode) }, sandbox },
        output: { mode: "object", schema: workflow.outputSchema },
      },
    ],
    answer: (request) => {
      if (request.userText.includes("Pick the best tagline")) return jsonAnswer(request, { winnerIndex: 1, reason: "It names the feeling freelancers want most." });
      const angle = Object.keys(taglines).find((entry) => request.userText.includes(`Angle: ${entry}.`));
      return angle === undefined ? undefined : jsonAnswer(request, { tagline: taglines[angle] });
    },
  });
}

/** Breaks on "€ 7,5 coffee" (one decimal): the step fails and the fixer repairs it. */
const naiveParser = `export async function run({ input }) {
  const items = input.lines.map((line) => {
    const match = line.match(/(\\d+)[.,](\\d{2})/);
    if (match === null) throw new Error("no amount in line: " + line);
    return { description: line.replace(match[0], "").trim(), amountCents: Number(match[1]) * 100 + Number(match[2]) };
  });
  return { employee: input.employee, items, totalCents: items.reduce((sum, item) => sum + item.amountCents, 0) };
}
`;

export const repairedParser = `function cents(text) {
  const separator = Math.max(text.lastIndexOf(","), text.lastIndexOf("."));
  const decimals = separator >= 0 && text.length - separator - 1 <= 2 ? text.slice(separator + 1) : "";
  const whole = (decimals === "" ? text : text.slice(0, separator)).replace(/[.,]/g, "");
  return Number(whole) * 100 + Number((decimals + "00").slice(0, 2));
}
export async function run({ input }) {
  const items = input.lines.map((line) => {
    const match = line.match(/(?:€|EUR)\\s*(\\d[\\d.,]*)|(\\d[\\d.,]*)\\s*(?:€|EUR)/);
    if (match === null) throw new Error("no amount in line: " + line);
    const description = line.replace(match[0], "").replace(/[\\s.:\\-]+$/, "").trim();
    return { description: description || line.trim(), amountCents: cents(match[1] ?? match[2]) };
  });
  return { employee: input.employee, items, totalCents: items.reduce((sum, item) => sum + item.amountCents, 0) };
}
`;

export function messyExpensesPlayer(definitions: Definitions): DefinitionPlayer {
  const id = "finance.parse-expenses";
  return referencePlayer(definitions, {
    workflowId: id,
    models: ["coder"],
    tools: [],
    steps: (workflow) => {
      return [
        {
          id: "parse",
          uses: "code.run",
          needs: [],
          with: { entrypoint: "parse.js", files: { "parse.js": codeFile(naiveParser) }, sandbox },
          output: { mode: "object", schema: workflow.outputSchema },
          onFailure: { fixer: { model: "coder", maxAttempts: 2, system: "Repair the expense parser so it reads every line format in the input; keep amounts exact." } },
        },
      ];
    },
    fix: () => ({ toolCalls: [{ toolName: "try_fix", args: { files: { "parse.js": repairedParser } } }] }),
  });
}

export function newsletterSubjectPlayer(definitions: Definitions): DefinitionPlayer {
  return referencePlayer(definitions, {
    workflowId: "marketing.newsletter-subject",
    models: ["copywriter"],
    tools: [],
    // A later cycle's brief carries the checker's note; the plan then asks for a figure.
    steps: (workflow, request) => {
      const note = request.userText.includes("brand checker rejected") ? " It must carry one concrete figure, such as the version number." : "";
      return [
        {
          id: "subject",
          uses: "ai.generate",
          needs: [],
          with: { model: "copywriter", prompt: `Write the subject line of the {{ input.month }} Ledgerly newsletter, at most 50 characters, naming Ledgerly. News: {{ input.news }}.${note}` },
          output: { mode: "object", schema: workflow.outputSchema },
        },
      ];
    },
    answer: (request) => {
      if (!request.userText.includes("subject line of the")) return undefined;
      return jsonAnswer(request, { subject: request.userText.includes("concrete figure") ? "Ledgerly 4.2: CSV export and VAT on invoices" : "Ledgerly in March: CSV export, VAT on invoices" });
    },
  });
}
