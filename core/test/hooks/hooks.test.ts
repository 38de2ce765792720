import { expect } from 'chai';
import {
  createHooks,
  runAssess,
  runEmit,
  type Assessment,
  type GovernanceRecord,
  type ToolCallEvent,
} from '../../src/index.js';

const event: ToolCallEvent = {
  id: 'agentx-code:s1:t1',
  framework: 'agentx-code',
  session_id: 's1',
  timestamp: '2026-11-22T00:00:00.000Z',
  cwd: '/project',
  tool_name: 'Bash',
  canonical_tool: 'shell',
  arguments: { command: 'ls' },
};
const base: Assessment = { score: 40, level: 'medium', action: 'warn', reason_code: 'base', evidence: { rules: [] } };

describe('hooks', () => {
  it('is one frozen object: plugins cannot add or replace hooks', () => {
    const hooks = createHooks();
    expect(Object.isFrozen(hooks)).to.equal(true);
    expect(() => {
      (hooks as unknown as Record<string, unknown>)['retrieve'] = null;
    }).to.throw(TypeError);
  });

  describe('assess (waterfall that never lowers silently)', () => {
    it('accepts a raised score', async () => {
      const hooks = createHooks();
      hooks.assess.tap('raiser', (a) => ({ ...a, score: 80, level: 'critical' }));
      const result = await runAssess(hooks, base, event);
      expect(result.score).to.equal(80);
    });

    it('undoes an unexplained lowering and records it as a factor', async () => {
      const hooks = createHooks();
      hooks.assess.tap('lowerer', (a) => ({ ...a, score: 5 }));
      const result = await runAssess(hooks, base, event);
      expect(result.score).to.equal(40);
      expect(result.evidence.factors).to.deep.equal(['unexplained score lowering 40→5 ignored']);
    });

    it('accepts a lowering recorded as an adjustment', async () => {
      const hooks = createHooks();
      hooks.assess.tap('allowlist', (a) => ({
        ...a,
        score: 10,
        evidence: {
          ...a.evidence,
          adjustments: [{ by: 'allowlist', from: a.score, to: 10, reason: 'command is allow-listed' }],
        },
      }));
      const result = await runAssess(hooks, base, event);
      expect(result.score).to.equal(10);
    });

    it('passes each tap the previous tap result, in stage order', async () => {
      const hooks = createHooks();
      const seen: string[] = [];
      hooks.assess.tap(
        { name: 'second', stage: 10 },
        (a) => (seen.push(`second:${a.score}`), { ...a, score: a.score + 1 }),
      );
      hooks.assess.tap(
        { name: 'first', stage: -10 },
        (a) => (seen.push(`first:${a.score}`), { ...a, score: a.score + 10 }),
      );
      const result = await runAssess(hooks, base, event);
      expect(seen).to.deep.equal(['first:40', 'second:50']);
      expect(result.score).to.equal(51);
    });
  });

  describe('emit (parallel, one failing sink never stops the others)', () => {
    it('delivers to every sink and reports the failing one', async () => {
      const hooks = createHooks();
      const delivered: string[] = [];
      hooks.emit.tapPromise('good-a', async (r) => void delivered.push(`a:${r.event.id}`));
      hooks.emit.tapPromise('broken', async () => {
        throw new Error('disk full');
      });
      hooks.emit.tap('good-b', (r) => void delivered.push(`b:${r.event.id}`));
      hooks.emit.tapAsync('good-c', (r, done) => (delivered.push(`c:${r.event.id}`), done()));
      const record: GovernanceRecord = { event, assessment: base };
      const failures = await runEmit(hooks, record);
      expect(delivered.sort()).to.deep.equal(['a:agentx-code:s1:t1', 'b:agentx-code:s1:t1', 'c:agentx-code:s1:t1']);
      expect(failures).to.deep.equal([{ sink: 'broken', message: 'disk full' }]);
    });
  });

  describe('gate (bail: first verdict wins)', () => {
    it('stops at the first tap that returns a verdict', async () => {
      const hooks = createHooks();
      const called: string[] = [];
      hooks.gate.tapPromise('no-opinion', async () => void called.push('no-opinion'));
      hooks.gate.tapPromise(
        'policy',
        async () => (called.push('policy'), { decision: 'deny', reason: 'policy says no', decided_by: 'policy' }),
      );
      hooks.gate.tapPromise(
        'never',
        async () => (called.push('never'), { decision: 'allow', reason: '', decided_by: 'never' }),
      );
      const verdict = await hooks.gate.promise(event, base);
      expect(verdict?.decision).to.equal('deny');
      expect(called).to.deep.equal(['no-opinion', 'policy']);
    });
  });
});
