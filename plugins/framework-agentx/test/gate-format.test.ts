import type { Assessment, GateOutcome } from '@agentgov/core';
import { expect } from 'chai';
import { gateFormat } from '../src/index.js';

const assessment = (action: Assessment['action']): Assessment => ({
  score: 10,
  level: 'low',
  action,
  reason_code: 'r',
  evidence: { rules: [] },
});
const outcome = (decision: 'allow' | 'ask' | 'deny', action: Assessment['action']): GateOutcome => ({
  verdict: { decision, reason: `why ${action}`, decided_by: 't' },
  assessment: assessment(action),
});

describe('agentx-code gate format: the hook answer never widens permissions', () => {
  it('an allowed call prints nothing: no permissionDecision, so the agent still applies its own rules', () => {
    expect(gateFormat.render(outcome('allow', 'allow'))).to.deep.equal({ stdout: '', exitCode: 0 });
  });

  it('a warning is a message without a decision', () => {
    const { stdout, exitCode } = gateFormat.render(outcome('allow', 'warn'));
    expect(exitCode).to.equal(0);
    expect(JSON.parse(stdout)).to.deep.equal({ systemMessage: 'why warn' });
  });

  for (const decision of ['ask', 'deny'] as const) {
    it(`${decision} is a permission decision with its reason`, () => {
      const { stdout } = gateFormat.render(outcome(decision, decision));
      expect(JSON.parse(stdout)).to.deep.equal({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: decision,
          permissionDecisionReason: `why ${decision}`,
        },
      });
    });
  }

  it('notes (e.g. an ignored project setting) travel with the answer', () => {
    const { stdout } = gateFormat.render({ ...outcome('allow', 'allow'), notes: ['ignored x'] });
    expect(JSON.parse(stdout)).to.deep.equal({ systemMessage: 'why allow ignored x' });
  });

  it('reads back every answer it renders, and nothing else', () => {
    for (const [decision, action, expected] of [
      ['allow', 'allow', 'allow'],
      ['allow', 'warn', 'warn'],
      ['ask', 'ask', 'ask'],
      ['deny', 'deny', 'deny'],
    ] as const) {
      const { stdout, exitCode } = gateFormat.render(outcome(decision, action));
      expect(gateFormat.readDecision(stdout, exitCode)).to.equal(expected);
    }
    expect(gateFormat.readDecision('', 2)).to.equal('deny');
    expect(gateFormat.readDecision('', 126)).to.equal(undefined);
    expect(gateFormat.readDecision('not json', 0)).to.equal(undefined);
    expect(gateFormat.readDecision('{"other":1}', 0)).to.equal(undefined);
  });

  it('reads the hook payload, and the probe payload is a PreToolUse call of rm -rf /', () => {
    const probe = gateFormat.probePayload('/p');
    expect(gateFormat.parseInput(probe)).to.deep.include({
      framework: 'agentx-code',
      tool_name: 'Bash',
      arguments: { command: 'rm -rf /' },
      cwd: '/p',
    });
    expect(gateFormat.parseInput({ tool_name: 'Bash', arguments: { command: 'ls' }, session_id: 's' })).to.deep.equal({
      framework: 'gate',
      tool_name: 'Bash',
      arguments: { command: 'ls' },
      session_id: 's',
    });
    expect(
      gateFormat.parseInput({ tool_name: 'Bash', tool_input: {}, session_id: 's', hook_event_name: 'PostToolUse' }),
    ).to.have.property('code', 'input_invalid');
  });
});
