import { expect } from 'chai';
import { fixtureDef, MemoryRetrievalIndex } from '@agentgov/core/testing';
import type { RetrievalQuery } from '@agentgov/core';
import { createLiteralRetriever, literalOffsets, taskLiterals } from '../src/literal.js';
import { LexicalStore } from '../src/lexical-store.js';

function query(task: string, identifiers: string[] = []): RetrievalQuery {
  return { task, terms: [], identifiers, paths: [], quoted: [], seeds: [], pins: [] };
}

describe('retriever-lexical: literals of a task', () => {
  it('takes flags, quoted spans without spaces and identifiers; leaves prose and hyphenated words', () => {
    const task =
      "cli: document that `-c/--count` is inconsistent with -l/--files-with-matches; nuke 'simd-accel', " +
      'it\'s a straight-forward fix of `Pool` and "print matching paths" -x';
    expect(taskLiterals(query(task, ['has_match']))).to.deep.equal([
      '-c/--count',
      '--count',
      '-l/--files-with-matches',
      '--files-with-matches',
      'simd-accel',
      'Pool',
      'has_match',
    ]);
  });

  it('finds a literal only where it stands alone', () => {
    const text = 'a --count b --count-matches c x--count d "--count"';
    expect(literalOffsets(text, '--count')).to.deep.equal([2, 42]);
    expect(literalOffsets('PoolGuard Pool<T>', 'Pool')).to.deep.equal([10]);
  });

  it('credits the definition a rare literal documents, and drops a literal of too many files', async () => {
    const texts: Record<string, string> = {
      'src/defs.rs': 'struct Other;\n\n/// -c/--count\nstruct Count;\n',
      'src/count.rs': 'fn count_matches() -> usize {\n    0\n}\n',
    };
    const defs = [
      fixtureDef('src/defs.rs', 'Other', 1, 1),
      fixtureDef('src/defs.rs', 'Count', 4, 4),
      fixtureDef('src/count.rs', 'count_matches', 1, 3),
    ];
    for (let i = 0; i < 3; i += 1) {
      texts[`src/f${i}.rs`] = `// uses Widget\nfn f${i}() {}\n`;
      defs.push(fixtureDef(`src/f${i}.rs`, `f${i}`, 2, 2));
    }
    const index = new MemoryRetrievalIndex(texts, defs);
    const store = new LexicalStore(index);
    const retriever = createLiteralRetriever({ maxFiles: 2, limit: 10 }, () => store);
    const found = await retriever.retrieve(query('is `-c/--count` right?'), { index });
    expect(found.map((c) => c.def_uid)).to.deep.equal(['src/defs.rs#Count']);
    expect(found[0]?.why).to.equal('as written: -c/--count, --count');
    expect(await retriever.retrieve(query('rename `Widget`'), { index })).to.deep.equal([]);
  });
});
