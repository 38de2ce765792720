import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import {
  GovernanceDb,
  OutboxDelivery,
  backoffDelay,
  silentLogger,
  type Assessment,
  type OutboxRecord,
  type OutboxSink,
  type ToolCallEvent,
} from '../../src/index.js';
import { makeTempDir } from '../../src/testing/index.js';

const event = (n: number): ToolCallEvent => ({
  id: `agentx-code:s1:t${n}`,
  framework: 'agentx-code',
  session_id: 's1',
  timestamp: `2026-11-22T06:00:00.${String(n).padStart(3, '0')}Z`,
  cwd: '/proj',
  tool_name: 'Bash',
  canonical_tool: 'shell',
  arguments: { command: `echo ${n}` },
});
const low: Assessment = {
  score: 0,
  level: 'low',
  action: 'allow',
  reason_code: 'no_risk_detected',
  evidence: { rules: [] },
};

/** A store sink keeping what it acknowledged in memory; `down` makes every batch fail. */
function memorySink(name = 'store'): OutboxSink & { stored: OutboxRecord[]; batches: number[]; down: boolean } {
  const sink = {
    name,
    delivery: 'outbox' as const,
    batchSize: 3,
    retry: { initialMs: 5, maxMs: 20 },
    stored: [] as OutboxRecord[],
    batches: [] as number[],
    down: false,
    async write() {},
    async writeBatch(records: readonly OutboxRecord[]) {
      if (sink.down) throw new Error('store is down');
      sink.batches.push(records.length);
      sink.stored.push(...records);
    },
  };
  return sink;
}

function openDb(): GovernanceDb {
  return GovernanceDb.open(join(makeTempDir(), 'system.db'));
}

describe('governance/outbox', () => {
  it('enqueues every recorded assessment for the subscribed sinks in the recording transaction, and nothing before subscribing', () => {
    const db = openDb();
    db.transaction(() => db.records.insert({ event: event(0), assessment: low }, 'f'));
    db.outbox.subscribe(['store', 'other']);
    db.transaction(() => db.records.insert({ event: event(1), assessment: low }, 'f'));
    db.recordGateDecision({
      event: event(2),
      assessment: low,
      verdict: { decision: 'deny', reason: 'no', decided_by: 'policy' },
    });
    expect(db.outbox.count('store')).to.equal(2);
    expect(db.outbox.count('other')).to.equal(2);
    const pending = db.outbox.pending('store', 10);
    expect(pending.map((p) => [p.record.event.id, p.record.kind, p.record.verdict?.decision])).to.deep.equal([
      [event(1).id, 'ingest', undefined],
      [event(2).id, 'gate', 'deny'],
    ]);
    expect(pending[0]!.record.event).to.deep.equal(event(1));
    // A rolled-back recording leaves nothing in the outbox.
    expect(() =>
      db.transaction(() => {
        db.records.insert({ event: event(3), assessment: low }, 'f');
        throw new Error('crash');
      }),
    ).to.throw('crash');
    expect(db.outbox.count('store')).to.equal(2);
    db.close();
  });

  it('re-enqueues a recorded event once while it waits (replay of what system.db holds)', () => {
    const db = openDb();
    db.transaction(() => db.records.insert({ event: event(0), assessment: low }, 'f'));
    db.outbox.subscribe(['store']);
    expect(db.outbox.enqueueLatest('store', event(0).id)).to.equal(true);
    expect(db.outbox.enqueueLatest('store', event(0).id)).to.equal(false);
    expect(db.outbox.enqueueLatest('store', 'no-such-event')).to.equal(false);
    expect(db.outbox.count('store')).to.equal(1);
    db.close();
  });

  it('keeps the lag and the last error of each sink for status', () => {
    const db = openDb();
    db.outbox.subscribe(['store']);
    db.transaction(() => db.records.insert({ event: event(1), assessment: low }, 'f'));
    db.outbox.failed('store', 'connection refused', new Date(Date.now() + 1000));
    let [lag] = db.status().sinks;
    expect(lag).to.include({ sink: 'store', pending: 1, delivered: 0, failures: 1, last_error: 'connection refused' });
    expect(lag!.oldest_pending_at).to.be.a('string');
    const [waiting] = db.outbox.pending('store', 10);
    db.outbox.acknowledge('store', [waiting!.seq]);
    [lag] = db.status().sinks;
    expect(lag).to.include({
      sink: 'store',
      pending: 0,
      delivered: 1,
      failures: 0,
      lag_seconds: 0,
      oldest_pending_at: null,
      next_attempt_at: null,
    });
    db.close();
  });

  it('status reads a system.db from before the outbox (read-only) and shows no sinks', () => {
    const path = join(makeTempDir(), 'old.db');
    const sqlite = new Database(path);
    const migrations = fileURLToPath(new URL('../../../migrations/governance/', import.meta.url));
    const before = readdirSync(migrations)
      .filter((f) => f.endsWith('.sql') && f < '0002_sink_outbox.sql')
      .sort();
    for (const file of before)
      for (const statement of readFileSync(join(migrations, file), 'utf8').split('--> statement-breakpoint'))
        sqlite.exec(statement);
    sqlite.close();
    const db = GovernanceDb.open(path, { readonly: true });
    expect(db.status().sinks).to.deep.equal([]);
    db.close();
  });
});

describe('governance/outbox-delivery', () => {
  it('delivers in outbox order, in batches, and empties the outbox', async () => {
    const db = openDb();
    const sink = memorySink();
    db.outbox.subscribe([sink.name]);
    for (let n = 0; n < 7; n += 1) db.transaction(() => db.records.insert({ event: event(n), assessment: low }, 'f'));
    const delivery = new OutboxDelivery(db.outbox, [sink], { logger: silentLogger, pollMs: 5 });
    delivery.start();
    const [outcome] = await delivery.flush(5000);
    expect(outcome).to.include({ sink: 'store', pending: 0 });
    expect(outcome).not.to.have.property('error');
    expect(sink.stored.map((r) => r.event.id)).to.deep.equal([0, 1, 2, 3, 4, 5, 6].map((n) => event(n).id));
    expect(sink.batches.every((size) => size <= 3)).to.equal(true);
    expect(db.status().sinks[0]).to.include({ delivered: 7, pending: 0 });
    db.close();
  });

  it('keeps records while the store is down, retries with backoff, then delivers each once in order', async () => {
    const db = openDb();
    const sink = memorySink();
    sink.down = true;
    db.outbox.subscribe([sink.name]);
    const delivery = new OutboxDelivery(db.outbox, [sink], { logger: silentLogger, pollMs: 5 });
    delivery.start();
    for (let n = 0; n < 5; n += 1) {
      db.transaction(() => db.records.insert({ event: event(n), assessment: low }, 'f'));
      delivery.nudge();
    }
    await new Promise((resolve) => setTimeout(resolve, 80));
    const failing = db.status().sinks[0]!;
    expect(failing.pending).to.equal(5);
    expect(failing.failures).to.be.greaterThan(1);
    expect(failing.last_error).to.equal('store is down');
    sink.down = false;
    for (let waited = 0; db.outbox.count('store') > 0 && waited < 2000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sink.stored.map((r) => r.event.id)).to.deep.equal([0, 1, 2, 3, 4].map((n) => event(n).id));
    expect(db.status().sinks[0]).to.include({ pending: 0, delivered: 5, failures: 0, last_error: 'store is down' });
    await delivery.stop();
    db.close();
  });

  it('a flush stops at the first failure and leaves the rest for the next run', async () => {
    const db = openDb();
    const sink = memorySink();
    sink.down = true;
    db.outbox.subscribe([sink.name]);
    for (let n = 0; n < 4; n += 1) db.transaction(() => db.records.insert({ event: event(n), assessment: low }, 'f'));
    const outcome = await new OutboxDelivery(db.outbox, [sink], { logger: silentLogger }).flush(5000);
    expect(outcome).to.deep.equal([{ sink: 'store', delivered: 0, pending: 4, error: 'store is down' }]);
    db.close();
  });

  it('a flush waits for a store that keeps accepting batches, and gives up on one batch that hangs', async () => {
    const db = openDb();
    const slow = memorySink('slow');
    const plain = slow.writeBatch;
    slow.writeBatch = async (records) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return plain(records);
    };
    const hung = memorySink('hung');
    hung.writeBatch = () => new Promise(() => undefined);
    db.outbox.subscribe(['slow', 'hung']);
    for (let n = 0; n < 9; n += 1) db.transaction(() => db.records.insert({ event: event(n), assessment: low }, 'f'));
    // Three batches of 100 ms each outlast the 250 ms limit together, but none alone (150 ms of slack for a loaded
    // machine: with 30 ms against 50 ms, a CI run once saw a slow batch given up).
    const outcomes = await new OutboxDelivery(db.outbox, [slow, hung], { logger: silentLogger }).flush(250);
    expect(outcomes).to.deep.equal([
      { sink: 'slow', delivered: 9, pending: 0 },
      { sink: 'hung', delivered: 0, pending: 9, error: 'flush gave up: a batch took longer than 250 ms' },
    ]);
    db.close();
  });

  it('drops records the store refuses for good, counting them, and delivers the rest', async () => {
    const db = openDb();
    const sink = memorySink();
    sink.writeBatch = async (records) => {
      sink.stored.push(...records.filter((_, i) => i !== 1));
      return { rejected: [{ index: 1, reason: 'invalid byte sequence' }] };
    };
    db.outbox.subscribe([sink.name]);
    for (let n = 0; n < 3; n += 1) db.transaction(() => db.records.insert({ event: event(n), assessment: low }, 'f'));
    await new OutboxDelivery(db.outbox, [sink], { logger: silentLogger }).flush(5000);
    expect(db.status().sinks[0]).to.include({ pending: 0, delivered: 2, rejected: 1 });
    expect(db.status().sinks[0]!.last_rejection).to.match(/^1 record\(s\) at .*: invalid byte sequence$/);
    db.close();
  });

  it('backs off exponentially up to the cap', () => {
    const policy = { initialMs: 100, maxMs: 1000 };
    const delays = [1, 2, 3, 4, 5, 6].map((n) => backoffDelay(policy, n));
    const nominal = [100, 200, 400, 800, 1000, 1000];
    delays.forEach((d, i) => expect(d).to.be.within(nominal[i]! * 0.8, nominal[i]! * 1.2));
  });
});
