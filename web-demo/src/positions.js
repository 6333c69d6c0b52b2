// ra2 reports 1-based lines and columns counted in characters (Unicode code points), with an
// exclusive end; CodeMirror wants UTF-16 offsets into the document. `doc` is a CodeMirror Text
// (anything with `lines`, `line(n)` and `lineAt(pos)`).

/** @typedef {import('@codemirror/state').Text} Text */

/**
 * The offset of a 1-based line and character column, clamped into the document.
 * @param {Text} doc
 * @param {number} line
 * @param {number} column
 */
export function offsetAt(doc, line, column) {
  const number = Math.min(Math.max(Math.trunc(line) || 1, 1), doc.lines);
  const { from, text } = doc.line(number);
  let offset = 0;
  for (let chars = 1; chars < column && offset < text.length; chars += 1) {
    offset += (text.codePointAt(offset) ?? 0) > 0xffff ? 2 : 1;
  }
  return from + offset;
}

/**
 * The range a finding or error covers. A point (an error with no end, or an empty span) is
 * widened to the rest of its line, or to the whole line when it sits at the end, so that
 * there is always something to underline.
 * @param {Text} doc
 * @param {{ line: number, column: number, end_line?: number, end_column?: number }} span
 */
export function rangeOf(doc, { line, column, end_line: endLine, end_column: endColumn }) {
  let from = offsetAt(doc, line, column);
  let to = endLine ? offsetAt(doc, endLine, endColumn ?? 1) : from;
  if (to <= from) {
    const { from: start, to: end } = doc.lineAt(from);
    if (from < end) to = end;
    else {
      from = start;
      to = end;
    }
  }
  return { from, to };
}
