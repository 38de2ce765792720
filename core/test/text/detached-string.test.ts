import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { detachedString } from '../../src/text/identifier-words.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A word matched out of a 1 MB text that nothing else holds, passed through `copy`. */
function wordOfLargeText(copy: (word: string) => string): string {
  const text = `${'x'.repeat(1_000_000)} a_long_identifier_name ${Math.random()}`;
  const word = (text.match(/[\w$]+/g) ?? [])[1] as string;
  return copy(word);
}

describe('detachedString: a word that does not keep the text it was matched from', () => {
  it('has the same characters', () => {
    expect(detachedString('a_long_identifier_name')).to.equal('a_long_identifier_name');
    expect(detachedString('')).to.equal('');
    expect(detachedString('é∑ word')).to.equal('é∑ word');
  });

  it('lets a large text be collected while the word is kept (heap used, measured around a full GC)', () => {
    const sizeAfter = (copy: (word: string) => string) => {
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      const kept = Array.from({ length: 20 }, () => wordOfLargeText(copy));
      collectGarbage();
      const grown = process.memoryUsage().heapUsed - before;
      expect(kept.every((w) => w === 'a_long_identifier_name')).to.equal(true);
      return grown;
    };
    const asMatched = sizeAfter((word) => word);
    const detached = sizeAfter(detachedString);
    // 20 texts of 1 MB: kept alive through plain matches, not through detached copies.
    expect(asMatched).to.be.greaterThan(15_000_000);
    expect(detached).to.be.lessThan(2_000_000);
  });
});
