import { join } from 'node:path';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { GovernanceDb, type Assessment, type GateVerdict, type ToolCallEvent } from '../../src/index.js';
import { canonicalJson, correlationKeyOf } from '../../src/governance/correlation.js';
import { makeTempDir } from '../../src/testing/index.js';

const low: Assessment = {
  score: 0,
  level: 'low',
  action: 'allow',
  reason_code: 'no_risk_detected',
  evidence: { rules: [] },
};
const deny: GateVerdict = { decision: 'deny', reason: 'rm -rf ~', decided_by: 'test' };

/** The same call as the gate sees it (no call id: a fresh gate id) and as the transcript records it. */
const call = (id: string, at: string, command = 'rm -rf ~', extra: Partial<ToolCallEvent> = {}): ToolCallEvent => ({
  id,
  framework: 'gemini-cli',
  session_id: 's1',
  timestamp: at,
  cwd: '/proj',
  tool_name: 'run_shell_command',
  canonical_tool: 'shell',
  arguments: { command },
  ...extra,
});
const TRANSCRIPT = '/home/u/.gemini/tmp/proj/chats/session-1.jsonl';

function rows(db: GovernanceDb, file: string): { events: number; assessments: number; sessions: number } {
  db.close();
  const raw = new Database(file, { readonly: true });
  try {
    const count = (table: string) => (raw.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return { events: count('events'), assessments: count('assessments'), sessions: count('sessions') };
  } finally {
    raw.close();
  }
}

describe('one event per tool call (gate ↔ transcript correlation)', () => {
  it('canonical arguments ignore key order; the key covers framework, session, tool and arguments', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).to.equal(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    const base = call('x', '2026-11-26T10:00:00.000Z');
    expect(correlationKeyOf(base)).to.equal(correlationKeyOf({ ...base, arguments: { command: 'rm -rf ~' } }));
    expect(correlationKeyOf(base)).to.not.equal(correlationKeyOf({ ...base, session_id: 's2' }));
    expect(correlationKeyOf(base)).to.not.equal(correlationKeyOf({ ...base, tool_name: 'shell' }));
  });

  it('gate first, then the transcript: the transcript id becomes an alias; its later result completes the gate event', () => {
    const file = join(makeTempDir(), 'system.db');
    const db = GovernanceDb.open(file);
    db.records.recordGateDecision({
      event: call('gemini-cli:s1:gate-1', '2026-11-26T10:00:00.000Z'),
      assessment: low,
      verdict: deny,
    });
    const seen = call('gemini-cli:s1:run_shell_command_1', '2026-11-26T10:00:00.040Z');
    const recorded = db.records.correlatedId(seen, TRANSCRIPT);
    expect(recorded).to.equal('gemini-cli:s1:gate-1');
    db.records.alias(seen.id, recorded!);
    expect(db.records.has(seen.id)).to.equal(true);
    expect(db.records.recordedId(seen.id)).to.equal('gemini-cli:s1:gate-1');
    expect(
      db.records.complete(seen.id, { content: 'blocked', is_error: true, timestamp: '2026-11-26T10:00:01.000Z' }),
    ).to.equal(true);
    expect(db.records.find('gemini-cli:s1:gate-1')?.event.result?.content).to.equal('blocked');
    // a second sighting from the transcript side finds nothing left to pair with
    expect(
      db.records.correlatedId(call('gemini-cli:s1:run_shell_command_2', '2026-11-26T10:00:02.000Z'), TRANSCRIPT),
    ).to.equal(undefined);
    expect(rows(db, file)).to.deep.equal({ events: 1, assessments: 1, sessions: 1 });
  });

  it('transcript first, then the gate (a journal entry recorded later): the verdict goes to the transcript event', () => {
    const file = join(makeTempDir(), 'system.db');
    const db = GovernanceDb.open(file);
    db.records.insert(
      { event: call('gemini-cli:s1:run_shell_command_1', '2026-11-26T10:00:00.040Z'), assessment: low },
      TRANSCRIPT,
    );
    db.records.recordGateDecision({
      event: call('gemini-cli:s1:gate-1', '2026-11-26T10:00:00.000Z'),
      assessment: low,
      verdict: deny,
    });
    db.records.recordGateDecision({
      event: call('gemini-cli:s1:gate-1', '2026-11-26T10:00:00.000Z'),
      assessment: low,
      verdict: deny,
    });
    expect(db.records.recordedId('gemini-cli:s1:gate-1')).to.equal('gemini-cli:s1:run_shell_command_1');
    expect(rows(db, file)).to.deep.equal({ events: 1, assessments: 3, sessions: 1 });
  });

  it('the same command run twice stays two events; other arguments, another session or a call out of the window never pair', () => {
    const file = join(makeTempDir(), 'system.db');
    const db = GovernanceDb.open(file);
    db.records.recordGateDecision({
      event: call('g:1', '2026-11-26T10:00:00.000Z', 'ls'),
      assessment: low,
      verdict: { ...deny, decision: 'allow' },
    });
    db.records.recordGateDecision({
      event: call('g:2', '2026-11-26T10:00:05.000Z', 'ls'),
      assessment: low,
      verdict: { ...deny, decision: 'allow' },
    });
    const first = call('t:1', '2026-11-26T10:00:00.100Z', 'ls');
    const second = call('t:2', '2026-11-26T10:00:05.100Z', 'ls');
    // nearest in time wins; a pair claimed earlier in the same chunk is not taken twice
    expect(db.records.correlatedId(second, TRANSCRIPT)).to.equal('g:2');
    const claimed = new Set(['g:2']);
    expect(db.records.correlatedId(second, TRANSCRIPT, claimed)).to.equal('g:1');
    expect(db.records.correlatedId(first, TRANSCRIPT)).to.equal('g:1');
    expect(db.records.correlatedId(call('t:3', '2026-11-26T10:00:00.100Z', 'ls -a'), TRANSCRIPT)).to.equal(undefined);
    expect(
      db.records.correlatedId(call('t:4', '2026-11-26T10:00:00.100Z', 'ls', { session_id: 's2' }), TRANSCRIPT),
    ).to.equal(undefined);
    expect(db.records.correlatedId(call('t:5', '2026-11-26T11:00:00.000Z', 'ls'), TRANSCRIPT)).to.equal(undefined);
    // two gate sightings never pair with each other
    expect(db.records.correlatedId(call('g:3', '2026-11-26T10:00:00.100Z', 'ls'), 'gate')).to.equal(undefined);
    db.close();
  });
});
