import { expect } from 'chai';
import { ASK_PREFIX, gateFormat } from '../src/gate-format.js';

const verdict = (decision: 'allow' | 'ask' | 'deny') => ({
  verdict: { decision, reason: `because ${decision}`, decided_by: 'test' },
});

describe('gemini-cli gate format', () => {
  it('reads the BeforeTool payload and refuses another event', () => {
    const payload = {
      session_id: 's1',
      transcript_path: '/t.json',
      cwd: '/work/webshop',
      hook_event_name: 'BeforeTool',
      timestamp: '2026-11-23T00:00:00Z',
      tool_name: 'run_shell_command',
      tool_input: { command: 'ls' },
    };
    expect(gateFormat.parseInput(payload)).to.deep.equal({
      framework: 'gemini-cli',
      session_id: 's1',
      tool_name: 'run_shell_command',
      arguments: { command: 'ls' },
      cwd: '/work/webshop',
      transcript_path: '/t.json',
      hook_event_name: 'BeforeTool',
    });
    expect(gateFormat.parseInput({ ...payload, hook_event_name: 'AfterTool' })).to.deep.include({
      code: 'input_invalid',
    });
  });

  it('answers {decision, reason} for deny, a systemMessage for a warning, nothing for allow', () => {
    expect(JSON.parse(gateFormat.render(verdict('deny')).stdout)).to.deep.equal({
      decision: 'deny',
      reason: 'because deny',
    });
    const warn = gateFormat.render({
      ...verdict('allow'),
      assessment: { score: 30, level: 'medium', action: 'warn', reason_code: 'x', evidence: { rules: [] } },
    });
    expect(gateFormat.readDecision(warn.stdout, 0)).to.equal('warn');
    expect(gateFormat.render(verdict('allow'))).to.deep.equal({ stdout: '', exitCode: 0 });
    expect(gateFormat.readDecision('', 2)).to.equal('deny');
  });

  it('answers an ask as a deny whose reason asks for a person: headless Gemini CLI stops silently on ask', () => {
    const answer = JSON.parse(gateFormat.render(verdict('ask')).stdout) as { decision: string; reason: string };
    expect(answer).to.deep.equal({ decision: 'deny', reason: `${ASK_PREFIX} because ask` });
    expect(gateFormat.readDecision(gateFormat.render(verdict('ask')).stdout, 0)).to.equal('deny');
  });
});
