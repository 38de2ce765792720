/** A chunk that the camel-case and digit splits below leave whole: a word, an acronym or a number. */
const ONE_WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$/;

/**
 * Splits code identifiers into lower-case words, so `parseHTTPResponse2`, `parse_http_response`
 * and `ParseHttp.response` all share the words retrievers and the query parser match on.
 * Shared by the recon query parser and every retriever plugin, so both sides split the same way.
 */
export function identifierWords(text: string): string[] {
  const words: string[] = [];
  for (const chunk of text.split(/[^A-Za-z0-9]+/)) {
    if (!chunk) continue;
    // Most chunks are one word already (`eval`, `Zero`, `HTTP`): nothing below would split them.
    if (ONE_WORD.test(chunk)) {
      words.push(chunk.toLowerCase());
      continue;
    }
    const spaced = chunk
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/([A-Za-z])([0-9])/g, '$1 $2')
      .replace(/([0-9])([A-Za-z])/g, '$1 $2');
    for (const word of spaced.split(' ')) if (word) words.push(word.toLowerCase());
  }
  return words;
}

/** True when a token looks like code rather than prose: camelCase, snake_case, dotted or called. */
export function isCodeShaped(token: string): boolean {
  if (/^[A-Za-z_$][\w$]*\(\)?$/.test(token) && token.includes('(')) return true;
  if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(token)) return true;
  if (/^_*[a-z][a-z0-9]*_[a-z0-9_]+$/i.test(token)) return true;
  if (/^[a-z]+[A-Z][A-Za-z0-9]*$/.test(token)) return true;
  if (/^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/.test(token)) return true;
  if (/^__\w+__$/.test(token)) return true;
  return false;
}

/**
 * The words of a text as a case-insensitive vocabulary: every identifier-like token lowercased whole,
 * and its parts (`ZodLiteral` → `zodliteral`, `zod`, `literal`).
 */
export function vocabularyWords(text: string): Set<string> {
  const words = new Set<string>();
  // A token that occurred before in the text adds nothing new: each distinct one is split once.
  const seen = new Set<string>();
  for (const token of text.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    if (seen.has(token)) continue;
    seen.add(token);
    words.add(token.toLowerCase());
    for (const part of identifierWords(token)) words.add(part);
  }
  return words;
}

/**
 * A copy of `text` that does not keep the string it was cut from alive. V8 represents a substring of 13 or more
 * characters (a regular-expression match, a slice) as a view into its parent; a long-lived set or map of words
 * matched out of file texts would otherwise hold every file's whole text. Concatenation makes a new string that the
 * slice then flattens: only the word's own characters are kept.
 */
export function detachedString(text: string): string {
  return ` ${text}`.slice(1);
}
