import type { Assessment, GateVerdict, GovernanceRecord, ToolCallEvent } from '@agentgov/core';
import { expect } from 'chai';
import { createGateDecider, verdictFromAssessment } from '../../src/gate/decide.js';

const assessment = (action: Assessment['action'], score = 60): Assessment => ({
  score,
  level: score >= 75 ? 'critical' : score >= 50 ? 'high' : 'low',
  action,
  reason_code: action === 'allow' ? 'no_risk_detected' : 'recursive_delete',
  evidence: {
    rules:
      action === 'allow'
        ? []
        : [{ rule_id: 'shell.rm_recursive', score, reason_code: 'recursive_delete', subject: 'rm -rf /' }],
  },
});

describe('gate/decide', () => {
  const table: [Assessment['action'], GateVerdict['decision']][] = [
    ['allow', 'allow'],
    ['warn', 'allow'],
    ['ask', 'ask'],
    ['deny', 'deny'],
  ];
  for (const [action, decision] of table) {
    it(`an assessment whose action is ${action} gives ${decision}`, () =>
      expect(verdictFromAssessment(assessment(action)).decision).to.equal(decision));
  }

  it('the reason names the reason code, the level, the score and the rule with its subject', () => {
    expect(verdictFromAssessment(assessment('deny', 95)).reason).to.equal(
      'agentgov: deny (recursive_delete, risk critical 95/100); matched shell.rm_recursive on `rm -rf /`',
    );
  });

  function decider(gateVerdict?: GateVerdict) {
    const recorded: { event: ToolCallEvent; verdict: GateVerdict }[] = [];
    const emitted: GovernanceRecord[] = [];
    const decider = createGateDecider({
      assess: async (event) => assessment(String(event.arguments['command']).startsWith('rm') ? 'deny' : 'allow', 10),
      gateHook: async () => gateVerdict,
      record: (d) => recorded.push(d),
      emit: async (r) => emitted.push(r),
      defaultCwd: '/work',
    });
    return {
      decide: (input: Parameters<typeof decider.decide>[0]) => decider.decide(input),
      drain: () => decider.drain(),
      recorded,
      emitted,
    };
  }

  it('records and emits each decision; a hook payload keeps the transcript id of its tool call', async () => {
    const { decide, drain, recorded, emitted } = decider();
    const result = await decide({
      framework: 'agentx-code',
      session_id: 's1',
      tool_name: 'Bash',
      arguments: { command: 'rm -rf /' },
      tool_use_id: 'tu9',
      cwd: '/p',
    });
    await drain();
    expect(result.event_id).to.equal('agentx-code:s1:tu9');
    expect(result.verdict.decision).to.equal('deny');
    expect(recorded).to.have.length(1);
    expect(recorded[0]!.event).to.include({
      id: 'agentx-code:s1:tu9',
      framework: 'agentx-code',
      canonical_tool: 'shell',
      cwd: '/p',
    });
    expect(emitted.map((r) => r.event.id)).to.deep.equal(['agentx-code:s1:tu9']);
  });

  it('a Score-shaped request gets a fresh id each time and the default cwd', async () => {
    const { decide, recorded } = decider();
    const a = await decide({ framework: 'gate', session_id: 's', tool_name: 'Read', arguments: { file_path: 'x' } });
    const b = await decide({ framework: 'gate', session_id: 's', tool_name: 'Read', arguments: { file_path: 'x' } });
    expect(a.event_id).to.not.equal(b.event_id);
    expect(recorded[0]!.event).to.include({ framework: 'gate', canonical_tool: 'read', cwd: '/work' });
  });

  it('a verdict from the gate hook wins over the assessment', async () => {
    const policy: GateVerdict = { decision: 'deny', reason: 'policy: no reads today', decided_by: 'policy-x' };
    const { decide, recorded } = decider(policy);
    const result = await decide({ framework: 'gate', session_id: 's', tool_name: 'Read', arguments: {} });
    expect(result.verdict).to.deep.equal(policy);
    expect(recorded[0]!.verdict).to.deep.equal(policy);
  });
});

describe('gate/decide: system.db records the verdict the agent actually got (real socket)', () => {
  it('a verdict that comes after the client timed out to ask is recorded as ask, not as the late deny', async () => {
    const { silentLogger } = await import('@agentgov/core');
    const { makeTempDir } = await import('@agentgov/core/testing');
    const { join } = await import('node:path');
    const { GateServer } = await import('../../src/gate/server.js');
    const { requestDecision } = await import('../../src/gate/client.js');
    const recorded: { verdict: GateVerdict }[] = [];
    const decider = createGateDecider({
      assess: async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return assessment('deny', 95);
      },
      gateHook: async () => undefined,
      record: (decision) => recorded.push(decision),
      emit: async () => undefined,
      defaultCwd: '/work',
      timeout: { ms: 150, onUnavailable: 'ask' },
    });
    const socket = join(makeTempDir('late-'), 'g.sock');
    const server = new GateServer({
      socketPath: socket,
      token: 'tok',
      logger: silentLogger,
      decide: (input, context) => decider.decide(input, context),
    });
    await server.listen();
    try {
      const reply = await requestDecision(
        {
          socket,
          token: 'tok',
          pid: 1,
          started_at: '',
          config_file: null,
          gate: { on_unavailable: 'ask', timeout_ms: 150 },
        },
        { framework: 'gate', session_id: 's', tool_name: 'Bash', arguments: { command: 'rm -rf ~' } },
        150,
      );
      expect(reply).to.have.property('failure', 'timeout');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(recorded).to.have.length(1);
      expect(recorded[0]!.verdict).to.include({ decision: 'ask', decided_by: 'gate.on_unavailable' });
      expect(recorded[0]!.verdict.reason).to.contain("decided 'deny'").and.contain('past gate.timeout_ms');
    } finally {
      await server.close();
    }
  });

  it('a verdict in time is recorded as given', async () => {
    const recorded: { verdict: GateVerdict }[] = [];
    const decider = createGateDecider({
      assess: async () => assessment('deny', 95),
      gateHook: async () => undefined,
      record: (decision) => recorded.push(decision),
      emit: async () => undefined,
      defaultCwd: '/work',
      timeout: { ms: 5000, onUnavailable: 'ask' },
    });
    await decider.decide(
      { framework: 'gate', session_id: 's', tool_name: 'Bash', arguments: { command: 'rm -rf ~' } },
      { receivedAt: Date.now(), clientGone: () => false },
    );
    expect(recorded[0]!.verdict).to.include({ decision: 'deny', decided_by: 'risk-assessment' });
  });
});
