#!/usr/bin/env node
// One measurement in a fresh process (so peak RSS is this measurement's own), printed as one JSON line.
// usage: node bench/index/index-once.mjs cold|reopen|update|parse <repo-dir> [file-list]
// W=<n> in the environment sets the cold build's worker threads (`extractWorkers`; default: the index's own).
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@agentgov/core';
import { LANGUAGE_PACKS as JAVA } from '@agentgov/plugin-language-java';
import { LANGUAGE_PACKS as GO } from '@agentgov/plugin-language-go';
import { LANGUAGE_PACKS as PYTHON } from '@agentgov/plugin-language-python';
import { LANGUAGE_PACKS as RUST } from '@agentgov/plugin-language-rust';
import { LANGUAGE_PACKS as ECMASCRIPT } from '@agentgov/plugin-language-typescript';
import { openRepositoryIndex } from '@agentgov/server';
import Parser from 'tree-sitter';

const [mode, repo, fileList] = process.argv.slice(2);
const languages = [...ECMASCRIPT, ...PYTHON, ...RUST, ...JAVA, ...GO];
const logger = createLogger({ level: 'WARNING' });
const cpuMs = (start) => {
  const usage = process.cpuUsage(start);
  return Math.round((usage.user + usage.system) / 1000);
};
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function timedOpen(options = {}) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const index = await openRepositoryIndex({ root: repo, languages, logger, ...options });
  // When each phase began, in ms from the start: where a cold build spends its time.
  const phases = { opened: Math.round(performance.now() - start) };
  index.on('progress', ({ phase }) => {
    phases[phase] ??= Math.round(performance.now() - start);
    phases[`${phase}_cpu`] ??= cpuMs(cpu);
  });
  await index.ready;
  return { index, ms: Math.round(performance.now() - start), cpu_ms: cpuMs(cpu), phases };
}

if (mode === 'cold') {
  rmSync(join(repo, '.agentgov'), { recursive: true, force: true });
  const { index, ms, cpu_ms, phases } = await timedOpen(process.env.W ? { extractWorkers: +process.env.W } : {});
  const stats = index.stats();
  writeFileSync(
    fileList,
    index
      .files()
      .map((file) => file.path)
      .join('\n') + '\n',
  );
  console.log(JSON.stringify({ mode, ms, cpu_ms, peak_rss_mb: peakRssMb(), ...stats, epoch: index.epoch(), phases }));
  await index.close();
} else if (mode === 'reopen') {
  const { index, ms, cpu_ms } = await timedOpen();
  console.log(
    JSON.stringify({
      mode,
      ms,
      cpu_ms,
      peak_rss_mb: peakRssMb(),
      epoch: index.epoch(),
      reparsed: index.progress().total,
    }),
  );
  await index.close();
} else if (mode === 'update') {
  // Save one file (append a function) and time until the index reflects it, five times.
  const { index } = await timedOpen({ watch: true });
  const files = index.files();
  const target =
    files.find((file) => file.language === 'typescript' && file.lines > 100) ??
    files.find((file) => file.language === 'python' && file.lines > 100) ??
    files.find((file) => file.language === 'rust' && file.lines > 100) ??
    files.find(
      (file) =>
        file.language === 'java' && file.lines > 100 && /\n}\s*$/.test(readFileSync(join(repo, file.path), 'utf8')),
    ) ??
    files.find((file) => file.language === 'go' && file.lines > 100 && !file.path.endsWith('_test.go'));
  const absolute = join(repo, target.path);
  const original = readFileSync(absolute, 'utf8');
  // Appends `text` to the file; resolves with the ms until the index emits an update of it, and that update.
  const save = async (text) => {
    const seen = new Promise((resolve) => {
      const listener = (update) => {
        if (!update.changedFiles.includes(target.path)) return;
        index.off('updated', listener);
        resolve(update);
      };
      index.on('updated', listener);
    });
    const start = performance.now();
    appendFileSync(absolute, text);
    const update = await seen;
    const ms = Math.round(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { ms, update };
  };
  const latencies = [];
  for (let i = 0; i < 5; i++) {
    const name = `benchProbe${i}`;
    const { ms } = await save(
      target.language === 'python'
        ? `\n\ndef ${name}():\n    return ${i}\n`
        : target.language === 'rust'
          ? `\npub fn ${name}() -> u32 { ${i} }\n`
          : target.language === 'java'
            ? // a top-level class after the file's own (legal Java: not public)
              `\nclass ${name} {}\n`
            : target.language === 'go'
              ? `\nfunc ${name}() int { return ${i} }\n`
              : `\nexport function ${name}(): number { return ${i}; }\n`,
    );
    latencies.push(ms);
    if (index.definitions({ path: target.path, name }).length !== 1)
      throw new Error(`${name} not visible after update`);
  }
  // Then five saves that keep the file's definitions, exports and imports (a comment at the end, as an edit inside a
  // body): only the file itself is resolved again, not the files that import it.
  const comment = target.language === 'python' ? '#' : '//';
  const keeping = [];
  for (let i = 0; i < 5; i++) keeping.push(await save(`\n${comment} bench edit ${i}\n`));
  writeFileSync(absolute, original);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await index.refresh();
  latencies.sort((a, b) => a - b);
  const keepingMs = keeping.map(({ ms }) => ms).sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      mode,
      file: target.path,
      latencies_ms: latencies,
      median_ms: latencies[2],
      max_ms: latencies[4],
      body_edit_ms: keepingMs,
      body_edit_median_ms: keepingMs[2],
      body_edit_resolved_files: Math.max(...keeping.map(({ update }) => update.resolvedFiles)),
    }),
  );
  await index.close();
} else if (mode === 'parse') {
  // Bare tree-sitter parsing of the same files: read + parse, no extraction, no store.
  const paths = readFileSync(fileList, 'utf8').trim().split('\n');
  const parser = new Parser();
  const cpu = process.cpuUsage();
  const start = performance.now();
  let parsed = 0;
  for (const path of paths) {
    const pack = languages.find((candidate) => candidate.extensions.some((ext) => path.endsWith(ext)));
    const source = readFileSync(join(repo, path), 'utf8');
    parser.setLanguage(pack.grammar);
    parser.parse(source, undefined, { bufferSize: source.length * 2 + 1024 });
    if (++parsed % 32 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  console.log(
    JSON.stringify({
      mode,
      files: parsed,
      ms: Math.round(performance.now() - start),
      cpu_ms: cpuMs(cpu),
      peak_rss_mb: peakRssMb(),
    }),
  );
} else {
  console.error('usage: index-once.mjs cold|reopen|update|parse <repo-dir> [file-list]');
  process.exitCode = 2;
}
