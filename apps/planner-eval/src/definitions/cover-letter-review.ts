import { defineWorkflow, model } from "@little-stack/workflow";
import { z } from "zod";
import { isRecord, mentions, wordCount } from "../check-helpers.js";
import { verdict, type EvalDefinition } from "../eval-definition.js";

const maxWords = 150;

/** Level 9: draft → critique → decision, with a back-edge to the draft (a bounded review loop). */
export const coverLetterReview: EvalDefinition = {
  name: "cover-letter-review",
  level: 9,
  covers: "review loop: draft → critique → decision back-edge (maxVisits)",
  build: (models) => ({
    kind: "workflow",
    workflow: defineWorkflow({
      id: "careers.cover-letter",
      description: "Write a cover letter for a job application and have it reviewed and revised until the reviewer approves it (at most three drafts).",
      input: z.object({
        company: z.string(),
        role: z.string(),
        candidateName: z.string(),
        highlights: z.array(z.string()).min(1).describe("Facts about the candidate the letter may use."),
        maxWords: z.number().int(),
      }),
      output: z.object({ letter: z.string() }),
      models: [
        model(models("writer"), { id: "writer", description: "Writes and revises professional letters." }),
        model(models("reviewer"), { id: "reviewer", description: "Strict reviewer: checks a text against a checklist and lists concrete fixes." }),
      ],
      planner: {
        model: models("planner"),
        system:
          "You design our application-writing workflows. A writer drafts the letter; a reviewer checks it against this checklist: names the company and the role, at most maxWords words, at least one concrete achievement from the highlights, no clichés ('team player', 'passionate'), signed with the candidate's name. If the reviewer rejects the draft, the writer revises it using the reviewer's notes. At most three drafts; the last approved (or last) draft is the answer.",
      },
    }),
    input: {
      company: "Northwind Logistics",
      role: "Senior Data Analyst",
      candidateName: "Priya Raman",
      highlights: [
        "Cut monthly reporting time from 5 days to 1 by automating the finance close dashboards",
        "Led a forecasting model for warehouse staffing that reduced overtime by 18%",
        "6 years of SQL and Python; mentors two junior analysts",
      ],
      maxWords,
    },
  }),
  check: (output) => {
    if (!isRecord(output) || typeof output.letter !== "string") return verdict([`output should be { letter: string }, got ${JSON.stringify(output)}`]);
    const letter = output.letter;
    const words = wordCount(letter);
    return verdict([
      !mentions(letter, "Northwind") && "the letter does not name the company",
      !mentions(letter, "Data Analyst") && "the letter does not name the role",
      !mentions(letter, "Priya") && "the letter is not signed with the candidate's name",
      words > maxWords + 10 && `the letter has ${words} words (at most ${maxWords})`,
      words < 40 && `the letter has only ${words} words`,
    ]);
  },
};
