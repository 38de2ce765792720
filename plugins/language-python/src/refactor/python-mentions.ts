/** Ranges (start, end offsets) of comments and string literals in Python source, by a small lexer (no parse needed). */
export function commentAndStringRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '#') {
      const end = text.indexOf('\n', i);
      ranges.push([i, end === -1 ? text.length : end]);
      i = end === -1 ? text.length : end;
    } else if (ch === '"' || ch === "'") {
      const triple = text.startsWith(ch.repeat(3), i);
      const quote = triple ? ch.repeat(3) : ch;
      let j = i + quote.length;
      while (j < text.length) {
        if (text[j] === '\\') j += 2;
        else if (text.startsWith(quote, j)) break;
        else if (!triple && text[j] === '\n') break;
        else j += 1;
      }
      const end = Math.min(text.length, j + quote.length);
      ranges.push([i, end]);
      i = end;
    } else i += 1;
  }
  return ranges;
}

/** Whole-word occurrences of `name` inside comments and strings: [line (1-based), column]. */
export function mentionsOf(text: string, name: string): Array<[number, number]> {
  if (!text.includes(name)) return [];
  const found: Array<[number, number]> = [];
  const word = new RegExp(`(?<![\\w.])${name}(?!\\w)`, 'g');
  const lineStarts = [0];
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) lineStarts.push(k + 1);
  const position = (offset: number): [number, number] => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, offset - lineStarts[lo]!];
  };
  for (const [start, end] of commentAndStringRanges(text)) {
    const slice = text.slice(start, end);
    if (!slice.includes(name)) continue;
    for (const match of slice.matchAll(word)) found.push(position(start + match.index));
  }
  return found;
}
