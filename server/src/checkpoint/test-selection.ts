import type { TestRunner } from '@agentgov/core';
import type { RepositoryIndex } from '../index/repository-index.js';

/** A test file chosen for a change, the runner that runs it and the import chain that led to it. */
export interface SelectedTestFile {
  file: string;
  runner: string;
  /** 0 = the test file imports a changed file (or is one); n = through n intermediate files. */
  distance: number;
  /** The changed file it reaches. */
  reaches: string;
}

/** How far the selection looked: the files per distance up to `maxHops`, and how many lie beyond it. */
export interface TestSelection {
  hops: SelectedTestFile[][];
  /** Test files at distances beyond `maxHops` (up to `LOOKAHEAD` more), for the hint. */
  beyond: { distance: number; files: number }[];
}

/** How many hops past `maxHops` are counted for the hint (not run). */
export const LOOKAHEAD = 4;

/** The test runners that recognise the project, each with the test files its config selects. */
export interface DetectedRunner {
  runner: TestRunner;
  files: Set<string>;
}

export async function detectRunners(runners: readonly TestRunner[], root: string): Promise<DetectedRunner[]> {
  const detected: DetectedRunner[] = [];
  for (const runner of runners) {
    if (!(await runner.detect(root))) continue;
    detected.push({ runner, files: new Set(await runner.discover(root)) });
  }
  return detected;
}

export function runnerOf(detected: readonly DetectedRunner[], root: string, file: string): TestRunner | undefined {
  return (
    detected.find((d) => d.files.has(file))?.runner ?? detected.find((d) => d.runner.isTestFile(root, file))?.runner
  );
}

/**
 * Test files for `changed`, nearest first, through the import graph: a changed test file and the
 * test files importing a changed file are distance 0; the test files importing a file that imports
 * one are distance 1; and so on (breadth first, each file at its shortest distance).
 */
export function selectByImports(
  index: RepositoryIndex,
  detected: readonly DetectedRunner[],
  root: string,
  changed: readonly string[],
  maxHops: number,
): TestSelection {
  const hops: SelectedTestFile[][] = Array.from({ length: maxHops + 1 }, () => []);
  const beyond = new Map<number, number>();
  const seen = new Set<string>(changed);
  const record = (file: string, distance: number, reaches: string) => {
    const runner = runnerOf(detected, root, file);
    if (!runner) return;
    if (distance <= maxHops) hops[distance]!.push({ file, runner: runner.name, distance, reaches });
    else beyond.set(distance, (beyond.get(distance) ?? 0) + 1);
  };
  for (const file of changed) record(file, 0, file);
  // frontier: files at import distance d from a changed file, with the changed file they reach
  let frontier = changed.map((file) => ({ file, reaches: file }));
  for (let distance = 0; distance <= maxHops + LOOKAHEAD && frontier.length; distance++) {
    const next: typeof frontier = [];
    for (const { file, reaches } of frontier) {
      for (const edge of index.importers(file)) {
        if (seen.has(edge.from_path)) continue;
        seen.add(edge.from_path);
        record(edge.from_path, distance, reaches);
        next.push({ file: edge.from_path, reaches });
      }
    }
    frontier = next;
  }
  for (const hop of hops) hop.sort((a, b) => a.file.localeCompare(b.file));
  return { hops, beyond: [...beyond].sort((a, b) => a[0] - b[0]).map(([distance, files]) => ({ distance, files })) };
}
