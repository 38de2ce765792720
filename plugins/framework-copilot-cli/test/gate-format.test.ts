import { expect } from 'chai';
import { gateFormat } from '../src/gate-format.js';

const verdict = (decision: 'allow' | 'ask' | 'deny') => ({
  verdict: { decision, reason: `because ${decision}`, decided_by: 'test' },
});

describe('copilot-cli gate format', () => {
  it('reads the camelCase preToolUse payload (toolArgs a JSON string) and the PreToolUse snake_case one', () => {
    expect(
      gateFormat.parseInput({
        timestamp: 1,
        cwd: '/work/notes',
        toolName: 'bash',
        toolArgs: '{"command":"ls"}',
        sessionId: 's1',
      }),
    ).to.deep.equal({
      framework: 'copilot-cli',
      session_id: 's1',
      tool_name: 'bash',
      arguments: { command: 'ls' },
      cwd: '/work/notes',
    });
    expect(
      gateFormat.parseInput({ timestamp: 1, cwd: '/w', toolName: 'view', toolArgs: { path: '/w/a' } }),
    ).to.deep.include({ session_id: 'copilot-cli', arguments: { path: '/w/a' } });
    expect(
      gateFormat.parseInput({
        session_id: 's2',
        cwd: '/w',
        hook_event_name: 'PreToolUse',
        tool_name: 'bash',
        tool_input: { command: 'ls' },
      }),
    ).to.deep.include({ framework: 'copilot-cli', session_id: 's2', tool_name: 'bash' });
    expect(gateFormat.parseInput({ toolName: 'bash', toolArgs: '{nope' })).to.deep.equal({
      code: 'input_invalid',
      message: "field 'toolArgs' is a string that is not JSON",
    });
  });

  it('answers deny and ask with permissionDecision; an allowed call prints nothing', () => {
    expect(JSON.parse(gateFormat.render(verdict('deny')).stdout)).to.deep.equal({
      permissionDecision: 'deny',
      permissionDecisionReason: 'because deny',
    });
    expect(gateFormat.readDecision(gateFormat.render(verdict('ask')).stdout, 0)).to.equal('ask');
    expect(gateFormat.render(verdict('allow'))).to.deep.equal({ stdout: '', exitCode: 0 });
  });
});
