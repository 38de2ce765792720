import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '@agentgov/core';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { writeEndpointFile } from '../../src/gate/endpoint.js';
import { GateServer } from '../../src/gate/server.js';
import { CLI_MAIN } from '../support/cli-process.js';

/** Every module URL the gate client resolves, recorded by a module resolve hook in the child. */
function gateWithLoadLog(
  env: NodeJS.ProcessEnv,
  dir: string,
  input: string,
): Promise<{ stdout: string; loaded: string[] }> {
  const log = join(dir, 'loaded.txt');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.LOAD_LOG, r.url + '\\n'); return r; }\n",
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
  );
  writeFileSync(log, '');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', join(dir, 'register.mjs'), CLI_MAIN, 'gate', '--stdin', '--format', 'json'],
      { env: { ...env, LOAD_LOG: log } },
    );
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.on('error', reject);
    child.on('close', () =>
      resolve({
        stdout,
        loaded: [
          ...new Set(
            readFileSync(log, 'utf8')
              .split('\n')
              .filter((l) => l && !l.includes('register.mjs')),
          ),
        ],
      }),
    );
    child.stdin.end(input);
  });
}

describe('gate fast path: what `agentgov gate --stdin` loads', () => {
  let server: GateServer;
  after(async () => {
    await server?.close();
  });

  it('answers from a running gate loading only node built-ins and its own few modules (no clipanion, koa, drizzle, sqlite, tree-sitter, yaml, crypto)', async () => {
    const home = makeTempDir('fast-');
    const env = isolatedEnv(home);
    const agentgovHome = env['AGENTGOV_HOME']!;
    mkdirSync(agentgovHome, { recursive: true, mode: 0o700 });
    const socket = join(agentgovHome, 'gate.sock');
    server = new GateServer({
      socketPath: socket,
      token: 'tok',
      logger: silentLogger,
      decide: async () => ({
        event_id: 'e1',
        verdict: { decision: 'deny', reason: 'r', decided_by: 'test' },
        assessment: { score: 80, level: 'critical', action: 'deny', reason_code: 'x', evidence: { rules: [] } },
      }),
    });
    await server.listen();
    writeEndpointFile(
      {
        socket,
        token: 'tok',
        pid: process.pid,
        started_at: '',
        config_file: null,
        gate: { on_unavailable: 'ask', timeout_ms: 3000 },
      },
      env,
    );

    const { stdout, loaded } = await gateWithLoadLog(
      env,
      home,
      JSON.stringify({ tool_name: 'Bash', arguments: { command: 'rm -rf /' }, session_id: 's' }),
    );
    expect(JSON.parse(stdout)).to.deep.include({
      event_id: 'e1',
      verdict: { decision: 'deny', reason: 'r', decided_by: 'test' },
    });
    const heavy = loaded.filter((url) =>
      /clipanion|koa|drizzle|better-sqlite3|tree-sitter|yaml|ajv|cosmiconfig|tapable|node:crypto|\/risk\/|\/pipeline\/|score-api|core\/dist\/src\/index\.js/.test(
        url,
      ),
    );
    expect(heavy, loaded.join('\n')).to.deep.equal([]);
    const files = loaded.filter((url) => url.startsWith('file:'));
    expect(files.length, files.join('\n')).to.be.at.most(12);
  });
});
