import { describe, expect, it } from 'vitest';
import {
  AllowListError,
  functionSelector,
  mergeAllowListLayers,
  parseAllowList,
  parseAllowListEntry,
  printAllowList,
  PROTOCOL_CONTRACT_ADDRESSES,
  SETUP_ALLOW_LIST_DEFAULTS,
  SETUP_ALLOW_LIST_ENTRIES_MAX,
  setupAllowListWith,
} from './allowList.js';

const ADDRESS = `0x${'1b'.repeat(32)}`;
const CLASS_ID = `0x${'0c'.repeat(32)}`;

const reasonOf = (text: string): string => {
  try {
    parseAllowList(text);
  } catch (error) {
    expect(error).toBeInstanceOf(AllowListError);
    return (error as Error).message;
  }
  throw new Error(`"${text}" was accepted`);
};

describe('setup allow list text', () => {
  it('reads instance and class entries with their flags, in any case, and prints them canonically', () => {
    const entries = parseAllowList(
      ` I:${ADDRESS.toUpperCase().replace('0X', '0x')}:0xDEADBEEF , C:${CLASS_ID}:0x12345678:cl=5+rn+os`,
    );
    expect(entries).toEqual([
      { kind: 'instance', address: ADDRESS, selector: '0xdeadbeef', onlySelf: false, rejectNullMsgSender: false },
      {
        kind: 'class',
        classId: CLASS_ID,
        selector: '0x12345678',
        onlySelf: true,
        rejectNullMsgSender: true,
        calldataLength: 5,
      },
    ]);
    expect(printAllowList(entries)).toBe(`I:${ADDRESS}:0xdeadbeef,C:${CLASS_ID}:0x12345678:os+rn+cl=5`);
    expect(parseAllowList('')).toEqual([]);
  });

  it('refuses a bad entry naming its position, its text and what is wrong', () => {
    expect(reasonOf(`I:${ADDRESS}:0x12345678,C:${CLASS_ID}`)).toBe(
      `entry 2 "C:${CLASS_ID}": it has no selector; 4.x requires one in every entry: I:<address>:<selector>[:<flags>] or C:<classId>:<selector>[:<flags>]`,
    );
    expect(reasonOf(`X:${ADDRESS}:0x12345678`)).toContain('entry 1 "X:');
    expect(reasonOf(`I:0x12:0x12345678`)).toContain('the address "0x12" is not 0x followed by 64 hex digits');
    expect(reasonOf(`C:0x${'ff'.repeat(32)}:0x12345678`)).toContain('class id');
    expect(reasonOf(`I:${ADDRESS}:0x${'00'.repeat(32)}`)).toContain(
      'is not 0x followed by 8 hex digits (a 4-byte function selector)',
    );
    expect(reasonOf(`I:${ADDRESS}:0x12345678:`)).toContain('the flags part is empty');
    expect(reasonOf(`I:${ADDRESS}:0x12345678:os+xx`)).toContain('unknown flag "xx"');
    expect(reasonOf(`I:${ADDRESS}:0x12345678:os+os`)).toContain('the flag "os" is given twice');
    expect(reasonOf(`I:${ADDRESS}:0x12345678:cl=-1`)).toContain('cl needs a whole number');
    expect(reasonOf(`I:${ADDRESS}:0x12345678:cl=99999999`)).toContain('cl needs a whole number');
    expect(reasonOf(`I:${ADDRESS}:0x12345678,,I:${ADDRESS}:0x12345679`)).toContain('entry 2 "": the entry is empty');
    expect(reasonOf(`I:${ADDRESS}:0x12345678:os:rn`)).toContain('it has 5 ":"-separated parts');
    expect(
      reasonOf(Array.from({ length: SETUP_ALLOW_LIST_ENTRIES_MAX + 1 }, () => `I:${ADDRESS}:0x12345678`).join(',')),
    ).toContain('at most');
  });

  it('names one entry without a list around it', () => {
    expect(() => parseAllowListEntry('I:nope', 7)).toThrow('entry 7 "I:nope"');
  });
});

describe('default allow list', () => {
  it('holds the protocol contracts only, with selectors derived from their signatures', () => {
    expect(SETUP_ALLOW_LIST_DEFAULTS.map((e) => (e.kind === 'instance' ? e.address : e.classId))).toEqual([
      PROTOCOL_CONTRACT_ADDRESSES.authRegistry,
      PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
    ]);
    expect(SETUP_ALLOW_LIST_DEFAULTS[0]?.selector).toBe(functionSelector('set_authorized(Field,bool)'));
    expect(SETUP_ALLOW_LIST_DEFAULTS.every((e) => e.kind === 'instance')).toBe(true);
    expect(functionSelector('transfer_in_public((Field),(Field),u128,Field)')).toMatch(/^0x[0-9a-f]{8}$/);
  });

  it('stays first and unchanged whatever extends it', () => {
    const extension = parseAllowList(`C:${CLASS_ID}:0x12345678:os`);
    const merged = setupAllowListWith(extension);
    expect(merged.conflicts).toEqual([]);
    expect(merged.entries).toEqual([...SETUP_ALLOW_LIST_DEFAULTS, ...extension]);
    expect(setupAllowListWith(SETUP_ALLOW_LIST_DEFAULTS).entries).toEqual(SETUP_ALLOW_LIST_DEFAULTS);
    const weakened = { ...SETUP_ALLOW_LIST_DEFAULTS[1]!, onlySelf: false };
    expect(setupAllowListWith([weakened]).conflicts[0]).toContain('changes the flags of the built-in entry');
  });
});

describe('merging layers', () => {
  const network = {
    name: 'network configuration',
    entries: parseAllowList(`I:${ADDRESS}:0x12345678:os,C:${CLASS_ID}:0x0000000a`),
  };

  it('lets the later layer set the flags of a function both name, keeping its first place', () => {
    const local = {
      name: 'TX_PUBLIC_SETUP_ALLOWLIST',
      entries: parseAllowList(`C:${CLASS_ID}:0x0000000b,I:${ADDRESS}:0x12345678:rn`),
    };
    const merged = mergeAllowListLayers([network, local]);
    expect(merged.conflicts).toEqual([]);
    expect(printAllowList(merged.entries)).toBe(
      `I:${ADDRESS}:0x12345678:rn,C:${CLASS_ID}:0x0000000a,C:${CLASS_ID}:0x0000000b`,
    );
  });

  it('drops exact repeats and refuses a layer that names one function twice with different flags', () => {
    const repeats = {
      name: 'TX_PUBLIC_SETUP_ALLOWLIST',
      entries: parseAllowList(`I:${ADDRESS}:0x12345678:os,I:${ADDRESS}:0x12345678:os`),
    };
    expect(mergeAllowListLayers([network, repeats]).entries).toHaveLength(2);
    const contradicting = {
      name: 'TX_PUBLIC_SETUP_ALLOWLIST',
      entries: parseAllowList(`I:${ADDRESS}:0x12345678:os,I:${ADDRESS}:0x12345678:rn`),
    };
    expect(mergeAllowListLayers([network, contradicting]).conflicts).toEqual([
      `TX_PUBLIC_SETUP_ALLOWLIST lists I:${ADDRESS}:0x12345678 twice with different flags ("I:${ADDRESS}:0x12345678:os" and "I:${ADDRESS}:0x12345678:rn")`,
    ]);
  });
});
