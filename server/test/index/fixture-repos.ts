import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger, type LanguagePack } from '@agentgov/core';
import { writeTree } from '@agentgov/core/testing';
import { LANGUAGE_PACKS as JAVA } from '@agentgov/plugin-language-java';
import { LANGUAGE_PACKS as PYTHON } from '@agentgov/plugin-language-python';
import { LANGUAGE_PACKS as ECMASCRIPT } from '@agentgov/plugin-language-typescript';

export const LANGUAGES: readonly LanguagePack[] = [...ECMASCRIPT, ...PYTHON, ...JAVA];

/** A logger that keeps its lines for assertions instead of printing them. */
export function memoryLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = { write: (chunk: string) => (lines.push(String(chunk)), true) } as unknown as NodeJS.WritableStream;
  return { logger: createLogger({ level: 'DEBUG', stream }), lines };
}

/** A real git work tree holding `files` (untracked: discovery lists untracked-not-ignored files too). */
const repos: string[] = [];

/** Removes the repositories this module created (only those: other suites' temp dirs may still be in use). */
export function removeRepos(): void {
  for (const root of repos.splice(0)) rmSync(root, { recursive: true, force: true });
}

export function gitRepo(files: Record<string, string>, prefix = 'agentgov-index-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  repos.push(root);
  execFileSync('git', ['init', '-q'], { cwd: root });
  writeTree(root, files);
  return root;
}

/** TypeScript: tsconfig `paths`, an index barrel with `export *` and an aliased re-export, an import cycle. */
export const TYPESCRIPT_REPO: Record<string, string> = {
  'tsconfig.json': `{
  // comments are allowed in tsconfig
  "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/lib/*"] } },
}`,
  'src/lib/math.ts': `/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}

export class Calculator {
  total = 0;
  plus(n: number): this {
    this.total = add(this.total, n);
    return this;
  }
}

export interface Shape {
  area(): number;
}

export type Id = string;

export enum Color {
  Red,
  Green,
}

export const PI = 3.14;
`,
  'src/lib/format.ts': `import { Calculator } from '@lib/math';

export function format(n: number): string {
  return String(new Calculator().plus(n).total);
}
`,
  'src/lib/index.ts': `export * from './math';
export { format as formatNumber } from './format';
`,
  'src/app.ts': `import { add, formatNumber } from './lib';
import type { Shape } from '@lib/math';
import * as math from './lib/math';

export function main(shape: Shape): string {
  return formatNumber(add(1, math.PI)) + shape.area();
}
`,
  'src/cycle/a.ts': `import { b } from './b';
export function a(): number {
  return b() + 1;
}
`,
  'src/cycle/b.ts': `import { a } from './a.js';
export function b(): number {
  return a() - 1;
}
`,
  'scripts/legacy.js': `const { add } = require('../src/lib/math');
module.exports = function legacy() { return add(1, 2); };
`,
};

/** Python: packages with __init__.py re-exports, relative and absolute imports, an import cycle. */
export const PYTHON_REPO: Record<string, string> = {
  'pkg/__init__.py': `from .core import Engine

__all__ = ["Engine"]
`,
  'pkg/core.py': `class Engine:
    """Runs things."""

    def start(self):
        return self.step()

    def step(self):
        return helper()


def helper():
    """Help."""
    return 1


MAX_SPEED = 10
`,
  'pkg/sub/__init__.py': '',
  'pkg/sub/tools.py': `from ..core import helper
from .. import core
import pkg.core


def use():
    return helper() + core.helper() + pkg.core.helper()
`,
  'main.py': `from pkg import Engine
from pkg.sub import tools

Engine().start()
tools.use()
`,
  'pkg/ping.py': `from . import pong


def ping():
    return pong.pong()
`,
  'pkg/pong.py': `from . import ping


def pong():
    return ping.ping()
`,
};
