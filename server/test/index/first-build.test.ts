import { expect } from 'chai';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import type { IndexProgress } from '../../src/index/types.js';
import { gitRepo, LANGUAGES, memoryLogger, removeRepos } from './fixture-repos.js';

/** A generated repository big enough that its first build spans many event-loop turns. */
function generatedRepo(files: number): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let i = 0; i < files; i++) {
    const next = (i + 1) % files;
    const body = Array.from(
      { length: 20 },
      (_, j) => `export function f${i}_${j}(x: number): number {\n  return g${next}(x) + ${j};\n}\n`,
    ).join('\n');
    tree[`src/m${i}.ts`] =
      `import { g${next} } from './m${next}';\n\n/** Module ${i}. */\nexport function g${i}(x: number): number {\n  return x * ${i};\n}\n\n${body}`;
  }
  return tree;
}

describe('repository index: first build of a large repository', () => {
  let index: RepositoryIndex;
  after(async () => {
    await index?.close();
    removeRepos();
  });

  it('is not ready and reports progress (done/total) until the first build commits', async () => {
    const root = gitRepo(generatedRepo(400));
    const seen: IndexProgress[] = [];
    index = await openRepositoryIndex({ root, languages: LANGUAGES, logger: memoryLogger().logger });
    index.on('progress', (progress: IndexProgress) => seen.push(progress));
    expect(index.isReady()).to.equal(false);
    const midway = await new Promise<IndexProgress>((resolve) => {
      const listener = (progress: IndexProgress) => {
        if (progress.phase === 'parsing' && progress.done > 0 && progress.done < progress.total) {
          index.off('progress', listener);
          resolve(progress);
        }
      };
      index.on('progress', listener);
    });
    expect(index.isReady()).to.equal(false);
    expect(midway.total).to.equal(400);
    expect(index.progress().phase).to.not.equal('ready');
    await index.ready;
    expect(index.isReady()).to.equal(true);
    expect(index.progress()).to.deep.equal({ done: 400, total: 400, phase: 'ready' });
    expect(index.stats()).to.include({ files: 400, definitions: 400 * 21 });
    const dones = seen.filter((progress) => progress.phase === 'parsing').map((progress) => progress.done);
    expect(dones).to.deep.equal([...dones].sort((a, b) => a - b));
    expect(index.epoch()).to.equal(1);
  });
});
