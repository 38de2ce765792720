import { readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { AgentgovError } from '@agentgov/core';

const CAPTURE_EXTENSIONS = new Set(['.jsonl', '.json']);

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile() && CAPTURE_EXTENSIONS.has(extname(entry.name))) out.push(path);
  }
}

/** The capture files `replay PATH` reads: the file itself, or every .jsonl/.json under the directory, sorted. */
export function captureFiles(path: string): string[] {
  const absolute = resolve(path);
  let isDir: boolean;
  try {
    isDir = statSync(absolute).isDirectory();
  } catch (error) {
    throw new AgentgovError(
      'E_CAPTURE_UNREADABLE',
      `capture path ${absolute} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { path: absolute },
      { cause: error },
    );
  }
  if (!isDir) return [absolute];
  const files: string[] = [];
  try {
    walk(absolute, files);
  } catch (error) {
    throw new AgentgovError(
      'E_CAPTURE_UNREADABLE',
      `capture directory ${absolute} cannot be read: ${(error as Error).message}`,
      { path: absolute },
      { cause: error },
    );
  }
  if (files.length === 0)
    throw new AgentgovError('E_CAPTURE_UNREADABLE', `capture directory ${absolute} holds no .jsonl or .json files`, {
      path: absolute,
    });
  return files.sort();
}
