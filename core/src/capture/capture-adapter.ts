import { join } from 'node:path';
import type { CaptureParseContext, CaptureParseResult, FrameworkAdapter } from '../contracts/framework.js';
import { findCaptureFiles, isDirectory } from './capture-files.js';

/** What a framework plugin says about its agent; `captureAdapter` makes the `FrameworkAdapter` of it. */
export interface CaptureAdapterSpec extends Pick<FrameworkAdapter, 'hookInstaller' | 'mcpRegistrar' | 'gateFormat'> {
  /** The framework's name, also its `replay --adapter` name. */
  framework: string;
  /** How its captures are read (`detect` reports it); default `tail`. */
  ingestionMode?: string;
  /** The agent's own directory in this environment (its home or config directory). */
  home(env: NodeJS.ProcessEnv): string;
  /** Directories below `home` where captures appear (what `watch` watches), in listing order. */
  roots: string[];
  /** The agent is installed when this directory below `home` exists; default `home` itself. */
  installedWhen?: string;
  /** Whether a file found below a root is a capture: its name, and its whole path. */
  isCapture(name: string, file: string): boolean;
  parse(text: string, context: CaptureParseContext): CaptureParseResult;
}

/**
 * The `FrameworkAdapter` of an agent that appends its sessions to files below one directory:
 * detection (that directory exists), capture roots and listing (every capture below the roots,
 * sorted; a directory removed mid-scan is passed over). A plugin for a new agent writes the spec
 * and its parser; everything else here is the same for every agent.
 */
export function captureAdapter(spec: CaptureAdapterSpec): FrameworkAdapter {
  const ingestionMode = spec.ingestionMode ?? 'tail';
  const roots = (env: NodeJS.ProcessEnv): string[] => spec.roots.map((root) => join(spec.home(env), root));
  const adapter: FrameworkAdapter = {
    name: spec.framework,
    adapter: spec.framework,
    ingestionMode,
    async detect(env) {
      const home = spec.home(env);
      if (!isDirectory(spec.installedWhen ? join(home, spec.installedWhen) : home)) return null;
      return { name: spec.framework, path: home, adapter: spec.framework, ingestion_mode: ingestionMode };
    },
    captureRoots: roots,
    async listCaptures(env) {
      return roots(env)
        .flatMap((root) => findCaptureFiles(root, spec.isCapture))
        .sort();
    },
    parse: spec.parse,
  };
  if (spec.hookInstaller) adapter.hookInstaller = spec.hookInstaller;
  if (spec.mcpRegistrar) adapter.mcpRegistrar = spec.mcpRegistrar;
  if (spec.gateFormat) adapter.gateFormat = spec.gateFormat;
  return adapter;
}
