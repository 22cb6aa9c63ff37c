/**
 * Errors of the configuration: one error carries every problem found, so an operator fixes them in one pass.
 * `CONFIG_INVALID` refuses a startup; `INVALID_PARAMS` refuses an svcAdmin_setConfig call (adapters/rpc answers it
 * as -32602, like any other invalid parameter).
 */
import { CodedError } from '../errors.js';

export type ConfigProblemKind =
  /** A 3.x name that 4.x no longer reads. */
  | 'retired'
  /** A value that does not parse or is out of range. */
  | 'invalidValue'
  /** A flag, network configuration field or setConfig key that the schema does not have. */
  | 'unknownName'
  /** A setConfig key whose option is read only at startup. */
  | 'restartRequired'
  /** A network configuration field naming an option that only the local operator may set. */
  | 'localOnly'
  /** A value the node needs that is not set. */
  | 'missing'
  /** Options that contradict each other. */
  | 'conflict';

export interface ConfigProblem {
  readonly kind: ConfigProblemKind;
  /** The flag, environment variable, network configuration field or option key the problem is about. */
  readonly name: string;
  /** One sentence naming `name` and what to do. */
  readonly message: string;
}

export type ConfigErrorCode = 'CONFIG_INVALID' | 'INVALID_PARAMS';

/** Problems listed in the message; the rest are counted (every one stays in `details.problems`). */
export const CONFIG_PROBLEMS_IN_MESSAGE_MAX = 10;

export class ConfigError extends CodedError<ConfigErrorCode, { readonly problems: readonly ConfigProblem[] }> {
  constructor(code: ConfigErrorCode, problems: readonly ConfigProblem[]) {
    super(code, describeProblems(problems), { problems });
    this.name = 'ConfigError';
  }

  get problems(): readonly ConfigProblem[] {
    return this.details.problems;
  }
}

function describeProblems(problems: readonly ConfigProblem[]): string {
  const shown = problems.slice(0, CONFIG_PROBLEMS_IN_MESSAGE_MAX).map((p) => p.message);
  const hidden = problems.length - shown.length;
  return hidden > 0 ? `${shown.join('; ')}; and ${hidden} more` : shown.join('; ');
}
