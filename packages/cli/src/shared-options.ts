import { Option } from "clipanion";

/** The default local world folder, relative to the working directory (runtime.md § CLI). */
export const defaultDataDir = ".little-workflow";

/** `--data-dir DIR`: where the local world keeps runs. Every command accepts it. */
export function dataDirOption(): string {
  return Option.String("--data-dir", defaultDataDir, {
    description: `Folder of the local world (default ${defaultDataDir})`,
  });
}

/** `--json`: machine output on stdout (one JSON document, or NDJSON for streams). */
export function jsonOption(): boolean {
  return Option.Boolean("--json", false, {
    description: "Print machine-readable JSON on stdout instead of text",
  });
}
