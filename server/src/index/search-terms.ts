/**
 * Term splitting shared by the FTS documents and whoever queries them: `getHTTPResponse2` →
 * `get http response 2`, `snake_case_name` → `snake case name`. Keep queries and documents on the
 * same function or BM25 matches nothing.
 */
export function identifierTerms(identifier: string): string[] {
  const parts = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.toLowerCase());
  const whole = identifier.toLowerCase().replace(/[^a-z0-9_]/g, '');
  return parts.length > 1 && whole ? [...parts, whole] : parts;
}

/** `src/core/parseTree.ts` → `src core parse tree ts`. */
export function pathTerms(path: string): string[] {
  return path.split(/[/\\.-]+/).flatMap(identifierTerms);
}

/** A file's FTS documents, computed where the file is extracted (a worker thread, for large builds). */
export interface SearchDocuments {
  /** pathTerms of the file's path, joined. */
  pathTerms: string;
  /** Per definition, in the file's definition order: its name terms and the terms of its body's identifiers. */
  definitions: Array<{ nameTerms: string; body: string }>;
  /** Terms of every identifier the file's definitions use, and their names. */
  identifiers: string;
}

/** Identifiers repeat across a file and across files: their terms are split once (per thread). */
const TERMS_CACHE = new Map<string, string>();
const TERMS_CACHE_LIMIT = 100_000;

/** The terms of every identifier, joined: each identifier's terms split once (cached) and joined by spaces. */
function termsText(identifiers: Iterable<string>): string {
  const out: string[] = [];
  for (const identifier of identifiers) {
    let terms = TERMS_CACHE.get(identifier);
    if (terms === undefined) {
      if (TERMS_CACHE.size >= TERMS_CACHE_LIMIT) TERMS_CACHE.clear();
      terms = identifierTerms(identifier).join(' ');
      TERMS_CACHE.set(identifier, terms);
    }
    if (terms.length > 0) out.push(terms);
  }
  return out.join(' ');
}

export function searchDocuments(
  path: string,
  definitions: ReadonlyArray<{ name: string; bodyIdentifiers: readonly string[] }>,
): SearchDocuments {
  const fileIdentifiers = new Set<string>();
  const documents = definitions.map((def) => {
    for (const identifier of def.bodyIdentifiers) fileIdentifiers.add(identifier);
    fileIdentifiers.add(def.name);
    return { nameTerms: termsText([def.name]), body: termsText(def.bodyIdentifiers) };
  });
  return { pathTerms: pathTerms(path).join(' '), definitions: documents, identifiers: termsText(fileIdentifiers) };
}
