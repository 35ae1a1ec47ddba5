/**
 * CSV injection (OWASP "CSV Injection"): a spreadsheet runs a cell as a formula when it starts with = + - @, also
 * after leading spaces, tabs or line breaks, and a `;` inside a cell becomes a cell boundary in locales whose
 * list separator is `;` (the text after it then starts a cell of its own). So every segment of a cell — its start
 * and whatever follows a `;` or a line break — that begins, after any whitespace and quotes, with one of those
 * characters gets a `'` in front, which makes the spreadsheet show it as text.
 *
 * restoreFormula undoes exactly that (a segment already starting with `'` before such a character gets one more
 * quote on export and loses one on import), so an export imports back unchanged.
 *
 * @example neutraliseFormula('a; =cmd|x') === "a;' =cmd|x"
 */
const RISKY = /(?<=^|[;\r\n])(?=[\s']*[=+\-@])/g;
const ESCAPED = /(?<=^|[;\r\n])'(?=[\s']*[=+\-@])/g;

export function neutraliseFormula(cell: string): string {
  return cell.replace(RISKY, "'");
}

export function restoreFormula(cell: string): string {
  return cell.replace(ESCAPED, '');
}
