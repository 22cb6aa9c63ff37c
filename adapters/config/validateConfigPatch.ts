/**
 * The argument of svcAdmin_setConfig, checked: a JSON object whose keys are options that may change on a running
 * node (`mutability: 'runtime'`), each value of its option's type; null clears an option (back to its default, or
 * unset). Every problem is reported at once, as INVALID_PARAMS (-32602 on the wire), naming the keys.
 */
import { ConfigError, type ConfigProblem } from '../../spec/config/configError.js';
import { configSchema, isConfigKey, type ConfigOption, type ConfigPatch } from '../../spec/config/schema.js';
import { firstIssueMessage } from '../../spec/config/valueKinds.js';
import { echoValue } from './resolveConfig.js';

function problemOf(key: string, value: unknown): { problem: ConfigProblem } | { value: unknown } {
  if (!isConfigKey(key))
    return { problem: { kind: 'unknownName', name: key, message: `unknown configuration key "${key}"` } };
  const option = configSchema[key] as ConfigOption;
  if (option.mutability !== 'runtime') {
    const message = `"${key}" is read only at startup: set ${option.flag} or ${option.env} and restart the node`;
    return { problem: { kind: 'restartRequired', name: key, message } };
  }
  if (value === null) return { value: undefined };
  const parsed = option.type.safeParse(value);
  if (parsed.success) return { value: parsed.data };
  return {
    problem: {
      kind: 'invalidValue',
      name: key,
      message: `"${key}"=${echoValue(option, value)}: ${firstIssueMessage(parsed.error)}`,
    },
  };
}

export function validateConfigPatch(patch: unknown): ConfigPatch {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw new ConfigError('INVALID_PARAMS', [
      {
        kind: 'invalidValue',
        name: 'config',
        message: 'the configuration change must be an object of option keys and values',
      },
    ]);
  }
  const validated: Record<string, unknown> = {};
  const problems: ConfigProblem[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const checked = problemOf(key, value);
    if ('problem' in checked) problems.push(checked.problem);
    else validated[key] = checked.value;
  }
  if (problems.length > 0) throw new ConfigError('INVALID_PARAMS', problems);
  return validated as ConfigPatch;
}
