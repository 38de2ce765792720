import { detachedString, identifierWords, type RetrievalDefinition } from '@agentgov/core';

/**
 * Turns code into FTS5 text: every identifier appears as its split words plus its whole
 * lower-cased form, so `parseHeaders` matches both "parse headers" and "parseheaders".
 */
export function codeText(text: string, cache: Map<string, string> = new Map()): string {
  const out: string[] = [];
  for (const token of text.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    let words = cache.get(token);
    if (words === undefined) {
      const parts = identifierWords(token);
      words = detachedString(parts.length > 1 ? `${parts.join(' ')} ${parts.join('')}` : (parts[0] ?? ''));
      cache.set(detachedString(token), words); // kept for the whole build: not a view into this file's text
    }
    if (words) out.push(words);
  }
  return out.join(' ');
}

/**
 * The columns of one definition's document, in the order of the `defs` FTS5 table. `bodyIsCodeText`: the body was
 * already turned into code text (the store splits each line of a file once).
 */
export function definitionDocument(
  def: RetrievalDefinition,
  body: string,
  cache?: Map<string, string>,
  options: { bodyIsCodeText?: boolean } = {},
): [string, string, string, string, string, string] {
  return [
    codeText(def.name, cache),
    codeText(def.qualified_name, cache),
    codeText(def.signature ?? '', cache),
    def.docstring ?? '',
    options.bodyIsCodeText ? body : codeText(body, cache),
    codeText(def.path, cache),
  ];
}
