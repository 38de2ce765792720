/**
 * One event per tool call through the real binary, for agents whose hook payload carries no call id
 * (Gemini CLI's BeforeTool, Copilot CLI's preToolUse): the gate answers the hook (watch down, so
 * the decision is journaled), `watch --once` records the journal and the agent's own capture, and
 * `replay` of that capture adds nothing — in either order. The real agents do the same in
 * e2e/agents; these captures are written here the way those agents write them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';

interface Status {
  events: number;
  sessions: number;
  assessments: { gate_decisions: number };
}

function makeHome(): { root: string; env: NodeJS.ProcessEnv; project: string } {
  // Not only under /tmp: a home path like a person's.
  const root = makeTempDir('correlation-');
  const project = join(root, 'src', 'app');
  mkdirSync(project, { recursive: true });
  return { root, env: isolatedEnv(root), project };
}

const SESSION = '6baa5f44-3c61-470e-8178-0785b12a3634';
const COMMANDS = ['rm -rf ~', 'ls', 'ls'];

/** A Gemini CLI chat recording holding `commands` as run_shell_command calls a few ms after `at`. */
function geminiRecording(root: string, project: string, at: number, commands: string[]): string {
  const dir = join(root, '.gemini', 'tmp', 'app');
  mkdirSync(join(dir, 'chats'), { recursive: true });
  writeFileSync(join(dir, '.project_root'), project);
  const file = join(dir, 'chats', `session-2026-11-26T10-41-${SESSION.slice(0, 8)}.jsonl`);
  const iso = (ms: number) => new Date(at + ms).toISOString();
  const lines: unknown[] = [
    { sessionId: SESSION, projectHash: 'cf26', startTime: iso(0), lastUpdated: iso(0), kind: 'main' },
  ];
  commands.forEach((command, i) => {
    const id = `run_shell_command__run_shell_command_${at + i}_0`;
    const result = [{ functionResponse: { id, name: 'run_shell_command', response: { output: 'ok' } } }];
    lines.push({
      id: `m${i}`,
      timestamp: iso(i * 1000 + 40),
      type: 'gemini',
      content: '',
      toolCalls: [
        { id, name: 'run_shell_command', args: { command }, result, status: 'success', timestamp: iso(i * 1000 + 40) },
      ],
    });
  });
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}

async function gate(home: { root: string; env: NodeJS.ProcessEnv; project: string }, command: string): Promise<void> {
  const payload = {
    session_id: SESSION,
    transcript_path: '',
    cwd: home.project,
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: { command },
  };
  const result = await runCli(['gate', '--stdin', '--format', 'gemini-cli'], {
    env: home.env,
    cwd: home.project,
    input: JSON.stringify(payload),
  });
  expect(result.code, result.stderr).to.equal(0);
}

async function status(env: NodeJS.ProcessEnv, cwd: string): Promise<Status> {
  const result = await runCli(['status', '--json'], { env, cwd });
  expect(result.code, result.stderr).to.equal(0);
  return JSON.parse(result.stdout) as Status;
}

describe('one event per tool call when the hook has no call id (gemini-cli through the real binary)', function () {
  this.timeout(240000);

  it('gate first (journaled), then watch and replay: three calls, three events, one session', async () => {
    const home = makeHome();
    const at = Date.now();
    for (const command of COMMANDS) await gate(home, command);
    const recording = geminiRecording(home.root, home.project, at, COMMANDS);
    const once = await runCli(['watch', '--once', '--no-score', '--frameworks', 'gemini-cli'], {
      env: home.env,
      cwd: home.root,
    });
    expect(once.code, once.stderr).to.equal(0);
    const db = await status(home.env, home.root);
    expect(db).to.deep.include({ events: 3, sessions: 1 });
    expect(db.assessments.gate_decisions).to.equal(3);
    const replay = await runCli(
      ['replay', recording, '--adapter', 'gemini-cli', '--output', join(home.root, 'out.jsonl')],
      { env: home.env, cwd: home.root },
    );
    expect(replay.code, replay.stderr).to.equal(0);
    expect(replay.stderr).to.match(/0 new event\(s\), 3 already recorded/);
    expect((await status(home.env, home.root)).events).to.equal(3);
  });

  it('replay first, then the journal: the verdicts land on the recorded calls', async () => {
    const home = makeHome();
    const at = Date.now();
    const recording = geminiRecording(home.root, home.project, at, COMMANDS);
    const replay = await runCli(
      ['replay', recording, '--adapter', 'gemini-cli', '--output', join(home.root, 'out.jsonl')],
      { env: home.env, cwd: home.root },
    );
    expect(replay.code, replay.stderr).to.equal(0);
    expect(replay.stderr).to.match(/3 new event\(s\)/);
    for (const command of COMMANDS) await gate(home, command);
    const once = await runCli(['watch', '--once', '--no-score', '--frameworks', 'gemini-cli'], {
      env: home.env,
      cwd: home.root,
    });
    expect(once.code, once.stderr).to.equal(0);
    const db = await status(home.env, home.root);
    expect(db).to.deep.include({ events: 3, sessions: 1 });
    expect(db.assessments.gate_decisions).to.equal(3);
  });
});
