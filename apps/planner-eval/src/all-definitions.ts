import { addressBatch } from "./definitions/address-batch.js";
import { basketInCurrency } from "./definitions/basket-in-currency.js";
import { catalogueStockCheck } from "./definitions/catalogue-stock-check.js";
import { coverLetterReview } from "./definitions/cover-letter-review.js";
import { emailRouter } from "./definitions/email-router.js";
import { invoiceTotals } from "./definitions/invoice-totals.js";
import { messyExpenses } from "./definitions/messy-expenses.js";
import { newsletterSubject } from "./definitions/newsletter-subject.js";
import { orderStatusReply } from "./definitions/order-status-reply.js";
import { releaseNotesSummary } from "./definitions/release-notes-summary.js";
import { taglineContest } from "./definitions/tagline-contest.js";
import { ticketTriage } from "./definitions/ticket-triage.js";
import type { EvalDefinition } from "./eval-definition.js";

/** Every evaluation, easiest first. */
export const allDefinitions: readonly EvalDefinition[] = [
  releaseNotesSummary,
  ticketTriage,
  orderStatusReply,
  emailRouter,
  invoiceTotals,
  basketInCurrency,
  catalogueStockCheck,
  taglineContest,
  coverLetterReview,
  messyExpenses,
  newsletterSubject,
  addressBatch,
];
