// The validator alone, from plain JavaScript: a valid and an invalid document.
import { readFileSync } from "node:fs";
import { assertValidLwir, LwirValidationError, validateLwir } from "@little-stack/lwir";

const read = (name) => JSON.parse(readFileSync(new URL(name, import.meta.url), "utf8"));
const valid = validateLwir(read("./greeting.lwir.json"));
const invalid = validateLwir(read("./invalid.lwir.json"));
let thrown;
try {
  assertValidLwir(read("./invalid.lwir.json"));
} catch (error) {
  thrown = error;
}
console.log(JSON.stringify({
  valid: valid.valid,
  invalidCodes: invalid.findings.map((finding) => finding.code),
  thrownIsLwirValidationError: LwirValidationError.is(thrown),
}));
