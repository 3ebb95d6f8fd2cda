import { defineWorkflow, model } from "@little-stack/workflow";
import { z } from "zod";
import { expectText, isRecord, wordCount } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const maxWords = 8;

/** Level 8: three independent candidates, then a judge picks one. */
export const taglineContest: EvalDefinition = {
  name: "tagline-contest",
  level: 8,
  covers: "three independent ai.generate candidates → judge",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "marketing.tagline-contest",
      description: "Write three candidate taglines for a product from different angles, then pick the best one against the brief and say why.",
      input: z.object({ product: z.string(), audience: z.string(), maxWords: z.number().int().min(3).max(15) }),
      output: z.object({
        candidates: z.array(z.string()).min(3).max(3).describe("The three candidates, as written."),
        winner: z.string().describe("The chosen candidate, exactly as it appears in candidates."),
        reason: z.string().describe("One or two sentences."),
      }),
      models: [
        model(models("copywriter"), { id: "copywriter", description: "Creative model for short marketing copy." }),
        model(models("judge"), { id: "judge", description: "Careful model for comparing options against explicit criteria." }),
      ],
      planner: {
        model: models("planner"),
        system:
          "You design our copywriting workflows. Write the three candidates independently of each other — one about time saved, one about peace of mind, one about money — so none of them anchors the others, and let a separate judge choose. Every tagline has at most maxWords words.",
      },
    }),
    input: { product: "Ledgerly, bookkeeping software", audience: "freelancers who hate bookkeeping", maxWords },
  }),
  check: (output) => {
    if (!isRecord(output)) return verdict([`output should be an object, got ${JSON.stringify(output)}`]);
    const candidates = Array.isArray(output.candidates) ? output.candidates.map((entry) => (typeof entry === "string" ? entry.trim() : "")) : [];
    const normalized = candidates.map((entry) => entry.toLowerCase().replace(/[\s"'“”.!]+/g, " ").trim());
    const winner = typeof output.winner === "string" ? output.winner.toLowerCase().replace(/[\s"'“”.!]+/g, " ").trim() : "";
    return verdict([
      candidates.length !== 3 && `expected 3 candidates, got ${candidates.length}`,
      candidates.some((entry) => entry.length === 0) && "a candidate is empty",
      new Set(normalized).size !== normalized.length && `the candidates repeat each other: ${JSON.stringify(candidates)}`,
      candidates.some((entry) => wordCount(entry) > maxWords + 2) && `a candidate is far over ${maxWords} words: ${JSON.stringify(candidates)}`,
      !normalized.includes(winner) && `the winner ${JSON.stringify(output.winner)} is not one of the candidates`,
      expectText("reason", output.reason),
    ]);
  },
};
