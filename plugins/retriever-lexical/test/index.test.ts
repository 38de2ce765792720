import { expect } from 'chai';
import { fixtureDef, MemoryRetrievalIndex } from '@agentgov/core/testing';
import type { RetrievalQuery } from '@agentgov/core';
import { createLexicalRetriever, queryWords } from '../src/index.js';
import { codeText } from '../src/documents.js';

function query(terms: string[], identifiers: string[] = []): RetrievalQuery {
  return { task: terms.join(' '), terms, identifiers, paths: [], quoted: [], seeds: [], pins: [] };
}

describe('retriever-lexical', () => {
  const texts = {
    'src/http/headers.ts': 'export function parseHeaders(raw) {\n  return raw.split("\\r\\n");\n}\n',
    'src/cache/store.ts':
      'export function evictEntries(store) {\n  store.clear();\n}\nexport function readEntry(k) {\n  return k;\n}\n',
    'src/big/module.ts':
      '// timeout handling for retries\nconst retryTimeout = 5;\nexport function tiny() {}\n' +
      'export function retryLater() {\n  return retryTimeout;\n}\n',
  };
  const defs = [
    fixtureDef('src/http/headers.ts', 'parseHeaders', 1, 3),
    fixtureDef('src/cache/store.ts', 'evictEntries', 1, 3),
    fixtureDef('src/cache/store.ts', 'readEntry', 4, 6),
    fixtureDef('src/big/module.ts', 'tiny', 3, 3),
    fixtureDef('src/big/module.ts', 'retryLater', 4, 6),
  ];
  const index = new MemoryRetrievalIndex(texts, defs);
  const retriever = createLexicalRetriever({ limit: 50, fileLimit: 10, fileWeight: 1, maxWords: 64 });

  it('splits identifiers into words and keeps the joined form', () => {
    expect(codeText('parseHTTPHeaders')).to.equal('parse http headers parsehttpheaders');
  });

  it('ranks the definition whose split name matches the words first (FTS5 bm25)', async () => {
    const out = await retriever.retrieve(query(['parse', 'headers']), { index });
    const best = [...out].sort((a, b) => b.score - a.score)[0];
    expect(best?.def_uid).to.equal('src/http/headers.ts#parseHeaders');
  });

  it('matches stemmed words (porter): "evicting" finds evictEntries', async () => {
    const out = await retriever.retrieve(query(['evicting']), { index });
    expect(out.map((c) => c.def_uid)).to.include('src/cache/store.ts#evictEntries');
  });

  it('represents a file that matches as a whole through one of its definitions', async () => {
    const out = await retriever.retrieve(query(['handling']), { index });
    expect(out.map((c) => [c.def_uid, c.why])).to.deep.include(['src/big/module.ts#retryLater', 'file']);
  });

  it('returns nothing for words the repository lacks, and for an empty query', async () => {
    expect(await retriever.retrieve(query(['zeppelin']), { index })).to.deep.equal([]);
    expect(await retriever.retrieve(query([]), { index })).to.deep.equal([]);
    expect(queryWords(query(['a'], ['getX']), 10)).to.deep.equal(['get']);
  });
});

describe('retriever-lexical: whole-file view', () => {
  it('ranks files by FTS5 bm25 over their whole text, one representative definition each', async () => {
    const { createLexicalFileRetriever } = await import('../src/index.js');
    const texts = {
      'a.ts': 'export function one() {\n  return 1;\n}\n// cookie cookie cookie expiry\n',
      'b.ts': 'export function cookieJar() {\n  return 2;\n}\nexport function other() {\n  return 3;\n}\n',
      'c.ts': 'export function unrelated() {\n  return 4;\n}\n',
    };
    const index = new MemoryRetrievalIndex(texts, [
      fixtureDef('a.ts', 'one', 1, 3),
      fixtureDef('b.ts', 'cookieJar', 1, 3),
      fixtureDef('b.ts', 'other', 4, 6),
      fixtureDef('c.ts', 'unrelated', 1, 3),
    ]);
    const retriever = createLexicalFileRetriever({ limit: 50, fileLimit: 10, fileWeight: 1, maxWords: 64 });
    const out = await retriever.retrieve(query(['cookie', 'expiry']), { index });
    expect(out.map((c) => c.def_uid)).to.deep.equal(['a.ts#one', 'b.ts#cookieJar']);
    expect(out[0]?.why).to.equal('file a.ts');
  });
});

describe('retriever-lexical: a store kept in the index cache', () => {
  it('is built once into the cache directory, reopened by a later process with the same answers, and replaced when the key changes', async () => {
    const { mkdtempSync, readdirSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { LexicalStore } = await import('../src/lexical-store.js');
    const dir = mkdtempSync(join(tmpdir(), 'lexical-cache-'));
    try {
      const texts = {
        'a.ts': 'export function parseHeaders() {\n  return 1;\n}\n// cookie expiry\n',
        'b.ts': 'export function cookieJar() {\n  return 2;\n}\n',
      };
      const defs = [fixtureDef('a.ts', 'parseHeaders', 1, 3), fixtureDef('b.ts', 'cookieJar', 1, 3)];
      const withCache = (key: string) =>
        Object.assign(new MemoryRetrievalIndex(texts, defs), { cache: { dir: join(dir, 'cache'), key } });
      const inMemory = new LexicalStore(new MemoryRetrievalIndex(texts, defs));
      const built = new LexicalStore(withCache('k1'));
      expect(built.reused).to.equal(false);
      expect(readdirSync(join(dir, 'cache'))).to.deep.equal(['lexical-1-k1.db']);
      const words = ['cookie', 'parse', 'headers'];
      const answers = (store: InstanceType<typeof LexicalStore>) => ({
        defs: store.searchDefinitions(words, 10),
        files: store.searchFiles(words, 10),
      });
      const expected = answers(inMemory);
      expect(answers(built)).to.deep.equal(expected);
      built.close();
      const reopened = new LexicalStore(withCache('k1'));
      expect(reopened.reused).to.equal(true);
      expect(answers(reopened)).to.deep.equal(expected);
      reopened.close();
      new LexicalStore(withCache('k2')).close();
      expect(readdirSync(join(dir, 'cache'))).to.deep.equal(['lexical-1-k2.db']);
      inMemory.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("retriever-lexical: the host's cache build", () => {
  it('a store written to the cache is built through `cache.build`, once; a reopened one does not call it', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { LexicalStore } = await import('../src/lexical-store.js');
    const dir = mkdtempSync(join(tmpdir(), 'lexical-build-'));
    try {
      const texts = { 'a.ts': 'export function parseHeaders() {\n  return 1;\n}\n' };
      const defs = [fixtureDef('a.ts', 'parseHeaders', 1, 3)];
      const builds: string[] = [];
      const withBuild = () =>
        Object.assign(new MemoryRetrievalIndex(texts, defs), {
          cache: {
            dir: join(dir, 'cache'),
            key: 'k1',
            build<T>(make: () => T): T {
              builds.push('start');
              const made = make();
              builds.push('end');
              return made;
            },
          },
        });
      const built = new LexicalStore(withBuild());
      expect(builds).to.deep.equal(['start', 'end']);
      expect(built.searchDefinitions(['headers'], 5).map((hit) => hit.def_uid)).to.deep.equal(['a.ts#parseHeaders']);
      built.close();
      new LexicalStore(withBuild()).close();
      expect(builds, 'reopened, not built again').to.deep.equal(['start', 'end']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('retriever-lexical: the documents of the store', () => {
  it("a file's document holds every line's words; a definition's, its own lines but not a nested one's", async () => {
    const { LexicalStore } = await import('../src/lexical-store.js');
    const texts = {
      'src/shape.ts':
        'export class Shape {\n  cornerCount = 4;\n  area() {\n    return quuxFactor;\n  }\n}\nconst tail = 1;\n',
    };
    const store = new LexicalStore(
      new MemoryRetrievalIndex(texts, [
        fixtureDef('src/shape.ts', 'Shape', 1, 6),
        fixtureDef('src/shape.ts', 'area', 3, 5),
      ]),
    );
    try {
      const hits = (words: string[]) => store.searchDefinitions(words, 10).map((hit) => hit.def_uid);
      expect(hits(['quux'])).to.deep.equal(['src/shape.ts#area']);
      expect(hits(['quuxfactor'])).to.deep.equal(['src/shape.ts#area']);
      expect(hits(['corner'])).to.deep.equal(['src/shape.ts#Shape']);
      expect(hits(['tail']), 'a line no definition spans is in no definition').to.deep.equal([]);
      expect(store.filesWithAll(['corner', 'count', 'cornercount', 'quux', 'factor', 'tail'])).to.deep.equal([
        'src/shape.ts',
      ]);
      expect(store.filesWithAll(['factor', 'tail']), 'each line ends its last word').to.deep.equal(['src/shape.ts']);
      expect(store.filesWithAll(['countarea']), 'no word across a line break').to.deep.equal([]);
    } finally {
      store.close();
    }
  });
});
