/**
 * An index worker thread: imports the language packs named in `workerData` (each from its pack's
 * `workerModule`), then runs extract jobs posted by the main thread, one reply per job.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { LanguagePack } from '@agentgov/core';
import { runExtractJob, type ExtractJob, type ExtractOutcome } from './extract-job.js';

export interface WorkerPackSpec {
  name: string;
  url: string;
  exportName: string;
}

export interface ExtractWorkerData {
  root: string;
  packs: WorkerPackSpec[];
}

export interface ExtractRequest {
  id: number;
  /** Name of the language pack that handles the file. */
  pack: string;
  job: ExtractJob;
}

/** `unsupported`: this worker could not load the file's pack; the main thread extracts it instead. */
export type ExtractReply = { id: number; outcome: ExtractOutcome } | { id: number; unsupported: true };

async function loadPack(spec: WorkerPackSpec): Promise<LanguagePack | undefined> {
  try {
    const module = (await import(spec.url.startsWith('file:') ? spec.url : pathToFileURL(spec.url).href)) as Record<
      string,
      unknown
    >;
    const exported = module[spec.exportName];
    const candidates = (Array.isArray(exported) ? exported : [exported]) as Array<LanguagePack | undefined>;
    return candidates.find((pack) => pack?.name === spec.name && typeof pack.extract === 'function');
  } catch {
    return undefined;
  }
}

const port = parentPort;
if (port) {
  const { root, packs } = workerData as ExtractWorkerData;
  const languages = (await Promise.all(packs.map(loadPack))).filter((pack): pack is LanguagePack => pack !== undefined);
  const loaded = new Set(languages.map((pack) => pack.name));
  const queue: ExtractRequest[] = [];
  let draining = false;

  const drain = async () => {
    draining = true;
    while (queue.length > 0) {
      const { id, job, pack } = queue.shift()!;
      if (!loaded.has(pack)) port.postMessage({ id, unsupported: true } satisfies ExtractReply);
      else {
        try {
          const outcome = runExtractJob(root, job, languages);
          const transfer =
            outcome.status === 'extracted' && outcome.facts
              ? [outcome.facts.references.ints.buffer as ArrayBuffer]
              : [];
          port.postMessage({ id, outcome } satisfies ExtractReply, transfer);
        } catch (error) {
          // e.g. facts that cannot be cloned: the file is skipped, the worker lives on
          port.postMessage({
            id,
            outcome: { status: 'failed', message: (error as Error).message },
          } satisfies ExtractReply);
        }
      }
      // tree-sitter frees native trees only when the event loop turns: yield after every file
      // (sympy's peak RSS: 430 MB yielding every file, 540–580 MB every 16; the yield itself is free).
      await yieldToLoop();
    }
    draining = false;
  };

  port.on('message', (request: ExtractRequest) => {
    queue.push(request);
    if (!draining) void drain();
  });
}
