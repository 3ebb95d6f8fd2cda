/**
 * Workflow ids, run ids and pipeline keys become single directory names under the data dir. This
 * is the one rule for them: start with a letter or digit, then letters, digits, `.`, `_`, `-`;
 * at most 128 characters. It excludes `/`, `\`, `..`-only names, NUL and anything a shell or a
 * Windows file system would treat specially.
 */
const storeNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** `undefined` when `name` is usable as one directory name, else the problem in words. */
export function checkStoreName(name: string): string | undefined {
  if (storeNamePattern.test(name)) return undefined;
  if (name.length === 0) return "is empty";
  if (name.length > 128) return "is longer than 128 characters";
  return "must start with a letter or digit and contain only letters, digits, '.', '_' and '-'";
}
