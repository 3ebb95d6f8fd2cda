/**
 * The README code blocks the pack check typechecks against the packed types: every ```ts block
 * that imports one of our packages (`from "@little-stack/…"`) is a complete example a user may
 * paste, and must compile. A block that is deliberately a fragment says so in its info string
 * (```ts fragment) and is skipped; blocks without such an import are fragments already.
 */
export type ReadmeBlock = {
  /** Which README (repo-relative) and the 1-based line the block's code starts on. */
  readonly readme: string;
  readonly line: number;
  readonly code: string;
};

const fence = /^```(\S*)(.*)$/;

export function checkedReadmeBlocks(readme: string, text: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const lines = text.split("\n");
  let open: { readonly language: string; readonly info: string; readonly start: number; readonly body: string[] } | undefined;
  lines.forEach((line, index) => {
    const match = fence.exec(line);
    if (open === undefined) {
      if (match !== null) open = { language: match[1]!, info: match[2]!.trim(), start: index + 2, body: [] };
      return;
    }
    if (line.trim() === "```") {
      const code = open.body.join("\n");
      const isTypeScript = open.language === "ts" || open.language === "typescript";
      if (isTypeScript && !/\bfragment\b/.test(open.info) && /from\s+["']@little-stack\//.test(code)) blocks.push({ readme, line: open.start, code });
      open = undefined;
      return;
    }
    open.body.push(line);
  });
  return blocks;
}
