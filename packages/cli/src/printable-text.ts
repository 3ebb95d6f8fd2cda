/**
 * Text from runs — step ids, guest error messages, model names — printed for a person, with every
 * control character shown as an escape (`\x1b`, `\r`, `\b`, `\x9b` …) instead of being sent to the
 * terminal, where CR, backspace, ESC/CSI and OSC sequences would rewrite or hide what is shown.
 * C0 controls, DEL and the C1 range are escaped; `\n` and `\t` too, because every caller prints a
 * single line or a table cell. JSON output needs none of this: JSON.stringify escapes controls.
 */
export function printable(text: string): string {
  return controlCharacters.test(text) ? text.replace(controlCharactersGlobal, escapeOf) : text;
}

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const controlCharactersGlobal = /[\u0000-\u001f\u007f-\u009f]/g;

const named: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "\v": "\\v", "\u0000": "\\0" };

function escapeOf(character: string): string {
  return named[character] ?? `\\x${character.charCodeAt(0).toString(16).padStart(2, "0")}`;
}
