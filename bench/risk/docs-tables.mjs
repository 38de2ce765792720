#!/usr/bin/env node
// Regenerates the tables in docs/risk.md (between `<!-- generated:NAME -->` and `<!-- /generated -->`)
// from the catalogs the code reads: reason codes, match keys, path classes and the shipped rules.
// Usage: npx tsc -b cli && node bench/risk/docs-tables.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (p) => path.join(root, 'cli/dist/src/risk', p);
const { REASON_CODES } = await import(dist('reason-codes.js'));
const { loadRuleSet } = await import(dist('rules.js'));
const { RULE_MATCH_SCHEMA } = await import(dist('rule-schema.js'));
const { BUILTIN_PATH_CLASSES } = await import(dist('paths.js'));
const { HOST_CLASSES } = await import(dist('hosts.js'));

const cell = (text) => String(text).replace(/\|/g, '\\|');
const table = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
const set = await loadRuleSet([], []);
const tables = {
  'reason-codes': table(
    ['reason_code', 'title', 'meaning'],
    Object.entries(REASON_CODES).map(([k, v]) => [`\`${k}\``, v.title, v.meaning]),
  ),
  'match-keys': table(
    ['key', 'meaning'],
    Object.entries(RULE_MATCH_SCHEMA.properties).map(([k, v]) => [`\`${k}\``, v.description]),
  ),
  'path-classes': table(
    ['class', 'meaning'],
    Object.entries(BUILTIN_PATH_CLASSES).map(([k, v]) => [`\`${k}\``, v]),
  ),
  'host-classes': table(
    ['class', 'meaning'],
    Object.entries(HOST_CLASSES).map(([k, v]) => [`\`${k}\``, v]),
  ),
  rules: table(
    ['rule id', 'score', 'reason_code', 'what', 'file'],
    set.rules.map((r) => [
      `\`${r.id}\``,
      `${r.score}${r.action ? ` (${r.action})` : ''}`,
      `\`${r.reasonCode}\``,
      r.title,
      path.basename(r.origin),
    ]),
  ),
};
const file = path.join(root, 'docs/risk.md');
let text = readFileSync(file, 'utf8');
for (const [name, body] of Object.entries(tables)) {
  const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated -->)`);
  if (!re.test(text)) throw new Error(`docs/risk.md has no <!-- generated:${name} --> block`);
  text = text.replace(re, `$1${body}\n$2`);
}
writeFileSync(file, text);
console.log(`docs/risk.md: ${Object.keys(REASON_CODES).length} reason codes, ${set.rules.length} rules`);
