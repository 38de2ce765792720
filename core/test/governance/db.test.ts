import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { AgentgovError, GovernanceDb, governanceDbPath, type Assessment, type ToolCallEvent } from '../../src/index.js';
import { makeTempDir } from '../../src/testing/index.js';

const event = (id: string, extra: Partial<ToolCallEvent> = {}): ToolCallEvent => ({
  id: `agentx-code:s1:${id}`,
  framework: 'agentx-code',
  session_id: 's1',
  timestamp: `2026-11-22T06:00:0${id.length % 10}.000Z`,
  cwd: '/proj',
  tool_name: 'Bash',
  canonical_tool: 'shell',
  arguments: { command: `echo ${id}` },
  ...extra,
});
const assessment = (score: number, level: Assessment['level'], action: Assessment['action']): Assessment => ({
  score,
  level,
  action,
  reason_code: score ? 'destructive_delete' : 'no_risk_detected',
  evidence: { rules: [] },
});

describe('governance/db', () => {
  it('creates system.db private (0600 in a 0700 dir), in WAL mode, migrated', () => {
    const dir = join(makeTempDir(), 'home');
    const db = GovernanceDb.open(join(dir, 'system.db'));
    try {
      expect(statSync(dir).mode & 0o777).to.equal(0o700);
      expect(statSync(db.path).mode & 0o777).to.equal(0o600);
      expect(db.sqlite.pragma('journal_mode', { simple: true })).to.equal('wal');
      const tables = db.sqlite.prepare(`SELECT name FROM sqlite_master WHERE type='table' ORDER BY name`).pluck().all();
      expect(tables).to.include.members(['sessions', 'events', 'assessments', 'ingest_offsets', 'gate_endpoints']);
    } finally {
      db.close();
    }
    const again = GovernanceDb.open(join(dir, 'system.db')); // re-running migrations is a no-op
    again.close();
  });

  it('records an event once: a second insert of the same id changes nothing', () => {
    const db = GovernanceDb.open(join(makeTempDir(), 'system.db'));
    const record = { event: event('a'), assessment: assessment(90, 'critical', 'deny') };
    expect(db.transaction(() => db.records.insert(record, '/cap.jsonl'))).to.equal(true);
    expect(db.transaction(() => db.records.insert(record, '/cap.jsonl'))).to.equal(false);
    const status = db.status();
    expect(status.events).to.equal(1);
    expect(status.sessions).to.equal(1);
    expect(status.assessments.total).to.equal(1);
    expect(db.records.find(record.event.id)).to.deep.equal(record);
    db.close();
  });

  it('completes a call whose result arrives later, only once', () => {
    const db = GovernanceDb.open(join(makeTempDir(), 'system.db'));
    db.records.insert({ event: event('b'), assessment: assessment(0, 'low', 'allow') }, 'f');
    expect(
      db.sqlite.prepare('SELECT result IS NULL FROM events WHERE id = ?').pluck().get(event('b').id),
      'no result is SQL NULL',
    ).to.equal(1);
    expect(db.records.complete(event('b').id, { content: 'ok', is_error: false })).to.equal(true);
    expect(db.records.complete(event('b').id, { content: 'again', is_error: false })).to.equal(false);
    expect(db.records.find(event('b').id)?.event.result).to.deep.equal({ content: 'ok', is_error: false });
    db.close();
  });

  it('summarises by level and action, recent high-risk calls and captures', () => {
    const db = GovernanceDb.open(join(makeTempDir(), 'system.db'));
    db.transaction(() => {
      db.records.insert({ event: event('low'), assessment: assessment(0, 'low', 'allow') }, 'f1');
      db.records.insert(
        {
          event: event('crit', { arguments: { command: 'rm -rf /' } }),
          assessment: assessment(95, 'critical', 'deny'),
        },
        'f1',
      );
      db.records.insert(
        {
          event: event('high', { session_id: 's2', id: 'agentx-code:s2:h' }),
          assessment: assessment(60, 'high', 'ask'),
        },
        'f2',
      );
      db.offsets.set({
        file: 'f1',
        adapter: 'agentx-code',
        offset: 10,
        size: 10,
        inode: 1,
        skipped: { malformed_json: 1 },
        events: 2,
      });
    });
    db.recordGateDecision({
      event: event('gate'),
      assessment: assessment(80, 'critical', 'deny'),
      verdict: { decision: 'deny', reason: 'no', decided_by: 'policy' },
    });
    const s = db.status();
    expect(s.sessions).to.equal(2);
    expect(s.events).to.equal(4);
    expect(s.assessments.by_level).to.deep.equal({ low: 1, medium: 0, high: 1, critical: 2 });
    expect(s.assessments.by_action).to.deep.equal({ allow: 1, warn: 0, ask: 1, deny: 2 });
    expect(s.assessments.gate_decisions).to.equal(1);
    expect(s.recent_high_risk.map((r) => r.level).sort()).to.deep.equal(['critical', 'critical', 'high']);
    expect(s.recent_high_risk.find((r) => r.event_id.endsWith(':crit'))?.subject).to.equal('rm -rf /');
    expect(s.recent_high_risk.find((r) => r.verdict === 'deny')?.event_id).to.equal(event('gate').id);
    expect(s.captures).to.have.length(1);
    expect(s.captures[0]).to.include({ file: 'f1', offset: 10, events: 2 });
    expect(s.captures[0]?.skipped).to.deep.equal({ malformed_json: 1 });
    db.close();
  });

  it('registers, finds and unregisters the gate endpoint; a re-registration of a socket replaces it', () => {
    const db = GovernanceDb.open(join(makeTempDir(), 'system.db'));
    expect(db.currentGateEndpoint()).to.equal(undefined);
    db.registerGateEndpoint({ socket: '/s.sock', token: 't1', pid: 1 });
    db.registerGateEndpoint({ socket: '/s.sock', token: 't2', pid: 2 });
    expect(db.currentGateEndpoint()).to.include({ socket: '/s.sock', token: 't2', pid: 2 });
    expect(db.sqlite.prepare('SELECT count(*) FROM gate_endpoints').pluck().get()).to.equal(1);
    db.unregisterGateEndpoint({ socket: '/s.sock' });
    expect(db.currentGateEndpoint()).to.equal(undefined);
    db.close();
  });

  it('a missing database opened read-only is E_DB_MISSING; a non-database file is E_DB_UNAVAILABLE', () => {
    const dir = makeTempDir();
    expect(() => GovernanceDb.open(join(dir, 'nope.db'), { readonly: true }))
      .to.throw(AgentgovError)
      .with.property('code', 'E_DB_MISSING');
    const bad = join(dir, 'bad.db');
    writeFileSync(bad, 'not a database at all, just text that is long enough to be a header..........');
    expect(() => GovernanceDb.open(bad, { readonly: true }))
      .to.throw(AgentgovError)
      .with.property('code', 'E_DB_UNAVAILABLE');
  });

  it('resolves the path: explicit, then config governance.db (relative to the config), then $AGENTGOV_HOME', () => {
    const loaded = { config: { governance: { db: 'data/gov.db', frameworks: [] } }, baseDir: '/etc/ag' } as never;
    expect(governanceDbPath(loaded, '/x/y.db')).to.equal('/x/y.db');
    expect(governanceDbPath(loaded)).to.equal('/etc/ag/data/gov.db');
    expect(governanceDbPath(undefined, undefined, { AGENTGOV_HOME: '/h' })).to.equal('/h/system.db');
  });
});
