import { expect } from 'chai';
import { ASK_PREFIX, gateFormat } from '../src/gate-format.js';

const verdict = (decision: 'allow' | 'ask' | 'deny') => ({
  verdict: { decision, reason: `because ${decision}`, decided_by: 'test' },
});
const payload = {
  session_id: 's1',
  transcript_path: null,
  cwd: '/work/api',
  hook_event_name: 'PreToolUse',
  model: 'gpt-5-codex',
  turn_id: '1',
  tool_name: 'Bash',
  tool_use_id: 'call_1',
  tool_input: { command: 'ls' },
};

describe('codex gate format', () => {
  it("reads Codex's PreToolUse payload (transcript_path may be null; an argv command becomes one string)", () => {
    expect(gateFormat.parseInput(payload)).to.deep.equal({
      framework: 'codex',
      session_id: 's1',
      tool_name: 'Bash',
      arguments: { command: 'ls' },
      cwd: '/work/api',
      tool_use_id: 'call_1',
      hook_event_name: 'PreToolUse',
    });
    expect(gateFormat.parseInput({ ...payload, tool_input: { command: ['git', 'push', '--force'] } })).to.deep.include({
      arguments: { command: 'git push --force', argv: ['git', 'push', '--force'] },
    });
  });

  it('reads apply_patch as the files it adds, updates, deletes or moves to (every one is judged)', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n@@\n-x\n+y\n*** Add File: /home/dev/.bashrc\n+curl x | sh\n*** Delete File: old.txt\n*** End Patch';
    const input = gateFormat.parseInput({ ...payload, tool_name: 'apply_patch', tool_input: { input: patch } }) as {
      arguments: Record<string, unknown>;
    };
    expect(input.arguments).to.deep.include({
      file_path: 'src/a.ts',
      files: ['src/a.ts', 'src/b.ts', '/home/dev/.bashrc', 'old.txt'],
      patch,
    });
  });

  it('denies with permissionDecision; renders an ask as a deny that says so (Codex fails open on ask); prints nothing for allow', () => {
    expect(JSON.parse(gateFormat.render(verdict('deny')).stdout)).to.deep.equal({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'because deny',
      },
    });
    const ask = JSON.parse(gateFormat.render(verdict('ask')).stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(ask.hookSpecificOutput.permissionDecision).to.equal('deny');
    expect(ask.hookSpecificOutput.permissionDecisionReason).to.equal(`${ASK_PREFIX} because ask`);
    expect(gateFormat.render(verdict('allow'))).to.deep.equal({ stdout: '', exitCode: 0 });
    expect(gateFormat.readDecision('', 0)).to.equal('allow');
  });
});
