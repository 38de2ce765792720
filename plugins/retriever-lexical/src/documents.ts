import { identifierWords, type RetrievalDefinition } from '@agentgov/core';

/**
 * Turns code into FTS5 text: every identifier appears as its split words plus its whole
 * lower-cased form, so `parseHeaders` matches both "parse headers" and "parseheaders".
 */
export function codeText(text: string): string {
  const out: string[] = [];
  for (const token of text.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    const words = identifierWords(token);
    out.push(...words);
    if (words.length > 1) out.push(words.join(''));
  }
  return out.join(' ');
}

/** The columns of one definition's document, in the order of the `defs` FTS5 table. */
export function definitionDocument(def: RetrievalDefinition, body: string): [string, string, string, string, string, string] {
  return [codeText(def.name), codeText(def.qualified_name), codeText(def.signature ?? ''), def.docstring ?? '', codeText(body), codeText(def.path)];
}
