import { appendFileSync, copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createPluginHost,
  GovernanceDb,
  loadConfig,
  silentLogger,
  type FrameworkAdapter,
  type ToolCallEvent,
} from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { CLI_PACKAGE_DIR } from '../../src/package-info.js';
import { CHUNK_BYTES } from '../../src/pipeline/ingest.js';
import { createPipeline, type Pipeline } from '../../src/pipeline/pipeline.js';

export const FIXTURE_HOME = fileURLToPath(
  new URL('../../../../plugins/framework-agentx/test/fixtures/agentx-home/', import.meta.url),
);
const SESSION_A = join(FIXTURE_HOME, 'projects/-work-demo/sess-aaaa-1111.jsonl');
const SESSION_B = join(FIXTURE_HOME, 'projects/-work-demo/sess-bbbb-2222.jsonl');

/** Test plugins: one raises every shell score to at least 30, one tries to lower silently, one sink always fails. */
const TEST_PLUGIN = `
export default {
  name: 'test-governance',
  apply(hooks) {
    hooks.assess.tapPromise('test-governance', async (a, event) =>
      event.canonical_tool === 'shell' && a.score < 30 ? { ...a, score: 30, level: 'medium', action: 'warn', reason_code: 'raised_by_test' } : a);
    hooks.assess.tapPromise({ name: 'test-governance', stage: 10 }, async (a, event) =>
      event.arguments.command === 'rm -rf /' ? { ...a, score: 0, level: 'low', action: 'allow' } : a);
    hooks.sinks.tap('test-governance', (registry) => registry.add({ name: 'broken', write: async () => { throw new Error('disk full'); } }));
  },
};
`;

interface Harness {
  pipeline: Pipeline;
  db: GovernanceDb;
  dir: string;
  adapter: FrameworkAdapter;
  jsonlLines(): Record<string, unknown>[];
}

async function harness(options: { emitDuplicates?: boolean } = {}): Promise<Harness> {
  const dir = makeTempDir();
  writeFileSync(join(dir, 'test-plugin.mjs'), TEST_PLUGIN);
  writeFileSync(
    join(dir, 'agentgov.yaml'),
    [
      'plugins:',
      '  - "@agentgov/plugin-framework-agentx"',
      '  - plugin: "@agentgov/plugin-sink-jsonl"',
      '    options: { path: "out/all.jsonl" }',
      '  - ./test-plugin.mjs',
      '',
    ].join('\n'),
  );
  const loaded = loadConfig({ configPath: join(dir, 'agentgov.yaml') });
  const host = await createPluginHost({
    loaded,
    bundled: [],
    resolveFrom: [CLI_PACKAGE_DIR],
    host: 'cli',
    logger: silentLogger,
  });
  const db = GovernanceDb.open(join(dir, 'system.db'));
  const pipeline = await createPipeline({
    host,
    loaded,
    db,
    logger: silentLogger,
    emitDuplicates: options.emitDuplicates ?? false,
  });
  const adapter = host.registries.frameworks.get('agentx-code') as FrameworkAdapter;
  const jsonlLines = () => {
    try {
      return readFileSync(join(dir, 'out', 'all.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    } catch {
      return [];
    }
  };
  return { pipeline, db, dir, adapter, jsonlLines };
}

const countRows = (db: GovernanceDb, table: string): number =>
  db.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

describe('governance pipeline', function () {
  this.timeout(60000);

  it('ingests a capture: every call assessed, recorded with its offset, emitted; a failing sink never stops the others', async () => {
    const h = await harness();
    const report = await h.pipeline.ingestFile(h.adapter, SESSION_A);
    expect(report).to.deep.include({
      events: 11,
      duplicates: 0,
      completed: 0,
      pendingBytes: 0,
      bytes: statSync(SESSION_A).size,
      offset: statSync(SESSION_A).size,
      sinkFailures: 11,
    });
    expect(report.skipped).to.deep.equal({ unknown_line_type: 1, unknown_block_type: 1 });
    expect(countRows(h.db, 'events')).to.equal(11);
    expect(countRows(h.db, 'assessments')).to.equal(11);
    expect(h.db.offsets.get(SESSION_A)).to.include({
      offset: statSync(SESSION_A).size,
      events: 11,
      inode: statSync(SESSION_A).ino,
    });
    await h.pipeline.close();
    expect(h.jsonlLines()).to.have.length(11);
    expect(h.pipeline.sinkFailureCounts()).to.deep.equal({ broken: 11 });
    const wipe = h.db.records.find('agentx-code:sess-aaaa-1111:toolu_a11');
    expect(wipe?.assessment.action).to.equal('deny');
    expect(wipe?.event.result?.is_error).to.equal(true);
  });

  it('assess taps may raise a score; a silent lowering is undone and recorded', async () => {
    const h = await harness();
    await h.pipeline.ingestFile(h.adapter, SESSION_A);
    const ls = h.db.records.find('agentx-code:sess-aaaa-1111:toolu_a1');
    expect(ls?.assessment).to.include({ score: 30, reason_code: 'raised_by_test' });
    const wipe = h.db.records.find('agentx-code:sess-aaaa-1111:toolu_a11');
    expect(wipe?.assessment.action).to.equal('deny');
    expect(wipe?.assessment.evidence.factors?.some((f) => f.includes('unexplained score lowering'))).to.equal(true);
    await h.pipeline.close();
  });

  it('a second ingest from the stored offset reads nothing; a replay from the start records no duplicates', async () => {
    const h = await harness();
    await h.pipeline.ingestFile(h.adapter, SESSION_A);
    const again = await h.pipeline.ingestFile(h.adapter, SESSION_A);
    expect(again).to.deep.include({ events: 0, duplicates: 0, bytes: 0 });
    const replay = await h.pipeline.ingestFile(h.adapter, SESSION_A, { fromStart: true });
    expect(replay).to.deep.include({ events: 0, duplicates: 11 });
    expect(countRows(h.db, 'events')).to.equal(11);
    expect(countRows(h.db, 'assessments')).to.equal(11);
    await h.pipeline.close();
    expect(h.jsonlLines(), 'duplicates are not re-emitted by default').to.have.length(11);
  });

  it('with emitDuplicates, a replay re-emits the stored records in file order', async () => {
    const h = await harness({ emitDuplicates: true });
    await h.pipeline.ingestFile(h.adapter, SESSION_A);
    await h.pipeline.ingestFile(h.adapter, SESSION_A, { fromStart: true });
    await h.pipeline.close();
    const ids = h.jsonlLines().map((l) => (l['event'] as ToolCallEvent).id);
    expect(ids).to.have.length(22);
    expect(ids.slice(11)).to.deep.equal(ids.slice(0, 11));
  });

  it('skips and counts a malformed line mid-file, leaves the truncated last line, and reads it once it is complete', async () => {
    const h = await harness();
    const file = join(h.dir, 'sess-bbbb-2222.jsonl');
    copyFileSync(SESSION_B, file);
    const first = await h.pipeline.ingestFile(h.adapter, file);
    expect(first.events).to.equal(3);
    expect(first.skipped).to.deep.equal({ malformed_json: 1, not_an_object: 1, invalid_tool_use: 1 });
    expect(first.pendingBytes).to.be.greaterThan(0);
    appendFileSync(file, 'sh","input":{"command":"shutdown -h now"}}]}}\n');
    const second = await h.pipeline.ingestFile(h.adapter, file);
    expect(second).to.deep.include({ events: 1, pendingBytes: 0, offset: statSync(file).size });
    expect(h.db.records.find('agentx-code:sess-bbbb-2222:toolu_b4')?.event.arguments).to.deep.equal({
      command: 'shutdown -h now',
    });
    expect(h.db.offsets.get(file)?.skipped).to.deep.equal({ malformed_json: 1, not_an_object: 1, invalid_tool_use: 1 });
    await h.pipeline.close();
  });

  it('completes a call whose result is appended after the call was ingested', async () => {
    const h = await harness();
    const file = join(h.dir, 's.jsonl');
    const text = readFileSync(SESSION_A, 'utf8');
    const cut = text.indexOf('\n', text.indexOf('toolu_a1')) + 1;
    writeFileSync(file, text.slice(0, cut));
    expect((await h.pipeline.ingestFile(h.adapter, file)).events).to.equal(1);
    expect(h.db.records.find('agentx-code:sess-aaaa-1111:toolu_a1')?.event.result).to.equal(undefined);
    appendFileSync(file, text.slice(cut));
    const rest = await h.pipeline.ingestFile(h.adapter, file);
    expect(rest).to.deep.include({ events: 10, completed: 1 });
    expect(h.db.records.find('agentx-code:sess-aaaa-1111:toolu_a1')?.event.result?.content).to.contain('total 8');
    await h.pipeline.close();
  });

  it('a truncated or rotated file is read from the start without duplicating', async () => {
    const h = await harness();
    const file = join(h.dir, 'rot.jsonl');
    copyFileSync(SESSION_A, file);
    await h.pipeline.ingestFile(h.adapter, file);
    writeFileSync(file, readFileSync(SESSION_A, 'utf8').split('\n').slice(0, 4).join('\n') + '\n');
    const truncated = await h.pipeline.ingestFile(h.adapter, file);
    expect(truncated).to.deep.include({ reset: 'truncated', events: 0, duplicates: 1 });
    const rotated = join(h.dir, 'rot.new');
    copyFileSync(SESSION_B, rotated);
    const { renameSync } = await import('node:fs');
    renameSync(rotated, file);
    const afterRotation = await h.pipeline.ingestFile(h.adapter, file);
    expect(afterRotation).to.deep.include({ reset: 'rotated', events: 3 });
    expect(countRows(h.db, 'events')).to.equal(14);
    await h.pipeline.close();
  });

  it('reads a line longer than one read chunk (a large Write) without splitting it', async () => {
    const h = await harness();
    const file = join(h.dir, 'big.jsonl');
    const line = (id: string, input: Record<string, unknown>) =>
      JSON.stringify({
        type: 'assistant',
        sessionId: 'big',
        timestamp: '2026-11-20T10:00:00.000Z',
        cwd: '/w',
        message: { content: [{ type: 'tool_use', id, name: 'Write', input }] },
      });
    const content = 'é'.repeat(CHUNK_BYTES); // 2 bytes each: the line is twice the chunk
    writeFileSync(
      file,
      `${line('t1', { file_path: '/w/a.txt', content })}\n${line('t2', { file_path: '/w/b.txt', content: 'small' })}\n`,
    );
    const report = await h.pipeline.ingestFile(h.adapter, file);
    expect(report).to.deep.include({ events: 2, offset: statSync(file).size, pendingBytes: 0 });
    expect((h.db.records.find('agentx-code:big:t1')?.event.arguments['content'] as string).length).to.equal(
      CHUNK_BYTES,
    );
    await h.pipeline.close();
  });

  it('reads a .json capture holding one JSON array as a whole document, and waits while it is incomplete', async () => {
    const h = await harness();
    const file = join(h.dir, 'export.json');
    const objects = readFileSync(SESSION_A, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    const text = JSON.stringify(objects, null, 2);
    writeFileSync(file, text.slice(0, text.length / 2));
    expect(await h.pipeline.ingestFile(h.adapter, file)).to.deep.include({
      events: 0,
      pendingBytes: statSync(file).size,
    });
    writeFileSync(file, text);
    const whole = await h.pipeline.ingestFile(h.adapter, file);
    expect(whole).to.deep.include({ events: 11, pendingBytes: 0, offset: statSync(file).size });
    expect(whole.skipped).to.deep.equal({ unknown_line_type: 1, unknown_block_type: 1 });
    expect(await h.pipeline.ingestFile(h.adapter, file)).to.deep.include({ events: 0, duplicates: 0, bytes: 0 });
    expect(await h.pipeline.ingestFile(h.adapter, file, { fromStart: true })).to.deep.include({
      events: 0,
      duplicates: 11,
    });
    expect(h.db.offsets.get(file)?.skipped).to.deep.equal({ unknown_line_type: 1, unknown_block_type: 1 });
    await h.pipeline.close();
  });

  it('process is idempotent on event.id; assess writes nothing', async () => {
    const h = await harness();
    const event: ToolCallEvent = {
      id: 'agentx-code:live:1',
      framework: 'agentx-code',
      session_id: 'live',
      timestamp: '2026-11-22T07:00:00.000Z',
      cwd: '/work/demo',
      tool_name: 'Bash',
      canonical_tool: 'shell',
      arguments: { command: 'git push --force origin main' },
    };
    const before = readFileSync(h.db.path).length + countRows(h.db, 'events');
    const assessed = await h.pipeline.assess(event);
    expect(countRows(h.db, 'events') + countRows(h.db, 'assessments')).to.equal(0);
    expect(readFileSync(h.db.path).length + countRows(h.db, 'events')).to.equal(before);
    const first = await h.pipeline.process(event);
    expect(first.duplicate).to.equal(false);
    expect(first.record.assessment).to.deep.equal(assessed);
    expect(first.sinkFailures).to.deep.equal([{ sink: 'broken', message: first.sinkFailures[0]?.message }]);
    expect(first.sinkFailures[0]?.message).to.contain('disk full');
    const second = await h.pipeline.process(event);
    expect(second.duplicate).to.equal(true);
    expect(second.record).to.deep.equal(first.record);
    expect(countRows(h.db, 'events')).to.equal(1);
    expect(countRows(h.db, 'assessments')).to.equal(1);
    await h.pipeline.close();
  });
});
