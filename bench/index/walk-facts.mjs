#!/usr/bin/env node
// One language pack's walk over a tree, apart from the index: a hash of every file's extracted facts (to show a
// walker change keeps them) and the walk's and the bare parse's CPU time, per round (round 1 is what a cold
// index pays: first pass over each tree, JIT cold; later rounds walk the same trees again).
// usage: node bench/index/walk-facts.mjs go|rust|java|python|typescript <repo-dir> [rounds]
//   PACK=<module> walks another build; FLAT=1 parses with @agentgov/flat-tree (the index's native parse and walk)
//   instead of node-tree-sitter: the hash must not change.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FlatTreeParser } from '@agentgov/flat-tree';
import Parser from 'tree-sitter';

const [lang, repo, rounds = '1'] = process.argv.slice(2);
const packages = {
  go: '@agentgov/plugin-language-go',
  rust: '@agentgov/plugin-language-rust',
  java: '@agentgov/plugin-language-java',
  python: '@agentgov/plugin-language-python',
  typescript: '@agentgov/plugin-language-typescript',
};
if (!packages[lang] || !repo) {
  console.error('usage: walk-facts.mjs go|rust|java|python|typescript <repo-dir> [rounds]');
  process.exit(2);
}
const { LANGUAGE_PACKS } = await import(process.env.PACK || packages[lang]);
const packFor = (path) => LANGUAGE_PACKS.find((pack) => pack.extensions.some((extension) => path.endsWith(extension)));
const files = [];
const collect = (dir) => {
  for (const entry of readdirSync(dir)) {
    if (entry === '.git' || entry === '.agentgov') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) collect(path);
    else if (packFor(entry)) files.push(path);
  }
};
collect(repo);
files.sort();
const parsers = new Map();
const flat = process.env.FLAT === '1' ? FlatTreeParser.load() : null;
if (flat instanceof Error) throw flat;
const parse = (source, pack) => {
  if (flat) return flat.parse(pack.grammar, source);
  let parser = parsers.get(pack);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(pack.grammar);
    parsers.set(pack, parser);
  }
  return parser.parse(source, undefined, { bufferSize: source.length * 2 + 1024 });
};
const items = files.map((path) => {
  const source = readFileSync(path, 'utf8');
  const pack = packFor(path);
  return [relative(repo, path), source, parse(source, pack), pack];
});
const cpuMs = (start) => {
  const usage = process.cpuUsage(start);
  return Math.round((usage.user + usage.system) / 1000);
};
for (let round = 1; round <= +rounds; round++) {
  const walkStart = process.cpuUsage();
  const facts = items.map(([path, source, tree, pack]) => [path, pack.extract(tree, source)]);
  const walk = cpuMs(walkStart);
  const parseStart = process.cpuUsage();
  for (const [, source, , pack] of items) parse(source, pack);
  const parsed = cpuMs(parseStart);
  const hash = createHash('sha256');
  const counts = { definitions: 0, references: 0, imports: 0 };
  for (const [path, fileFacts] of facts) {
    hash.update(`${path}\0${JSON.stringify(fileFacts)}\n`);
    counts.definitions += fileFacts.definitions.length;
    counts.references += fileFacts.references.length;
    counts.imports += fileFacts.imports.length;
  }
  const digest = hash.digest('hex').slice(0, 16);
  console.log(
    JSON.stringify({
      lang,
      round,
      files: items.length,
      ...counts,
      hash: digest,
      walk_cpu_ms: walk,
      parse_cpu_ms: parsed,
    }),
  );
}
