import { expect } from 'chai';
import { identifierWords, vocabularyWords } from '../../src/text/identifier-words.js';

describe('identifierWords: code identifiers split into lower-case words', () => {
  it('splits camel case, acronyms, digits, snake case and dotted names', () => {
    expect(identifierWords('parseHTTPResponse2')).to.deep.equal(['parse', 'http', 'response', '2']);
    expect(identifierWords('parse_http_response')).to.deep.equal(['parse', 'http', 'response']);
    expect(identifierWords('ParseHttp.response')).to.deep.equal(['parse', 'http', 'response']);
    expect(identifierWords('_eval_is_zero')).to.deep.equal(['eval', 'is', 'zero']);
    expect(identifierWords('__init__')).to.deep.equal(['init']);
    expect(identifierWords('XMLHttpRequest')).to.deep.equal(['xml', 'http', 'request']);
    expect(identifierWords('utf8Decode')).to.deep.equal(['utf', '8', 'decode']);
    expect(identifierWords('v2beta1')).to.deep.equal(['v', '2', 'beta', '1']);
  });

  it('keeps one-word chunks whole: a word, a capitalised word, an acronym, a number', () => {
    expect(identifierWords('zero Zero HTTP 42 a A')).to.deep.equal(['zero', 'zero', 'http', '42', 'a', 'a']);
    expect(identifierWords('ZodType')).to.deep.equal(['zod', 'type']);
    expect(identifierWords('HTTPs')).to.deep.equal(['htt', 'ps']);
    expect(identifierWords('größe')).to.deep.equal(['gr', 'e']);
    expect(identifierWords('')).to.deep.equal([]);
  });
});

describe('vocabularyWords', () => {
  it('every token lowercased whole and its parts, first seen first; a repeated token, or its case, changes nothing', () => {
    expect([...vocabularyWords('parseHTTP(x); parseHTTP(y); parsehttp')]).to.deep.equal([
      'parsehttp',
      'parse',
      'http',
      'x',
      'y',
    ]);
    expect([...vocabularyWords('a_b A_B a_b')]).to.deep.equal(['a_b', 'a', 'b']);
    expect(vocabularyWords('').size).to.equal(0);
  });
});
