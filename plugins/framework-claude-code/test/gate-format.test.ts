import { expect } from 'chai';
import { gateFormat } from '../src/gate-format.js';

const verdict = (decision: 'allow' | 'ask' | 'deny') => ({
  verdict: { decision, reason: `because ${decision}`, decided_by: 'test' },
});

describe('claude-code gate format', () => {
  it('reads the PreToolUse payload as a claude-code call', () => {
    const payload = {
      session_id: 's1',
      transcript_path: '/t.jsonl',
      cwd: '/work/shop',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'toolu_1',
    };
    expect(gateFormat.parseInput(payload)).to.deep.include({
      framework: 'claude-code',
      session_id: 's1',
      tool_name: 'Bash',
      arguments: { command: 'ls' },
      tool_use_id: 'toolu_1',
    });
  });

  it('answers ask and deny as permissionDecision; prints nothing for allow', () => {
    expect(JSON.parse(gateFormat.render(verdict('deny')).stdout)).to.deep.equal({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'because deny',
      },
    });
    expect(gateFormat.readDecision(gateFormat.render(verdict('ask')).stdout, 0)).to.equal('ask');
    expect(gateFormat.render(verdict('allow'))).to.deep.equal({ stdout: '', exitCode: 0 });
  });
});
