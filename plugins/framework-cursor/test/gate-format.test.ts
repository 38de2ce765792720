import { expect } from 'chai';
import { gateFormat } from '../src/gate-format.js';

const verdict = (decision: 'allow' | 'ask' | 'deny') => ({
  verdict: { decision, reason: `because ${decision}`, decided_by: 'test' },
});

describe('cursor gate format', () => {
  it('reads the three before* events as Shell, MCP and Read calls of the conversation', () => {
    const base = { conversation_id: 'c1', generation_id: 'g1', workspace_roots: ['/work/studio'] };
    expect(
      gateFormat.parseInput({
        ...base,
        hook_event_name: 'beforeShellExecution',
        command: 'ls',
        cwd: '/work/studio/app',
      }),
    ).to.deep.equal({
      framework: 'cursor',
      session_id: 'c1',
      tool_name: 'Shell',
      arguments: { command: 'ls' },
      cwd: '/work/studio/app',
    });
    expect(
      gateFormat.parseInput({
        ...base,
        hook_event_name: 'beforeMCPExecution',
        tool_name: 'query',
        tool_input: '{"sql":"select 1"}',
      }),
    ).to.deep.equal({
      framework: 'cursor',
      session_id: 'c1',
      tool_name: 'mcp__query',
      arguments: { sql: 'select 1' },
      cwd: '/work/studio',
    });
    expect(
      gateFormat.parseInput({
        ...base,
        hook_event_name: 'beforeReadFile',
        file_path: '/work/studio/.env',
        content: 'X=1',
      }),
    ).to.deep.include({ tool_name: 'Read', arguments: { file_path: '/work/studio/.env' } });
  });

  it('names the problem of a payload it cannot read', () => {
    expect(gateFormat.parseInput({ conversation_id: 'c1', hook_event_name: 'afterFileEdit' })).to.deep.include({
      code: 'input_invalid',
    });
    expect(gateFormat.parseInput({ conversation_id: 'c1', hook_event_name: 'beforeShellExecution' })).to.deep.equal({
      code: 'input_invalid',
      message: "field 'command' must be a non-empty string",
    });
    expect(
      gateFormat.parseInput({
        conversation_id: 'c1',
        hook_event_name: 'beforeMCPExecution',
        tool_name: 'q',
        tool_input: '{bad',
      }),
    ).to.deep.include({ code: 'input_invalid' });
  });

  it('answers deny and ask with a permission, and an allowed call with {} (nothing granted); reads its own answers back', () => {
    const deny = gateFormat.render(verdict('deny'));
    expect(JSON.parse(deny.stdout)).to.deep.equal({
      permission: 'deny',
      user_message: 'because deny',
      agent_message: 'because deny',
    });
    expect(gateFormat.readDecision(deny.stdout, deny.exitCode)).to.equal('deny');
    expect(gateFormat.readDecision(gateFormat.render(verdict('ask')).stdout, 0)).to.equal('ask');
    const allow = gateFormat.render(verdict('allow'));
    expect(allow).to.deep.equal({ stdout: '{}\n', exitCode: 0 });
    expect(gateFormat.readDecision(allow.stdout, 0)).to.equal('allow');
  });
});
