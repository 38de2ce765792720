import type { CommandClass } from 'clipanion';
import { ConfigInitCommand } from './config/init.js';
import { ConfigShowCommand } from './config/show.js';
import { ConfigValidateCommand } from './config/validate.js';
import { GateCommand } from './gate.js';
import { ConfigGroupCommand, HelpCommand } from './help.js';
import { ReplayCommand } from './replay.js';
import { DashboardCommand } from './dashboard.js';
import { DetectCommand } from './detect.js';
import { DoctorCommand } from './doctor.js';
import { TrustCommand } from './trust.js';
import { StatusCommand } from './status.js';
import { InitCommand } from './init.js';
import { ScoreCommand } from './score.js';
import { ServeCommand } from './serve.js';
import { WatchCommand } from './watch.js';

/**
 * Every registered command. Later capabilities add theirs here; only commands that work are
 * registered. Command modules import heavy dependencies lazily inside `run()`, so that a fast
 * path such as `gate` loads only what it needs.
 */
export const COMMANDS: CommandClass[] = [
  HelpCommand,
  ConfigGroupCommand,
  ConfigInitCommand,
  ConfigShowCommand,
  ConfigValidateCommand,
  ServeCommand,
  GateCommand,
  ScoreCommand,
  ReplayCommand,
  DetectCommand,
  StatusCommand,
  DashboardCommand,
  InitCommand,
  DoctorCommand,
  TrustCommand,
  WatchCommand,
];
