import { appendFileSync, closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createPluginHost, GovernanceDb, loadConfig, silentLogger, type FrameworkAdapter } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { CLI_PACKAGE_DIR } from '../../src/package-info.js';
import { createPipeline, type Pipeline } from '../../src/pipeline/pipeline.js';
import { CaptureTailer } from '../../src/watch/tailer.js';

/** One agentx-code transcript line holding one Bash call. */
const call = (id: string, command: string, extra = '') =>
  `{"type":"assistant","sessionId":"probe","uuid":"u-${id}","timestamp":"2026-11-23T10:00:00.000Z","cwd":"/work/p","message":{"role":"assistant","content":[{"type":"tool_use","id":"${id}","name":"Bash","input":{"command":"${command}${extra}"}}]}}\n`;

/** A line whose bytes are not valid UTF-8 (a stray 0xff and a cut 3-byte sequence inside a string). */
const invalidUtf8Line = (id: string): Buffer =>
  Buffer.concat([
    Buffer.from(call(id, 'echo ').slice(0, -7)),
    Buffer.from([0xff, 0xe2, 0x82, 0xfe]),
    Buffer.from('"}}]}}\n'),
  ]);

interface Harness {
  pipeline: Pipeline;
  db: GovernanceDb;
  dir: string;
  adapter: FrameworkAdapter;
  commands(): string[];
}

async function harness(): Promise<Harness> {
  const dir = makeTempDir('ingest-');
  writeFileSync(join(dir, 'agentgov.yaml'), 'plugins:\n  - "@agentgov/plugin-framework-agentx"\n');
  const loaded = loadConfig({ configPath: join(dir, 'agentgov.yaml') });
  const host = await createPluginHost({
    loaded,
    bundled: [],
    resolveFrom: [CLI_PACKAGE_DIR],
    host: 'cli',
    logger: silentLogger,
  });
  const db = GovernanceDb.open(join(dir, 'system.db'));
  const pipeline = await createPipeline({ host, loaded, db, logger: silentLogger, emitDuplicates: false });
  const adapter = host.registries.frameworks.get('agentx-code') as FrameworkAdapter;
  const commands = () =>
    db.sqlite.prepare(`SELECT json_extract(arguments, '$.command') FROM events ORDER BY id`).pluck().all() as string[];
  return { pipeline, db, dir, adapter, commands };
}

/** Rewrites a file in place: same inode, new bytes from offset 0 (what `cp` over an open file or an editor's save does). */
function rewriteInPlace(file: string, text: string): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, text, 0);
  closeSync(fd);
}

const until = async (check: () => boolean, what: string, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('pipeline/ingest: offsets in bytes, rewrites, every skip reported', function () {
  this.timeout(60000);

  it('after a line of invalid UTF-8 the offset stays on the byte boundary and the next appended calls (rm -rf ~, rm -rf /) are read whole', async () => {
    const h = await harness();
    const file = join(h.dir, 'probe.jsonl');
    writeFileSync(file, call('t1', 'ls'));
    appendFileSync(file, invalidUtf8Line('t2'));
    const first = await h.pipeline.ingestFile(h.adapter, file);
    expect(first.offset).to.equal(statSync(file).size);
    expect(h.db.offsets.get(file)?.offset).to.equal(statSync(file).size);
    appendFileSync(file, call('t3', 'rm -rf ~'));
    const second = await h.pipeline.ingestFile(h.adapter, file);
    expect(second).to.deep.include({ events: 1, skipped: {}, offset: statSync(file).size, pendingBytes: 0 });
    appendFileSync(file, Buffer.concat([invalidUtf8Line('t4'), Buffer.from(call('t5', 'rm -rf /'))]));
    const third = await h.pipeline.ingestFile(h.adapter, file);
    expect(third).to.deep.include({ events: 2, skipped: {}, offset: statSync(file).size });
    expect(h.commands()).to.include.members(['ls', 'rm -rf ~', 'rm -rf /']);
    expect(h.db.records.find('agentx-code:probe:t3')?.assessment.action).to.be.oneOf(['ask', 'deny']);
    await h.pipeline.close();
  });

  it('an unterminated last line with invalid UTF-8 is left for later and read whole once it ends', async () => {
    const h = await harness();
    const file = join(h.dir, 'partial.jsonl');
    const line = invalidUtf8Line('p1');
    writeFileSync(file, Buffer.concat([Buffer.from(call('p0', 'ls')), line.subarray(0, line.length - 8)]));
    const first = await h.pipeline.ingestFile(h.adapter, file);
    expect(first).to.deep.include({
      events: 1,
      offset: Buffer.byteLength(call('p0', 'ls')),
      pendingBytes: line.length - 8,
    });
    appendFileSync(file, Buffer.concat([line.subarray(line.length - 8), Buffer.from(call('p2', 'rm -rf ~'))]));
    const second = await h.pipeline.ingestFile(h.adapter, file);
    expect(second).to.deep.include({ events: 2, skipped: {}, offset: statSync(file).size });
    expect(h.commands()).to.include('rm -rf ~');
    await h.pipeline.close();
  });

  it('a file rewritten in place with the same size or more is read again from the start: its first new line is kept, nothing duplicated', async () => {
    const h = await harness();
    const file = join(h.dir, 'rewrite.jsonl');
    writeFileSync(file, call('a1', 'echo aaaa') + call('a2', 'echo bbbb'));
    await h.pipeline.ingestFile(h.adapter, file);
    const ino = statSync(file).ino;
    // Same size, other content: `rm -rf ~` in place of `echo aaaa`.
    rewriteInPlace(file, call('r1', 'rm -rf ~') + call('a2', 'echo bbbb'));
    expect(statSync(file).ino).to.equal(ino);
    const same = await h.pipeline.ingestFile(h.adapter, file);
    expect(same).to.deep.include({ reset: 'rewritten', events: 1, duplicates: 1 });
    // Larger: the first line is new, the old ones follow; the first new line must not be lost.
    rewriteInPlace(file, call('r2', 'rm -rf /') + call('r1', 'rm -rf ~') + call('a2', 'echo bbbb'));
    const larger = await h.pipeline.ingestFile(h.adapter, file);
    expect(larger).to.deep.include({ reset: 'rewritten', events: 1, duplicates: 2, offset: statSync(file).size });
    expect(h.commands().sort()).to.deep.equal(['echo aaaa', 'echo bbbb', 'rm -rf /', 'rm -rf ~'].sort());
    // Appending is not a rewrite.
    appendFileSync(file, call('r3', 'pwd'));
    const appended = await h.pipeline.ingestFile(h.adapter, file);
    expect(appended).to.deep.include({ events: 1, duplicates: 0 });
    expect(appended.reset).to.equal(undefined);
    expect(h.db.offsets.get(file)?.resets).to.deep.equal({ rewritten: 2 });
    await h.pipeline.close();
  });

  it('status keeps every skip and every reset: a copy-truncate rotation that regrew past the old offset is re-read and its skips reported', async () => {
    const h = await harness();
    const file = join(h.dir, 'rot.jsonl');
    writeFileSync(file, call('o1', 'ls') + 'not json\n' + call('o2', 'pwd'));
    await h.pipeline.ingestFile(h.adapter, file);
    // copytruncate: same inode, emptied, then the agent keeps writing past the old offset before the next read.
    writeFileSync(file, '');
    const fresh = [
      call('n1', 'rm -rf ~'),
      ...Array.from({ length: 8 }, (_, i) => `garbage ${i}\n`),
      call('n2', 'rm -rf /'),
    ].join('');
    appendFileSync(file, fresh);
    const report = await h.pipeline.ingestFile(h.adapter, file);
    expect(report).to.deep.include({ reset: 'rewritten', events: 2 });
    expect(report.skipped).to.deep.equal({ malformed_json: 8 });
    const capture = h.db.status().captures.find((c) => c.file === file);
    expect(capture?.skipped).to.deep.equal({ malformed_json: 9 });
    expect(capture?.resets).to.deep.equal({ rewritten: 1 });
    expect(h.commands()).to.include.members(['rm -rf ~', 'rm -rf /']);
    await h.pipeline.close();
  });

  it('the tailer on real files: calls appended after invalid UTF-8 and after an in-place rewrite all arrive once', async () => {
    const h = await harness();
    const root = join(h.dir, 'captures');
    const file = join(root, 'live.jsonl');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(root);
    writeFileSync(file, call('l1', 'ls'));
    const tailer = new CaptureTailer(
      [
        {
          name: 'agentx-code',
          roots: () => [root],
          list: async () => [file],
          ingest: (f) => h.pipeline.ingestFile(h.adapter, f),
        },
      ],
      { logger: silentLogger, pollMs: 100, debounceMs: 10 },
    );
    await tailer.start();
    appendFileSync(file, invalidUtf8Line('l2'));
    await until(() => h.db.offsets.get(file)?.offset === statSync(file).size, 'the invalid line');
    appendFileSync(file, call('l3', 'rm -rf ~'));
    await until(() => h.commands().includes('rm -rf ~'), 'rm -rf ~ after invalid UTF-8');
    rewriteInPlace(file, call('l4', 'rm -rf /') + readFileSync(file, 'latin1').replace(/^.*\n/, ''));
    await until(() => h.commands().includes('rm -rf /'), 'rm -rf / written in place');
    await tailer.stop();
    expect(tailer.stats.resets).to.equal(1);
    expect(h.db.sqlite.prepare('SELECT count(*) FROM events').pluck().get()).to.equal(4);
    expect(h.db.status().captures[0]?.skipped).to.deep.equal({});
    await h.pipeline.close();
  });
});
