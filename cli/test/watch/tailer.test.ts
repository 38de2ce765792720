import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { CaptureTailer, type TailTarget } from '../../src/watch/tailer.js';

/** A line reader with in-memory offsets, standing in for the pipeline (the real one runs in watch.test.ts). */
function lineTarget(root: string) {
  const offsets = new Map<string, number>();
  const lines: string[] = [];
  const target: TailTarget = {
    name: 'lines',
    roots: () => [root],
    list: async () => {
      try {
        return readdirSync(root)
          .filter((f) => f.endsWith('.jsonl'))
          .map((f) => join(root, f))
          .sort();
      } catch {
        return [];
      }
    },
    ingest: async (file) => {
      const text = readFileSync(file, 'utf8');
      let offset = offsets.get(file) ?? 0;
      let reset: string | undefined;
      if (text.length < offset) {
        offset = 0;
        reset = 'truncated';
      }
      const end = text.lastIndexOf('\n') + 1;
      const fresh = end > offset ? text.slice(offset, end).split('\n').filter(Boolean) : [];
      lines.push(...fresh);
      offsets.set(file, Math.max(end, offset));
      return { events: fresh.length, reset };
    },
  };
  return { target, lines };
}

const until = async (check: () => boolean, what: string, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('watch/tailer', () => {
  it('reads existing files, then new files, appended lines, a truncated file and a root that appears later', async () => {
    const home = makeTempDir('tail-');
    const root = join(home, 'projects');
    const { target, lines } = lineTarget(root);
    const tailer = new CaptureTailer([target], { logger: silentLogger, pollMs: 200 });
    await tailer.start(); // the root does not exist yet
    expect(lines).to.deep.equal([]);

    mkdirSync(root);
    writeFileSync(join(root, 'a.jsonl'), 'a1\na2\n');
    await until(() => lines.length === 2, 'a.jsonl');

    appendFileSync(join(root, 'a.jsonl'), 'a3\npartial');
    await until(() => lines.length === 3, 'the appended line');
    appendFileSync(join(root, 'a.jsonl'), '-done\n');
    await until(() => lines.length === 4, 'the completed partial line');
    expect(lines).to.deep.equal(['a1', 'a2', 'a3', 'partial-done']);

    writeFileSync(join(root, 'b.jsonl'), 'b1\n');
    await until(() => lines.includes('b1'), 'the new file b.jsonl');

    writeFileSync(join(root, 'a.jsonl'), 'n1\n'); // truncated and rewritten
    await until(() => lines.includes('n1'), 'the truncated file');
    expect(tailer.stats.resets).to.equal(1);

    await tailer.stop();
    appendFileSync(join(root, 'b.jsonl'), 'after-stop\n');
    await new Promise((r) => setTimeout(r, 400));
    expect(lines).to.not.include('after-stop');
  });

  it('a rotated file (renamed away, a new one in its place) is read as a new file', async () => {
    const root = makeTempDir('rot-');
    const { target, lines } = lineTarget(root);
    writeFileSync(join(root, 's.jsonl'), 'x1\nx2\n');
    const tailer = new CaptureTailer([target], { logger: silentLogger, pollMs: 100 });
    await tailer.start();
    expect(lines).to.deep.equal(['x1', 'x2']);
    renameSync(join(root, 's.jsonl'), join(root, 's.1.log'));
    writeFileSync(join(root, 's.jsonl'), 'y1\n');
    await until(() => lines.includes('y1'), 'the rotated file');
    await tailer.stop();
  });

  it('a failing read is counted and retried on the next scan', async () => {
    const root = makeTempDir('fail-');
    writeFileSync(join(root, 'f.jsonl'), 'z\n');
    let calls = 0;
    const target: TailTarget = {
      name: 'flaky',
      roots: () => [root],
      list: async () => [join(root, 'f.jsonl')],
      ingest: async () => (++calls === 1 ? Promise.reject(new Error('disk')) : { events: 1 }),
    };
    const tailer = new CaptureTailer([target], { logger: silentLogger });
    await tailer.scan();
    await tailer.scan();
    expect(tailer.stats).to.include({ failures: 1, reads: 1, events: 1 });
    await tailer.scan(); // unchanged since the successful read: not read again
    expect(calls).to.equal(2);
  });
});
