// Single-point mutants of non-test source: flip a comparison or boolean operator, change a
// constant, or delete a statement. One mutant changes one line; line count never changes.
import { seededRandom } from '@agentgov/core';

const JS_OPERATORS = [
  ['===', '!=='],
  ['!==', '==='],
  [' == ', ' != '],
  [' != ', ' == '],
  [' <= ', ' > '],
  [' >= ', ' < '],
  [' < ', ' >= '],
  [' > ', ' <= '],
  ['&&', '||'],
  ['||', '&&'],
];
const PY_OPERATORS = [
  [' == ', ' != '],
  [' != ', ' == '],
  [' <= ', ' > '],
  [' >= ', ' < '],
  [' < ', ' >= '],
  [' > ', ' <= '],
  [' and ', ' or '],
  [' or ', ' and '],
  [' is not ', ' is '],
  [' not in ', ' in '],
];

/** Whether offset `at` of `line` lies outside string literals (quote counting; good enough for mutant sampling). */
function outsideStrings(line, at) {
  let quote = null;
  for (let i = 0; i < at; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
  }
  return quote === null;
}

function* occurrences(line, needle) {
  for (let at = line.indexOf(needle); at >= 0; at = line.indexOf(needle, at + 1)) yield at;
}

/** Every mutation point of a file: `{ file, line, kind, before, after }`. */
export function mutationPoints(file, text) {
  const python = file.endsWith('.py');
  const points = [];
  const lines = text.split('\n');
  let inDocstring = false;
  let inBlockComment = false;
  lines.forEach((source, index) => {
    const line = index + 1;
    const trimmed = source.trim();
    if (python) {
      const quotes = (trimmed.match(/"""|'''/g) ?? []).length;
      if (inDocstring || quotes) {
        if (quotes % 2 === 1) inDocstring = !inDocstring;
        return;
      }
      if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith('@')) return;
    } else {
      if (inBlockComment) {
        if (trimmed.includes('*/')) inBlockComment = false;
        return;
      }
      if (trimmed.startsWith('/*')) {
        inBlockComment = !trimmed.includes('*/');
        return;
      }
      if (!trimmed || trimmed.startsWith('//') || trimmed.startsWith('*')) return;
    }
    const code = python ? source.replace(/\s#.*$/, '') : source.replace(/\s\/\/.*$/, '');
    for (const [from, to] of python ? PY_OPERATORS : JS_OPERATORS) {
      for (const at of occurrences(code, from)) {
        if (!outsideStrings(code, at)) continue;
        // `==` inside `===`, `<` inside `<<` or `=>`: only whole operators.
        if (!python && (from === ' == ' || from === ' != ') && (code[at - 1] === '=' || code[at + from.length] === '='))
          continue;
        points.push({
          file,
          line,
          kind: 'operator',
          before: source,
          after: source.slice(0, at) + to + source.slice(at + from.length),
        });
      }
    }
    const [t, f] = python ? ['True', 'False'] : ['true', 'false'];
    for (const [from, to] of [
      [t, f],
      [f, t],
    ]) {
      for (const at of occurrences(code, from)) {
        if (!outsideStrings(code, at) || /[\w$]/.test(code[at - 1] ?? '') || /[\w$]/.test(code[at + from.length] ?? ''))
          continue;
        points.push({
          file,
          line,
          kind: 'constant',
          before: source,
          after: source.slice(0, at) + to + source.slice(at + from.length),
        });
      }
    }
    for (const match of code.matchAll(/(?<![\w$.])(\d+)(?![\w$.])/g)) {
      if (!outsideStrings(code, match.index)) continue;
      const value = Number(match[1]);
      points.push({
        file,
        line,
        kind: 'constant',
        before: source,
        after: source.slice(0, match.index) + String(value + 1) + source.slice(match.index + match[1].length),
      });
    }
    const indent = source.slice(0, source.length - source.trimStart().length);
    if (python) {
      const next = lines.slice(index + 1).find((l) => l.trim() !== '') ?? '';
      const nextIndent = next.length - next.trimStart().length;
      const simple =
        !/[:\\,([{]$/.test(trimmed) &&
        !new RegExp(
          String.raw`^(return|raise|yield|def |class |if |elif |` +
            String.raw`else|for |while |try|except|finally|with |` +
            String.raw`import |from |pass|break|continue|@|\)|\]|` +
            String.raw`\})`,
        ).test(trimmed);
      if (simple && nextIndent <= indent.length && !/^[)\]}]/.test(trimmed))
        points.push({ file, line, kind: 'delete', before: source, after: `${indent}pass` });
    } else if (
      /;\s*$/.test(trimmed) &&
      !/^(var|let|const|return|throw|break|continue|}|\)|case|default)\b/.test(trimmed) &&
      /^[\w$.[\]'"]+\s*(\(|=[^=>])/.test(trimmed) &&
      !trimmed.includes('function')
    ) {
      points.push({ file, line, kind: 'delete', before: source, after: `${indent};` });
    }
  });
  return points;
}

/** A seeded PRNG, so a bench run picks the same mutants every time. */
export const random = seededRandom;

/** `count` points drawn without replacement, seeded. */
export function sample(points, count, seed) {
  const next = random(seed);
  const pool = [...points];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}
