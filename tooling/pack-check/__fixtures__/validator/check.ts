// The validator alone, from TypeScript (compiled with moduleResolution node16 and bundler): the
// document type, the finding-code union and the error class narrow as documented. Run from the
// project folder (files are read from the working directory).
import { readFileSync } from "node:fs";
import { assertValidLwir, LWIR_FINDING_CODES, LwirValidationError, validateLwir, type LwirDocument, type LwirFindingCode } from "@little-stack/lwir";

const document: unknown = JSON.parse(readFileSync("greeting.lwir.json", "utf8"));
assertValidLwir(document);
const typed: LwirDocument = document;
const stepIds: string[] = typed.steps.map((step) => step.id);

const result = validateLwir(JSON.parse(readFileSync("invalid.lwir.json", "utf8")));
const codes: LwirFindingCode[] = result.findings.map((finding) => finding.code);
const known = codes.every((code) => (LWIR_FINDING_CODES as readonly string[]).includes(code));

let findingCount = 0;
try {
  assertValidLwir({});
} catch (error) {
  if (LwirValidationError.is(error)) findingCount = error.findings.length; // narrowed: .findings is typed
}
console.log(JSON.stringify({ stepIds, codes, known, findingCount }));
