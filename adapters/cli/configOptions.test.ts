import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { configOptions, defaultText } from '../../spec/config/schema.js';
import { addConfigOptions, flagTerm, flagsOf } from './configOptions.js';
import { buildProgram } from './program.js';

/** Help text with its line wrapping undone. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('help', () => {
  const program = buildProgram();
  const start = program.commands.find((c) => c.name() === 'start')!;

  it('svc start --help lists every option with its description, variable and default', () => {
    const help = flat(start.helpInformation());
    for (const option of configOptions) {
      const line = new RegExp(
        `${escape(flagTerm(option))} ${escape(option.description)}( \\[secret\\])? \\(env: ${option.env}, default: ${escape(defaultText(option))}\\)`,
      );
      expect(help, option.key).toMatch(line);
    }
    for (const mode of ['--local-network', '--node']) expect(help).toContain(mode);
  });

  it('svc --help lists every option with its variable and default', () => {
    let written = '';
    program.configureOutput({ writeOut: (text) => (written += text) });
    program.outputHelp();
    const help = flat(written);
    for (const option of configOptions) {
      expect(help, option.key).toContain(`${flagTerm(option)} (env: ${option.env}, default: ${defaultText(option)})`);
    }
  });

  it('hides the 3.x flags', () => {
    expect(start.helpInformation()).not.toContain('--maxBlockSizeInBytes');
  });
});

describe('flags', () => {
  it('are collected raw, by flag name, for resolveConfig', () => {
    const command = new Command('start').exitOverride();
    const options = addConfigOptions(command);
    command.parse(
      [
        '--port',
        '9000',
        '--disable-admin-api-key',
        '--sequencer.pollingIntervalMs',
        '250',
        '--bot.baseFeePadding',
        '2',
      ],
      { from: 'user' },
    );
    expect(flagsOf(command, options)).toEqual({
      '--port': '9000',
      '--disable-admin-api-key': true,
      '--sequencer.pollingIntervalMs': '250',
      '--bot.baseFeePadding': '2',
    });
  });
});
